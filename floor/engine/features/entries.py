"""Entries: a registration (and re-entry), the draw, and the checks of their logged events.

Each command's decision (``decide`` calls it) and each logged event's check (``validate``
calls it) live here together, calling the same refusals.
"""

from __future__ import annotations

import math
import random

from .. import (
    alternates,
    clock,
    day_end,
    entry_list,
    finish,
    hand_for_hand,
    lookups,
    moves,
    players,
    seating,
    windows,
)
from ..commands import (
    DrawSeats,
    JoinAlternates,
    QueueAlternate,
    Register,
    RegisterMany,
    RenamePlayer,
    SeatAlternate,
    SetSpecialNeeds,
    Unregister,
)
from ..dispatch import decides, folds, validates
from ..errors import (
    NotAllowed,
    refused,
)
from ..events import (
    Event,
    PlayerRegistered,
    PlayerRenamed,
    PlayerSeated,
    PlayerUnregistered,
    SeatsDrawn,
    SpecialNeedsSet,
    TableOpened,
)
from ..model import PlayerId, SeatNo, Spot, TableNo
from ..names import check_player_id, shown_name
from ..seating import draw_initial, registration_seat, seat_at_new_table
from ..state import Player, Table, Tournament
from . import checks


def registration(t: Tournament, c: Register, now: float) -> PlayerRegistered:
    """What ``decide`` would refuse of ``c`` or register, without drawing its seat: the
    import's preview asks this of every row (``entry_check``). The seat a late entry is drawn
    to refuses nobody while no final table is drawn, and drawing it replans the room: at
    10,000 players, 17 ms an entry."""
    for bar in (finish.bar, hand_for_hand.bar, day_end.bar):
        if (refusal := bar(t, c)) is not None:
            raise refusal
    return _registered(t, c, now)


def register(
    t: Tournament, c: Register, now: float, rng: random.Random, *, held: bool = False
) -> list[Event]:
    s = t.state
    if not held and alternates.full(s):
        # The flight is full: the entry waits in the alternates' line (``held``: its seat).
        return alternates.queue(t, c, now, _registered)
    registered = _registered(t, c, now, window=not held)
    events: list[Event] = [registered]
    if not s.drawn:
        return events
    pid = registered.player
    probe = Player(id=pid, name=registered.name, special_needs=c.special_needs)
    spot = registration_seat(t, probe, moves.planned_seats(t), rng)
    if spot is None:
        if s.final_table is not None:
            raise refused(NotAllowed, "final_table_full", {}, field="player")
        # Every seat is taken: the floor opens the next table for the new entry.
        number = max(s.tables, default=0) + 1
        events.append(TableOpened(table=number, seats=s.rules.seats))
        fresh = Table(number=number, seats=s.rules.seats)
        spot = Spot(number, seat_at_new_table(t, fresh, probe, rng))
    events.append(PlayerSeated(player=pid, table=spot.table, seat=spot.seat, at=now))
    return events


def registered(t: Tournament, c: Register, now: float) -> PlayerRegistered:
    """The entry's own checks and its event, as the alternates' line asks them of a person
    put in line (``alternates.queue``)."""
    return _registered(t, c, now)


def _registered(t: Tournament, c: Register, now: float, *, window: bool = True) -> PlayerRegistered:
    """The entry's own checks, and the event that registers it (``window``: asking whether
    late registration is open; an alternate called before it closed holds the seat)."""
    s = t.state
    pid = c.player
    entry = 1
    name = c.name
    if pid is not None and pid in s.players:
        existing = s.players[pid]
        if (refusal := already_in(existing)) is not None:
            raise refusal
        step = clock.current_step(s, now)
        if window and (why := windows.re_entry_window(s, step)) is not None:
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
        if window and (why := windows.registration(s, clock.current_step(s, now))) is not None:
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
        lang=entry_list.language(c, s.players.get(pid)),
        ticket=c.ticket,
    )


def _final_table_has_room(t: Tournament) -> None:
    """Refuse an entry for the whole room, before any player's own limits, as the staff
    facts' sales say (``seating.final_table_full``)."""
    if seating.final_table_full(t):
        raise refused(NotAllowed, "final_table_full", {}, field="player")


def _new_id(t: Tournament) -> PlayerId:
    # Counting the withdrawn entries too: a new player never gets the id of one who left.
    n = len(t.state.players) + t.state.unregistered + 1
    while f"P{n:04d}" in t.state.players:
        n += 1
    return f"P{n:04d}"


def draw_seats(t: Tournament, c: DrawSeats, now: float, rng: random.Random) -> list[Event]:
    s = t.state
    if (refusal := already_drawn(t)) is not None:
        raise refusal
    waiting = [p for p in s.players.values() if p.table is None and not p.busted]
    if len(waiting) < 2:
        raise refused(NotAllowed, "draw_too_few", {})
    seats = s.rules.seats
    if c.tables is None:
        numbers = list(range(1, math.ceil(len(waiting) / seats) + 1))
    else:
        numbers = list(c.tables)
        if len(set(numbers)) != len(numbers):
            raise refused(NotAllowed, "table_listed_twice", {}, field="tables")
        if len(numbers) * seats < len(waiting):
            raise refused(
                NotAllowed,
                "draw_too_small",
                {
                    "tables": len(numbers),
                    "seats": seats,
                    "room": len(numbers) * seats,
                    "players": len(waiting),
                },
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
            raise refused(NotAllowed, "draw_table_not_free", {"table": n}, field="tables")
        tables.append(table)
    draw = draw_initial(t, waiting, tables, rng)
    events.append(SeatsDrawn(seats=tuple(draw), at=now))
    return events


def check_player_registered(t: Tournament, e: PlayerRegistered) -> None:
    existing = t.state.players.get(e.player)
    if existing is None:
        checks.player_id(e.player)
        expected = 1
    elif (refusal := already_in(existing)) is not None:
        raise refusal
    else:
        expected = existing.entries + 1
    if existing is None or e.name != existing.name:
        checks.in_range("name length", len(e.name), 1, checks.MAX_NAME, "name")
        shown = shown_name(e.name)
        if shown != e.name:
            raise checks.not_as_recorded("name", e.name, shown, "name")
    if e.entry != expected:
        raise checks.not_as_recorded("entry", e.entry, expected)
    for name in ("country", "note"):
        said = getattr(e, name)
        if said is not None and entry_list.shown_detail(said, name) != said:
            raise checks.not_as_recorded(name, said, entry_list.shown_detail(said, name), name)
    if e.stack is not None:
        checks.stack(e.stack)


def check_player_changed(
    t: Tournament, e: PlayerRenamed | SpecialNeedsSet | PlayerUnregistered
) -> None:
    """A change ``players`` makes after registration, as ``decide`` would have made it."""
    p = lookups.player(t, e.player)
    match e:
        case PlayerRenamed():
            checks.in_range("name length", len(e.name), 1, checks.MAX_NAME, "name")
            players.rename(p, e.name)  # refuses a name that shows otherwise, or is unchanged
            if shown_name(e.name) != e.name:
                raise checks.not_as_recorded("name", e.name, shown_name(e.name), "name")
            if e.was != p.name:
                raise checks.not_as_recorded("was", e.was, p.name)
        case SpecialNeedsSet():
            players.set_special_needs(p, e.special_needs)
        case PlayerUnregistered():
            # The window is the clock's at the time, which the log does not say.
            if (why := players.unregister_out(p) or players.unregister_bar(p)) is not None:
                raise players.refusal(why, p.id)
            if e.table is None or e.seat is None:
                checks.unseated(t, p.id, "player")
            else:
                checks.at(t, p.id, e.table, e.seat)
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
                    raise checks.not_as_recorded(name, getattr(e, name), value)


def check_seats_drawn(t: Tournament, e: SeatsDrawn) -> None:
    if (refusal := already_drawn(t)) is not None:
        raise refusal
    seated: set[PlayerId] = set()
    taken: dict[tuple[TableNo, SeatNo], PlayerId] = {}
    for i, s in enumerate(e.seats):
        where = f"seats[{i}]"
        if s.player in seated:
            raise checks.listed_twice(s.player, f"{where}.player")
        seated.add(s.player)
        checks.unseated(t, s.player, f"{where}.player")
        table = checks.open_table(t, s.table, f"{where}.table")
        seat = checks.free(table, lookups.seat(table, s.seat, f"{where}.seat"), f"{where}.seat")
        if (table.number, seat) in taken:
            raise checks.taken(table.number, seat, taken[(table.number, seat)], f"{where}.seat")
        taken[(table.number, seat)] = s.player


def already_drawn(t: Tournament) -> NotAllowed | None:
    """The refusal of a second draw: late entries are seated as they register."""
    if not t.state.drawn:
        return None
    return refused(NotAllowed, "seats_drawn", {})


def already_in(existing: Player) -> NotAllowed | None:
    """The refusal of an entry for a player still in (one out may enter again)."""
    if windows.standing(existing) == "out":
        return None
    return refused(NotAllowed, "player_exists", {"player": existing.id}, field="player")


def check_player_seated(t: Tournament, e: PlayerSeated) -> None:
    checks.unseated(t, e.player, "player")
    table = checks.open_table(t, e.table)
    checks.free(table, lookups.seat(table, e.seat), "seat")


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _special_needs_set(t: Tournament, e: SpecialNeedsSet) -> None:
    t.state.players[e.player].special_needs = e.special_needs


DECIDES = (
    decides(Register, register),
    decides(
        RegisterMany, lambda t, c, now, rng: entry_list.register_many(t, c, now, rng, register)
    ),
    decides(
        RenamePlayer, lambda t, c, now, rng: players.rename(lookups.player(t, c.player), c.name)
    ),
    decides(
        SetSpecialNeeds,
        lambda t, c, now, rng: players.set_special_needs(
            lookups.player(t, c.player), c.special_needs
        ),
    ),
    decides(
        Unregister, lambda t, c, now, rng: players.unregister(t, lookups.player(t, c.player), now)
    ),
    decides(DrawSeats, draw_seats),
    # The alternates' line registers its players as entries: ``alternates`` cannot import this
    # module (it is imported here), so its commands that need ``register`` are decided here.
    decides(QueueAlternate, lambda t, c, now, rng: alternates.queue(t, c, now, registered)),
    decides(JoinAlternates, lambda t, c, now, rng: alternates.queue(t, c, now, registered)),
    decides(
        SeatAlternate,
        lambda t, c, now, rng: alternates.seat(
            t, c, now, lambda r: register(t, r, now, rng, held=True)
        ),
    ),
)
CHECKS = (
    validates(PlayerRegistered, check_player_registered),
    validates(PlayerSeated, check_player_seated),
    validates(SeatsDrawn, check_seats_drawn),
    validates(PlayerRenamed, check_player_changed),
    validates(SpecialNeedsSet, check_player_changed),
    validates(PlayerUnregistered, check_player_changed),
)
FOLDS = (
    folds(PlayerRegistered, Tournament._player_registered),
    folds(PlayerRenamed, Tournament._player_renamed),
    folds(SpecialNeedsSet, _special_needs_set),
    folds(PlayerUnregistered, Tournament._player_unregistered),
    folds(PlayerSeated, Tournament._player_seated),
    folds(SeatsDrawn, Tournament._seats_drawn),
)
