"""The packed snapshot is the full one in fewer bytes: unpacked (as ``web/js/conn.js``
does, mirrored in ``tests/unit/test_catch_up.unpacked``) it is the very state, plan, numbers
and facts of the full snapshot of the same view; and each view is what ``redact`` shows it.

Played tournaments of every kind of command (``tests/browser/tournaments.py``): busted
players, bust records, counted stacks, locks, special needs, moves, final tables.
"""

from __future__ import annotations

import gzip
import json

import pytest

from floor.engine import commands as cmd
from floor.server.redact import for_public
from floor.server.views import packed_snapshots, snapshots
from tests.browser.tournaments import Game, play
from tests.unit.test_catch_up import unpacked


@pytest.fixture(scope="module")
def played() -> list[Game]:
    games = [play(seed, players=40 + 7 * seed, steps=250) for seed in range(6)]
    for g in games:  # something for the public not to see, whatever the seed did
        seated = g.seated()
        if seated:
            g.do(cmd.LockSeat(player=seated[0]))
    return games


def test_a_packed_snapshot_unpacked_is_the_full_snapshot(played: list[Game]) -> None:
    for g in played:
        full = snapshots(g.t.state.id, g.t, 99)
        packed = packed_snapshots(g.t.state.id, g.t, 99)
        for view in ("staff", "public"):
            whole, lean = json.loads(full[view]), json.loads(packed[view])
            assert lean["packed"] is True and lean["type"] == "snapshot"
            assert unpacked(lean) == whole["state"]
            for key in ("tournament", "seq", "plan", "stats", "tables", "facts", "staff"):
                assert lean[key] == whole[key], key


def test_each_view_of_a_snapshot_is_what_redact_shows_it(played: list[Game]) -> None:
    hidden = 0
    for g in played:
        full = snapshots(g.t.state.id, g.t, 7)
        # Built straight from the state, the public snapshot is the staff one redacted.
        assert full["public"] == for_public(full["staff"])
        packed = packed_snapshots(g.t.state.id, g.t, 7)
        public = json.loads(packed["public"])
        assert public["staff"] is None
        assert not any(p.get("special_needs") or p.get("locked") for p in public["players"])
        staff = json.loads(packed["staff"])
        hidden += sum(bool(p.get("special_needs") or p.get("locked")) for p in staff["players"])
    assert hidden  # the staff do see them


def test_a_packed_snapshot_is_a_fraction_of_the_full_one(played: list[Game]) -> None:
    g = max(played, key=lambda g: len(g.t.state.players))
    full = snapshots("x", g.t, 1)["public"]
    packed = packed_snapshots("x", g.t, 1)["public"]
    assert len(packed) < len(full) * 0.75  # a third at 10,000 players (bench/storm.py)
    assert len(gzip.compress(packed)) < len(gzip.compress(full))
