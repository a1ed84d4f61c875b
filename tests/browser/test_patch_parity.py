"""The page applies the server's patches as the engine folds its events; what it cannot apply
resyncs.

A screen holds a role's view of the state and applies each batch's JSON Patch
(``floor/engine/read/patch.py``; ``web/js/patch.js``): it folds no event. Random tournaments
(``tournaments.games``: every event type, thousands of events) are played; each batch's patch
is applied in Chromium, from the start and from snapshots on the way, for the staff and the
public, and the states compared whole with the engine's. The offline player search
(web/js/facts.js) is held to the server's ``find_players`` with the server's own search keys.
A page sent a batch whose patch does not apply, or a batch after a gap, asks the server again
(``resync``) and ends up with the server's state instead of dropping it silently; an event
it does not know changes nothing (events are for sounds and alerts).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest
from playwright.sync_api import Browser, Page, Route, WebSocketRoute, expect

from floor.engine.events import Event, TournamentCreated
from floor.engine.read.derived import public_facts
from floor.engine.read.patch import build, marks
from floor.engine.rulebook import fold
from floor.engine.state import Tournament
from floor.engine.touches import touched
from floor.server.redact import for_public
from floor.server.views import find_players, search_players
from tests.browser.conftest import (
    FLOOR,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
    occupants,
    wait_for,
)
from tests.browser.tournaments import MONEY, Game, games

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "web"
ORIGIN = "http://floor.test"


@pytest.fixture(scope="module")
def played() -> list[Game]:
    return games()


@pytest.fixture
def module_page(browser: Browser) -> Iterator[Page]:
    """A blank page that can import the screens' modules (web/ served as is, no server)."""
    ctx = browser.new_context(locale="en-GB")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def serve(route: Route) -> None:
        path = route.request.url.removeprefix(ORIGIN).split("?")[0]
        if path == "/":
            route.fulfill(body="<!doctype html><title>fold</title>", content_type="text/html")
            return
        file = (WEB / path.lstrip("/")).resolve()
        if WEB not in file.parents or not file.is_file():
            route.fulfill(status=404)
            return
        route.fulfill(body=file.read_bytes(), content_type="text/javascript")

    page.route(f"{ORIGIN}/**", serve)
    page.goto(f"{ORIGIN}/")
    yield page
    ctx.close()
    assert not errors, errors


#: Applies the batches' patches in the page: from the first state through every checkpoint
#: (states returned there), and from the snapshot at each checkpoint to the next one.
APPLY = """async ({ start, patches, checkpoints, snapshots }) => {
  const { applyPatch } = await import("/js/patch.js");
  const run = (state, from, to) => {
    for (let i = from; i < to; i += 1) applyPatch(state, patches[i]);
    return state;
  };
  const straight = [];
  let state = JSON.parse(start);
  let at = 1;
  for (const c of checkpoints) {
    run(state, at, c + 1);
    at = c + 1;
    straight.push(JSON.stringify(state));
  }
  const resumed = [];
  for (let k = 0; k + 1 < checkpoints.length; k += 1) {
    const from = JSON.parse(snapshots[k]);
    resumed.push(JSON.stringify(run(from, checkpoints[k] + 1, checkpoints[k + 1] + 1)));
  }
  return { straight, resumed };
}"""


def view(t: Tournament, role: str) -> dict[str, Any]:
    """The role's view of the state, as its snapshot carries it."""
    message = msgspec.json.encode({"state": t.state, "staff": None})
    if role == "public":
        message = for_public(message)
    state: dict[str, Any] = json.loads(message)["state"]
    return state


def patched(g: Game, checkpoints: list[int], role: str) -> tuple[list[Any], list[dict[str, Any]]]:
    """Each batch's patch for ``role``, and the engine's view after each checkpoint batch."""
    first = g.batches[0][0]
    assert isinstance(first, TournamentCreated)
    t = Tournament.create(first)
    patches: list[Any] = [[]]
    states = []
    for i, batch in enumerate(g.batches):
        if i:
            before = marks(t.state)
            for e in batch:
                t.apply(e)
            built = build(t, before, touched(batch))
            patches.append(json.loads(built.staff if role == "staff" else built.public))
        else:
            for e in batch[1:]:
                t.apply(e)
        if i in checkpoints:
            states.append(view(t, role))
    return patches, states


@pytest.mark.parametrize("role", ["staff", "public"])
def test_the_page_applies_every_batch_as_the_engine_folds_it(
    module_page: Page, played: list[Game], role: str
) -> None:
    covered: set[str] = set()
    total = 0
    for g in played:
        last = len(g.batches) - 1
        checkpoints = sorted({*range(0, last, max(1, last // 12)), last})
        start = Tournament.create(g.batches[0][0])  # type: ignore[arg-type]
        for e in g.batches[0][1:]:
            start.apply(e)
        patches, engine = patched(g, checkpoints, role)
        page = module_page.evaluate(
            APPLY,
            {
                "start": json.dumps(view(start, role)),
                "patches": patches,
                "checkpoints": checkpoints,
                "snapshots": [json.dumps(state) for state in engine[:-1]],
            },
        )
        for k, (state, shown) in enumerate(zip(engine, page["straight"], strict=True)):
            assert json.loads(shown) == state, f"game {g.t.state.id}, batch {checkpoints[k]}"
        for k, shown in enumerate(page["resumed"]):
            assert json.loads(shown) == engine[k + 1], f"from batch {checkpoints[k]} on"
        covered.update(type(e).__struct_config__.tag for b in g.batches for e in b)  # type: ignore[misc]
        total += sum(len(b) for b in g.batches)
    everything = {t.__struct_config__.tag for t in get_args(Event)}
    assert covered == everything, sorted(everything - covered)
    assert total >= 3000, total


def test_a_player_found_offline_is_a_player_the_server_finds(module_page: Page) -> None:
    """The phone's offline search uses the server's search keys and ranks as it does."""
    g = Game(11, {"game": "holdem", "seats": 9, "final_table": 9}, MONEY)
    names = [
        "Anna Weiß", "Hans Weiss", "Tomáš Novák", "Tomas Novakova", "Jana Nováková",
        "Σοφία Παπαδοπούλου", "ΣΟΦΙΑ ΟΔΟΣ", "Иван Петров", "Łukasz Żółć", "Ærø Æbelø",
        "Øyvind Straße", "John Smith", "Smith Johnson", "İsmail Ünal", "ﬁona Ligature",
    ]  # fmt: skip
    from floor.engine import commands as cmd

    for i, name in enumerate(names):
        g.do(cmd.Register(name=name, player=f"P{i}"))
    g.do(cmd.Register(name="Karel Čapek", player="Č1"))
    g.do(cmd.DrawSeats())
    g.do(cmd.Bust(player="P1"))
    queries = [
        "weiss", "Weiß", "WEISS", "novak", "NOVÁK", "tomas", "nov", "σοφια", "ΣΟΦΊΑ", "οδος",
        "иван", "lukasz zolc", "aero", "aerø", "oyvind strasse", "smith", "john", "ismail",
        "unal", "fiona", "č1", "Č1", "p3", "xyz", "  ", "smith john", "john smith", "novak tomas",
        "tomas novak", "a",
    ]  # fmt: skip
    t = g.t
    facts = msgspec.to_builtins(public_facts(t))
    conn = {
        "state": json.loads(msgspec.json.encode(t.state)),
        "facts": facts,
        "plan": json.loads(msgspec.json.encode(t.plan)),
    }
    shown = module_page.evaluate(
        """async ({ conn, queries }) => {
          const { findPlayers, searchPlayers } = await import("/js/facts.js");
          const { foldText } = await import("/js/ui.js");
          return { found: queries.map((q) => findPlayers(conn, q, 5).map((r) => r.id)),
                   totals: queries.map((q) => searchPlayers(conn, q).total),
                   folded: queries.map(foldText) };
        }""",
        {"conn": conn, "queries": queries},
    )
    server = [[p.id for p in find_players(t, q, 5)] for q in queries]
    assert dict(zip(queries, shown["found"], strict=True)) == dict(
        zip(queries, server, strict=True)
    )
    totals = [search_players(t, q).total for q in queries]
    assert dict(zip(queries, shown["totals"], strict=True)) == dict(
        zip(queries, totals, strict=True)
    )
    assert shown["folded"] == [fold(q) for q in queries]
    assert server[0] == ["P0", "P1"]  # "weiss" finds Weiß, the one still in first


# Resyncing ------------------------------------------------------------------------------------


class Tap:
    """Sits between a page and the server's websocket: records what the page sends, and lets
    a test change (or drop) the next events batch the server sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.change: Any = None

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            server.send(message)

        def to_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "events" and self.change is not None:
                change, self.change = self.change, None
                msg = change(msg)
                if msg is None:
                    return
                ws.send(json.dumps(msg))
                return
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    def resyncs(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == "resync"]


def tapped(pages: Pages, server: ServerProcess, path: str, tap: Tap) -> Page:
    page = pages.context(server, user=FLOOR).new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"{path}: {e}"))
    page.route_web_socket(re.compile(r".*/ws/t/.*"), tap.route)
    page.goto(path)
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    return page


def busted_on_page(page: Page, player: str) -> bool:
    return bool(page.evaluate(f"window.floorPhone.conn.state.players[{player!r}].busted"))


def failing_patch(msg: dict[str, Any]) -> dict[str, Any]:
    # A change to a record the page does not hold: its copy is not the server's.
    msg["patch"].append({"op": "add", "path": "/nothing/here", "value": 1})
    return msg


def no_patch(msg: dict[str, Any]) -> dict[str, Any]:
    msg["patch"] = None
    return msg


@pytest.mark.parametrize("change", [failing_patch, no_patch], ids=["failing", "none"])
def test_a_batch_the_page_cannot_apply_makes_it_ask_for_a_snapshot(
    servers: list[ServerProcess], director: Api, pages: Pages, change: Any
) -> None:
    tid = f"resync-{change.__name__.split('_')[0]}"
    new_tournament(director, tid, 14)
    tap = Tap()
    page = tapped(pages, servers[0], f"/floor/{tid}", tap)
    seats = occupants(director, tid, 1)
    victim, later = list(seats.values())[:2]
    tap.change = change
    director.ok(tid, {"type": "bust", "player": victim})
    wait_for(lambda: tap.resyncs(), page)
    assert tap.resyncs() == [{"type": "resync", "snapshot": True}]
    # The snapshot brings the bust the page could not apply; then it follows as before.
    wait_for(lambda: busted_on_page(page, victim), page)
    last = director.ok(tid, {"type": "bust", "player": later})["last"]
    wait_for(lambda: page.evaluate("window.floorPhone.conn.seq") >= last, page)
    assert busted_on_page(page, later)
    expect(page.locator(".conn")).to_have_attribute("data-status", "live")
    shown = page.evaluate("JSON.stringify(window.floorPhone.conn.state)")
    assert json.loads(shown) == director.state(tid)["state"]


def test_an_event_the_page_does_not_know_changes_nothing(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "resync-unknown", 14)
    tap = Tap()
    page = tapped(pages, servers[0], "/floor/resync-unknown", tap)
    victim = next(iter(occupants(director, "resync-unknown", 1).values()))

    def newer(msg: dict[str, Any]) -> dict[str, Any]:
        msg["events"].append({"seq": msg["to"], "event": {"type": "from_a_newer_server"}})
        return msg

    tap.change = newer
    last = director.ok("resync-unknown", {"type": "bust", "player": victim})["last"]
    wait_for(lambda: page.evaluate("window.floorPhone.conn.seq") >= last, page)
    assert tap.resyncs() == []
    shown = page.evaluate("JSON.stringify(window.floorPhone.conn.state)")
    assert json.loads(shown) == director.state("resync-unknown")["state"]


def test_a_batch_after_a_gap_makes_the_page_ask_for_what_it_missed(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "resync-gap", 14)
    tap = Tap()
    page = tapped(pages, servers[0], "/floor/resync-gap", tap)
    first, second = list(occupants(director, "resync-gap", 1).values())[:2]
    seq = page.evaluate("window.floorPhone.conn.seq")
    tap.change = lambda msg: None  # lost on the way
    director.ok("resync-gap", {"type": "bust", "player": first})
    director.ok("resync-gap", {"type": "bust", "player": second})
    wait_for(lambda: tap.resyncs(), page)
    assert tap.resyncs() == [{"type": "resync", "since": seq}]
    wait_for(lambda: busted_on_page(page, first) and busted_on_page(page, second), page)
    shown = page.evaluate("JSON.stringify(window.floorPhone.conn.state)")
    assert json.loads(shown) == director.state("resync-gap")["state"]
