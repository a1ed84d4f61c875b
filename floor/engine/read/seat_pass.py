"""The digital seat card: a code the server signs, bound to one entry's seat, read at the table.

A card names the tournament, the player, the entry number, the table and the seat, and
carries an HMAC-SHA256 of them (128 bits of it) under the floor's seat-card key
(``floor.server.seat_pass``). Only the server makes and checks a card, so a key of its own
is enough; a public-key signature (the venue's Ed25519, ``floor.signing``) would double the
code's length nearly (a version 8 QR code for a usual card's version 5), for a check
nobody makes offline.

The card is the same for as long as the seat is the player's (it holds no time and no
random part), so a phone that shows it again shows the same card, and the one scan it is
good for (``used_mark``) is that seat's. A move, a bust-out or a new entry makes it void:
the seat it names is no longer theirs (``judge``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from typing import Final, Literal

import msgspec

from ..model import PlayerId, SeatNo, TableNo
from ..state import Tournament

#: The code's first characters: a seat card of this floor, of this layout.
PREFIX: Final = "FS1."
#: The tag's bytes (of SHA-256's 32): 128 bits, as much as anyone could guess.
TAG: Final = 16
#: The longest code a scan may send (a tournament id of 40, a player id of 64, numbers).
MOST: Final = 400

Verdict = Literal["ok", "other_table", "void", "used"]


class Binding(msgspec.Struct, frozen=True, array_like=True):
    """What a card is bound to: the entry, and the seat it was given."""

    tournament: str
    player: PlayerId
    entry: int
    table: TableNo
    seat: SeatNo


_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(Binding)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _tag(key: bytes, body: str) -> bytes:
    return hmac.new(key, (PREFIX + body).encode(), hashlib.sha256).digest()[:TAG]


def sign(binding: Binding, key: bytes) -> str:
    body = _b64(_enc.encode(binding))
    return f"{PREFIX}{body}.{_b64(_tag(key, body))}"


def read(code: str, key: bytes) -> Binding | None:
    """The binding ``code`` carries, when this floor's key signed it; else None."""
    if len(code) > MOST or not code.startswith(PREFIX):
        return None
    body, _, tag = code[len(PREFIX) :].partition(".")
    try:
        if not hmac.compare_digest(_unb64(tag), _tag(key, body)):
            return None
        return _dec.decode(_unb64(body))
    except (binascii.Error, ValueError, msgspec.DecodeError):
        return None


def card_of(t: Tournament, pid: PlayerId) -> Binding | None:
    """The binding of the card ``pid`` holds now; None while they have no seat."""
    p = t.state.players.get(pid)
    if p is None or p.busted or p.table is None or p.seat is None:
        return None
    return Binding(t.state.id, pid, p.entries, p.table, p.seat)


def used_mark(binding: Binding) -> str:
    """The name of the card's one scan: the same for every copy of the card."""
    return hashlib.sha256(_enc.encode(binding)).hexdigest()[:32]


class Judged(msgspec.Struct, frozen=True, kw_only=True):
    """A card read at a table, before its one scan is taken: ``ok`` (theirs, here),
    ``other_table`` (theirs, at another table) or ``void`` (the seat is not theirs now)."""

    verdict: Verdict
    player: PlayerId
    name: str | None
    #: The seat the card names.
    table: TableNo
    seat: SeatNo
    #: The player's seat now (None: none, out or not in the tournament).
    right_table: TableNo | None
    right_seat: SeatNo | None


def judge(t: Tournament, binding: Binding, at_table: TableNo | None) -> Judged:
    """What the card says at ``at_table`` (None: a floorperson's phone, at any table)."""
    p = t.state.players.get(binding.player)
    now = card_of(t, binding.player)
    verdict: Verdict
    if now != binding:
        verdict = "void"
    elif at_table is not None and at_table != binding.table:
        verdict = "other_table"
    else:
        verdict = "ok"
    return Judged(
        verdict=verdict,
        player=binding.player,
        name=None if p is None else p.name,
        table=binding.table,
        seat=binding.seat,
        right_table=None if now is None else now.table,
        right_seat=None if now is None else now.seat,
    )
