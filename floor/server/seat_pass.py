"""The digital seat card's service: a player's card made (its QR code drawn here, by segno),
and a card scanned at a table (the key, the one scan, the seat; the dealer's view of the
player's document from the desk's records).

The rules are ``floor.engine.read.seat_pass``'s; this holds the key, the scans and the QR.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Final

import msgspec
import segno

from ..engine.desk.identity import Shown
from ..engine.model import PlayerId, SeatNo, TableNo
from ..engine.read import seat_pass as rules
from ..engine.state import Tournament
from ..store.seat_pass_port import Scanned, SeatPassStorage
from .desk import Desk
from .edges import BadRequest
from .principal import Forbidden, Principal

#: How long a card's one scan is remembered: longer than any tournament's day.
KEEP: Final = 14 * 86400.0


class Qr(msgspec.Struct, frozen=True, kw_only=True):
    """A QR code's modules, a row a string of 0 and 1 (no quiet zone: the screen adds it)."""

    size: int
    rows: list[str]


class CardView(msgspec.Struct, frozen=True, kw_only=True):
    """What the player's phone shows: the seat, and the code that proves it."""

    tournament: str
    player: PlayerId
    name: str
    entry: int
    table: TableNo
    seat: SeatNo
    code: str
    qr: Qr


class ScanView(rules.Judged, frozen=True, kw_only=True):
    """A card scanned: the engine's verdict (``used`` when its one scan was taken before),
    the dealer's view of the document when it is theirs here (None: none kept, or not
    shown), and the earlier scan of a used card."""

    document: Shown | None = None
    scanned: Scanned | None = None


@functools.lru_cache(maxsize=4096)
def qr_of(code: str) -> Qr:
    """The code's QR modules (a phone shows the same card often: drawn once)."""
    qr = segno.make_qr(code, error="m")
    rows = ["".join("1" if dark else "0" for dark in row) for row in qr.matrix_iter(border=0)]
    return Qr(size=len(rows), rows=rows)


class SeatPasses:
    def __init__(self, storage: SeatPassStorage, desk: Desk) -> None:
        self.storage = storage
        self.desk = desk

    async def card(self, t: Tournament, pid: PlayerId) -> CardView | None:
        binding = rules.card_of(t, pid)
        if binding is None:
            return None
        code = rules.sign(binding, await self.storage.key())
        return CardView(
            tournament=binding.tournament,
            player=pid,
            name=t.state.players[pid].name,
            entry=binding.entry,
            table=binding.table,
            seat=binding.seat,
            code=code,
            # Some milliseconds of pure Python when not drawn before: off the loop.
            qr=await asyncio.to_thread(qr_of, code),
        )

    async def scan(
        self,
        t: Tournament,
        code: str,
        principal: Principal,
        table: TableNo | None,
        now: float,
    ) -> ScanView:
        """``code`` read at ``table`` (a table screen's own; a floorperson's phone names one
        or none). The one scan is taken only by a card that is theirs, here."""
        if principal.at_table:
            if principal.tournament != t.state.id:
                raise Forbidden("this table screen belongs to another tournament")
            table = principal.table
        binding = rules.read(code, await self.storage.key())
        if binding is None:
            raise BadRequest("the code is not a seat card of this floor", field="code")
        if binding.tournament != t.state.id:
            raise BadRequest("the card is for another tournament", field="code")
        judged = rules.judge(t, binding, table)
        fields = msgspec.structs.asdict(judged)
        if judged.verdict != "ok":
            return ScanView(**fields)
        by = principal.device or principal.username or principal.role
        earlier = await self.storage.take(
            rules.used_mark(binding), Scanned(at=now, by=by, table=table), KEEP
        )
        if earlier is not None:
            return ScanView(**{**fields, "verdict": "used"}, scanned=earlier)
        name = judged.name or ""
        return ScanView(**fields, document=await self.desk.shown(name, binding.player))
