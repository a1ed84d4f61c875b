"""An event as the public is shown it, worked on its JSON text.

Two rules make an event public: the fields declared the staff's (``staff_fields``) are shown
at their defaults (a flag false, a text null) wherever they are, and the seats drawn for a
break or the final table are left out of ``seats_assigned`` (the room is shown a move once
the floor calls it, as an event of its own). The live redaction of messages
(``floor.server.redact``) and the hash chain over the log (``chain``) both apply them from
here, so what the chain commits to for the public is what the public was sent.

Most events hold none of it: their text is their public form as it is, found by looking for
the markers without decoding (``is_public``).
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from .read import staff_fields

STAFF_FLAGS: Final = tuple(sorted(staff_fields.FLAGS))
STAFF_TEXTS: Final = tuple(sorted(staff_fields.TEXTS))
#: What a JSON text holding a staff value contains: a flag set, or a text given.
MARKERS: Final = tuple(f'"{name}":true'.encode() for name in STAFF_FLAGS) + tuple(
    f'"{name}":"'.encode() for name in STAFF_TEXTS
)
#: An event with drawn seats in it.
DRAWN: Final = b'"type":"seats_assigned"'

_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


def marked(data: bytes) -> bool:
    """Whether ``data`` may hold a value of the staff's."""
    return any(marker in data for marker in MARKERS)


def is_public(event: bytes) -> bool:
    """Whether an event's JSON text is already its public form."""
    return DRAWN not in event and not marked(event)


def clear(node: Any) -> None:
    """Every staff flag and text in a decoded JSON value, at its default, in place."""
    if isinstance(node, dict):
        for name in STAFF_FLAGS:
            if node.get(name) is True:
                node[name] = False
        for name in STAFF_TEXTS:
            if isinstance(node.get(name), str):
                node[name] = None
        for value in node.values():
            clear(value)
    elif isinstance(node, list):
        for value in node:
            clear(value)


def undraw(event: Any) -> None:
    """A decoded event without the seats drawn in it, in place."""
    if isinstance(event, dict) and event.get("type") == "seats_assigned":
        event["seats"] = []
        event["withdrawn"] = []


def event(data: bytes) -> bytes:
    """An event's JSON text as the public is shown it (``data`` itself when it is already)."""
    if is_public(data):
        return data
    value = _decoder.decode(data)
    undraw(value)
    clear(value)
    return _encoder.encode(value)
