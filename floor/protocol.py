"""Messages between floor processes and screens: the events batch, as published and sent.

A batch is encoded once, by the process that wrote it, and the same bytes go through Redis
pub/sub to every server process and from there to every websocket. Pre-encoded parts are
embedded with ``msgspec.Raw`` so nothing is encoded twice.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from .engine.events import Event
from .engine.plan import Plan
from .engine.state import Tournament
from .engine.views import FieldStats, TableView, field_stats, table_view


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
    plan: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"null"))
    stats: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"null"))
    #: The views of the tables these events touched (all of them in a catch-up).
    tables: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"[]"))


class EventsIn(msgspec.Struct, frozen=True, tag="events", tag_field="type"):
    tournament: str
    from_: int = msgspec.field(name="from")
    to: int = msgspec.field(name="to")
    events: list[Sequenced] = msgspec.field(default_factory=list)
    plan: Plan | None = None
    stats: FieldStats | None = None
    tables: list[TableView] = msgspec.field(default_factory=list)


class BatchHeader(msgspec.Struct, frozen=True):
    """Just what routing a batch needs; the rest of the message is skipped, not decoded."""

    tournament: str
    from_: int = msgspec.field(name="from")
    to: int = msgspec.field(name="to")


_encoder = msgspec.json.Encoder()
_event_decoder = msgspec.json.Decoder(Event)
_batch_decoder = msgspec.json.Decoder(EventsIn)
_header_decoder = msgspec.json.Decoder(BatchHeader)


def encode_event(event: Event) -> bytes:
    return _encoder.encode(event)


def decode_event(data: bytes) -> Event:
    return _event_decoder.decode(data)


Derived = tuple[bytes, bytes, bytes]


def encode_derived(t: Tournament, tables: Iterable[int] | None = None) -> Derived:
    """The plan, the field numbers and the views of ``tables`` (None: every table) after a
    change, encoded once for every screen."""
    all_tables = t.state.tables
    chosen = (
        all_tables.values()
        if tables is None
        else [all_tables[n] for n in sorted(tables) if n in all_tables]
    )
    views = [table_view(t, table) for table in chosen]
    return _encoder.encode(t.plan), _encoder.encode(field_stats(t)), _encoder.encode(views)


def events_message(tid: str, first: int, events: list[bytes], derived: Derived) -> bytes:
    """The batch message for events already encoded, numbered from ``first``."""
    return _encoder.encode(
        EventsOut(
            tournament=tid,
            from_=first,
            to=first + len(events) - 1,
            events=[RawSequenced(first + i, msgspec.Raw(e)) for i, e in enumerate(events)],
            plan=msgspec.Raw(derived[0]),
            stats=msgspec.Raw(derived[1]),
            tables=msgspec.Raw(derived[2]),
        )
    )


def decode_batch(data: bytes) -> EventsIn:
    return _batch_decoder.decode(data)


def batch_header(data: bytes) -> BatchHeader:
    return _header_decoder.decode(data)
