"""Whether a bust-out may still be undone (TDA 2024 rule 19: until the table's next hand).

``undo_bar`` returns None when the floor may undo ``p``'s bust-out now, else which refusal it
is; ``decide`` raises ``refusal(t, p, bar)``, and the derived facts list the bust-outs
``undoable`` finds it allows. A reason's code rather than a ``Why``: the facts ask it of
every bust-out on record after every batch and list only those allowed, so its parameters
are gathered only when ``decide`` refuses.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from .errors import BadSeat, NotAllowed, RuleError
from .state import Player, Tournament

#: The refusals of an undo (reasons of ``errors.PARAMS``).
UndoBar = Literal[
    "player_not_out", "dispute_over", "no_seat_to_return", "final_drawn", "seat_now_taken"
]


def undo_bar(t: Tournament, p: Player) -> UndoBar | None:
    """Why ``p``'s bust-out cannot be undone now, or None."""
    record = p.bust
    if record is None or not p.busted:
        return "player_not_out"
    table = t.state.tables[record.table]
    if table.hand != record.hand:
        return "dispute_over"
    # A breaking table deals no more hands, so its bust-outs stay open to dispute until it is
    # broken: the player sits down again and is drawn a break seat like the others (or waits
    # for one, FLOOR-RULES 10.4).
    if table.status not in ("open", "breaking"):
        return "no_seat_to_return"
    if t.state.final_table is not None:
        return "final_drawn"
    if record.seat in table.occupants:
        return "seat_now_taken"
    return None


def undoable(t: Tournament) -> Iterator[Player]:
    """The players whose bust-out may be undone now, in the order of the players."""
    if not t.state.busted:
        return
    # A tight pass, once per batch: every player with a bust on record (an undo clears it).
    for p in t.state.players.values():
        if p.bust is not None and undo_bar(t, p) is None:
            yield p


def refusal(t: Tournament, p: Player, bar: UndoBar) -> RuleError:
    """What ``decide`` raises when ``undo_bar`` says ``bar``."""
    if bar == "player_not_out":
        return NotAllowed(
            f"{p.id} is not out", field="player", reason="player_not_out", params={"player": p.id}
        )
    record = p.bust
    assert record is not None
    table = t.table(record.table)
    match bar:
        case "dispute_over":
            return NotAllowed(
                f"table {table.number} has dealt a hand since {p.id} busted: "
                "the right to dispute has ended (TDA rule 19)",
                field="player",
                reason="dispute_over",
                params={"table": table.number, "player": p.id},
            )
        case "no_seat_to_return":
            return NotAllowed(
                f"table {table.number} is {table.status}: {p.id} has no seat to return to",
                field="player",
                reason="no_seat_to_return",
                params={"table": table.number, "status": table.status, "player": p.id},
            )
        case "final_drawn":
            return NotAllowed(
                "the final table has been drawn: its seats are taken by the final draw",
                field="player",
                reason="final_drawn",
            )
        case "seat_now_taken":
            holder = table.occupants[record.seat]
            return BadSeat(
                f"table {table.number} seat {record.seat} is now taken by {holder}",
                field="player",
                reason="seat_now_taken",
                params={"table": table.number, "seat": record.seat, "holder": holder},
            )
