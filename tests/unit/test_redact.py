"""What the public is shown of a message: no staff part, no special-needs seats, no locks;
and what a table screen is shown: the public's, and its own table's moves and undo window."""

from __future__ import annotations

import json

import msgspec

from floor.server.metrics import Metrics
from floor.server.principal import PUBLIC, Principal
from floor.server.redact import for_public, shown, view_of
from floor.server.views import Views

DEVICE = "a1b2c3d4e5f6"


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


def test_the_director_and_the_floor_see_the_staff_view_a_table_screen_its_tables() -> None:
    for role in ("director", "floor"):
        staff = Principal(username="x", role=role, table=None)  # type: ignore[arg-type]
        assert view_of(staff, "t") == view_of(staff, "u") == "staff"
    for role, name in (("table", None), ("dealer", "dee")):
        screen = Principal(
            username=name,
            role=role,  # type: ignore[arg-type]
            table=3,
            tournament="t",
            device=DEVICE,
        )
        assert view_of(screen, "t") == "table:3"
        # Another tournament's table 3 is no business of this screen's.
        assert view_of(screen, "u") == "public"
    # A dealer's session from before table screens (table 3 of every tournament).
    assert view_of(Principal(username="dee", role="dealer", table=3), "t") == "public"
    assert view_of(PUBLIC, "t") == "public"


def move(player: str, frm: int, to: int, called: int = 0) -> dict[str, object]:
    return {
        "player": player,
        "from": {"table": frm, "seat": 1},
        "to": {"table": to, "seat": 2},
        "reason": "balance",
        "why": "balance",
        "called": called,
    }


def undo(player: str, table: int) -> dict[str, object]:
    return {"player": player, "table": table, "seat": 4, "hand": 7, "until": None, "level": False}


STAFF_FACTS = {
    "full": True,
    "sales": {"seated": {"rebuy": {"price": 100}}},
    "bars": {"P9": {"rebuy": {"code": "x"}}},
    "undo": [undo("P3", 3), undo("P7", 7)],
    "unbreakable": {"5": 2},
    "seats": [],
    "needs_reserved": ["P1"],
    "start_final": None,
    "moves": {"P1": 2},
}


def test_a_table_screen_sees_the_public_view_and_its_own_tables_moves_and_undo() -> None:
    """The finding: a tablet saw special-needs flags and notes everywhere."""
    data = message(
        events=[{"seq": 4, "event": {"type": "seat_lock_set", "player": "P7", "locked": True}}],
        state={"players": {"P7": {"id": "P7", "special_needs": True, "note": "wheelchair"}}},
        plan={
            "moves": [move("P1", 5, 6, called=1), move("P3", 3, 4), move("P7", 7, 8)],
            "halted": [],
            "final_table": None,
        },
        staff=STAFF_FACTS,
    )
    table3 = json.loads(shown("table:3", data))
    public = json.loads(for_public(data))
    # The room's view, flags and notes cleared, at its own table too ...
    assert table3["state"] == public["state"]
    assert table3["state"]["players"]["P7"] == {"id": "P7", "special_needs": False, "note": None}
    assert table3["events"] == public["events"]
    # ... the called move, and the one from this table before it is called, no other ...
    assert [m["player"] for m in public["plan"]["moves"]] == ["P1"]
    assert [m["player"] for m in table3["plan"]["moves"]] == ["P1", "P3"]
    # ... and of the staff's facts, this table's bust-outs that may be undone alone.
    assert table3["staff"]["undo"] == [undo("P3", 3)]
    assert table3["staff"]["full"] is True
    assert not any(table3["staff"][k] for k in ("sales", "bars", "unbreakable", "moves"))
    assert table3["staff"]["needs_reserved"] == []
    # A table the message says nothing about: the public's plan, an empty undo window.
    table9 = json.loads(shown("table:9", data))
    assert table9["plan"] == public["plan"]
    assert table9["staff"]["undo"] == []


def test_the_tables_a_message_says_nothing_about_share_one_view() -> None:
    """A thousand table screens cost a view each only where the message is about them."""
    metrics = Metrics()
    data = message(
        plan={"moves": [move("P3", 3, 4)], "halted": [], "final_table": None},
        staff=STAFF_FACTS,
    )
    views = Views(data, "batch", metrics)
    others = [views.view(f"table:{n}") for n in range(10, 1010)]
    assert all(m is others[0] for m in others)
    assert views.view("table:3") is not others[0]
    assert views.view("table:4") is not views.view("table:3")  # the move goes there
    assert views.view("table:7") is not others[0]  # a bust-out to undo there
    assert json.loads(views.view("table:7").data)["staff"]["undo"] == [undo("P7", 7)]
    assert metrics.views == {("batch", "public"): 1, ("batch", "table"): 4}


def test_each_view_of_a_message_is_built_once_however_many_ask() -> None:
    metrics = Metrics()
    lock = {"type": "seat_lock_set", "player": "P1", "locked": True}
    views = Views(message(events=[{"seq": 1, "event": lock}]), "batch", metrics)
    public = [views.view("public") for _ in range(50)]
    assert all(m is public[0] for m in public)
    assert all(m.framed is public[0].framed for m in public)
    assert views.view("staff") is not public[0]
    assert metrics.views == {("batch", "public"): 1}
