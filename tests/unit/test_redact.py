"""What the public is shown of a message: no staff part, no special-needs seats, no locks."""

from __future__ import annotations

import json

import msgspec

from floor.server.metrics import Metrics
from floor.server.redact import for_public, view_of
from floor.server.views import Views


def message(**parts: object) -> bytes:
    return msgspec.json.encode({"type": "events", "tournament": "t", **parts})


def test_the_public_gets_the_staff_part_as_null_and_the_flags_cleared() -> None:
    lock = {"type": "seat_lock_set", "player": "P1", "locked": True}
    data = message(events=[{"seq": 4, "event": lock}], staff={"undo": [{"player": "P2"}]})
    shown = json.loads(for_public(data))
    assert shown["staff"] is None
    assert shown["events"] == [{"seq": 4, "event": {**lock, "locked": False}}]
    # Everything else as written, in the same order.
    assert list(shown) == ["type", "tournament", "events", "staff"]


def test_a_message_with_nothing_to_hide_is_the_very_same_bytes() -> None:
    data = message(events=[], staff=None, plan={"moves": []})
    assert for_public(data) is data
    # A name that reads like a flag is text, not a flag.
    data = message(events=[], name='"special_needs":true "staff":{}')
    assert for_public(data) is data


def test_only_staff_roles_see_the_staff_view() -> None:
    assert [view_of(r) for r in ("director", "floor", "dealer")] == ["staff"] * 3
    assert view_of("public") == "public"


def test_each_view_of_a_message_is_built_once_however_many_ask() -> None:
    metrics = Metrics()
    lock = {"type": "seat_lock_set", "player": "P1", "locked": True}
    views = Views(message(events=[{"seq": 1, "event": lock}]), "batch", metrics)
    public = [views.view("public") for _ in range(50)]
    assert all(m is public[0] for m in public)
    assert all(m.framed is public[0].framed for m in public)
    assert views.view("staff") is not public[0]
    assert metrics.views == {("batch", "public"): 1}
