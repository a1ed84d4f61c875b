"""What the public (the wall display, player screens) is not sent: staff data on players.

A player's special-needs seat and a seat lock are the floor's business, not the room's.
Every message is encoded once for everybody; the few that carry such a flag (a registration
with a special-needs seat, a seat lock, a snapshot of a field that has either) are encoded
once more without it for public screens. The flags are cleared rather than the events
dropped, so a public screen's sequence numbers and fold stay those of everybody else.
"""

from __future__ import annotations

from typing import Any

import msgspec

#: Fields cleared for the public, wherever they are in a message.
_STAFF_ONLY = ("special_needs", "locked")
_MARKERS = tuple(f'"{name}":true'.encode() for name in _STAFF_ONLY)

_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()
#: The last message looked at and its public form: a fan-out hands the same bytes object to
#: every screen, so one search (and at most one encoding) serves them all.
_last: tuple[bytes, bytes] = (b"", b"")


def for_public(data: bytes) -> bytes:
    """``data`` (a JSON message) without staff-only flags; the same object when it has none."""
    global _last
    if _last[0] is data:
        return _last[1]
    if any(marker in data for marker in _MARKERS):
        message = _decoder.decode(data)
        _clear(message)
        _last = (data, _encoder.encode(message))
    else:
        _last = (data, data)
    return _last[1]


def for_role(role: str, data: bytes) -> bytes:
    """``data`` as a reader with ``role`` may see it: redacted for the public only."""
    return for_public(data) if role == "public" else data


def _clear(node: Any) -> None:
    if isinstance(node, dict):
        for name in _STAFF_ONLY:
            if node.get(name) is True:
                node[name] = False
        for value in node.values():
            _clear(value)
    elif isinstance(node, list):
        for value in node:
            _clear(value)
