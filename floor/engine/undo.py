"""Whether a bust-out may still be undone (TDA 2024 rule 19: until the table's next hand).

A floor that does not report every hand would keep every bust-out of the day open to undo,
so the window also ends when the clock's level changes and ``rules.undo_minutes`` after the
bust-out (``until``; the instant is passed in, never read from a clock). The bust-out that
made the winner is exempt from both: it stays open until the director closes the event.

``undo_bar`` returns None when the floor may undo ``p``'s bust-out now, else which refusal it
is; ``decide`` raises ``refusal(t, p, bar)``, and the derived facts list the bust-outs
``undoable`` finds it allows. A reason's code rather than a ``Why``: the facts ask it of
every bust-out on record after every batch and list only those allowed, so its parameters
are gathered only when ``decide`` refuses.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from .clock import current_step
from .errors import BadSeat, NotAllowed, Params, RuleError, refused
from .state import BustRecord, Player, Tournament

#: The refusals of an undo (reasons of ``errors.PARAMS``).
UndoBar = Literal[
    "player_not_out",
    "player_disqualified",
    "dispute_over",
    "undo_level_over",
    "undo_expired",
    "no_seat_to_return",
    "final_drawn",
    "seat_now_taken",
]


def undo_bar(
    t: Tournament, p: Player, now: float | None = None, *, timed: bool = True
) -> UndoBar | None:
    """Why ``p``'s bust-out cannot be undone at ``now`` (None: whatever the time), or None.
    Not ``timed``: but for the level and the minutes, which a log does not say (``validate``)."""
    record = p.bust
    if record is None or not p.busted:
        return "player_not_out"
    if p.id in t.state.rulings.disqualified:
        # A ruling, not a hand: it stands (PFP 1).
        return "player_disqualified"
    table = t.state.tables[record.table]
    if table.hand != record.hand:
        return "dispute_over"
    if timed and not _made_winner(t, record):
        s = t.state
        step = s.clock.level if now is None else current_step(s, now)
        if record.level is not None and s.clock.started and step != record.level:
            return "undo_level_over"
        end = until(t, p)
        if end is not None and now is not None and now >= end:
            return "undo_expired"
    # A breaking table deals no more hands, so its bust-outs stay open to dispute until it is
    # broken: the player sits down again and is drawn a break seat like the others (or waits
    # for one, FLOOR-RULES 10.4).
    if table.status not in ("open", "breaking"):
        return "no_seat_to_return"
    # Busted at the final table once it had formed, the player sits down there again; an
    # earlier bust-out has no final seat (the final draw seated the others).
    if t.state.final_table is not None and not record.at_final:
        return "final_drawn"
    if record.seat in table.occupants:
        return "seat_now_taken"
    return None


def until(t: Tournament, p: Player) -> float | None:
    """When ``p``'s bust-out can no longer be undone by the house's minutes (None: no time
    limit); the table's next hand or a new level may end the window sooner."""
    minutes = t.rules.undo_minutes
    record = p.bust
    if minutes <= 0 or record is None or _made_winner(t, record):
        return None
    return record.at + minutes * 60.0


def _made_winner(t: Tournament, record: BustRecord) -> bool:
    return t.state.winner is not None and record.place == 2


def undoable(t: Tournament, now: float | None = None) -> Iterator[Player]:
    """The players whose bust-out may be undone at ``now``, in the order of the players."""
    if not t.state.busted:
        return
    # A tight pass, once per batch: every player with a bust on record (an undo clears it).
    for p in t.state.players.values():
        if p.bust is not None and undo_bar(t, p, now) is None:
            yield p


def refusal(t: Tournament, p: Player, bar: UndoBar) -> RuleError:
    """What ``decide`` raises when ``undo_bar`` says ``bar`` (its words are the template's)."""
    params: Params = {"player": p.id}
    if bar == "player_disqualified":
        params["ruling"] = t.state.rulings.disqualified[p.id]
    elif bar != "player_not_out":
        record = p.bust
        assert record is not None
        table = t.table(record.table)
        params |= {"table": table.number, "status": table.status, "seat": record.seat}
        params["minutes"] = t.rules.undo_minutes
        if bar == "seat_now_taken":
            params["holder"] = table.occupants[record.seat]
            return refused(BadSeat, bar, params, "player")
    return refused(NotAllowed, bar, params, "player")
