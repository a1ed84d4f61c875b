"""Messages between floor processes and screens: the events batch, as published and sent.

A batch is encoded once, by the process that wrote it, and the same bytes go through Redis
pub/sub to every server process and from there to every websocket. Pre-encoded parts are
embedded with ``msgspec.Raw`` so nothing is encoded twice.

Besides the events, a batch carries what follows from them for the screens: what they changed
in the state, as a JSON Patch (``engine.patch``: ``patch`` for the staff, ``public_patch``
for everyone else: each screen is sent its own as ``patch``), the plan, the field numbers,
the views of the tables touched, the public facts and the staff-only facts
(``engine.derived``). The top-level ``staff`` field is for staff screens only: a public view
sets it to null.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from .engine.events import Event
from .engine.plan import Plan
from .engine.read.derived import Facts, StaffFacts, public_facts, staff_facts
from .engine.read.patch import Patches, catch_up
from .engine.read.views import FieldStats, TableView, field_stats, table_view, touched_tables
from .engine.state import Tournament
from .engine.touches import touched

#: The shape of the messages screens are sent, said in ``hello``: bumped whenever a message
#: (a batch, a snapshot, an event, the state) changes shape, so that a screen loaded before an
#: upgrade reloads itself instead of reading messages it was not written for. The screens
#: hold their own in ``web/js/version.js``; ``scripts/protocol_types.py`` writes it into
#: ``web/js/protocol.d.ts`` and tsc holds the two equal.
PROTOCOL_VERSION = 1


class Sequenced(msgspec.Struct, frozen=True):
    seq: int
    event: Event


class RawSequenced(msgspec.Struct, frozen=True):
    seq: int
    event: msgspec.Raw


class EventsOut(msgspec.Struct, frozen=True, tag="events", tag_field="type"):
    """A batch of events with consecutive sequence numbers, and the plan after them."""

    tournament: str
    from_: int = msgspec.field(name="from")
    to: int = msgspec.field(name="to")
    events: list[RawSequenced] = msgspec.field(default_factory=list)
    #: What the events changed in the state, the staff's (``engine.patch``); null in a
    #: tournament's first batch (a screen starts from a snapshot).
    patch: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"null"))
    #: The same for everyone else: ``redact`` sends it to them as their ``patch``.
    public_patch: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"null"))
    plan: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"null"))
    stats: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"null"))
    #: The views of the tables these events touched (all of them in a catch-up).
    tables: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"[]"))
    #: ``derived.Facts`` after these events, for every screen.
    facts: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"null"))
    #: ``derived.StaffFacts`` after these events: staff screens only.
    staff: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"null"))


class PatchOp(msgspec.Struct, frozen=True, omit_defaults=True):
    """One JSON Patch (RFC 6902) operation as a screen reads it: ``add`` a value at the path
    (an array's ``-``: at its end), ``remove`` what is there."""

    op: Literal["add", "remove"]
    path: str
    value: Any = None


class EventsIn(msgspec.Struct, frozen=True, tag="events", tag_field="type"):
    tournament: str
    from_: int = msgspec.field(name="from")
    to: int = msgspec.field(name="to")
    events: list[Sequenced] = msgspec.field(default_factory=list)
    #: What the events changed in this screen's view of the state (``engine.patch``).
    patch: list[PatchOp] | None = None
    plan: Plan | None = None
    stats: FieldStats | None = None
    tables: list[TableView] = msgspec.field(default_factory=list)
    facts: Facts | None = None
    staff: StaffFacts | None = None


class EventsApplied(msgspec.Struct, frozen=True, tag="events", tag_field="type"):
    """A batch as a process folds it into its copy: the events alone (the rest is skipped,
    not decoded)."""

    tournament: str
    from_: int = msgspec.field(name="from")
    to: int = msgspec.field(name="to")
    events: list[Sequenced] = msgspec.field(default_factory=list)


class BatchHeader(msgspec.Struct, frozen=True):
    """Just what routing a batch needs; the rest of the message is skipped, not decoded."""

    tournament: str
    from_: int = msgspec.field(name="from")
    to: int = msgspec.field(name="to")


_encoder = msgspec.json.Encoder()
_event_decoder = msgspec.json.Decoder(Event)
_batch_decoder = msgspec.json.Decoder(EventsApplied)
_header_decoder = msgspec.json.Decoder(BatchHeader)


def encode_event(event: Event) -> bytes:
    return _encoder.encode(event)


def decode_event(data: bytes) -> Event:
    return _event_decoder.decode(data)


#: The plan, the field numbers, the table views, the public facts, the staff facts.
Derived = tuple[bytes, bytes, bytes, bytes, bytes]


def encode_derived(t: Tournament, events: Sequence[Event] | None = None) -> Derived:
    """What screens are sent with ``events`` after they changed ``t``: the plan, the field
    numbers, the views of the tables they touched and the facts of the players they named
    (None: everything, as a catch-up sends), encoded once for every screen."""
    all_tables = t.state.tables
    tables = None if events is None else touched_tables(events)
    chosen = (
        all_tables.values()
        if tables is None
        else [all_tables[n] for n in sorted(tables) if n in all_tables]
    )
    halted = set(t.plan.halted_tables)
    views = [table_view(t, table, halted) for table in chosen]
    return (
        _encoder.encode(t.plan),
        _encoder.encode(field_stats(t)),
        _encoder.encode(views),
        _encoder.encode(public_facts(t, events)),
        _encoder.encode(staff_facts(t, events)),
    )


def events_message(
    tid: str, first: int, events: list[bytes], derived: Derived, patches: Patches | None = None
) -> bytes:
    """The batch message for events already encoded, numbered from ``first``, with what they
    changed for each role (None: no patch, a screen takes a snapshot instead)."""
    return _encoder.encode(
        EventsOut(
            tournament=tid,
            from_=first,
            to=first + len(events) - 1,
            events=[RawSequenced(first + i, msgspec.Raw(e)) for i, e in enumerate(events)],
            patch=msgspec.Raw(b"null" if patches is None else patches.staff),
            public_patch=msgspec.Raw(b"null" if patches is None else patches.public),
            plan=msgspec.Raw(derived[0]),
            stats=msgspec.Raw(derived[1]),
            tables=msgspec.Raw(derived[2]),
            facts=msgspec.Raw(derived[3]),
            staff=msgspec.Raw(derived[4]),
        )
    )


def catch_up_message(tid: str, first: int, events: list[bytes], t: Tournament) -> bytes:
    """The batch of a run of events read back from the log (numbered from ``first``, ``t``
    the state after them), with the patch that brings a copy from before them to ``t``."""
    patches = catch_up(t, touched(decode_event(e) for e in events))
    return events_message(tid, first, events, encode_derived(t), patches)


def decode_batch(data: bytes) -> EventsApplied:
    return _batch_decoder.decode(data)


def batch_header(data: bytes) -> BatchHeader:
    return _header_decoder.decode(data)
