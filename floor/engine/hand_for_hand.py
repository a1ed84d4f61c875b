"""Hand-for-hand at the money bubble (TDA 2024 rule 21, FLOOR-RULES 8).

The director starts it when the players left reach the places paid plus one (``due``).
Every table playing deals one hand (its ``hand``) and reports it done with the players it
put out (``hand_done``); the players out wait, seated, until every table has reported:
then they are placed together by the chips they started the hand with (``same_hand``),
equal stacks sharing a place and its prize, and the next hand is dealt at every table at
once. It ends when a round leaves no more players than places paid (the bubble burst), or
by the director, who places the players a round has put out so far.

The clock stands still meanwhile: ``rules.hand_for_hand_seconds`` 0 stops it until the end;
more takes that much off the level per hand. The right to undo a bust-out follows the
hands reported: it ends when the player's table deals its next hand (``undo``).
"""

from __future__ import annotations

import random
from typing import Literal

import msgspec

from . import bounty, clock
from .commands import (
    Bust,
    BustSameHand,
    Command,
    EndHandForHand,
    Hand,
    HandDone,
    StartHandForHand,
)
from .dispatch import decides, folds, validates
from .errors import BadSeat, NotAllowed, RuleError, refused, seat_listed_twice
from .events import (
    ClockResumed,
    Event,
    HandForHandDealt,
    HandForHandEnded,
    HandForHandStarted,
    HandOut,
    HandReported,
)
from .hand_for_hand_round import HandForHand
from .model import PlayerId, SeatNo, TableNo
from .prize import payouts
from .same_hand import place
from .satellite_prize import seat_count
from .state import Player, Table, Tournament

TableStep = Literal["deal", "playing", "done"]


def places_paid(t: Tournament) -> int:
    """The places paid for the field so far; 0 without prize settings (a satellite's seats
    are its paid places)."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    if prize is None:
        return 0
    pool = payouts(prize, s.entries, s.rebuys, s.add_ons)
    if prize.satellite is None:
        return len(pool.places)
    # The seats won at a milestone are no longer played for (``milestone``).
    return max(seat_count(prize.satellite, pool.pool) - s.seats_won, 0)


def playing(t: Tournament) -> list[Table]:
    """The tables that play a hand-for-hand hand: open, with two players at least."""
    return [table for table in t.open_tables() if _plays(table)]


def _plays(table: Table) -> bool:
    return table.status == "open" and table.count >= 2


def due(t: Tournament) -> bool:
    """Whether the console suggests hand-for-hand now: one player from the money."""
    paid = places_paid(t)
    return (
        t.state.hand_for_hand is None
        and paid > 0
        and t.active == paid + 1
        and len(playing(t)) >= 2
        and t.state.winner is None
    )


def bar(t: Tournament, c: Command) -> RuleError | None:
    """What hand-for-hand refuses of a command before it is decided, or None."""
    h = t.state.hand_for_hand
    if h is None:
        if isinstance(c, HandDone | EndHandForHand):
            return refused(NotAllowed, "h4h_off", {})
        return None
    if isinstance(c, Bust | BustSameHand):
        # A player nobody knows is refused as such by ``decide``, naming the field: what is
        # wrong with the request comes before what hand-for-hand asks of it.
        named = [c.player] if isinstance(c, Bust) else [b.player for b in c.players]
        if any(pid is not None and pid not in t.state.players for pid in named):
            return None
        # Placed one by one, the players out at two tables could not share a place.
        return refused(NotAllowed, "h4h_bust_with_hand", {}, field="player")
    if isinstance(c, Hand):
        if c.table in h.done:
            return _reported(c.table, h)
        if c.table in h.dealt:
            return refused(
                NotAllowed, "h4h_dealt", {"table": c.table, "round": h.round}, field="table"
            )
    return None


def _reported(table: TableNo, h: HandForHand) -> NotAllowed:
    return refused(NotAllowed, "h4h_reported", {"table": table, "round": h.round}, field="table")


def start(t: Tournament, c: StartHandForHand, now: float) -> list[Event]:
    s = t.state
    if s.hand_for_hand is not None:
        raise refused(NotAllowed, "h4h_on", {})
    tables = len(playing(t))
    if tables < 2:
        raise refused(NotAllowed, "h4h_one_table", {"tables": tables})
    events: list[Event] = []
    if s.clock.running:
        due_now = clock.due(s, now)
        events += [*due_now, clock.pause(s, now, due_now)]
    events.append(HandForHandStarted(at=now, paused_clock=s.clock.running))
    return events


def hand_done(t: Tournament, c: HandDone, now: float, rng: random.Random) -> list[Event]:
    h = t.state.hand_for_hand
    assert h is not None  # ``bar`` refused it otherwise
    table = t.state.tables.get(c.table)
    if table is None or not _plays(table):
        raise _not_playing(t, c.table)
    if table.number in h.done:
        raise _reported(table.number, h)
    out: list[HandOut] = []
    seen: set[SeatNo] = set()
    for i, gone in enumerate(c.out):
        where = f"out[{i}]"
        if not 1 <= gone.seat <= table.seats:
            raise refused(
                BadSeat,
                "seat_unknown",
                {"table": table.number, "seat": gone.seat},
                field=f"{where}.seat",
            )
        if gone.seat in seen:
            raise seat_listed_twice(gone.seat, f"{where}.seat")
        seen.add(gone.seat)
        pid = table.occupants.get(gone.seat)
        if pid is None:
            raise refused(
                BadSeat,
                "seat_empty",
                {"table": table.number, "seat": gone.seat},
                field=f"{where}.seat",
            )
        p = t.player(pid)
        # Only a counted stack stands for the start of the hand: one nobody counted is what
        # the player was given, which would place everybody uncounted together.
        stack = gone.stack if gone.stack is not None else p.stack if p.counted else None
        if stack is None:
            raise refused(NotAllowed, "start_stack_needed", {"player": pid}, field=f"{where}.stack")
        won = bounty.winners_at(t, table, pid, gone.winners, f"{where}.winners")
        out.append(
            HandOut(table=table.number, seat=gone.seat, player=pid, stack=stack, eliminators=won)
        )
    if len(out) >= table.count:
        raise refused(NotAllowed, "h4h_table_all_out", {"table": table.number}, field="out")
    events: list[Event] = [HandReported(table=table.number, round=h.round, out=tuple(out))]
    done = {*h.done, table.number}
    if all(other.number in done for other in playing(t)):
        events += _round_over(t, h, [*h.out, *out], now, rng)
    return events


def ending(t: Tournament, now: float, rng: random.Random) -> list[Event]:
    """The round a command has left over, applied to ``t``: every table still playing has
    reported the hand, though the last report came before another table stopped playing
    it (broken by the director, or its players moved away). Else the round waited for a
    table that will never report, and only the director's end of hand-for-hand went on."""
    h = t.state.hand_for_hand
    if h is None or not h.done:
        return []
    tables = playing(t)
    if not tables or not all(table.number in h.done for table in tables):
        return []
    events = _round_over(t, h, list(h.out), now, rng)
    for e in events:
        t.apply(e)
    return events


def _not_playing(t: Tournament, n: TableNo) -> RuleError:
    table = t.state.tables.get(n)
    if table is None:
        return refused(NotAllowed, "table_unknown", {"table": n}, field="table")
    if table.status != "open":
        return refused(
            NotAllowed, "table_not_open", {"table": n, "status": table.status}, field="table"
        )
    return refused(NotAllowed, "table_short", {"table": n}, field="table")


def _placed(t: Tournament, out: list[HandOut], now: float, rng: random.Random) -> list[Event]:
    busted: list[tuple[int, Player]] = [(o.stack, t.player(o.player)) for o in out]
    # Named when each table reported; at the round's end a winner who no longer fits (out in
    # the same hand before the player) is left out rather than refuse the round.
    named = {o.player: o.eliminators for o in out}
    return list(bounty.eliminate(t, place(t, busted, now), named, {}, rng=rng, lenient=True))


def _round_over(
    t: Tournament, h: HandForHand, out: list[HandOut], now: float, rng: random.Random
) -> list[Event]:
    """Every table has played the hand: its players out placed together, the clock's time
    taken off, then the next hand dealt or the bubble burst."""
    events = _placed(t, out, now, rng)
    seconds = t.rules.hand_for_hand_seconds
    s = t.state
    remaining = s.clock.remaining
    if seconds and s.clock.started and not s.clock.running:
        adjusted = clock.adjust(s, -float(seconds), now)
        remaining = adjusted.remaining
        events.append(adjusted)
    paid = places_paid(t)
    if paid and t.active - len(out) <= paid:
        return events + _ended(t, h, "bubble", remaining, now)
    return [*events, HandForHandDealt(round=h.round + 1)]


def end(t: Tournament, c: EndHandForHand, now: float, rng: random.Random) -> list[Event]:
    h = t.state.hand_for_hand
    assert h is not None  # ``bar`` refused it otherwise
    return _placed(t, list(h.out), now, rng) + _ended(
        t, h, "director", t.state.clock.remaining, now
    )


def _ended(
    t: Tournament,
    h: HandForHand,
    by: Literal["bubble", "director"],
    remaining: float,
    now: float,
) -> list[Event]:
    events: list[Event] = [HandForHandEnded(by=by, at=now)]
    c = t.state.clock
    if h.paused_clock and c.started and not c.running:
        events.append(ClockResumed(at=now, ends_at=now + remaining))
    return events


# What the screens show ---------------------------------------------------------------------


class OutFacts(msgspec.Struct, frozen=True, kw_only=True):
    """A player out this round, still seated until every table has reported."""

    table: TableNo
    seat: SeatNo
    player: PlayerId


class HandForHandFacts(msgspec.Struct, frozen=True, kw_only=True):
    """Hand-for-hand as every screen shows it (the wall large, each table screen its own)."""

    #: The hand-for-hand hand being played (1 for the first).
    round: int
    #: Each table playing: "deal" (deal the hand now), "playing" it, or "done" (wait).
    tables: dict[TableNo, TableStep]
    #: The tables still playing this hand, in table order: the wall lists them.
    waiting_for: list[TableNo]
    out: list[OutFacts]
    #: The places paid (0: none set) and the players left, out this round not counted.
    paid: int
    left: int
    #: The clock: None, stopped until the end; else the seconds each hand takes off.
    seconds_per_hand: int | None


def facts(t: Tournament) -> HandForHandFacts | None:
    h = t.state.hand_for_hand
    if h is None:
        return None
    steps: dict[TableNo, TableStep] = {}
    for table in playing(t):
        n = table.number
        steps[n] = "done" if n in h.done else "playing" if n in h.dealt else "deal"
    return HandForHandFacts(
        round=h.round,
        tables=steps,
        waiting_for=sorted(n for n, step in steps.items() if step != "done"),
        out=[OutFacts(table=o.table, seat=o.seat, player=o.player) for o in h.out],
        paid=places_paid(t),
        left=t.active - len(h.out),
        seconds_per_hand=t.rules.hand_for_hand_seconds or None,
    )


# Imported logs ------------------------------------------------------------------------------

Recorded = HandForHandStarted | HandReported | HandForHandDealt | HandForHandEnded


def check(t: Tournament, e: Recorded) -> None:
    """Refuse a hand-for-hand event of an imported log that does not fit the state."""
    h = t.state.hand_for_hand
    if isinstance(e, HandForHandStarted):
        if h is not None:
            raise refused(NotAllowed, "h4h_on", {})
        return
    if h is None:
        raise refused(NotAllowed, "h4h_off", {})
    if isinstance(e, HandReported):
        if e.table in h.done:
            raise _reported(e.table, h)
        table = t.state.tables.get(e.table)
        if table is None or not _plays(table):
            raise _not_playing(t, e.table)
        for i, o in enumerate(e.out):
            if o.table != e.table or table.occupants.get(o.seat) != o.player:
                raise refused(
                    BadSeat,
                    "player_not_at_seat",
                    {"player": o.player, "table": e.table, "seat": o.seat},
                    field=f"out[{i}].player",
                )
    elif isinstance(e, HandForHandDealt) and e.round != h.round + 1:
        raise refused(
            NotAllowed, "h4h_round", {"round": e.round, "next": h.round + 1}, field="round"
        )


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _fold_reported(t: Tournament, e: HandReported) -> None:
    assert t.state.hand_for_hand is not None
    t.state.hand_for_hand.reported(e)


def _fold_dealt(t: Tournament, e: HandForHandDealt) -> None:
    assert t.state.hand_for_hand is not None
    t.state.hand_for_hand.next_round(e.round)


def _fold_started(t: Tournament, e: HandForHandStarted) -> None:
    t.state.hand_for_hand = HandForHand(started_at=e.at, paused_clock=e.paused_clock)


def _fold_ended(t: Tournament, e: HandForHandEnded) -> None:
    t.state.hand_for_hand = None


DECIDES = (
    decides(HandDone, hand_done),
    decides(StartHandForHand, lambda t, c, now, rng: start(t, c, now)),
    decides(EndHandForHand, end),
)
CHECKS = (
    validates(HandForHandStarted, check),
    validates(HandReported, check),
    validates(HandForHandDealt, check),
    validates(HandForHandEnded, check),
)
FOLDS = (
    folds(HandReported, _fold_reported),
    folds(HandForHandDealt, _fold_dealt),
    folds(HandForHandStarted, _fold_started),
    folds(HandForHandEnded, _fold_ended),
)
