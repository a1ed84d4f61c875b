"""Day 2 of an event: the flights' survivors together, with their bags, at a redrawn room.

The merge keeps each player once: a player who bagged in several flights brings the bag the
house's rule picks (``flights.forward``), the others are set aside and listed. A flight whose
total-chips check failed (``bagging.room_check``: the bags add up to more or fewer chips than
must exist, beyond its tolerance) goes into Day 2 only on the director's word with a reason,
which Day 2's log keeps (``FieldCarried``) and its screens and sheets show. The redraw is
the initial draw's (``seating.draw_initial``: counts differ by one at most, reserved seats kept
for who needs one), with the random source passed in; its seats are recorded in Day 2's first
events, so replaying Day 2's log never draws again. The prize pool is the flights' together
and the places count the whole event's field.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Annotated

import msgspec
from msgspec import Meta

from .bagging import room_check
from .dispatch import folds, validates
from .errors import NotAllowed, refused
from .events import (
    CountedStack,
    Event,
    FieldCarried,
    LevelChanged,
    PlayerRegistered,
    Seated,
    SeatsDrawn,
    StacksCounted,
    TableOpened,
    TournamentCreated,
)
from .features import checks
from .flights import Bagged, CheckFailed, Flight, StackForward, forward
from .model import PlayerId, TableNo
from .prize import PrizePool, payouts
from .rules import Level, Rules, Structure
from .seating import draw_initial
from .state import Player, Table, Tournament


class Acknowledgement(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The director's word that Day 2 is made although the chip checks of ``flights`` failed:
    each failed check is acknowledged by name, so a word given for one flight never covers
    another the director was not shown."""

    reason: Annotated[str, Meta(min_length=1, max_length=500)]
    flights: Annotated[tuple[str, ...], Meta(min_length=1, max_length=50)]


class Day2Plan(msgspec.Struct, frozen=True, kw_only=True):
    """Day 2 as drawn: who plays with which bag, where they sit, and the event's money."""

    players: tuple[Bagged, ...]
    #: Bags of players who bagged more than once, not brought forward.
    set_aside: tuple[Bagged, ...]
    seats: tuple[Seated, ...]
    tables: tuple[TableNo, ...]
    #: The event's field: every flight's entries (re-entries included).
    entries: int
    rebuys: int
    add_ons: int
    chips: int
    pool: PrizePool | None
    #: The flights whose chip check failed, and the director's reason for going on.
    checks: tuple[CheckFailed, ...] = ()
    acknowledged: str | None = None


def merge(flights: Sequence[Flight], rule: StackForward) -> tuple[list[Bagged], list[Bagged]]:
    """Every survivor once, with the bag the house's rule brings forward, in the order they
    first bagged; and the bags set aside. Refuses a flight listed twice."""
    seen: set[str] = set()
    for i, f in enumerate(flights):
        if f.id in seen:
            raise refused(NotAllowed, "flight_twice", {"flight": f.id}, field=f"flights[{i}]")
        seen.add(f.id)
    by_player: dict[PlayerId, list[Bagged]] = {}
    for f in sorted(flights, key=lambda f: f.order):
        for b in f.survivors:
            by_player.setdefault(b.player, []).append(b)
    kept: list[Bagged] = []
    aside: list[Bagged] = []
    for bags in by_player.values():
        if len(bags) == 1:
            kept.append(bags[0])
            continue
        chosen = forward(rule, bags)
        kept.append(chosen)
        aside.extend(b for b in bags if b is not chosen)
    return kept, aside


def plan(
    flights: Sequence[Flight],
    rule: StackForward,
    rules: Rules,
    rng: random.Random,
    structure: Structure | None = None,
    acknowledge: Acknowledgement | None = None,
) -> Day2Plan:
    """Day 2 drawn at tables of ``rules.seats`` (numbered from 1, as few as seat everybody),
    the reserved seats of ``rules`` kept for the players who need one. Refused where a
    flight's chip check failed, unless ``acknowledge`` gives the director's reason."""
    if not flights:
        raise refused(NotAllowed, "day2_no_flights", {}, field="flights")
    for i, f in enumerate(flights):
        if f.unbagged:
            raise refused(
                NotAllowed,
                "flight_not_bagged",
                {"flight": f.id, "players": f.unbagged},
                field=f"flights[{i}]",
            )
    checks = tuple(f.check_failed for f in flights if f.check_failed is not None)
    reason = acknowledge.reason.strip() if acknowledge is not None else ""
    if acknowledge is not None and not reason:
        raise refused(NotAllowed, "day2_ack_reason", {}, field="acknowledge.reason")
    seen = set(acknowledge.flights) if acknowledge is not None else set()
    unacknowledged = [c for c in checks if c.flight not in seen]
    if unacknowledged:
        c = unacknowledged[0]
        raise refused(
            NotAllowed,
            "day2_check_failed",
            {
                "flight": c.flight,
                "difference": c.difference,
                "tolerance": c.tolerance,
                "flights": len(unacknowledged),
            },
            field="acknowledge",
        )
    kept, aside = merge(flights, rule)
    if len(kept) < 2:
        raise refused(NotAllowed, "draw_too_few", {}, field="flights")
    numbers, seats = redraw([(b.player, b.name, b.special_needs) for b in kept], rules, rng)
    entries = sum(f.entries for f in flights)
    rebuys = sum(f.rebuys for f in flights)
    add_ons = sum(f.add_ons for f in flights)
    prize = structure.prize if structure is not None else None
    return Day2Plan(
        players=tuple(kept),
        set_aside=tuple(aside),
        seats=tuple(seats),
        tables=numbers,
        entries=entries,
        rebuys=rebuys,
        add_ons=add_ons,
        chips=sum(b.stack for b in kept),
        pool=payouts(prize, entries, rebuys, add_ons) if prize is not None else None,
        checks=checks,
        # Kept only where it was needed: a reason given for nothing is no acknowledgement.
        acknowledged=reason if checks else None,
    )


#: Who Day 2 draws: each carried player's id, name and whether they need a reserved seat, in
#: the order of their entries in Day 2's log.
Drawn = Sequence[tuple[PlayerId, str, bool]]


def redraw(
    drawn: Drawn, rules: Rules, rng: random.Random
) -> tuple[tuple[TableNo, ...], tuple[Seated, ...]]:
    """Day 2's tables (numbered from 1, as few as seat everybody) and its random draw: the
    same from the same players, rules and source, so that a committed draw (``fair``) is made
    again from Day 2's own log."""
    t = Tournament.create(TournamentCreated(id="day2", name="", rules=rules))
    players = [Player(id=pid, name=name, special_needs=needs) for pid, name, needs in drawn]
    count = math.ceil(len(players) / rules.seats)
    while True:
        # Reserved seats nobody needs stay empty: a full room of them needs one more table.
        numbers = tuple(range(1, count + 1))
        tables = [Table(number=n, seats=rules.seats) for n in numbers]
        try:
            return numbers, tuple(draw_initial(t, players, tables, rng))
        except NotAllowed as refused:
            if refused.reason != "draw_table_no_room":
                raise
            count += 1


def redrawn(plan: Day2Plan, rules: Rules, rng: random.Random) -> Day2Plan:
    """``plan`` drawn again from ``rng`` (the committed seed of Day 2's first draw)."""
    drawn = [(b.player, b.name, b.special_needs) for b in plan.players]
    numbers, seats = redraw(drawn, rules, rng)
    return msgspec.structs.replace(plan, tables=numbers, seats=seats)


def drawn_from(events: Sequence[Event]) -> Drawn:
    """Who Day 2's first events register, as ``redraw`` takes them."""
    return [(e.player, e.name, e.special_needs) for e in events if isinstance(e, PlayerRegistered)]


def flight_of(t: Tournament) -> Flight:
    """A flight's tournament as Day 2 takes it, once its day has ended. A tournament that is
    no flight of an event is a one-flight event: a day of its own, played on another day."""
    s = t.state
    if s.day_ended is None:
        raise refused(NotAllowed, "day_not_ended", {})
    order = s.flight.order if s.flight is not None else 1
    bags = {b.player: b for sheet in s.bags.values() for b in sheet.bags}
    survivors: list[Bagged] = []
    unbagged = 0
    for p in s.players.values():
        if p.busted:
            continue
        b = bags.get(p.id)
        if b is None:
            unbagged += 1
            continue
        survivors.append(
            Bagged(
                player=p.id,
                name=p.name,
                flight=s.id,
                order=order,
                stack=b.stack,
                bag=b.bag,
                special_needs=p.special_needs,
            )
        )
    check = room_check(t)
    failed = (
        CheckFailed(
            flight=s.id,
            expected=check.expected,
            counted=check.counted,
            difference=check.difference,
            tolerance=check.tolerance,
        )
        if check.flagged and not unbagged
        else None
    )
    return Flight(
        id=s.id,
        name=s.name,
        order=order,
        entries=s.entries,
        rebuys=s.rebuys,
        add_ons=s.add_ons,
        survivors=tuple(survivors),
        unbagged=unbagged,
        check_failed=failed,
    )


def resume_step(structure: Structure, ended: int) -> int:
    """The step Day 2 starts at: the first level after step ``ended``, where the flights
    stopped (a break between is skipped: the night was the break); the last step if none."""
    for i in range(ended + 1, len(structure.levels)):
        if isinstance(structure.levels[i], Level):
            return i
    return len(structure.levels) - 1


def first_events(
    created: TournamentCreated,
    day2: Day2Plan,
    step: int | None,
    now: float,
    by: str | None = None,
) -> list[Event]:
    """Day 2's log from its creation: the tables, the players with their bagged stacks, the
    redraw, the flights' failed chip checks with the reason ``by`` (the director) gave, and
    the clock at ``step`` (paused: the director starts it)."""
    events: list[Event] = [created]
    events.extend(TableOpened(table=n, seats=created.rules.seats) for n in day2.tables)
    events.extend(
        PlayerRegistered(player=b.player, name=b.name, special_needs=b.special_needs, stack=b.stack)
        for b in day2.players
    )
    events.append(SeatsDrawn(seats=day2.seats, at=now))
    # A bag is a count: Day 2 starts with every stack counted, and the chips in play are
    # the bags' sum, not its entries' starting stacks.
    stacks = {b.player: b.stack for b in day2.players}
    by_table: dict[TableNo, list[CountedStack]] = {}
    for seat in sorted(day2.seats, key=lambda x: (x.table, x.seat)):
        by_table.setdefault(seat.table, []).append(CountedStack(seat.player, stacks[seat.player]))
    events.extend(
        StacksCounted(table=n, stacks=tuple(counted), at=now) for n, counted in by_table.items()
    )
    structure = created.structure
    start = structure.starting_stack if structure is not None else 0
    events.append(
        FieldCarried(
            entries=day2.entries - len(day2.players),
            rebuys=day2.rebuys,
            add_ons=day2.add_ons,
            chips=day2.chips - start * day2.entries,
            at=now,
            checks=day2.checks,
            acknowledged=day2.acknowledged,
            by=by if day2.checks else None,
        )
    )
    if step is not None and structure is not None and step > 0:
        events.append(
            LevelChanged(
                at=now,
                level=step,
                ends_at=None,
                remaining=structure.levels[step].minutes * 60.0,
                by="director",
            )
        )
    return events


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _check_carried(t: Tournament, e: FieldCarried) -> None:
    for name in ("entries", "rebuys", "add_ons"):
        checks.not_negative(name, getattr(e, name))
    if e.checks and not (e.acknowledged or "").strip():
        # Day 2 is made from a failed check only on the director's reason (``make_day2``).
        raise refused(NotAllowed, "day2_ack_reason", {}, field="acknowledged")


CHECKS = (validates(FieldCarried, _check_carried),)
FOLDS = (folds(FieldCarried, Tournament._field_carried),)
