"""Seat cards: what a printed card says, and the short code the floor checks it by.

A card names the player, the table and seat, the tournament and the time it was printed,
and a code of four characters drawn from the tournament, the player, the entry and the seat.
A card printed before a move, for an entry that busted, or written by hand carries a code
that is not the seat's code now: the floor types the table, the seat and the code, and the
server says whose seat it is (``check``). It tells a stale card from a current one; it is
no signature (whoever knows the ids can work a code out), so a forged card is the floor's
to spot, as without it.
"""

from __future__ import annotations

import hashlib
from typing import Final

import msgspec

from ..model import PlayerId, SeatNo, TableNo
from ..state import Player, Tournament

#: Letters and digits nobody mistakes for another on a receipt (no 0/O, 1/I/L, 2/Z, 5/S, 8/B).
ALPHABET: Final = "ACDEFHJKMNPQRTUVWXY34679"
LENGTH: Final = 4


def code(tid: str, player: PlayerId, entry: int, table: TableNo, seat: SeatNo) -> str:
    digest = hashlib.sha256(f"{tid}\x1f{player}\x1f{entry}\x1f{table}\x1f{seat}".encode()).digest()
    n = int.from_bytes(digest[:8], "big")
    out = []
    for _ in range(LENGTH):
        n, i = divmod(n, len(ALPHABET))
        out.append(ALPHABET[i])
    return "".join(out)


def player_code(t: Tournament, p: Player) -> str | None:
    """The code of the seat ``p`` sits in now; None while unseated."""
    if p.table is None or p.seat is None:
        return None
    return code(t.state.id, p.id, p.entries, p.table, p.seat)


class CardCheck(msgspec.Struct, frozen=True, kw_only=True):
    """A card checked: ``valid`` when its code is the code of that seat now."""

    table: TableNo
    seat: SeatNo
    code: str
    valid: bool
    #: Who sits there now (None: nobody), and whether the code is one this player had.
    player: PlayerId | None
    name: str | None


def check(t: Tournament, table: TableNo, seat: SeatNo, said: str) -> CardCheck:
    """Whether a card for ``table`` and ``seat`` with code ``said`` is the seat's card now."""
    said = "".join(said.split()).upper()
    at = t.state.tables.get(table)
    pid = at.occupants.get(seat) if at is not None else None
    p = t.state.players.get(pid) if pid is not None else None
    valid = p is not None and player_code(t, p) == said
    return CardCheck(
        table=table,
        seat=seat,
        code=said,
        valid=valid,
        player=p.id if p else None,
        name=p.name if p else None,
    )
