"""The open read API's documents (``engine.open_read``) and its OpenAPI document: the
documents of a tournament full of staff facts hold none of them, the feed says what
happened, and the OpenAPI document validates and lists every open route, each of which the
public edge serves."""

from __future__ import annotations

import random

import msgspec
from openapi_spec_validator import validate

from floor.engine import commands as cmd
from floor.engine.decide import decide
from floor.engine.events import Event, TournamentCreated
from floor.engine.read import open_read, staff_fields
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.server import public_edge, routes_open
from floor.server.open_api import build

NOTE = "owes the cage"


def room() -> tuple[Tournament, list[Event]]:
    """40 players on 4 tables with special-needs seats, notes and a lock; 10 bust-outs, so
    that tables break and their seats are drawn (not called)."""
    rules = msgspec.convert({"game": "holdem", "seats": 10, "final_table": 10}, Rules)
    created = TournamentCreated(id="t", name="T", rules=rules, created_at=1000.0)
    t = Tournament.create(created)
    events: list[Event] = [created]
    rng = random.Random(4)
    commands: list[cmd.Command] = [
        cmd.Register(name=f"Player {i}", player=f"P{i}", special_needs=i % 7 == 0, note=NOTE)
        for i in range(40)
    ]
    commands += [cmd.DrawSeats(), cmd.LockSeat(player="P3")]
    commands += [cmd.Bust(player=f"P{i}") for i in range(10, 20)]
    for n, c in enumerate(commands):
        events += decide(t, c, 2000.0 + n, rng)
    return t, events


def marks(data: bytes) -> list[str]:
    text = data.decode()
    names = sorted(staff_fields.FLAGS | staff_fields.TEXTS)
    return [n for n in names if f'"{n}"' in text] + ([NOTE] if NOTE in text else [])


def test_no_document_holds_a_staff_fact_nor_a_seat_drawn_and_not_called() -> None:
    t, events = room()
    assert t.state.draws, "tables broke: seats are drawn"
    version = len(events)
    docs = [
        open_read.clock(t, version),
        open_read.field(t, version),
        open_read.seats(t, version),
        open_read.counts(t, version),
        open_read.bust_outs(t, version),
        open_read.payouts(t, version),
        open_read.OpenChanges(
            tournament="t",
            seq=version,
            since=0,
            to=version,
            more=False,
            changes=open_read.changes(t, 1, events),
        ),
        open_read.ots(t, "floor", "0"),
    ]
    for doc in docs:
        assert marks(msgspec.json.encode(doc)) == [], type(doc)
    seats = open_read.seats(t, version)
    where = {s.player: (x.table, s.seat) for x in seats.tables for s in x.seats}
    for player, draw in t.state.draws.items():
        assert where[player] == (t.state.players[player].table, t.state.players[player].seat)
        assert where[player] != (draw.table, draw.seat)


def test_the_feed_names_each_bust_out_with_its_place_in_order() -> None:
    t, events = room()
    feed = open_read.changes(t, 1, events)
    busts = [c for c in feed if c.kind == "bust"]
    assert [c.player for c in busts] == [f"P{i}" for i in range(10, 20)]
    assert [c.place for c in busts] == list(range(40, 30, -1))
    assert all(c.seq > 0 and c.name == f"Player {c.player[1:]}" for c in busts)
    drawn = [c for c in feed if c.kind == "seats_drawn"]
    assert [c.players for c in drawn] == [40]


def test_the_openapi_document_validates_and_lists_every_open_route() -> None:
    doc = build()
    validate(doc)  # type: ignore[arg-type]
    paths = {r.path for r in routes_open.routes}  # type: ignore[attr-defined]
    assert set(doc["paths"]) == paths
    served = {path for path, methods in public_edge.SERVED if "GET" in methods}
    assert paths <= served
