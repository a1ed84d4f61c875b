"""Deciding a command: validate it against the state, then return the events it causes.

``decide(t, command, now, rng)`` checks everything first and raises a ``RuleError`` naming the
field before any event is applied, so a refused command changes nothing. An accepted one is
applied to ``t`` as it is decided (housekeeping needs the new state to draw seats) and the
events are returned for the caller to store and publish.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from itertools import groupby

from . import clock
from .chiprace import ChipRaceInput, RaceSeat, chip_race
from .commands import (
    AddOn,
    BreakTable,
    Bust,
    BustSameHand,
    Button,
    CallTime,
    Cancel,
    ChipRace,
    ClockAdjust,
    ClockLevel,
    ClockPause,
    ClockResume,
    ClockStart,
    Command,
    Confirm,
    ConfirmAll,
    CorrectSeat,
    DrawSeats,
    EndTimeCall,
    Hand,
    LockSeat,
    OpenTable,
    Rebuy,
    Register,
    SetGame,
    SetStack,
    StartFinal,
    Tick,
    UndoBust,
    WaiveHalt,
)
from .errors import (
    BadSeat,
    BadValue,
    NoPlannedMove,
    NotAllowed,
    RuleError,
    UnknownPlayer,
    UnknownTable,
)
from .events import (
    AddOnMade,
    BustUndone,
    ButtonReported,
    ChipsRaced,
    Event,
    FinalTableFormed,
    GameChanged,
    HaltWaived,
    HandStarted,
    MoveCancelled,
    Moved,
    PlayerBusted,
    PlayerRegistered,
    PlayerSeated,
    PlayersMoved,
    RacedPlayer,
    RebuyMade,
    SeatLockSet,
    SeatsDrawn,
    StackSet,
    TableBreaking,
    TableOpened,
    TimeCalled,
    TimeCallEnded,
)
from .model import FLOP_GAMES, MAX_CHIPS, PlayerId, SeatNo, Spot, TableNo
from .plan import PlannedMove
from .planner import choose_final_table, housekeep, next_to_break, room
from .positions import next_hand, reported_button
from .prize import Prize
from .rules import Break
from .seating import draw_initial, registration_seat, seat_at_new_table
from .state import Player, Table, Tournament

Handler = Callable[..., list[Event]]


def decide(t: Tournament, command: Command, now: float, rng: random.Random) -> list[Event]:
    """The events ``command`` causes; raises ``RuleError`` (changing nothing) if refused."""
    primary = _HANDLERS[type(command)](t, command, now, rng)
    for e in primary:
        t.apply(e)
    return primary + housekeep(t, rng)


# Lookups that name what is wrong ------------------------------------------------------------


def _player(t: Tournament, pid: PlayerId, field: str = "player") -> Player:
    p = t.state.players.get(pid)
    if p is None:
        raise UnknownPlayer(f"{pid} is not in the tournament", field=field)
    return p


def _seated(t: Tournament, pid: PlayerId, field: str = "player") -> Player:
    p = _player(t, pid, field)
    if p.busted:
        raise NotAllowed(f"{pid} is already out", field=field)
    if p.table is None:
        raise NotAllowed(f"{pid} has no seat yet", field=field)
    return p


def _table(t: Tournament, n: TableNo, field: str = "table") -> Table:
    table = t.state.tables.get(n)
    if table is None:
        raise UnknownTable(f"there is no table {n}", field=field)
    return table


def _seat(table: Table, seat: SeatNo, field: str = "seat") -> SeatNo:
    if not 1 <= seat <= table.seats:
        raise BadSeat(f"table {table.number} has no seat {seat}", field=field)
    return seat


def _in_play(table: Table, field: str = "table") -> None:
    if table.status != "open":
        raise NotAllowed(f"table {table.number} is {table.status}", field=field)


def _planned_seats(t: Tournament) -> set[tuple[TableNo, SeatNo]]:
    return {(m.to.table, m.to.seat) for m in t.plan.moves if m.to.seat is not None}


def _dealing_flop(t: Tournament) -> bool:
    game = t.state.current_game
    return game in FLOP_GAMES


# Entries and the draw -------------------------------------------------------------------------


#: Characters no name shows: controls, and the invisible format marks that reorder or hide
#: text (a right-to-left override turns "Jan" on the wall display into anything). The joiners
#: U+200C and U+200D stay: Persian and Indic names need them.
_UNSHOWN = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u00ad\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff]"
)


def shown_name(name: str) -> str:
    """The name as screens show it: runs of spaces and tabs (a list pasted from two columns)
    made one space; nothing blank, nothing hidden (``BadValue`` otherwise)."""
    plain = " ".join(name.split())
    if not plain:
        raise BadValue("a name needs at least one letter or digit", field="name")
    if _UNSHOWN.search(plain):
        raise BadValue("a name may not hold control characters or invisible marks", field="name")
    return plain


def _register(t: Tournament, c: Register, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    pid = c.player
    entry = 1
    name = c.name
    if pid is not None and pid in s.players:
        existing = s.players[pid]
        if not existing.busted:
            raise NotAllowed(f"{pid} is already in the tournament", field="player")
        _re_entry_open(t, existing, now)
        entry = existing.entries + 1
        # A re-entry names the player as on record: that name (and id) stood before.
        if name != existing.name:
            name = shown_name(name)
    else:
        name = shown_name(name)
        # Ids are the house's own (card numbers, the scenario format's "A1"), in any script:
        # only what no board can print is refused.
        if pid is not None and (pid != pid.strip() or _UNSHOWN.search(pid)):
            raise BadValue(
                f"a player id may not hold control characters, invisible marks or spaces at "
                f"either end, got {pid!r}",
                field="player",
            )
        _late_registration_open(t, now)
        if pid is None:
            pid = _new_id(t)
    events: list[Event] = [
        PlayerRegistered(
            player=pid,
            name=name,
            special_needs=c.special_needs,
            entry=entry,
            stack=s.structure.starting_stack if s.structure else None,
            shifts_places=True,
        )
    ]
    if not s.drawn:
        return events
    probe = Player(id=pid, name=name, special_needs=c.special_needs)
    spot = registration_seat(t, probe, _planned_seats(t), rng)
    if spot is None:
        if s.final_table is not None:
            raise NotAllowed("every seat at the final table is taken", field="player")
        # Every seat is taken: the floor opens the next table for the new entry.
        number = max(s.tables, default=0) + 1
        events.append(TableOpened(table=number, seats=s.rules.seats))
        fresh = Table(number=number, seats=s.rules.seats)
        spot = Spot(number, seat_at_new_table(t, fresh, probe, rng))
    events.append(PlayerSeated(player=pid, table=spot.table, seat=spot.seat, at=now))
    return events


def _prize(t: Tournament) -> Prize | None:
    structure = t.state.structure
    return structure.prize if structure is not None else None


def _level_now(t: Tournament, now: float) -> tuple[int, bool]:
    """The level number in play at ``now`` and whether it is the break after it."""
    structure = t.state.structure
    assert structure is not None
    return structure.level_played(clock.current_step(t.state, now))


def _late_registration_open(t: Tournament, now: float, who: str | None = None) -> None:
    s = t.state
    structure = s.structure
    if structure is None or structure.late_registration_until is None or not s.clock.started:
        return
    until = structure.late_registration_until
    level, _ = _level_now(t, now)
    if level > until:
        if who is None:
            raise NotAllowed(f"late registration closed after level {until}", field="player")
        raise NotAllowed(
            f"{who} cannot re-enter: late registration and re-entry closed after level {until} "
            f"(this is level {level})",
            field="player",
        )


def _re_entry_open(t: Tournament, p: Player, now: float) -> None:
    """A busted player may enter again: within late registration and the re-entry limits."""
    _late_registration_open(t, now, who=p.id)
    prize = _prize(t)
    if prize is None:
        return
    rules = prize.re_entry
    if rules is None:
        raise NotAllowed(
            f"{p.id} cannot re-enter: this tournament allows no re-entry", field="player"
        )
    if rules.until_level is not None and t.state.clock.started:
        level, _ = _level_now(t, now)
        if level > rules.until_level:
            raise NotAllowed(
                f"{p.id} cannot re-enter: re-entry closed after level {rules.until_level} "
                f"(this is level {level})",
                field="player",
            )
    made = p.entries - 1
    if rules.max_per_player is not None and made >= rules.max_per_player:
        raise NotAllowed(
            f"{p.id} cannot re-enter: {_times(made, 're-entry', 're-entries')} made, "
            f"the most a player may make",
            field="player",
        )


def _times(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _new_id(t: Tournament) -> PlayerId:
    n = len(t.state.players) + 1
    while f"P{n:04d}" in t.state.players:
        n += 1
    return f"P{n:04d}"


def _draw_seats(t: Tournament, c: DrawSeats, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    if s.drawn:
        raise NotAllowed("seats are already drawn: late entries are seated as they register")
    waiting = [p for p in s.players.values() if p.table is None and not p.busted]
    if len(waiting) < 2:
        raise NotAllowed("at least 2 registered players are needed for a draw")
    seats = s.rules.seats
    if c.tables is None:
        numbers = list(range(1, math.ceil(len(waiting) / seats) + 1))
    else:
        numbers = list(c.tables)
        if len(set(numbers)) != len(numbers):
            raise NotAllowed("a table is listed twice", field="tables")
        if len(numbers) * seats < len(waiting):
            raise NotAllowed(
                f"{len(numbers)} tables of {seats} seat only {len(numbers) * seats} of "
                f"{len(waiting)} players",
                field="tables",
            )
    events: list[Event] = []
    tables = []
    for n in numbers:
        table = s.tables.get(n)
        if table is None:
            events.append(TableOpened(table=n, seats=seats))
            table = Table(number=n, seats=seats)
        elif table.occupants or table.status != "open":
            raise NotAllowed(f"table {n} is not free for the draw", field="tables")
        tables.append(table)
    draw = draw_initial(t, waiting, tables, rng)
    events.append(SeatsDrawn(seats=tuple(draw), at=now))
    return events


def _open_table(t: Tournament, c: OpenTable, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    number = c.table if c.table is not None else max(s.tables, default=0) + 1
    if number in s.tables:
        raise NotAllowed(f"table {number} already exists", field="table")
    opened = TableOpened(table=number, seats=c.seats or s.rules.seats)
    if s.drawn and s.final_table is None and t.active <= (space := room(t)):
        # The planner breaks a table as soon as the others can seat everybody: asked on a
        # copy with the table open (a rare command; the copy costs a few milliseconds).
        after = t.copy()
        after.apply(opened)
        if next_to_break(after) == number:
            raise NotAllowed(
                f"the {t.active} players left fit at the {t.open_count} open tables "
                f"({space} seats): table {number} would break at once; a registration "
                f"that finds no free seat opens one by itself",
                field="table",
            )
    return [opened]


# Bust-outs ------------------------------------------------------------------------------------


def _bust(t: Tournament, c: Bust, now: float, rng: random.Random) -> list[Event]:
    if c.player is not None:
        p = _seated(t, c.player)
        # Both given (a phone resending after an outage): only if the player is still
        # there, so a late resend can never bust whoever sits in that seat now.
        if (c.table is not None or c.seat is not None) and (c.table, c.seat) != (p.table, p.seat):
            raise BadSeat(
                f"{p.id} is not at table {c.table} seat {c.seat} "
                f"(they sit at table {p.table} seat {p.seat})",
                field="seat",
            )
    else:
        if c.table is None or c.seat is None:
            raise NotAllowed("name the player, or the table and the seat", field="player")
        table = _table(t, c.table)
        pid = table.occupants.get(_seat(table, c.seat))
        if pid is None:
            raise BadSeat(f"table {c.table} seat {c.seat} is empty", field="seat")
        p = t.state.players[pid]
    assert p.table is not None and p.seat is not None
    if t.active <= 1:
        # Two phones reporting the heads-up bust-out: the second would bust the winner.
        raise NotAllowed(f"{p.id} is the last player left: the winner", field="player")
    table = t.table(p.table)
    return [
        PlayerBusted(
            player=p.id, table=p.table, seat=p.seat, hand=table.hand, place=t.active, at=now
        )
    ]


def _bust_same_hand(t: Tournament, c: BustSameHand, now: float, rng: random.Random) -> list[Event]:
    """Places by the stacks the players started the hand with: more chips, a better place;
    equal stacks share the place (and the prizes of the places they cover)."""
    busted: list[tuple[int, Player]] = []
    seen: set[PlayerId] = set()
    for i, b in enumerate(c.players):
        where = f"players[{i}]"
        p = _seated(t, b.player, f"{where}.player")
        if p.id in seen:
            raise NotAllowed(f"{p.id} is listed twice", field=f"{where}.player")
        seen.add(p.id)
        stack = b.stack if b.stack is not None else p.stack
        if stack is None:
            raise NotAllowed(
                f"the stack {p.id} started the hand with is needed to place them",
                field=f"{where}.stack",
            )
        busted.append((stack, p))
    if len(busted) >= t.active:
        raise NotAllowed(
            f"{len(busted)} players cannot all be out: only {t.active} are left and somebody "
            "wins the hand",
            field="players",
        )
    busted.sort(key=lambda sp: (-sp[0], sp[1].table or 0, sp[1].seat or 0))
    place = t.active - len(busted) + 1
    placed: list[tuple[int, int, int, Player]] = []
    for stack, same in groupby(busted, key=lambda sp: sp[0]):
        group = [p for _, p in same]
        placed.extend((place, len(group), stack, p) for p in group)
        place += len(group)
    events: list[Event] = []
    for place, shares, stack, p in reversed(placed):  # the worst place is called first
        assert p.table is not None and p.seat is not None
        events.append(
            PlayerBusted(
                player=p.id,
                table=p.table,
                seat=p.seat,
                hand=t.table(p.table).hand,
                place=place,
                at=now,
                shares=shares,
                stack=stack,
            )
        )
    return events


def _undo_bust(t: Tournament, c: UndoBust, now: float, rng: random.Random) -> list[Event]:
    p = _player(t, c.player)
    record = p.bust
    if not p.busted or record is None:
        raise NotAllowed(f"{c.player} is not out", field="player")
    table = t.table(record.table)
    if table.hand != record.hand:
        raise NotAllowed(
            f"table {table.number} has dealt a hand since {c.player} busted: "
            "the right to dispute has ended (TDA rule 19)",
            field="player",
        )
    # A breaking table deals no more hands, so its bust-outs stay open to dispute until it is
    # broken: the player sits down again and is drawn a break seat like the others (or waits
    # for one, FLOOR-RULES 10.4).
    if table.status not in ("open", "breaking") or t.state.final_table is not None:
        raise NotAllowed(
            f"table {table.number} is {table.status}: {c.player} has no seat to return to"
            if table.status not in ("open", "breaking")
            else "the final table has been drawn: its seats are taken by the final draw",
            field="player",
        )
    taken = table.occupants.get(record.seat)
    if taken is not None:
        raise BadSeat(
            f"table {table.number} seat {record.seat} is now taken by {taken}", field="player"
        )
    return [BustUndone(player=p.id, table=table.number, seat=record.seat, reason=c.reason, at=now)]


# Hands and buttons ----------------------------------------------------------------------------


def _hand(t: Tournament, c: Hand, now: float, rng: random.Random) -> list[Event]:
    table = _table(t, c.table)
    _in_play(table)
    if table.number in t.plan.halted_tables:
        raise NotAllowed(f"table {table.number} is halted until it is balanced", field="table")
    if table.count < 2:
        raise NotAllowed(f"table {table.number} has fewer than 2 players", field="table")
    level = t.state.clock.level if t.state.clock.started else None
    if not _dealing_flop(t):
        return [HandStarted(table=table.number, hand=table.hand + 1, positions=None, level=level)]
    if table.positions is None:
        raise NotAllowed(
            f"table {table.number} has unknown positions: report the button first",
            field="table",
        )
    positions = next_hand(table.positions, table.seats, table.occupants, table.count)
    return [HandStarted(table=table.number, hand=table.hand + 1, positions=positions, level=level)]


def _button(t: Tournament, c: Button, now: float, rng: random.Random) -> list[Event]:
    if t.rules.stud_only:
        raise NotAllowed("stud games have no button", field="table")
    table = _table(t, c.table)
    _in_play(table)
    if table.count < 2:
        raise NotAllowed(f"table {table.number} has fewer than 2 players", field="table")
    if _seat(table, c.seat) not in table.occupants:
        raise BadSeat(f"table {table.number} seat {c.seat} is empty", field="seat")
    positions = reported_button(c.seat, table.seats, table.occupants, table.count)
    return [ButtonReported(table=table.number, seat=c.seat, positions=positions)]


# Moves ----------------------------------------------------------------------------------------


def _move_for(t: Tournament, p: Player) -> PlannedMove:
    plan = t.plan
    move = plan.move_of(p.id)
    if move is not None:
        return move
    for m in plan.moves:
        if m.player is None and m.from_.table == p.table:
            return m
    raise NoPlannedMove(f"{p.id} has no planned move", field="player")


def _target_free(t: Tournament, to: Spot, mover: Player, moving: set[PlayerId], field: str) -> None:
    table = t.table(to.table)
    _seat(table, to.seat, field)
    _in_play(table, field)
    holder = table.occupants.get(to.seat)
    if holder is not None and holder not in moving:
        raise BadSeat(f"table {to.table} seat {to.seat} is taken by {holder}", field=field)


def _confirm(t: Tournament, c: Confirm, now: float, rng: random.Random) -> list[Event]:
    p = _seated(t, c.player)
    move = _move_for(t, p)
    seat = c.seat if c.seat is not None else move.to.seat
    if seat is None:
        raise NotAllowed(
            f"the move of {p.id} to table {move.to.table} names no seat: the floor picks one",
            field="seat",
        )
    if c.seat is not None and c.seat != move.to.seat:
        # A redirect: another free seat at the same table, not one drawn for somebody else.
        planned = _planned_seats(t)
        if (move.to.table, c.seat) in planned:
            raise BadSeat(
                f"table {move.to.table} seat {c.seat} is planned for another player", field="seat"
            )
        if t.is_reserved(move.to.table, c.seat) and not t.needs_reserved(p):
            raise BadSeat(f"table {move.to.table} seat {c.seat} is reserved", field="seat")
    assert p.table is not None and p.seat is not None
    to = Spot(move.to.table, seat)
    _target_free(t, to, p, {p.id}, "seat")
    moved = Moved(player=p.id, from_=Spot(p.table, p.seat), to=to)
    return [PlayersMoved(moves=(moved,), reason=move.reason, at=now)]


def _confirm_all(t: Tournament, c: ConfirmAll, now: float, rng: random.Random) -> list[Event]:
    moves = [m for m in t.plan.moves if m.reason == c.reason]
    if not moves:
        raise NoPlannedMove(f"there are no planned {c.reason} moves", field="reason")
    moving: set[PlayerId] = set()
    for m in moves:
        if m.player is None or m.to.seat is None:
            raise NotAllowed(
                f"a move to table {m.to.table} names no "
                f"{'player' if m.player is None else 'seat'}: confirm it on its own",
                field="reason",
            )
        moving.add(m.player)
    out = []
    for m in moves:
        assert m.player is not None and m.to.seat is not None and m.from_.seat is not None
        to = Spot(m.to.table, m.to.seat)
        _target_free(t, to, t.player(m.player), moving, "reason")
        out.append(Moved(player=m.player, from_=Spot(m.from_.table, m.from_.seat), to=to))
    return [PlayersMoved(moves=tuple(out), reason=c.reason, at=now)]


def _cancel(t: Tournament, c: Cancel, now: float, rng: random.Random) -> list[Event]:
    p = _seated(t, c.player)
    move = t.plan.move_of(p.id)
    if move is None:
        raise NoPlannedMove(f"{p.id} has no planned move", field="player")
    assert p.table is not None
    return [MoveCancelled(player=p.id, table=p.table, reason=move.reason)]


def _correct_seat(t: Tournament, c: CorrectSeat, now: float, rng: random.Random) -> list[Event]:
    p = _seated(t, c.player)
    table = _table(t, c.table)
    _seat(table, c.seat)
    assert p.table is not None and p.seat is not None
    if (p.table, p.seat) == (c.table, c.seat):
        raise NotAllowed(f"{p.id} already sits at table {c.table} seat {c.seat}", field="seat")
    if (c.table, c.seat) in _planned_seats(t):
        raise BadSeat(f"table {c.table} seat {c.seat} is planned for another player", field="seat")
    holder = table.occupants.get(c.seat)
    if holder is not None:
        raise BadSeat(
            f"table {c.table} seat {c.seat} is taken by {holder}: a floor decision", field="seat"
        )
    _in_play(table)
    moved = Moved(player=p.id, from_=Spot(p.table, p.seat), to=Spot(c.table, c.seat))
    return [PlayersMoved(moves=(moved,), reason="correction", at=now)]


# Tables -------------------------------------------------------------------------------------


def _waive_halt(t: Tournament, c: WaiveHalt, now: float, rng: random.Random) -> list[Event]:
    table = _table(t, c.table)
    _in_play(table)
    if table.halt_waived == c.waived:
        state = "already waived" if c.waived else "not waived"
        raise NotAllowed(f"the halt of table {table.number} is {state}", field="waived")
    return [HaltWaived(table=table.number, waived=c.waived)]


def _break_table(t: Tournament, c: BreakTable, now: float, rng: random.Random) -> list[Event]:
    table = _table(t, c.table)
    _in_play(table)
    if t.open_count < 2:
        raise NotAllowed(f"table {table.number} is the last table in play", field="table")
    planned = _planned_seats(t)
    room = sum(
        1
        for other in t.open_tables()
        if other.number != table.number
        for seat in range(1, other.seats + 1)
        if seat not in other.occupants
        and (other.number, seat) not in planned
        and not t.is_reserved(other.number, seat)
    )
    if room < table.count:
        raise NotAllowed(
            f"the other tables have {room} free seats for {table.count} players", field="table"
        )
    return [TableBreaking(table=table.number, by="director")]


def _start_final(t: Tournament, c: StartFinal, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    if s.final_table is not None:
        raise NotAllowed(f"the final table is already at table {s.final_table}")
    if t.active < 2:
        raise NotAllowed("fewer than 2 players are left")
    size = max(s.rules.final_table, t.active)
    if size > max(s.rules.final_table, s.rules.seats):
        raise NotAllowed(
            f"{t.active} players do not fit a final table of "
            f"{max(s.rules.final_table, s.rules.seats)}"
        )
    final = choose_final_table(t)
    assert final is not None
    return [FinalTableFormed(table=final, seats=size)]


def _lock_seat(t: Tournament, c: LockSeat, now: float, rng: random.Random) -> list[Event]:
    p = _player(t, c.player)
    if p.busted:
        raise NotAllowed(f"{p.id} is out", field="player")
    return [SeatLockSet(player=p.id, locked=c.locked)]


def _set_game(t: Tournament, c: SetGame, now: float, rng: random.Random) -> list[Event]:
    if t.rules.game != "mixed":
        raise NotAllowed(f"this is a {t.rules.game} tournament, not a mixed game", field="game")
    return [GameChanged(game=c.game)]


def _set_stack(t: Tournament, c: SetStack, now: float, rng: random.Random) -> list[Event]:
    p = _seated(t, c.player)
    return [StackSet(player=p.id, stack=c.stack)]


# Rebuys, add-ons and the chip race -------------------------------------------------------------


def _buyer(t: Tournament, pid: PlayerId, what: str) -> Player:
    p = _player(t, pid)
    if p.busted:
        raise NotAllowed(
            f"{pid} is out: a busted player comes back by a re-entry (register), not {what}",
            field="player",
        )
    return _seated(t, pid)


def _rebuy(t: Tournament, c: Rebuy, now: float, rng: random.Random) -> list[Event]:
    p = _buyer(t, c.player, "a rebuy")
    prize = _prize(t)
    rules = prize.rebuy if prize is not None else None
    if rules is None:
        raise NotAllowed("this tournament has no rebuys", field="player")
    level, _ = _level_now(t, now)
    if level > rules.until_level:
        raise NotAllowed(
            f"rebuys closed after level {rules.until_level} (this is level {level})",
            field="player",
        )
    if rules.max_per_player is not None and p.rebuys >= rules.max_per_player:
        raise NotAllowed(
            f"{p.id} has made {_times(p.rebuys, 'rebuy', 'rebuys')}, the most a player may make",
            field="player",
        )
    if rules.max_stack is not None:
        if p.stack is None:
            raise NotAllowed(
                f"a rebuy needs a stack of {rules.max_stack:,} or less, and the stack of "
                f"{p.id} is not known: set it first",
                field="player",
            )
        if p.stack > rules.max_stack:
            raise NotAllowed(
                f"{p.id} has {p.stack:,} chips: a rebuy needs {rules.max_stack:,} or less",
                field="player",
            )
    return [_sale(RebuyMade, p, rules.chips, rules.price, p.rebuys + 1, now)]


def _add_on(t: Tournament, c: AddOn, now: float, rng: random.Random) -> list[Event]:
    p = _buyer(t, c.player, "an add-on")
    prize = _prize(t)
    rules = prize.add_on if prize is not None else None
    if rules is None:
        raise NotAllowed("this tournament has no add-on", field="player")
    level, at_break = _level_now(t, now)
    if level != rules.level or (rules.at_break and not at_break):
        offered = (
            f"at the break after level {rules.level}"
            if rules.at_break
            else f"during level {rules.level} and the break after it"
        )
        now_is = f"the break after level {level}" if at_break else f"level {level}"
        raise NotAllowed(f"the add-on is offered {offered}; this is {now_is}", field="player")
    if p.add_ons >= rules.max_per_player:
        raise NotAllowed(
            f"{p.id} has taken {_times(p.add_ons, 'add-on', 'add-ons')}, "
            "the most a player may take",
            field="player",
        )
    return [_sale(AddOnMade, p, rules.chips, rules.price, p.add_ons + 1, now)]


def _sale(
    kind: type[RebuyMade | AddOnMade], p: Player, chips: int, price: int, count: int, now: float
) -> Event:
    stack = None if p.stack is None else p.stack + chips
    if stack is not None and stack > MAX_CHIPS:
        raise NotAllowed(
            f"{p.id} would have {stack:,} chips, more than the {MAX_CHIPS:,} a stack may hold: "
            f"correct the stack on record first",
            field="player",
        )
    return kind(player=p.id, chips=chips, price=price, count=count, stack=stack, at=now)


def _chip_race(t: Tournament, c: ChipRace, now: float, rng: random.Random) -> list[Event]:
    """Colour-up at one table: the leaving chips exchanged, the odd ones raced (PFP 20)."""
    structure = t.state.structure
    if structure is None:
        raise NotAllowed("this tournament has no structure: it has no chip set", field="table")
    table = _table(t, c.table)
    if table.status == "broken":
        # A breaking table still races: its players take their new chips to their new seats.
        raise NotAllowed(f"table {table.number} is broken", field="table")
    step = clock.current_step(t.state, now)
    current = structure.levels[step]
    going = current.color_up if isinstance(current, Break) else ()
    before = structure.chips_before(step) if going else structure.chips_in_play(step)
    leaving = c.leaving
    if leaving is None:
        if not going:
            raise NotAllowed(
                "the clock is not at a colour-up break: name the leaving denomination",
                field="leaving",
            )
        if len(going) > 1:
            raise NotAllowed(
                f"this break colours up {_listed(going)}: name the denomination to race",
                field="leaving",
            )
        leaving = going[0]
    elif leaving not in before:
        raise NotAllowed(
            f"{leaving:,} is not in play (the chips in play: {_listed(before)})", field="leaving"
        )
    staying = [d for d in before if d != leaving and d not in going]
    larger = [d for d in staying if d > leaving]
    if not larger:
        raise NotAllowed(
            f"no larger chip stays in play to exchange the {leaving:,}s for", field="leaving"
        )
    if any(r.table == table.number and r.result.leaving == leaving for r in t.state.chip_races):
        raise NotAllowed(
            f"table {table.number} has already raced off its {leaving:,}s", field="table"
        )
    players: list[RacedPlayer] = []
    race: list[RaceSeat] = []
    for i, count in enumerate(c.seats):
        where = f"seats[{i}]"
        pid = table.occupants.get(_seat(table, count.seat, f"{where}.seat"))
        if pid is None:
            raise BadSeat(f"table {table.number} seat {count.seat} is empty", field=f"{where}.seat")
        stack = count.stack if count.stack is not None else t.player(pid).stack
        if stack is None:
            raise NotAllowed(
                f"the stack of {pid} at seat {count.seat} is not known: give it",
                field=f"{where}.stack",
            )
        players.append(RacedPlayer(seat=count.seat, player=pid, stack=stack))
        race.append(RaceSeat(seat=count.seat, chips=count.chips, stack=stack))
    race_input = ChipRaceInput(
        leaving=leaving, next_up=larger[0], seats=race, smallest_in_play=min(staying)
    )
    try:
        result = chip_race(race_input, rng)
    except RuleError as e:
        # The race names its own input; the floor sent ``leaving`` and ``seats``.
        field = "leaving" if e.field in ("next_up", "smallest_in_play") else e.field
        raise NotAllowed(e.message, field=field) from None
    change = sum(r.stack for r in result.seats) - sum(p.stack for p in players)
    return [
        ChipsRaced(
            table=table.number,
            players=tuple(sorted(players, key=lambda p: p.seat)),
            result=result,
            change=change,
            at=now,
        )
    ]


def _listed(chips: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"{d:,}" for d in chips)


# The clock and time calls ---------------------------------------------------------------------


def _clock_start(t: Tournament, c: ClockStart, now: float, rng: random.Random) -> list[Event]:
    return [clock.start(t.state, now)]


def _clock_pause(t: Tournament, c: ClockPause, now: float, rng: random.Random) -> list[Event]:
    due = clock.due(t.state, now)
    return [*due, clock.pause(t.state, now, due)]


def _clock_resume(t: Tournament, c: ClockResume, now: float, rng: random.Random) -> list[Event]:
    return [clock.resume(t.state, now)]


def _clock_adjust(t: Tournament, c: ClockAdjust, now: float, rng: random.Random) -> list[Event]:
    due = clock.due(t.state, now)
    return [*due, clock.adjust(t.state, c.seconds, now, due)]


def _clock_level(t: Tournament, c: ClockLevel, now: float, rng: random.Random) -> list[Event]:
    if (c.step is None) == (c.to is None):
        raise NotAllowed("give either step (+1 or -1) or to", field="step")
    index = c.to if c.to is not None else t.state.clock.level + (c.step or 0)
    return [clock.go_to(t.state, index, now, field="to" if c.to is not None else "step")]


def _tick(t: Tournament, c: Tick, now: float, rng: random.Random) -> list[Event]:
    events: list[Event] = list(clock.due(t.state, now))
    for call in t.state.time_calls:
        if call.ends_at <= now:
            events.append(
                TimeCallEnded(table=call.table, seat=call.seat, at=call.ends_at, outcome="dead")
            )
    return events


def _call_time(t: Tournament, c: CallTime, now: float, rng: random.Random) -> list[Event]:
    table = _table(t, c.table)
    _in_play(table)
    pid = table.occupants.get(_seat(table, c.seat))
    if pid is None:
        raise BadSeat(f"table {table.number} seat {c.seat} is empty", field="seat")
    for call in t.state.time_calls:
        # A second call would restart the clock and give the player more time; one that has
        # run out (its end not yet written by the clock) or was on another player does not.
        if (call.table, call.seat, call.player) == (table.number, c.seat, pid) and (
            call.ends_at > now
        ):
            raise NotAllowed(
                f"time is already called at table {table.number} seat {c.seat}", field="seat"
            )
    seconds = c.seconds if c.seconds is not None else t.rules.time_call_seconds
    count = c.count if c.count is not None else t.rules.time_call_count
    return [
        TimeCalled(
            table=table.number,
            seat=c.seat,
            player=pid,
            at=now,
            count_from=now + seconds,
            ends_at=now + seconds + count,
        )
    ]


def _end_time_call(t: Tournament, c: EndTimeCall, now: float, rng: random.Random) -> list[Event]:
    for call in t.state.time_calls:
        if (call.table, call.seat) == (c.table, c.seat):
            return [TimeCallEnded(table=c.table, seat=c.seat, at=now, outcome=c.outcome)]
    raise NotAllowed(f"no time is called at table {c.table} seat {c.seat}", field="seat")


_HANDLERS: dict[type, Handler] = {
    Register: _register,
    DrawSeats: _draw_seats,
    OpenTable: _open_table,
    Bust: _bust,
    BustSameHand: _bust_same_hand,
    UndoBust: _undo_bust,
    Hand: _hand,
    Button: _button,
    Confirm: _confirm,
    ConfirmAll: _confirm_all,
    Cancel: _cancel,
    WaiveHalt: _waive_halt,
    BreakTable: _break_table,
    StartFinal: _start_final,
    LockSeat: _lock_seat,
    CorrectSeat: _correct_seat,
    SetGame: _set_game,
    SetStack: _set_stack,
    Rebuy: _rebuy,
    AddOn: _add_on,
    ChipRace: _chip_race,
    ClockStart: _clock_start,
    ClockPause: _clock_pause,
    ClockResume: _clock_resume,
    ClockAdjust: _clock_adjust,
    ClockLevel: _clock_level,
    Tick: _tick,
    CallTime: _call_time,
    EndTimeCall: _end_time_call,
}
