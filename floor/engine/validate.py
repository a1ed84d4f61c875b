"""Checking a log written elsewhere: each event as the rules could have written it.

The live floor writes only what ``decide`` returned, so its log holds nothing the rules
refuse. A log brought from elsewhere (an export that ``floor import`` reads back) holds
whatever decodes: seat 99 at a 9-seat table, a stack of -5, every bust-out in place 1. Such
a log folds, and the screens then show what no floor could have seen.

``check(t, event, previous)`` refuses an event no command could have caused in the state
``t`` before it (a ``RuleError`` with the reason and parameters every refusal carries);
``replay(events)`` folds a whole log, checking every event first, and names the first one
refused (``InvalidEvent``).

Checked is what the state and the screens rely on: players and tables that exist, players
where the event says they are, seats that exist and are free, names and ids that show,
stacks and counts within their limits, hand numbers, bust-out places that follow the
players left, the clock's steps. Not checked is what the rules leave to chance or to the
floor: which seat a draw gave, which table broke, whether a move was the planned one or a
floor correction to another free seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from . import (
    amendments,
    bounty,
    day_end,
    deal,
    entry_list,
    finish,
    halts,
    hand_for_hand,
    lookups,
    players,
    rulings,
)
from .errors import (
    BadSeat,
    BadValue,
    FloorError,
    NotAllowed,
    Param,
    RuleError,
)
from .events import (
    AddOnMade,
    BountyPaid,
    BustUndone,
    ButtonReported,
    CallsLapsed,
    ChipsRaced,
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    DayEnded,
    DealMade,
    DealProposed,
    Event,
    FieldCarried,
    FinalTableFormed,
    FlightSet,
    GameChanged,
    HaltWaived,
    HandForHandDealt,
    HandForHandEnded,
    HandForHandStarted,
    HandReported,
    HandStarted,
    LevelChanged,
    MoveCancelled,
    MovesCalled,
    PlayerBusted,
    PlayerRegistered,
    PlayerRenamed,
    PlayerSeated,
    PlayersMoved,
    PlayerUnregistered,
    PrizeChanged,
    RebuyMade,
    RulingRecorded,
    SeatLockSet,
    SeatsAssigned,
    SeatsDrawn,
    SitOutEnded,
    SpecialNeedsSet,
    StacksCounted,
    StackSet,
    StructureChanged,
    TableBagged,
    TableBreaking,
    TableBroken,
    TableOpened,
    TableSetUp,
    TimeCalled,
    TimeCallEnded,
    TournamentClosed,
    TournamentCreated,
    TournamentFinished,
)
from .model import MAX_CHIPS, PlayerId, Positions, SeatNo, TableNo
from .names import check_player_id, shown_name
from .state import Player, Table, Tournament

#: The limits of a command's fields (``commands``): a name, an id, a table number, seats.
MAX_NAME = 80
MAX_ID = 64
MAX_TABLE = 100_000
MIN_SEATS, MAX_SEATS = 2, 12


class InvalidEvent(RuleError):
    """Event ``number`` of a log (1 for the first) is one the rules could not have written:
    the refusal ``error`` said of it, with its code, reason and parameters."""

    number: int = 0
    kind: str = ""
    error: FloorError


def _invalid(number: int, kind: str, error: FloorError) -> InvalidEvent:
    invalid = error.recast(InvalidEvent, None, f"event {number} ({kind}): {error}")
    invalid.code = error.code  # the kind of the event's own refusal: a bad seat, a bad value
    invalid.number = number
    invalid.kind = kind
    invalid.error = error
    return invalid


def replay(events: Iterable[Event]) -> Tournament:
    """The tournament ``events`` fold to, each checked against the state before it."""
    t: Tournament | None = None
    previous: Event | None = None
    number = 0
    for number, event in enumerate(events, 1):
        try:
            if t is None:
                if not isinstance(event, TournamentCreated):
                    raise _log_start()
                t = Tournament.create(event)
            else:
                check(t, event, previous)
                t.apply(event)
        except FloorError as e:
            raise _invalid(number, _kind(event), e) from None
        previous = event
    if t is None:
        raise _invalid(1, "", _log_start())
    try:
        _share_closed(t, previous, None)
    except FloorError as e:
        assert previous is not None
        raise _invalid(number, _kind(previous), e) from None
    return t


def check(t: Tournament, event: Event, previous: Event | None = None) -> None:
    """Raise ``RuleError`` (or a subclass) if no command could have caused ``event`` in the
    state ``t``; ``previous`` is the event before it, which a shared bust-out place spans.

    One case per event: an event added to the union without one fails ``mypy --strict``.
    """
    _share_closed(t, previous, event)
    finish.check(t, event)
    match event:
        case PlayerBusted():
            _player_busted(t, event, previous)
            bounty.check(t, event)
        case PlayersMoved():
            _players_moved(t, event)
        case HandStarted():
            table = _playing(t, event.table)
            if event.hand != table.hand + 1:
                raise _not_as_recorded("hand", event.hand, table.hand + 1)
            _positions(table, event.positions)
        case ButtonReported():
            if t.rules.stud_only:
                raise NotAllowed("stud games have no button", field="seat", reason="stud_no_button")
            table = _playing(t, event.table)
            if _seat(table, event.seat) not in table.occupants:
                raise _empty(table.number, event.seat, "seat")
            _positions(table, event.positions)
        case SeatsAssigned():
            for i, s in enumerate(event.seats):
                _in(t, s.player, f"seats[{i}].player")
                _seat(_open(t, s.table, f"seats[{i}].table"), s.seat, f"seats[{i}].seat")
            for i, pid in enumerate(event.withdrawn):
                _player(t, pid, f"withdrawn[{i}]")
        case PlayerRegistered():
            _player_registered(t, event)
        case PlayerSeated():
            _unseated(t, event.player, "player")
            table = _open(t, event.table)
            _free(table, _seat(table, event.seat), "seat")
        case TableBreaking():
            _open(t, event.table)
        case TableBroken():
            table = _table(t, event.table)
            if table.status != "breaking" or table.count:
                raise RuleError(
                    f"table {table.number} is {table.status} with {table.count} players seated: "
                    "only an emptied breaking table is broken",
                    field="table",
                    reason="break_unfinished",
                    params={"table": table.number, "status": table.status, "players": table.count},
                )
        case StackSet():
            _seated(t, event.player)
            _stack(event.stack)
        case StacksCounted():
            _stacks_counted(t, event)
        case LevelChanged():
            _step(t, event.level, "level")
            _not_negative("remaining", event.remaining)
        case TimeCalled():
            table = _open(t, event.table)
            holder = table.occupants.get(_seat(table, event.seat))
            if holder is None:
                raise _empty(table.number, event.seat, "seat")
            if event.player is not None and event.player != holder:
                raise _wrong_seat(_seated(t, event.player), table.number, event.seat)
        case TimeCallEnded():
            if not any((c.table, c.seat) == (event.table, event.seat) for c in t.state.time_calls):
                raise NotAllowed(
                    f"no time is called at table {event.table} seat {event.seat}",
                    field="seat",
                    reason="no_time_call",
                    params={"table": event.table, "seat": event.seat},
                )
        case MoveCancelled():
            if event.player is not None:
                _seated(t, event.player)
            _table(t, event.table)
        case MovesCalled():
            for i, c in enumerate(event.calls):
                _at(t, c.player, c.from_.table, c.from_.seat, f"calls[{i}].player")
                table = _open(t, c.to.table, f"calls[{i}].to.table")
                if c.to.seat is not None:
                    _seat(table, c.to.seat, f"calls[{i}].to.seat")
        case CallsLapsed():
            for i, pid in enumerate(event.players):
                _player(t, pid, f"players[{i}]")
        case BustUndone():
            _bust_undone(t, event)
        case RebuyMade() | AddOnMade():
            _bought(t, event)
        case ChipsRaced():
            _chips_raced(t, event)
        case SeatLockSet():
            p = _player(t, event.player)
            if p.busted:
                raise NotAllowed(
                    f"{p.id} is out",
                    field="player",
                    reason="player_is_out",
                    params={"player": p.id},
                )
        case HaltWaived():
            if (refused := halts.waive_bar(_open(t, event.table), event.waived)) is not None:
                raise refused
        case SeatsDrawn():
            _seats_drawn(t, event)
        case TableOpened():
            _new_table(t, event.table, event.seats)
        case TableSetUp():
            _table_set_up(t, event)
        case FinalTableFormed():
            if t.state.final_table is not None:
                raise NotAllowed(
                    f"the final table is already at table {t.state.final_table}",
                    field="table",
                    reason="final_formed",
                    params={"table": t.state.final_table},
                )
            lookups.unbroken_table(t, event.table)
            _in_range("seats", event.seats, MIN_SEATS, MAX_SEATS)
        case GameChanged():
            if t.rules.game != "mixed":
                raise NotAllowed(
                    f"this is a {t.rules.game} tournament, not a mixed game",
                    field="game",
                    reason="not_mixed",
                    params={"game": t.rules.game},
                )
        case ClockStarted():
            _structure(t)
            if t.state.clock.started:
                raise NotAllowed("the clock has already started", reason="clock_started")
            _step(t, event.level, "level")
        case ClockPaused():
            if not t.state.clock.running:
                raise NotAllowed("the clock is not running", reason="clock_not_running")
            _not_negative("remaining", event.remaining)
        case ClockResumed():
            if not t.state.clock.started:
                raise NotAllowed("the clock has not started", reason="clock_not_started")
            if t.state.clock.running:
                raise NotAllowed("the clock is already running", reason="clock_running")
        case ClockAdjusted():
            _structure(t)
            _not_negative("remaining", event.remaining)
        case TournamentFinished():
            if event.remaining is not None:
                _not_negative("remaining", event.remaining)
        case TournamentClosed():
            pass  # ``finish.check``: only once there is a winner
        case PlayerRenamed() | SpecialNeedsSet() | PlayerUnregistered():
            _player_changed(t, event)
        case PrizeChanged() | StructureChanged():
            amendments.check(t.state, t.rules, event)
        case RulingRecorded() | SitOutEnded():
            rulings.check(t, event)
        case HandForHandStarted() | HandReported() | HandForHandDealt() | HandForHandEnded():
            hand_for_hand.check(t, event)
        case FieldCarried():
            for name in ("entries", "rebuys", "add_ons"):
                _not_negative(name, getattr(event, name))
            if event.checks and not (event.acknowledged or "").strip():
                # Day 2 is made from a failed check only on the director's reason (``day2``).
                raise NotAllowed(
                    "say why Day 2 is made although a flight's chip check failed",
                    field="acknowledged",
                    reason="day2_ack_reason",
                )
        case FlightSet() | TableBagged() | DayEnded():
            if isinstance(event, DayEnded) and event.remaining is not None:
                _not_negative("remaining", event.remaining)
            day_end.check(t, event)
        case BountyPaid():
            bounty.check(t, event)
        case DealProposed() | DealMade():
            deal.check(t, event)
        case TournamentCreated():
            raise _log_start()
        case _:
            assert_never(event)


# Players ------------------------------------------------------------------------------------


def _player_registered(t: Tournament, e: PlayerRegistered) -> None:
    existing = t.state.players.get(e.player)
    if existing is None:
        _id(e.player)
        expected = 1
    elif not existing.busted:
        raise NotAllowed(
            f"{e.player} is already in the tournament",
            field="player",
            reason="player_exists",
            params={"player": e.player},
        )
    else:
        expected = existing.entries + 1
    if existing is None or e.name != existing.name:
        _in_range("name length", len(e.name), 1, MAX_NAME, "name")
        shown = shown_name(e.name)
        if shown != e.name:
            raise _not_as_recorded("name", e.name, shown, "name")
    if e.entry != expected:
        raise _not_as_recorded("entry", e.entry, expected)
    for name in ("country", "note"):
        said = getattr(e, name)
        if said is not None and entry_list.shown_detail(said, name) != said:
            raise _not_as_recorded(name, said, entry_list.shown_detail(said, name), name)
    if e.stack is not None:
        _stack(e.stack)


def _player_changed(t: Tournament, e: PlayerRenamed | SpecialNeedsSet | PlayerUnregistered) -> None:
    """A change ``players`` makes after registration, as ``decide`` would have made it."""
    p = _player(t, e.player)
    match e:
        case PlayerRenamed():
            _in_range("name length", len(e.name), 1, MAX_NAME, "name")
            players.rename(p, e.name)  # refuses a name that shows otherwise, or is unchanged
            if shown_name(e.name) != e.name:
                raise _not_as_recorded("name", e.name, shown_name(e.name), "name")
            if e.was != p.name:
                raise _not_as_recorded("was", e.was, p.name)
        case SpecialNeedsSet():
            players.set_special_needs(p, e.special_needs)
        case PlayerUnregistered():
            # The window is the clock's at the time, which the log does not say.
            if (why := players.unregister_out(p) or players.unregister_bar(p)) is not None:
                raise players.refusal(why, p.id)
            if e.table is None or e.seat is None:
                _unseated(t, p.id, "player")
            else:
                _at(t, p.id, e.table, e.seat)
            s = t.state
            recorded = {
                "name": p.name,
                "refund": players.refund(s, p),
                "rebuys": p.rebuys,
                "add_ons": p.add_ons,
                "change": players.chips_change(s, p),
            }
            for name, value in recorded.items():
                if getattr(e, name) != value:
                    raise _not_as_recorded(name, getattr(e, name), value)


def _id(pid: PlayerId, field: str = "player") -> None:
    _in_range("player id length", len(pid), 1, MAX_ID, field)
    try:
        check_player_id(pid)
    except BadValue as e:
        raise e.recast(BadValue, field) from None


def _player_busted(t: Tournament, e: PlayerBusted, previous: Event | None) -> None:
    p = _at(t, e.player, e.table, e.seat)
    table = t.table(e.table)
    if e.hand != table.hand:
        raise _not_as_recorded("hand", e.hand, table.hand)
    left = t.active
    if left <= 1:
        raise NotAllowed(
            f"{p.id} is the last player left: the winner",
            field="player",
            reason="last_player",
            params={"player": p.id},
        )
    # A place is the players still in when the bust came (the winner is first). Players out
    # in one hand with equal stacks share the places ``place`` to ``place + shares - 1``, and
    # their events come one after another, the worst place first: the first of them busts
    # with ``place + shares - 1`` left, the last with ``place`` left.
    first = e.place + e.shares - 1
    continues = (
        isinstance(previous, PlayerBusted)
        and (previous.place, previous.shares) == (e.place, e.shares)
        and left >= previous.place
    )
    if (
        e.shares < 1
        or e.place < 2
        or not e.place <= left <= first
        or (left < first and not continues)
    ):
        raise _place_wrong(p.id, e.place, e.shares, left)
    if e.stack is not None:
        _stack(e.stack)


def _share_closed(t: Tournament, previous: Event | None, event: Event | None) -> None:
    """A place shared by several players is reported whole before anything else happens."""
    if not isinstance(previous, PlayerBusted) or t.active < previous.place:
        return
    if isinstance(event, PlayerBusted) and (event.place, event.shares) == (
        previous.place,
        previous.shares,
    ):
        return
    busted = previous.place + previous.shares - 1 - t.active
    raise RuleError(
        f"place {previous.place:,} is shared by {previous.shares:,} players, but only "
        f"{busted:,} busted in that hand",
        field="shares",
        reason="shares_incomplete",
        params={"place": previous.place, "shares": previous.shares, "busted": busted},
    )


def _bust_undone(t: Tournament, e: BustUndone) -> None:
    p = _player(t, e.player)
    record = p.bust
    if not p.busted or record is None:
        raise NotAllowed(
            f"{p.id} is not out", field="player", reason="player_not_out", params={"player": p.id}
        )
    if e.table != record.table:
        raise _not_as_recorded("table", e.table, record.table)
    if e.seat != record.seat:
        raise _not_as_recorded("seat", e.seat, record.seat)
    table = _table(t, e.table)
    if table.hand != record.hand:
        raise NotAllowed(
            f"table {table.number} has dealt a hand since {p.id} busted: "
            "the right to dispute has ended (TDA rule 19)",
            field="player",
            reason="dispute_over",
            params={"table": table.number, "player": p.id},
        )
    if table.status not in ("open", "breaking"):
        raise NotAllowed(
            f"table {table.number} is {table.status}: {p.id} has no seat to return to",
            field="player",
            reason="no_seat_to_return",
            params={"table": table.number, "status": table.status, "player": p.id},
        )
    if t.state.final_table is not None and not record.at_final:
        raise NotAllowed(
            "the final table has been drawn: its seats are taken by the final draw",
            field="player",
            reason="final_drawn",
        )
    holder = table.occupants.get(_seat(table, e.seat))
    if holder is not None:
        raise BadSeat(
            f"table {table.number} seat {e.seat} is now taken by {holder}",
            field="seat",
            reason="seat_now_taken",
            params={"table": table.number, "seat": e.seat, "holder": holder},
        )


def _bought(t: Tournament, e: RebuyMade | AddOnMade) -> None:
    p = _seated(t, e.player)
    _in_range("chips", e.chips, 0, MAX_CHIPS)
    _in_range("price", e.price, 0, MAX_CHIPS)
    made = p.rebuys if isinstance(e, RebuyMade) else p.add_ons
    if e.count != made + 1:
        raise _not_as_recorded("count", e.count, made + 1)
    stack = None if p.stack is None else p.stack + e.chips
    if e.stack != stack:
        raise _not_as_recorded("stack", e.stack, stack)
    if stack is not None:
        _stack(stack)


# Seats and moves ----------------------------------------------------------------------------


def _players_moved(t: Tournament, e: PlayersMoved) -> None:
    movers: set[PlayerId] = set()
    for i, m in enumerate(e.moves):
        where = f"moves[{i}]"
        if m.player in movers:
            raise _listed_twice(m.player, f"{where}.player")
        movers.add(m.player)
        _at(t, m.player, m.from_.table, m.from_.seat, f"{where}.from")
    taken: dict[tuple[TableNo, SeatNo], PlayerId] = {}
    for i, m in enumerate(e.moves):
        where = f"moves[{i}].to"
        table = _open(t, m.to.table, f"{where}.table")
        seat = _seat(table, m.to.seat, f"{where}.seat")
        holder = table.occupants.get(seat)
        if holder is not None and holder in movers:
            holder = None  # everybody stands up before anybody sits down
        holder = holder or taken.get((table.number, seat))
        if holder is not None:
            raise _taken(table.number, seat, holder, f"{where}.seat")
        taken[(table.number, seat)] = m.player


def _seats_drawn(t: Tournament, e: SeatsDrawn) -> None:
    if t.state.drawn:
        raise NotAllowed(
            "seats are already drawn: late entries are seated as they register",
            reason="seats_drawn",
        )
    seated: set[PlayerId] = set()
    taken: dict[tuple[TableNo, SeatNo], PlayerId] = {}
    for i, s in enumerate(e.seats):
        where = f"seats[{i}]"
        if s.player in seated:
            raise _listed_twice(s.player, f"{where}.player")
        seated.add(s.player)
        _unseated(t, s.player, f"{where}.player")
        table = _open(t, s.table, f"{where}.table")
        seat = _free(table, _seat(table, s.seat, f"{where}.seat"), f"{where}.seat")
        if (table.number, seat) in taken:
            raise _taken(table.number, seat, taken[(table.number, seat)], f"{where}.seat")
        taken[(table.number, seat)] = s.player


def _table_set_up(t: Tournament, e: TableSetUp) -> None:
    table = _new_table(t, e.table, e.seats)
    seated: set[PlayerId] = set()
    for seat, pid in sorted(e.occupants.items()):
        where = f"occupants.{seat}"
        _seat(table, seat, where)
        if pid in seated:
            raise _listed_twice(pid, where)
        seated.add(pid)
        if pid in t.state.players:
            _unseated(t, pid, where)
        else:
            _id(pid, where)
    _positions(table, e.positions)
    for i, seat in enumerate(e.opened):
        _seat(table, seat, f"opened[{i}]")


def _stacks_counted(t: Tournament, e: StacksCounted) -> None:
    table = _table(t, e.table)
    seen: set[PlayerId] = set()
    for i, c in enumerate(e.stacks):
        where = f"stacks[{i}]"
        p = _seated(t, c.player, f"{where}.player")
        if p.id in seen:
            raise _listed_twice(p.id, f"{where}.player")
        seen.add(p.id)
        if p.table != table.number:
            raise NotAllowed(
                f"{p.id} is not at table {table.number} (they sit at table {p.table})",
                field=f"{where}.player",
                reason="count_not_at_table",
                params={"player": p.id, "table": table.number, "at_table": p.table},
            )
        _stack(c.stack, f"{where}.stack")
    _not_negative("at", e.at)


def _chips_raced(t: Tournament, e: ChipsRaced) -> None:
    table = lookups.unbroken_table(t, e.table)
    seats: set[SeatNo] = set()
    before = 0
    for i, r in enumerate(e.players):
        where = f"players[{i}]"
        _at(t, r.player, table.number, r.seat, f"{where}.player")
        _stack(r.stack, f"{where}.stack")
        seats.add(r.seat)
        before += r.stack
    after = 0
    for i, s in enumerate(e.result.seats):
        where = f"result.seats[{i}]"
        if s.seat not in seats:
            raise _empty(table.number, s.seat, f"{where}.seat")
        _stack(s.stack, f"{where}.stack")
        after += s.stack
    if e.change != after - before:
        raise _not_as_recorded("change", e.change, after - before, "change")


# Lookups and limits that name what is wrong -------------------------------------------------


_player = lookups.player
_in = lookups.still_in
_seated = lookups.seated


def _unseated(t: Tournament, pid: PlayerId, field: str) -> Player:
    p = _in(t, pid, field)
    if p.table is not None and p.seat is not None:
        raise NotAllowed(
            f"{pid} already sits at table {p.table} seat {p.seat}",
            field=field,
            reason="already_there",
            params={"player": pid, "table": p.table, "seat": p.seat},
        )
    return p


def _at(
    t: Tournament, pid: PlayerId, table: TableNo, seat: SeatNo, field: str = "player"
) -> Player:
    """A player seated at ``table`` ``seat``, as the event says."""
    p = _seated(t, pid, field)
    if (p.table, p.seat) != (table, seat):
        raise _wrong_seat(p, table, seat, field)
    return p


def _wrong_seat(p: Player, table: TableNo, seat: SeatNo, field: str = "player") -> BadSeat:
    return BadSeat(
        f"{p.id} is not at table {table} seat {seat} (they sit at table {p.table} seat {p.seat})",
        field=field,
        reason="bust_wrong_seat",
        params={
            "player": p.id,
            "table": table,
            "seat": seat,
            "at_table": p.table,
            "at_seat": p.seat,
        },
    )


_table = lookups.table


def _open(t: Tournament, n: TableNo, field: str = "table") -> Table:
    table = _table(t, n, field)
    if table.status != "open":
        raise NotAllowed(
            f"table {table.number} is {table.status}",
            field=field,
            reason="table_not_open",
            params={"table": table.number, "status": table.status},
        )
    return table


def _playing(t: Tournament, n: TableNo) -> Table:
    """An open table with a game: two players at least."""
    table = _open(t, n)
    if table.count < 2:
        raise NotAllowed(
            f"table {table.number} has fewer than 2 players",
            field="table",
            reason="table_short",
            params={"table": table.number},
        )
    return table


def _new_table(t: Tournament, n: TableNo, seats: int) -> Table:
    if n in t.state.tables:
        raise NotAllowed(
            f"table {n} already exists", field="table", reason="table_exists", params={"table": n}
        )
    _in_range("table", n, 1, MAX_TABLE, "table")
    _in_range("seats", seats, MIN_SEATS, MAX_SEATS)
    return Table(number=n, seats=seats)


def _seat(table: Table, seat: SeatNo, field: str = "seat") -> SeatNo:
    if not 1 <= seat <= table.seats:
        raise BadSeat(
            f"table {table.number} has no seat {seat}",
            field=field,
            reason="seat_unknown",
            params={"table": table.number, "seat": seat},
        )
    return seat


def _free(table: Table, seat: SeatNo, field: str) -> SeatNo:
    holder = table.occupants.get(seat)
    if holder is not None:
        raise _taken(table.number, seat, holder, field)
    return seat


def _taken(table: TableNo, seat: SeatNo, holder: PlayerId, field: str) -> BadSeat:
    return BadSeat(
        f"table {table} seat {seat} is taken by {holder}",
        field=field,
        reason="seat_taken",
        params={"table": table, "seat": seat, "holder": holder},
    )


def _empty(table: TableNo, seat: SeatNo, field: str) -> BadSeat:
    return BadSeat(
        f"table {table} seat {seat} is empty",
        field=field,
        reason="seat_empty",
        params={"table": table, "seat": seat},
    )


def _positions(table: Table, positions: Positions | None) -> None:
    if positions is not None:
        _seat(table, positions.button, "positions.button")
        _seat(table, positions.small_blind, "positions.small_blind")
        _seat(table, positions.big_blind, "positions.big_blind")


def _listed_twice(pid: PlayerId, field: str) -> NotAllowed:
    return NotAllowed(
        f"{pid} is listed twice", field=field, reason="player_listed_twice", params={"player": pid}
    )


def _structure(t: Tournament) -> None:
    if t.state.structure is None:
        raise NotAllowed(
            "this tournament has no structure: the clock has no levels", reason="no_structure"
        )


def _step(t: Tournament, index: int, field: str) -> None:
    structure = t.state.structure
    if structure is None:
        _structure(t)
        return
    last = len(structure.levels) - 1
    if not 0 <= index <= last:
        raise NotAllowed(
            f"there is no step {index}: the structure has steps 0 to {last}",
            field=field,
            reason="no_step",
            params={"step": index, "last": last},
        )


def _stack(stack: int, field: str = "stack") -> None:
    _in_range("stack", stack, 0, MAX_CHIPS, field)


def _not_negative(name: str, value: float) -> None:
    if not value >= 0:  # NaN too
        raise _out_of_range(name, value, 0, None, name)


def _in_range(name: str, value: int, least: int, most: int, field: str | None = None) -> None:
    if not least <= value <= most:
        raise _out_of_range(name, value, least, most, field or name)


def _out_of_range(name: str, value: float, least: int, most: int | None, field: str) -> BadValue:
    return BadValue(
        f"{name} {_said(value)} is outside {_said(least)} to {_said(most)}",
        field=field,
        reason="out_of_range",
        params={"name": name, "value": value, "least": least, "most": most},
    )


def _not_as_recorded(
    name: str, value: Param, expected: Param, field: str | None = None
) -> RuleError:
    return RuleError(
        f"{name} {_said(value)} does not follow the log: it would be {_said(expected)}",
        field=field or name,
        reason="not_as_recorded",
        params={"name": name, "value": value, "expected": expected},
    )


def _place_wrong(pid: PlayerId, place: int, shares: int, left: int) -> RuleError:
    if shares == 1:
        message = f"{pid} cannot finish in place {place:,} with {left:,} players left"
    else:
        message = (
            f"{pid} cannot share place {place:,} among {shares:,} players with {left:,} "
            "players left"
        )
    return RuleError(
        message,
        field="place",
        reason="place_wrong",
        params={"player": pid, "place": place, "shares": shares, "left": left},
    )


def _log_start() -> RuleError:
    return RuleError(
        "a log starts with tournament_created, and holds it only there", reason="log_start"
    )


def _said(value: Param) -> str:
    """A parameter as the templates write it (``web/js/errors.js``)."""
    if value is None:
        return "–"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def _kind(event: Event) -> str:
    return str(type(event).__struct_config__.tag)
