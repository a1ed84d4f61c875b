"""A snapshot and the patches of every batch after it make the state, for every role.

Random tournaments with every event type (``tests.browser.tournaments.games``, the same the
screens' tests play) are replayed batch by batch; each batch's patch is built as the server
builds it (the events' classification, ``touches``, and the marks taken before the batch)
and applied to a role's copy, as a screen applies it. The copy must be the role's view of
the state (what a snapshot would give now) after every batch: a record changed but not named
by ``touches``, or a part of the state ``patch`` does not compare, fails here.
"""

from __future__ import annotations

from typing import Any, get_args

import msgspec
import pytest

from floor.engine.events import Event, TournamentCreated
from floor.engine.read.patch import apply, build, catch_up, marks, pointer
from floor.engine.state import Tournament
from floor.engine.touches import touched
from floor.server.redact import for_public
from tests.browser.tournaments import Game, games


def view(t: Tournament, role: str) -> dict[str, Any]:
    """The role's view of the state, as its snapshot carries it."""
    message = msgspec.json.encode({"state": t.state, "staff": None})
    if role == "public":
        message = for_public(message)
    state: dict[str, Any] = msgspec.json.decode(message)["state"]
    return state


@pytest.fixture(scope="module")
def played() -> list[Game]:
    return games()


def test_the_games_hold_every_event_type(played: list[Game]) -> None:
    seen = {type(e) for g in played for e in g.log}
    assert seen == set(get_args(Event))


@pytest.mark.parametrize("role", ["staff", "public"])
def test_a_snapshot_and_the_patches_after_it_make_the_state(played: list[Game], role: str) -> None:
    for g in played:
        first, *rest = g.batches
        created = first[0]
        assert isinstance(created, TournamentCreated)
        t = Tournament.create(created)
        for e in first[1:]:
            t.apply(e)
        copy = view(t, role)
        for i, batch in enumerate(rest):
            before = marks(t.state)
            for e in batch:
                t.apply(e)
            patches = build(t, before, touched(batch))
            ops = msgspec.json.decode(patches.staff if role == "staff" else patches.public)
            apply(copy, ops)
            # Every batch early on, then every few (a whole state per batch is slow).
            if i < 150 or i % 20 == 0 or i == len(rest) - 1:
                expected = view(t, role)
                if copy != expected:
                    raise AssertionError(_difference(copy, expected, g, i, batch))


@pytest.mark.parametrize("role", ["staff", "public"])
def test_a_copy_that_missed_a_run_of_batches_is_caught_up_by_one_patch(
    played: list[Game], role: str
) -> None:
    """What a process sends a screen that missed batches it no longer holds: the run's
    records and the rest of the state whole bring the copy to the state, from any point."""
    for g in played:
        first, *rest = g.batches
        t = Tournament.create(first[0])  # type: ignore[arg-type]
        for e in first[1:]:
            t.apply(e)
        copy = view(t, role)
        run: list[Event] = []
        for i, batch in enumerate(rest):
            for e in batch:
                t.apply(e)
            run += batch
            # Runs of 1 to 97 batches, the last one to the end.
            if (i * 7) % 97 == 0 or i == len(rest) - 1:
                patches = catch_up(t, touched(run))
                apply(
                    copy, msgspec.json.decode(patches.staff if role == "staff" else patches.public)
                )
                expected = view(t, role)
                if copy != expected:
                    raise AssertionError(_difference(copy, expected, g, i, run[-5:]))
                run = []


def test_a_public_patch_holds_no_staff_field(played: list[Game]) -> None:
    hidden = (b'"special_needs":true', b'"locked":true', b'"/draws')
    for g in played[:3]:
        first, *rest = g.batches
        t = Tournament.create(first[0])  # type: ignore[arg-type]
        for e in first[1:]:
            t.apply(e)
        for batch in rest:
            before = marks(t.state)
            for e in batch:
                t.apply(e)
            public = build(t, before, touched(batch)).public
            assert not any(h in public for h in hidden), public[:300]
            notes = [op for op in msgspec.json.decode(public) if '"note"' in str(op)]
            assert all(_no_note(op.get("value")) for op in notes), notes


def test_a_pointer_escapes_what_a_key_may_hold() -> None:
    assert pointer("players", "a/b~c") == "/players/a~1b~0c"
    doc: dict[str, Any] = {"players": {}}
    apply(doc, [{"op": "add", "path": pointer("players", "a/b~c"), "value": 1}])
    assert doc == {"players": {"a/b~c": 1}}
    apply(doc, [{"op": "remove", "path": "/players/a~1b~0c"}])
    assert doc == {"players": {}}


def _no_note(value: Any) -> bool:
    if isinstance(value, dict):
        return value.get("note") is None and all(_no_note(v) for v in value.values())
    if isinstance(value, list):
        return all(_no_note(v) for v in value)
    return True


def _difference(
    copy: dict[str, Any], expected: dict[str, Any], g: Game, i: int, batch: list[Event]
) -> str:
    keys = sorted(k for k in expected if copy.get(k) != expected.get(k))
    detail = []
    for k in keys:
        a, b = copy.get(k), expected.get(k)
        if isinstance(a, dict) and isinstance(b, dict):
            inner = sorted(x for x in set(a) | set(b) if a.get(x) != b.get(x))[:3]
            detail.append(f"{k}: {[(x, a.get(x), b.get(x)) for x in inner]}")
        else:
            detail.append(f"{k}: {str(a)[:200]} != {str(b)[:200]}")
    kinds = [type(e).__name__ for e in batch]
    return f"game {g.t.state.id} batch {i + 1} ({kinds}) differs in " + "; ".join(detail)
