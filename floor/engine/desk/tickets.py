"""The tickets a desk may take for an entry: the house's ledger read for one event and one
player (``house.tickets``: the rules of use are there; this only lists)."""

from __future__ import annotations

from typing import Final

from ..house.tickets import Ledger, Ticket

#: Tickets listed at most for one entry (the player's own first).
MOST: Final = 50


def usable(
    ledger: Ledger, held: set[str], tid: str, player: str | None, now: float, most: int = MOST
) -> list[Ticket]:
    """The tickets that pay an entry to ``tid`` for ``player`` now (None: a new player): issued,
    not held by a registration being decided, not expired, for this event, and either the
    player's own or not bound to another. The player's own first, then the oldest."""

    def free(t: Ticket) -> bool:
        i = t.issue
        return (
            t.status == "issued"
            and i.id not in held
            and i.target == tid
            and (i.expires is None or now < i.expires)
            and (t.holder is None or i.transferable or t.holder == player)
        )

    found = [t for t in ledger.tickets.values() if free(t)]
    found.sort(key=lambda t: (t.holder != player or player is None, t.at, t.issue.id))
    return found[:most]
