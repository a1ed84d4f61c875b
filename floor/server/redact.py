"""What each role is shown: the public (the wall display, player screens) no staff data.

A player's special-needs seat and a seat lock are the floor's business, not the room's, and
so is what only the staff act on: the ``staff`` part of snapshots and batches (what may be
sold, which bust-outs may be undone, who may take a reserved seat: ``engine.derived``). The
staff roles (director, floor, dealer) see every message as written; the public sees it with
``staff`` null and without those flags. The flags are cleared rather than the events
dropped, so a public screen's sequence numbers and fold stay those of everybody else.

The room is shown a move only once the floor has called it (``Plan.settled``): the public
plan holds the called moves alone, and the seats drawn for a break or the final table are
left out of ``seats_assigned`` events (a public state has no draws); a call reaches the room
as its own event.

This decides what a view holds; building each view once per message, however many screens
share it, is the hub's and ``views.RoleViews``' job.
"""

from __future__ import annotations

from typing import Any, Final, Literal

import msgspec

from ..engine.plan import Plan

#: The views messages are built for. The staff roles are shown the same, so they share one.
View = Literal["staff", "public"]
VIEWS: Final[tuple[View, ...]] = ("staff", "public")

#: Fields cleared for the public, wherever they are in a message.
_STAFF_ONLY = ("special_needs", "locked")
#: Text the staff keep on a player (the note on an entry), sent to the public as null.
_STAFF_TEXT = ("note",)
_MARKERS = tuple(f'"{name}":true'.encode() for name in _STAFF_ONLY) + tuple(
    f'"{name}":"'.encode() for name in _STAFF_TEXT
)
#: Parts of a message (top-level fields) the public is sent as null.
_STAFF_PARTS = frozenset({"staff"})
_PART_KEYS = tuple(f'"{name}":'.encode() for name in _STAFF_PARTS)
_NULL = msgspec.Raw(b"null")
#: A plan with a move not called yet (every move says how often it was called).
_UNCALLED = b'"called":0'
#: An event with drawn seats in it, and a state's draws (none, or some).
_DRAWN = b'"type":"seats_assigned"'
_DRAWS = b'"draws":{'
_NO_DRAWS = b'"draws":{}'
_plan = msgspec.json.Decoder(Plan)

#: A message's top-level fields, each as its JSON text: what is not changed is not decoded.
_parts = msgspec.json.Decoder(dict[str, msgspec.Raw])
_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


def view_of(role: str) -> View:
    """The view a reader with ``role`` is shown: anyone not signed in as staff is public."""
    return "staff" if role in ("director", "floor", "dealer") else "public"


def shown(view: View, data: bytes) -> bytes:
    """``data`` (a JSON message) as ``view`` is shown it; the same object when unchanged."""
    return data if view == "staff" else for_public(data)


def for_role(role: str, data: bytes) -> bytes:
    return shown(view_of(role), data)


def for_public(data: bytes) -> bytes:
    """``data`` (a JSON object) without staff-only parts and flags; the same object when it
    has none."""
    marked = any(marker in data for marker in _MARKERS)
    unsettled = _UNCALLED in data or _DRAWN in data
    if not marked and not unsettled and not any(key in data for key in _PART_KEYS):
        return data
    parts = _parts.decode(data)
    changed = False
    for name, raw in parts.items():
        if name in _STAFF_PARTS:
            if bytes(memoryview(raw)) != b"null":
                parts[name], changed = _NULL, True
            continue
        text = bytes(memoryview(raw))
        if name == "plan" and _UNCALLED in text:
            settled = _plan.decode(text).settled()
            parts[name], changed = msgspec.Raw(_encoder.encode(settled)), True
        elif name == "events" and _DRAWN in text:
            parts[name], changed = msgspec.Raw(_encoder.encode(_undrawn(text))), True
        elif name == "state" and _DRAWS in text and _NO_DRAWS not in text:
            value = _decoder.decode(text)
            value["draws"] = {}
            if marked:
                _clear(value)
            parts[name], changed = msgspec.Raw(_encoder.encode(value)), True
        elif marked and any(marker in text for marker in _MARKERS):
            value = _decoder.decode(text)
            _clear(value)
            parts[name], changed = msgspec.Raw(_encoder.encode(value)), True
    return _encoder.encode(parts) if changed else data


def _undrawn(events: bytes) -> Any:
    """A batch's events with no seat drawn for a break or the final table in them."""
    value = _decoder.decode(events)
    for item in value:
        event = item.get("event") if isinstance(item, dict) else None
        if isinstance(event, dict) and event.get("type") == "seats_assigned":
            event["seats"] = []
            event["withdrawn"] = []
    if any(marker in events for marker in _MARKERS):
        _clear(value)
    return value


def _clear(node: Any) -> None:
    if isinstance(node, dict):
        for name in _STAFF_ONLY:
            if node.get(name) is True:
                node[name] = False
        for name in _STAFF_TEXT:
            if isinstance(node.get(name), str):
                node[name] = None
        for value in node.values():
            _clear(value)
    elif isinstance(node, list):
        for value in node:
            _clear(value)
