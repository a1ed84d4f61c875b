"""What each reader is shown: the public (the wall display, player screens) no staff data, a
table screen the public's and its own table's part of the staff's.

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

A table screen (``tablets``; a dealer signed in on one too) is shown its own tournament as
the public is, but for two parts of the staff's, about its own table only: the plan holds
the moves from or to its table before they are called (its dealer keeps the seat free, or
tells the player to get ready), and ``staff`` holds its table's bust-outs that may still be
undone, every other staff fact empty. The special-needs flags, the locks and the notes stay
the floor's, at its table too. Another tournament it is shown as the public.

This decides what a view holds; building each view once per message, however many screens
share it, is the hub's and ``views.RoleViews``' job.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from ..engine import public_form
from ..engine.plan import Plan
from ..engine.read.derived import StaffFacts, Undoable
from .principal import Principal

#: The views messages are built for: ``staff`` (the director and the floor, shown the
#: same), ``public``, and ``table:N`` (the screen of table N; see ``table_view``).
View = str
STAFF: Final = "staff"
PUBLIC: Final = "public"
#: The views every snapshot is built in at once (a table's is made from them: ``TableParts``).
VIEWS: Final[tuple[View, ...]] = (STAFF, PUBLIC)
_TABLE: Final = "table:"

#: Fields cleared for the public, wherever they are in a message: the flags (sent as false)
#: and the texts (sent as null) declared the staff's on the records and events
#: (``engine.read.staff_fields``, applied by ``engine.public_form``).
_MARKERS = public_form.MARKERS
#: Parts of a message (top-level fields) the public is sent as null.
_STAFF_PARTS = frozenset({"staff"})
_PART_KEYS = tuple(f'"{name}":'.encode() for name in _STAFF_PARTS)
_NULL = msgspec.Raw(b"null")
#: A batch's patch for the public, beside the staff's (``protocol.EventsOut``).
_PUBLIC_PATCH = b'"public_patch":'
#: A plan with a move not called yet (every move says how often it was called).
_UNCALLED = b'"called":0'
#: An event with drawn seats in it, and a state's draws (none, or some).
_DRAWN = public_form.DRAWN
_DRAWS = b'"draws":{'
_NO_DRAWS = b'"draws":{}'
_plan = msgspec.json.Decoder(Plan)

#: A message's top-level fields, each as its JSON text: what is not changed is not decoded.
_parts = msgspec.json.Decoder(dict[str, msgspec.Raw])
_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


def table_view(table: int) -> View:
    return f"{_TABLE}{table}"


def table_of(view: View) -> int | None:
    """The table a table screen's view is of; None for another view."""
    return int(view[len(_TABLE) :]) if view.startswith(_TABLE) else None


def view_of(principal: Principal, tournament: str) -> View:
    """The view ``principal`` is shown of ``tournament``: the staff's for the director and
    the floor, a table's for a screen of that table in that tournament (and the dealer on
    it), the public's for everyone else."""
    if principal.role in ("director", "floor"):
        return STAFF
    if principal.at_table and principal.tournament == tournament and principal.table:
        return table_view(principal.table)
    return PUBLIC


def shown(view: View, data: bytes) -> bytes:
    """``data`` (a JSON message) as ``view`` is shown it; the same object when unchanged.
    (A table's view of many messages is best made with one ``TableParts`` each.)"""
    if view == STAFF:
        return for_staff(data)
    public = for_public(data)
    table = table_of(view)
    return public if table is None else TableParts(data).shown(table, public)


class _StaffPart(msgspec.Struct):
    """Of the staff facts, what a table screen is shown a part of."""

    full: bool = True
    undo: list[Undoable] = msgspec.field(default_factory=list)


_staff_part = msgspec.json.Decoder(_StaffPart | None)
_optional_plan = msgspec.json.Decoder(Plan | None)


class TableParts:
    """What a message (its staff view) holds for table screens, read once for all of them:
    its plan and the bust-outs that may be undone. ``shown`` makes a table's view of it from
    the public's; tables it holds nothing about share one (``generic``)."""

    __slots__ = ("plan", "staff")

    def __init__(self, staff_data: bytes) -> None:
        self.plan: Plan | None = None
        self.staff: _StaffPart | None = None
        if b'"plan":' not in staff_data and b'"staff":' not in staff_data:
            return
        parts = _parts.decode(staff_data)
        plan, staff = parts.get("plan"), parts.get("staff")
        if plan is not None:
            self.plan = _optional_plan.decode(bytes(memoryview(plan)))
        if staff is not None:
            self.staff = _staff_part.decode(bytes(memoryview(staff)))

    def own(self, table: int) -> bool:
        """Whether the message holds anything about ``table`` beyond the public's."""
        return (self.plan is not None and self.plan.touches(table)) or (
            self.staff is not None and any(u.table == table for u in self.staff.undo)
        )

    def shown(self, table: int | None, public: bytes) -> bytes:
        """The view of ``table`` (None: of a table the message says nothing about), from
        the message's ``public`` view."""
        if self.plan is None and self.staff is None:
            return public
        parts = _parts.decode(public)
        if self.plan is not None and table is not None and self.plan.touches(table):
            parts["plan"] = msgspec.Raw(_encoder.encode(self.plan.at_table(table)))
        if self.staff is not None:
            undo = [u for u in self.staff.undo if u.table == table]
            part = StaffFacts(
                full=self.staff.full,
                sales={},
                bars={},
                undo=undo,
                unbreakable={},
                seats=[],
                needs_reserved=[],
                start_final=None,
            )
            parts["staff"] = msgspec.Raw(_encoder.encode(part))
        return _encoder.encode(parts)


def for_staff(data: bytes) -> bytes:
    """A batch as the staff are shown it: their patch, not the public's beside it."""
    if _PUBLIC_PATCH not in data:
        return data
    parts = _parts.decode(data)
    del parts["public_patch"]
    return _encoder.encode(parts)


def for_public(data: bytes) -> bytes:
    """``data`` (a JSON object) without staff-only parts and flags; the same object when it
    has none."""
    marked = any(marker in data for marker in _MARKERS)
    unsettled = _UNCALLED in data or _DRAWN in data
    patched = _PUBLIC_PATCH in data
    if not marked and not unsettled and not patched and not any(k in data for k in _PART_KEYS):
        return data
    parts = _parts.decode(data)
    changed = False
    if patched:
        # A batch's patch as the public is shown it, made for it where the batch was written.
        parts["patch"] = parts.pop("public_patch")
        changed = True
    for name, raw in parts.items():
        if name == "patch":
            continue
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
        if isinstance(item, dict):
            public_form.undraw(item.get("event"))
    if public_form.marked(events):
        _clear(value)
    return value


_clear = public_form.clear
