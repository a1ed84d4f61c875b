"""What a forecast starts from: the live tournament read at an instant, as plain data.

``live_day`` is the one read of a ``Tournament`` the forecaster makes; it runs where the
tournament is held (a staff process), so it copies references and small numbers only and
walks the players once, for the counted stacks. Everything that grows with the history (the
bust-out rate, what already happened) is worked out from this copy in a worker process.
"""

from __future__ import annotations

import msgspec

from ..engine import clock
from ..engine.money import in_the_money, pool_of
from ..engine.state import Tournament, busted_since
from .model import CannotForecast, LiveDay, StackCount


def live_day(t: Tournament, now: float, version: int) -> LiveDay:
    """The day as it stands at ``now``; refused (``CannotForecast``) before there is anything
    to play: no structure, or no seats drawn."""
    s = t.state
    structure = s.structure
    if structure is None:
        raise CannotForecast("this tournament has no structure: there is no day to forecast")
    if not s.drawn:
        raise CannotForecast("the seats are not drawn yet: there is no field to forecast")
    due = clock.due(s, now)
    step = due[-1].level if due else s.clock.level
    # Level changes due but not written yet (the clock driver writes them in a moment).
    remaining = max(0.0, (due[-1].ends_at or now) - now) if due else clock.remaining(s.clock, now)
    # The places paid by the payout table's row for the entries so far, counted (working
    # out every prize of a 1,500-place table takes tens of milliseconds); the bubble is
    # looked for only once the players left are that few.
    prize = structure.prize
    payouts = tuple((row.entries, len(row.percents)) for row in prize.payouts) if prize else ()
    places = max((n for entries, n in payouts if entries <= s.entries), default=0)
    money = in_the_money(t, pool_of(s)) if places and t.active <= places else None
    changed_at = s.level_history[-1].at if s.level_history else None
    counts: list[StackCount] = []
    re_entries = 0
    tables = s.tables
    for p in s.players.values():
        if p.entries > 1:
            re_entries += p.entries - 1
        if p.busted or not p.counted or p.stack is None or p.counted_at is None:
            continue
        # A count taken before the level in play, or before a bust-out at its table, is
        # old (``count_age``): the average stands for that player instead.
        if changed_at is not None and p.counted_at < changed_at:
            continue
        table = tables.get(p.table) if p.table is not None else None
        if table is not None and busted_since(table, p) and (table.busted_at or 0) > p.counted_at:
            continue
        counts.append(StackCount(p.stack, p.counted_at))
    fill = s.rules.fill
    open_tables = list(t.open_tables())
    return LiveDay(
        tournament=s.id,
        name=s.name,
        now=now,
        version=version,
        # Without its payout table (a few places per row): the runs need the places only.
        structure=msgspec.structs.replace(structure, prize=None) if prize else structure,
        payouts=payouts,
        re_entry=prize.re_entry if prize else None,
        seats=s.rules.seats,
        fill=fill,
        final_table=s.rules.final_table,
        step=step,
        remaining=remaining,
        running=s.clock.running,
        started=s.clock.started,
        players_left=len(s.players) - s.busted,
        entries=s.entries,
        re_entries=re_entries,
        chips=s.entries * structure.starting_stack + s.chips_added,
        tables_open=len(open_tables),
        seats_open=sum(tb.seats for tb in open_tables),
        final_formed=s.final_table is not None,
        counts=tuple(counts),
        field_history=tuple(s.field_history),
        level_history=tuple(s.level_history),
        flight=s.flight.rules if s.flight is not None else None,
        hand_for_hand_seconds=s.rules.hand_for_hand_seconds,
        hand_for_hand=s.hand_for_hand is not None,
        money_at=money.at if money is not None else None,
        places_paid=places,
        day_ended_at=s.day_ended.at if s.day_ended is not None else None,
        winner_at=s.finished_at if s.winner is not None else None,
        mixed=s.carried is not None,
    )
