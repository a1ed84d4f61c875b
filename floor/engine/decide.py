"""Deciding a command: validate it against the state, then return the events it causes.

``decide(t, command, now, rng)`` checks everything first and raises a ``RuleError`` naming the
field before any event is applied, so a refused command changes nothing. An accepted one is
applied to ``t`` as it is decided (housekeeping needs the new state to draw seats) and the
events are returned for the caller to store and publish.
"""

from __future__ import annotations

import math
import random
from typing import Literal, assert_never

from . import (
    amendments,
    bounty,
    calls,
    clock,
    colour_up,
    counts,
    day_end,
    deal,
    entry_list,
    final,
    finish,
    halts,
    hand_for_hand,
    lookups,
    moves,
    players,
    room,
    rulings,
    same_hand,
    seating,
    undo,
    windows,
)
from .chiprace import ChipRaceInput, RaceSeat, chip_race
from .commands import (
    AddOn,
    BagTable,
    BreakTable,
    Bust,
    BustSameHand,
    Button,
    CallAll,
    CallMove,
    CallTime,
    Cancel,
    ChipRace,
    ClockAdjust,
    ClockLevel,
    ClockPause,
    ClockResume,
    ClockStart,
    CloseTournament,
    Command,
    Confirm,
    ConfirmAll,
    CorrectSeat,
    CountTable,
    DrawSeats,
    EndDay,
    EndHandForHand,
    EndSitOut,
    EndTimeCall,
    Hand,
    HandDone,
    LockSeat,
    MakeDeal,
    OpenTable,
    PayBounty,
    ProposeDeal,
    Rebuy,
    RecordRuling,
    Register,
    RegisterMany,
    RenamePlayer,
    SetFlight,
    SetGame,
    SetPrize,
    SetSpecialNeeds,
    SetStack,
    SetStructure,
    StartFinal,
    StartHandForHand,
    Tick,
    UndoBust,
    Unregister,
    WaiveHalt,
)
from .errors import (
    BadSeat,
    NoPlannedMove,
    NotAllowed,
    RuleError,
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
from .model import FLOP_GAMES, PlayerId, SeatNo, Spot, TableNo
from .names import check_player_id, shown_name
from .plan import PlannedMove
from .planner import choose_final_table, housekeep, next_to_break
from .positions import next_hand, reported_button
from .seating import draw_initial, registration_seat, seat_at_new_table
from .state import Player, Table, Tournament


def decide(t: Tournament, command: Command, now: float, rng: random.Random) -> list[Event]:
    """The events ``command`` causes; raises ``RuleError`` (changing nothing) if refused."""
    if (refused := finish.bar(t, command)) is not None:
        raise refused
    if (refused := hand_for_hand.bar(t, command)) is not None:
        raise refused
    if (refused := day_end.bar(t, command)) is not None:
        raise refused
    primary = _primary(t, command, now, rng)
    for e in primary:
        t.apply(e)
    events = primary + housekeep(t, rng)
    # A hand-for-hand round whose last table to report stopped playing is over.
    events += hand_for_hand.ending(t, now)
    # Whatever left one player ends the tournament (the winner, the clock stopped); a
    # flight's day ends at its last level or its share of the field (the clock stopped).
    events += finish.ending(t, now)
    return events + day_end.ending(t, now)


def _primary(t: Tournament, c: Command, now: float, rng: random.Random) -> list[Event]:
    """The events of the command itself, before housekeeping.

    One case per command: a command added to the union without one fails ``mypy --strict``
    at ``assert_never``. The most frequent commands come first (the cases are tried in order).
    """
    match c:
        case Bust():
            return _bust(t, c, now, rng)
        case Confirm():
            return _confirm(t, c, now, rng)
        case Hand():
            return _hand(t, c, now, rng) + rulings.hands_over(t, c.table, now)
        case Button():
            return _button(t, c, now, rng)
        case HandDone():
            return hand_for_hand.hand_done(t, c, now)
        case StartHandForHand():
            return hand_for_hand.start(t, c, now)
        case EndHandForHand():
            return hand_for_hand.end(t, c, now)
        case Register():
            return _register(t, c, now, rng)
        case RegisterMany():
            return entry_list.register_many(t, c, now, rng, _register)
        case SetPrize():
            return amendments.set_prize(t.state, c, now)
        case SetStructure():
            return amendments.set_structure(t.state, t.rules, c, now)
        case Tick():
            return _tick(t, c, now, rng)
        case SetStack():
            return _set_stack(t, c, now, rng)
        case CountTable():
            return counts.count_table(t, c, now)
        case ConfirmAll():
            return _confirm_all(t, c, now, rng)
        case BustSameHand():
            return _bust_same_hand(t, c, now, rng)
        case UndoBust():
            return _undo_bust(t, c, now, rng)
        case Cancel():
            return _cancel(t, c, now, rng)
        case CallMove():
            p = _seated(t, c.player)
            return [calls.call(t, p, _move_for(t, p), c.seat, now)]
        case CallAll():
            return [calls.call_all(t, c.reason, now)]
        case CorrectSeat():
            return _correct_seat(t, c, now, rng)
        case LockSeat():
            return _lock_seat(t, c, now, rng)
        case RenamePlayer():
            return players.rename(_player(t, c.player), c.name)
        case SetSpecialNeeds():
            return players.set_special_needs(_player(t, c.player), c.special_needs)
        case Unregister():
            return players.unregister(t, _player(t, c.player), now)
        case CallTime():
            return _call_time(t, c, now, rng)
        case EndTimeCall():
            return _end_time_call(t, c, now, rng)
        case Rebuy():
            return _rebuy(t, c, now, rng)
        case AddOn():
            return _add_on(t, c, now, rng)
        case ChipRace():
            return _chip_race(t, c, now, rng)
        case DrawSeats():
            return _draw_seats(t, c, now, rng)
        case OpenTable():
            return _open_table(t, c, now, rng)
        case WaiveHalt():
            return _waive_halt(t, c, now, rng)
        case BreakTable():
            return _break_table(t, c, now, rng)
        case StartFinal():
            return _start_final(t, c, now, rng)
        case SetGame():
            return _set_game(t, c, now, rng)
        case ClockStart():
            return _clock_start(t, c, now, rng)
        case ClockPause():
            return _clock_pause(t, c, now, rng)
        case ClockResume():
            return _clock_resume(t, c, now, rng)
        case ClockAdjust():
            return _clock_adjust(t, c, now, rng)
        case ClockLevel():
            return _clock_level(t, c, now, rng)
        case CloseTournament():
            return finish.close(t, now)
        case RecordRuling():
            return rulings.record(t, c, now)
        case EndSitOut():
            return rulings.end(t, c, now)
        case BagTable():
            return day_end.bag_table(t, c, now)
        case EndDay():
            return day_end.end_day(t, c, now)
        case SetFlight():
            return day_end.set_flight(t, c, now)
        case ProposeDeal():
            return deal.propose(t, c, now)
        case MakeDeal():
            return deal.make(t, c, now)
        case PayBounty():
            return bounty.pay(t, c, now)
        case _:
            assert_never(c)


# Lookups that name what is wrong ------------------------------------------------------------


# Shorter names for ``lookups``, which ``validate`` and the rule modules share.
_player = lookups.player
_seated = lookups.seated
_table = lookups.table
_seat = lookups.seat


def _in_play(table: Table, field: str = "table") -> None:
    if table.status != "open":
        raise NotAllowed(
            f"table {table.number} is {table.status}",
            field=field,
            reason="table_not_open",
            params={"table": table.number, "status": table.status},
        )


def _empty(table: TableNo, seat: SeatNo, field: str) -> BadSeat:
    return BadSeat(
        f"table {table} seat {seat} is empty",
        field=field,
        reason="seat_empty",
        params={"table": table, "seat": seat},
    )


def _short(table: Table) -> NotAllowed:
    return NotAllowed(
        f"table {table.number} has fewer than 2 players",
        field="table",
        reason="table_short",
        params={"table": table.number},
    )


def _dealing_flop(t: Tournament) -> bool:
    game = t.state.current_game
    return game in FLOP_GAMES


# Entries and the draw -------------------------------------------------------------------------


def registration(t: Tournament, c: Register, now: float) -> PlayerRegistered:
    """What ``decide`` would refuse of ``c`` or register, without drawing its seat: the
    import's preview asks this of every row (``entry_check``). The seat a late entry is drawn
    to refuses nobody while no final table is drawn, and drawing it replans the room: at
    10,000 players, 17 ms an entry."""
    for bar in (finish.bar, hand_for_hand.bar, day_end.bar):
        if (refused := bar(t, c)) is not None:
            raise refused
    return _registered(t, c, now)


def _register(t: Tournament, c: Register, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    registered = _registered(t, c, now)
    events: list[Event] = [registered]
    if not s.drawn:
        return events
    pid = registered.player
    probe = Player(id=pid, name=registered.name, special_needs=c.special_needs)
    spot = registration_seat(t, probe, moves.planned_seats(t), rng)
    if spot is None:
        if s.final_table is not None:
            raise NotAllowed(
                "every seat at the final table is taken", field="player", reason="final_table_full"
            )
        # Every seat is taken: the floor opens the next table for the new entry.
        number = max(s.tables, default=0) + 1
        events.append(TableOpened(table=number, seats=s.rules.seats))
        fresh = Table(number=number, seats=s.rules.seats)
        spot = Spot(number, seat_at_new_table(t, fresh, probe, rng))
    events.append(PlayerSeated(player=pid, table=spot.table, seat=spot.seat, at=now))
    return events


def _registered(t: Tournament, c: Register, now: float) -> PlayerRegistered:
    """The entry's own checks, and the event that registers it."""
    s = t.state
    pid = c.player
    entry = 1
    name = c.name
    if pid is not None and pid in s.players:
        existing = s.players[pid]
        if windows.standing(existing) != "out":
            raise NotAllowed(
                f"{pid} is already in the tournament",
                field="player",
                reason="player_exists",
                params={"player": pid},
            )
        step = clock.current_step(s, now)
        if (why := windows.re_entry_window(s, step)) is not None:
            raise windows.refusal(why, existing.id)
        _final_table_has_room(t)
        if (why := windows.re_entry_limit(s, existing)) is not None:
            raise windows.refusal(why, existing.id)
        entry = existing.entries + 1
        # A re-entry names the player as on record: that name (and id) stood before.
        if name != existing.name:
            name = shown_name(name)
    else:
        name = shown_name(name)
        if pid is not None:
            check_player_id(pid)
        if (why := windows.registration(s, clock.current_step(s, now))) is not None:
            raise windows.refusal(why, pid)
        _final_table_has_room(t)
        if pid is None:
            pid = _new_id(t)
    country, note = entry_list.details(c, s.players.get(pid))
    return PlayerRegistered(
        player=pid,
        name=name,
        special_needs=c.special_needs,
        entry=entry,
        stack=s.structure.starting_stack if s.structure else None,
        shifts_places=True,
        country=country,
        note=note,
    )


def _final_table_has_room(t: Tournament) -> None:
    """Refuse an entry for the whole room, before any player's own limits, as the staff
    facts' sales say (``seating.final_table_full``)."""
    if seating.final_table_full(t):
        raise NotAllowed(
            "every seat at the final table is taken", field="player", reason="final_table_full"
        )


def _new_id(t: Tournament) -> PlayerId:
    # Counting the withdrawn entries too: a new player never gets the id of one who left.
    n = len(t.state.players) + t.state.unregistered + 1
    while f"P{n:04d}" in t.state.players:
        n += 1
    return f"P{n:04d}"


def _draw_seats(t: Tournament, c: DrawSeats, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    if s.drawn:
        raise NotAllowed(
            "seats are already drawn: late entries are seated as they register",
            reason="seats_drawn",
        )
    waiting = [p for p in s.players.values() if p.table is None and not p.busted]
    if len(waiting) < 2:
        raise NotAllowed(
            "at least 2 registered players are needed for a draw", reason="draw_too_few"
        )
    seats = s.rules.seats
    if c.tables is None:
        numbers = list(range(1, math.ceil(len(waiting) / seats) + 1))
    else:
        numbers = list(c.tables)
        if len(set(numbers)) != len(numbers):
            raise NotAllowed("a table is listed twice", field="tables", reason="table_listed_twice")
        if len(numbers) * seats < len(waiting):
            raise NotAllowed(
                f"{len(numbers)} tables of {seats} seat only {len(numbers) * seats} of "
                f"{len(waiting)} players",
                field="tables",
                reason="draw_too_small",
                params={
                    "tables": len(numbers),
                    "seats": seats,
                    "room": len(numbers) * seats,
                    "players": len(waiting),
                },
            )
    events: list[Event] = []
    tables = []
    for n in numbers:
        table = s.tables.get(n)
        if table is None:
            events.append(TableOpened(table=n, seats=seats))
            table = Table(number=n, seats=seats)
        elif table.occupants or table.status != "open":
            raise NotAllowed(
                f"table {n} is not free for the draw",
                field="tables",
                reason="draw_table_not_free",
                params={"table": n},
            )
        tables.append(table)
    draw = draw_initial(t, waiting, tables, rng)
    events.append(SeatsDrawn(seats=tuple(draw), at=now))
    return events


def _open_table(t: Tournament, c: OpenTable, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    number = c.table if c.table is not None else max(s.tables, default=0) + 1
    if number in s.tables:
        raise NotAllowed(
            f"table {number} already exists",
            field="table",
            reason="table_exists",
            params={"table": number},
        )
    opened = TableOpened(table=number, seats=c.seats or s.rules.seats)
    if s.drawn and s.final_table is None and t.active <= (space := room.room(t)):
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
                reason="table_would_break",
                params={
                    "players": t.active,
                    "tables": t.open_count,
                    "room": space,
                    "table": number,
                },
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
                reason="bust_wrong_seat",
                params={
                    "player": p.id,
                    "table": c.table,
                    "seat": c.seat,
                    "at_table": p.table,
                    "at_seat": p.seat,
                },
            )
    else:
        if c.table is None or c.seat is None:
            raise NotAllowed(
                "name the player, or the table and the seat", field="player", reason="bust_who"
            )
        table = _table(t, c.table)
        pid = table.occupants.get(_seat(table, c.seat))
        if pid is None:
            raise _empty(c.table, c.seat, "seat")
        p = t.state.players[pid]
    assert p.table is not None and p.seat is not None
    if t.active <= 1:
        # Two phones reporting the heads-up bust-out: the second would bust the winner.
        raise NotAllowed(
            f"{p.id} is the last player left: the winner",
            field="player",
            reason="last_player",
            params={"player": p.id},
        )
    table = t.table(p.table)
    out = PlayerBusted(
        player=p.id, table=p.table, seat=p.seat, hand=table.hand, place=t.active, at=now, by=c.by
    )
    return [bounty.one(t, out, c.eliminators)]


def _bust_same_hand(t: Tournament, c: BustSameHand, now: float, rng: random.Random) -> list[Event]:
    """Places by the stacks the players started the hand with: more chips, a better place;
    equal stacks share the place (and the prizes of the places they cover)."""
    busted: list[tuple[int, Player]] = []
    seen: set[PlayerId] = set()
    for i, b in enumerate(c.players):
        where = f"players[{i}]"
        p = _seated(t, b.player, f"{where}.player")
        if p.id in seen:
            raise NotAllowed(
                f"{p.id} is listed twice",
                field=f"{where}.player",
                reason="player_listed_twice",
                params={"player": p.id},
            )
        seen.add(p.id)
        # The stack on record only when counted: a stack nobody counted is what the player
        # was given, which would place everybody uncounted together.
        stack = b.stack if b.stack is not None else p.stack if p.counted else None
        if stack is None:
            raise NotAllowed(
                f"the stack {p.id} started the hand with is needed to place them",
                field=f"{where}.stack",
                reason="start_stack_needed",
                params={"player": p.id},
            )
        busted.append((stack, p))
    if len(busted) >= t.active:
        raise NotAllowed(
            f"{len(busted)} players cannot all be out: only {t.active} are left and somebody "
            "wins the hand",
            field="players",
            reason="all_out",
            params={"busted": len(busted), "left": t.active},
        )
    return list(bounty.same_hand(t, same_hand.place(t, busted, now, c.by), c.players))


def _undo_bust(t: Tournament, c: UndoBust, now: float, rng: random.Random) -> list[Event]:
    p = _player(t, c.player)
    if (bar := undo.undo_bar(t, p, now)) is not None:
        raise undo.refusal(t, p, bar)
    record = p.bust
    assert record is not None
    back = bounty.undone(t, p)
    return [
        BustUndone(
            player=p.id,
            table=record.table,
            seat=record.seat,
            reason=c.reason,
            at=now,
            bounty_from=back,
        )
    ]


# Hands and buttons ----------------------------------------------------------------------------


def _hand(t: Tournament, c: Hand, now: float, rng: random.Random) -> list[Event]:
    table = _table(t, c.table)
    _in_play(table)
    if table.number in t.plan.halted_tables:
        raise NotAllowed(
            f"table {table.number} is halted until it is balanced",
            field="table",
            reason="table_halted",
            params={"table": table.number},
        )
    if table.count < 2:
        raise _short(table)
    level = t.state.clock.level if t.state.clock.started else None
    if not _dealing_flop(t):
        return [
            HandStarted(
                table=table.number, hand=table.hand + 1, positions=None, level=level, at=now
            )
        ]
    if table.positions is None:
        raise NotAllowed(
            f"table {table.number} has unknown positions: report the button first",
            field="table",
            reason="positions_unknown",
            params={"table": table.number},
        )
    positions = next_hand(table.positions, table.seats, table.occupants, table.count)
    return [
        HandStarted(
            table=table.number, hand=table.hand + 1, positions=positions, level=level, at=now
        )
    ]


def _button(t: Tournament, c: Button, now: float, rng: random.Random) -> list[Event]:
    if t.rules.stud_only:
        raise NotAllowed("stud games have no button", field="table", reason="stud_no_button")
    table = _table(t, c.table)
    _in_play(table)
    if table.count < 2:
        raise _short(table)
    if _seat(table, c.seat) not in table.occupants:
        raise _empty(table.number, c.seat, "seat")
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
    raise _no_move(p)


def _no_move(p: Player) -> NoPlannedMove:
    return NoPlannedMove(
        f"{p.id} has no planned move",
        field="player",
        reason="no_planned_move",
        params={"player": p.id},
    )


def _target_free(t: Tournament, to: Spot, mover: Player, moving: set[PlayerId], field: str) -> None:
    table = t.table(to.table)
    _seat(table, to.seat, field)
    _in_play(table, field)
    if (why := moves.taken_bar(t, to, moving)) is not None:
        raise moves.refusal(why, field)


def _confirm(t: Tournament, c: Confirm, now: float, rng: random.Random) -> list[Event]:
    p = _seated(t, c.player)
    move = _move_for(t, p)
    seat = c.seat if c.seat is not None else move.to.seat
    if seat is None:
        raise NotAllowed(
            f"the move of {p.id} to table {move.to.table} names no seat: the floor picks one",
            field="seat",
            reason="move_no_seat",
            params={"player": p.id, "table": move.to.table},
        )
    if (called := calls.confirm_bar(t, p, c.seat)) is not None:
        raise called
    if c.seat is not None and c.seat != move.to.seat:
        # A redirect: another free seat at the same table, not one drawn for somebody else.
        to = Spot(move.to.table, c.seat)
        why = moves.redirect_bar(t, to, t.needs_reserved(p), moves.planned_seats(t))
        if why is not None:
            raise moves.refusal(why)
    assert p.table is not None and p.seat is not None
    to = Spot(move.to.table, seat)
    _target_free(t, to, p, {p.id}, "seat")
    moved = Moved(player=p.id, from_=Spot(p.table, p.seat), to=to)
    return [PlayersMoved(moves=(moved,), reason=move.reason, at=now)]


def _confirm_all(t: Tournament, c: ConfirmAll, now: float, rng: random.Random) -> list[Event]:
    moves = [m for m in t.plan.moves if m.reason == c.reason]
    if not moves:
        raise NoPlannedMove(
            f"there are no planned {c.reason} moves",
            field="reason",
            reason="no_planned_moves",
            params={"reason": c.reason},
        )
    moving: set[PlayerId] = set()
    for m in moves:
        if m.player is None or m.to.seat is None:
            missing = "player" if m.player is None else "seat"
            raise NotAllowed(
                f"a move to table {m.to.table} names no {missing}: confirm it on its own",
                field="reason",
                reason="move_incomplete",
                params={"table": m.to.table, "missing": missing},
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
        raise _no_move(p)
    assert p.table is not None
    return [MoveCancelled(player=p.id, table=p.table, reason=move.reason)]


def _correct_seat(t: Tournament, c: CorrectSeat, now: float, rng: random.Random) -> list[Event]:
    p = _seated(t, c.player)
    table = _table(t, c.table)
    _seat(table, c.seat)
    assert p.table is not None and p.seat is not None
    if (p.table, p.seat) == (c.table, c.seat):
        raise NotAllowed(
            f"{p.id} already sits at table {c.table} seat {c.seat}",
            field="seat",
            reason="already_there",
            params={"player": p.id, "table": c.table, "seat": c.seat},
        )
    if (why := moves.planned_bar(moves.planned_seats(t), Spot(c.table, c.seat))) is not None:
        raise moves.refusal(why)
    holder = table.occupants.get(c.seat)
    if holder is not None:
        raise BadSeat(
            f"table {c.table} seat {c.seat} is taken by {holder}: a floor decision",
            field="seat",
            reason="seat_taken_floor",
            params={"table": c.table, "seat": c.seat, "holder": holder},
        )
    _in_play(table)
    moved = Moved(player=p.id, from_=Spot(p.table, p.seat), to=Spot(c.table, c.seat))
    return [PlayersMoved(moves=(moved,), reason="correction", at=now)]


# Tables -------------------------------------------------------------------------------------


def _waive_halt(t: Tournament, c: WaiveHalt, now: float, rng: random.Random) -> list[Event]:
    table = _table(t, c.table)
    _in_play(table)
    if (refused := halts.waive_bar(table, c.waived)) is not None:
        raise refused
    return [HaltWaived(table=table.number, waived=c.waived)]


def _break_table(t: Tournament, c: BreakTable, now: float, rng: random.Random) -> list[Event]:
    table = _table(t, c.table)
    _in_play(table)
    if (why := room.break_bar(t, table)) is not None:
        raise room.refusal(why)
    return [TableBreaking(table=table.number, by="director")]


def _start_final(t: Tournament, c: StartFinal, now: float, rng: random.Random) -> list[Event]:
    if (why := final.start_bar(t)) is not None:
        raise final.refusal(why)
    table = choose_final_table(t)
    assert table is not None
    return [FinalTableFormed(table=table, seats=final.seats(t))]


def _lock_seat(t: Tournament, c: LockSeat, now: float, rng: random.Random) -> list[Event]:
    p = _player(t, c.player)
    if p.busted:
        raise NotAllowed(
            f"{p.id} is out", field="player", reason="player_is_out", params={"player": p.id}
        )
    return [SeatLockSet(player=p.id, locked=c.locked)]


def _set_game(t: Tournament, c: SetGame, now: float, rng: random.Random) -> list[Event]:
    if t.rules.game != "mixed":
        raise NotAllowed(
            f"this is a {t.rules.game} tournament, not a mixed game",
            field="game",
            reason="not_mixed",
            params={"game": t.rules.game},
        )
    return [GameChanged(game=c.game)]


def _set_stack(t: Tournament, c: SetStack, now: float, rng: random.Random) -> list[Event]:
    p = _seated(t, c.player)
    return [StackSet(player=p.id, stack=c.stack, at=now)]


# Rebuys, add-ons and the chip race -------------------------------------------------------------


def _buyer(t: Tournament, pid: PlayerId, what: Literal["rebuy", "add_on"]) -> Player:
    p = _player(t, pid)
    if windows.standing(p) == "out":
        message = f"{pid} is out: a busted player comes back by a re-entry (register), not "
        if what == "rebuy":
            raise NotAllowed(
                message + "a rebuy",
                field="player",
                reason="rebuy_busted",
                params={"player": pid},
            )
        raise NotAllowed(
            message + "an add-on", field="player", reason="add_on_busted", params={"player": pid}
        )
    return _seated(t, pid)


def _rebuy(t: Tournament, c: Rebuy, now: float, rng: random.Random) -> list[Event]:
    p = _buyer(t, c.player, "rebuy")
    s = t.state
    why = windows.rebuy_window(s, clock.current_step(s, now)) or windows.rebuy_limit(s, p)
    if why is not None:
        raise windows.refusal(why, p.id)
    rules = windows.rebuy_rules(s)
    assert rules is not None  # the window is shut without rebuys
    return [_sale(RebuyMade, p, rules.chips, rules.price, p.rebuys + 1, now)]


def _add_on(t: Tournament, c: AddOn, now: float, rng: random.Random) -> list[Event]:
    p = _buyer(t, c.player, "add_on")
    s = t.state
    why = windows.add_on_window(s, clock.current_step(s, now)) or windows.add_on_limit(s, p)
    if why is not None:
        raise windows.refusal(why, p.id)
    rules = windows.add_on_rules(s)
    assert rules is not None  # the window is shut without an add-on
    return [_sale(AddOnMade, p, rules.chips, rules.price, p.add_ons + 1, now)]


def _sale(
    kind: type[RebuyMade | AddOnMade], p: Player, chips: int, price: int, count: int, now: float
) -> Event:
    stack = None if p.stack is None else p.stack + chips
    return kind(player=p.id, chips=chips, price=price, count=count, stack=stack, at=now)


def _chip_race(t: Tournament, c: ChipRace, now: float, rng: random.Random) -> list[Event]:
    """Colour-up at one table: the leaving chips exchanged, the odd ones raced (PFP 20)."""
    structure = t.state.structure
    if structure is None:
        raise NotAllowed(
            "this tournament has no structure: it has no chip set",
            field="table",
            reason="no_chip_set",
        )
    # A breaking table still races: its players take their new chips to their new seats.
    table = lookups.unbroken_table(t, c.table)
    race_terms = colour_up.terms(structure, clock.current_step(t.state, now), c.leaving)
    if not isinstance(race_terms, colour_up.Terms):
        raise colour_up.refusal(race_terms)
    leaving = race_terms.leaving
    if any(r.table == table.number and r.result.leaving == leaving for r in t.state.chip_races):
        raise NotAllowed(
            f"table {table.number} has already raced off its {leaving:,}s",
            field="table",
            reason="already_raced",
            params={"table": table.number, "chip": leaving},
        )
    players: list[RacedPlayer] = []
    race: list[RaceSeat] = []
    for i, count in enumerate(c.seats):
        where = f"seats[{i}]"
        pid = table.occupants.get(_seat(table, count.seat, f"{where}.seat"))
        if pid is None:
            raise _empty(table.number, count.seat, f"{where}.seat")
        raced = t.player(pid)
        stack = count.stack if count.stack is not None else raced.stack
        if stack is None:
            raise NotAllowed(
                f"the stack of {pid} at seat {count.seat} is not known: give it",
                field=f"{where}.stack",
                reason="race_stack_unknown",
                params={"player": pid, "seat": count.seat},
            )
        # A stack nobody counted races as the stack the player was given: not a count after.
        counted = count.stack is not None or raced.counted
        players.append(RacedPlayer(seat=count.seat, player=pid, stack=stack, counted=counted))
        race.append(RaceSeat(seat=count.seat, chips=count.chips, stack=stack))
    race_input = ChipRaceInput(
        leaving=leaving,
        next_up=race_terms.next_up,
        seats=race,
        smallest_in_play=race_terms.smallest_in_play,
    )
    try:
        result = chip_race(race_input, rng)
    except RuleError as e:
        # The race names its own input; the floor sent ``leaving`` and ``seats``.
        field = "leaving" if e.field in ("next_up", "smallest_in_play") else e.field
        raise e.recast(NotAllowed, field) from None
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
        raise NotAllowed("give either step (+1 or -1) or to", field="step", reason="step_or_to")
    index = c.to if c.to is not None else t.state.clock.level + (c.step or 0)
    return [clock.go_to(t.state, index, now, field="to" if c.to is not None else "step")]


def _tick(t: Tournament, c: Tick, now: float, rng: random.Random) -> list[Event]:
    events: list[Event] = list(clock.due(t.state, now))
    for call in t.state.time_calls:
        if call.ends_at <= now:
            events.append(
                TimeCallEnded(table=call.table, seat=call.seat, at=call.ends_at, outcome="dead")
            )
    return events + rulings.due(t.state, now)


def _call_time(t: Tournament, c: CallTime, now: float, rng: random.Random) -> list[Event]:
    table = _table(t, c.table)
    _in_play(table)
    pid = table.occupants.get(_seat(table, c.seat))
    if pid is None:
        raise _empty(table.number, c.seat, "seat")
    for call in t.state.time_calls:
        # A second call would restart the clock and give the player more time; one that has
        # run out (its end not yet written by the clock) or was on another player does not.
        if (call.table, call.seat, call.player) == (table.number, c.seat, pid) and (
            call.ends_at > now
        ):
            raise NotAllowed(
                f"time is already called at table {table.number} seat {c.seat}",
                field="seat",
                reason="time_already_called",
                params={"table": table.number, "seat": c.seat},
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
    raise NotAllowed(
        f"no time is called at table {c.table} seat {c.seat}",
        field="seat",
        reason="no_time_call",
        params={"table": c.table, "seat": c.seat},
    )
