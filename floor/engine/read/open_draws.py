"""The open read API's document of a tournament's committed draws (``fair``): the commitment
and how far it is used, and for one player the draw that gave their seat with its seed, so
that a player checks on their own phone that the seed hashes back to the head committed
before registration opened (``web/check.html``); ``floor verify`` makes the draw again."""

from __future__ import annotations

import msgspec

from ..model import PlayerId
from ..state import Tournament
from .open_read import Doc


class PlayerDraw(msgspec.Struct, frozen=True, kw_only=True):
    id: PlayerId
    name: str
    table: int | None
    seat: int | None
    busted: bool
    #: The draw that gave this seat; None: a seat the rules chose (a balance move).
    draw: int | None


class RevealedSeed(msgspec.Struct, frozen=True, kw_only=True):
    index: int
    seed: str


class OpenDraws(Doc, frozen=True, kw_only=True):
    #: ``floor-draw/1`` (docs/draw-spec.md); None: this tournament's draws are not committed.
    spec: str | None
    head: str | None
    length: int
    committed_at: float | None
    #: When registration opened (the first entry), to compare with ``committed_at``.
    created_at: float
    draws: int
    witness: str
    player: PlayerDraw | None = None
    seed: RevealedSeed | None = None


def draws(
    t: Tournament, seq: int, pid: PlayerId | None, seed: tuple[int, bytes] | None
) -> OpenDraws:
    s = t.state
    fair = s.fair
    p = s.players.get(pid) if pid is not None else None
    player = None
    if p is not None:
        player = PlayerDraw(
            id=p.id, name=p.name, table=p.table, seat=p.seat, busted=p.busted, draw=p.draw
        )
    revealed = None
    if seed is not None and p is not None and p.draw == seed[0]:
        revealed = RevealedSeed(index=seed[0], seed=seed[1].hex())
    return OpenDraws(
        tournament=s.id,
        seq=seq,
        spec=fair.spec if fair else None,
        head=fair.head if fair else None,
        length=fair.length if fair else 0,
        committed_at=fair.at if fair else None,
        created_at=s.created_at,
        draws=fair.used if fair else 0,
        witness=fair.witness if fair else "",
        player=player,
        seed=revealed,
    )
