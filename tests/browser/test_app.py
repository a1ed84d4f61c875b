"""The installed app in Chromium: the player, floor and table pages are installable
(``Page.getInstallabilityErrors`` empty), a reload with the server stopped shows the last
state the service worker kept (the follow feed's last message; the room's public snapshot),
a staff member's snapshot is never kept and a sign-out drops what was; the opt-ins looked at
on a phone and a TV."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from floor.redisdb.embedded import EmbeddedServer
from tests.browser.conftest import (
    CHROMIUM_ARGS,
    DIRECTOR,
    FLOOR,
    Pages,
    chromium_path,
    new_tournament,
    wait_for,
)
from tests.e2e.conftest import Api, ServerProcess, sign_in

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screens" / "push"


@pytest.fixture
def own_server(valkey: EmbeddedServer, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test's own, which the test may stop (the module's stay up)."""
    server = ServerProcess(valkey.url, tmp_path / "own.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def controlled(page: Page) -> None:
    """Wait until the service worker has installed (the shell kept) and controls the page."""
    ready = (
        "() => Promise.race([navigator.serviceWorker.ready.then(() => true),"
        " new Promise((r) => setTimeout(() => r(false), 15000))])"
    )
    assert page.evaluate(ready), "no service worker was registered"
    wait_for(lambda: page.evaluate("() => navigator.serviceWorker.controller !== null"), page, 20)


def kept(page: Page, path: str) -> bool:
    """Whether the service worker's state cache holds ``path``."""
    found: bool = page.evaluate(
        "(path) => caches.open('floor-state').then((c) => c.match(path)).then((r) => !!r)", path
    )
    return found


def installability(page: Page) -> list[dict[str, Any]]:
    cdp = page.context.new_cdp_session(page)
    try:
        errors: list[dict[str, Any]] = cdp.send("Page.getInstallabilityErrors")[
            "installabilityErrors"
        ]
        return errors
    finally:
        cdp.detach()


@pytest.fixture
def profile(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """A browser with a profile on disk: Chromium installs nothing from an incognito one
    (which every ``new_context`` is)."""
    path = chromium_path()
    assert path is not None
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=path,
        args=CHROMIUM_ARGS,
        viewport={"width": 390, "height": 844},
    )
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.mark.parametrize("kind", ["player", "floor", "table"])
def test_each_page_is_installable(
    profile: BrowserContext, servers: list[ServerProcess], director: Api, kind: str
) -> None:
    tid = f"app-{kind}"
    new_tournament(director, tid, 12)
    path = {"player": f"/player/{tid}", "floor": f"/floor/{tid}", "table": f"/table/{tid}/1"}[kind]
    page = profile.new_page()
    errors_seen: list[str] = []
    page.on("pageerror", lambda e: errors_seen.append(str(e)))
    page.goto(servers[0].base + path)
    controlled(page)
    # Chromium checks the manifest and the worker as it finds them: asked until they are in.
    errors = installability(page)
    deadline = time.monotonic() + 15
    while errors and time.monotonic() < deadline:
        time.sleep(0.25)
        errors = installability(page)
    assert errors == []

    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    cdp.detach()
    assert manifest["url"].endswith(
        f"/app/{kind}/{tid}{'/1' if kind == 'table' else ''}/manifest.webmanifest?lang=en"
    )
    assert manifest["errors"] == []
    data = json.loads(manifest["data"])
    assert data["start_url"] == path and data["display"] == "standalone"
    assert {i["sizes"] for i in data["icons"]} == {"192x192", "512x512"}
    assert any(i.get("purpose") == "maskable" for i in data["icons"])
    assert errors_seen == []
    # Served where its scope covers every page, under the content security policy.
    answer = page.request.get(servers[0].base + "/sw.js")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["service-worker-allowed"] == "/"


def test_a_reload_without_the_server_shows_the_last_state_kept(
    pages: Pages, own_server: ServerProcess, director: Api
) -> None:
    tid = "app-offline"
    state = new_tournament(director, tid, 18)
    player = state["state"]["players"]["P3"]
    table, seat = player["table"], player["seat"]

    # A phone following P3 (its state on the websocket), and one showing the room.
    ctx = pages.context(own_server)
    follow = {"id": "P3", "name": player["name"]}
    ctx.add_init_script(
        f"localStorage.setItem('floor.follow.{tid}', {json.dumps(json.dumps(follow))});"
    )
    following = ctx.new_page()
    following.goto(f"/player/{tid}")
    expect(following.locator(".conn").first).to_have_attribute("data-status", "live")
    card = following.locator(".follow-card .seat-big")
    expect(card).to_contain_text(str(table))
    controlled(following)
    wait_for(lambda: kept(following, f"/api/t/{tid}/follow/P3"), following)
    room = pages.open(own_server, f"/player/{tid}")
    controlled(room)
    # The first visit, read before the worker ran, is kept all the same: the page and the
    # room's public snapshot.
    wait_for(lambda: kept(room, f"/api/t/{tid}/snapshot"), room)

    own_server.stop()

    following.reload()
    expect(following.locator(".follow-card .result-name")).to_have_text(player["name"])
    expect(card).to_contain_text(str(table))
    expect(card).to_contain_text(str(seat))
    expect(following.locator(".conn").first).not_to_have_attribute("data-status", "live")

    room.reload()
    expect(room).to_have_title(f"Test {tid} · Find your seat")
    expect(room.locator(".conn").first).not_to_have_attribute("data-status", "live")
    room.locator("#player-search").fill("P3"[:0] + player["name"].split()[0])
    expect(room.locator(".result-card").first).to_be_visible()


def test_a_staff_snapshot_is_never_kept_and_a_sign_out_drops_what_was(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    tid = "app-staff"
    new_tournament(director, tid, 12)
    page = pages.open(servers[0], f"/floor/{tid}", user=FLOOR)
    controlled(page)
    page.reload()
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    assert not kept(page, f"/api/t/{tid}/snapshot")
    # The shell is kept (no staff data in it).
    shell = page.evaluate("() => caches.keys()")
    assert any(name.startswith("floor-shell-") for name in shell)

    # The player screen in the same browser: the snapshot it reads with the session is the
    # staff's, not kept either; the followed player's feed (public) is.
    follow = json.dumps({"id": "P2", "name": "x"})
    page.evaluate("([k, f]) => localStorage.setItem(k, f)", [f"floor.follow.{tid}", follow])
    page.goto(f"/player/{tid}")
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    wait_for(lambda: kept(page, f"/api/t/{tid}/follow/P2"), page)
    assert not kept(page, f"/api/t/{tid}/snapshot")
    # Signed out: nothing of the day stays.
    page.goto(f"/floor/{tid}")
    page.locator(".bottom-nav button").last.click()
    page.get_by_role("button", name="Sign out").click()
    wait_for(lambda: page.evaluate("() => caches.has('floor-state').then((has) => !has)"), page)


def test_the_opt_ins_on_a_phone_and_a_tv(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    tid = "app-look"
    state = new_tournament(director, tid, 12)
    name = state["state"]["players"]["P1"]["name"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    floor = Api(servers[0], sign_in(servers[0], *FLOOR))
    r = director.client.put(f"/api/t/{tid}/sections/fred", json={"tables": [1, 2]})
    assert r.status_code == 200, r.text
    floor.client.close()
    for size in ("phone", "tv"):
        ctx = pages.context(servers[0], size=size)
        follow = {"id": "P1", "name": name}
        ctx.add_init_script(
            f"localStorage.setItem('floor.follow.{tid}', {json.dumps(json.dumps(follow))});"
        )
        page = ctx.new_page()
        page.goto(f"/player/{tid}")
        expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
        button = page.get_by_role("button", name="Alert my phone")
        expect(button).to_be_visible()
        expect(page.locator(".push-card .hint")).to_contain_text("bag time")
        page.screenshot(path=str(SHOTS / f"player-optin-{size}.png"))

        staff = pages.open(servers[0], f"/floor/{tid}", size=size, user=FLOOR)
        staff.locator(".bottom-nav button").last.click()
        expect(staff.locator(".staff-push")).to_contain_text("tables 1, 2")
        expect(staff.get_by_role("button", name="Alerts for my section")).to_be_visible()
        staff.screenshot(path=str(SHOTS / f"floor-optin-{size}.png"))


def test_the_director_sets_a_floorpersons_section_on_the_console(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    tid = "app-sections"
    new_tournament(director, tid, 12)
    page = pages.open(servers[0], f"/director?t={tid}", size="tv", user=DIRECTOR)
    field = page.get_by_label("Tables of fred")
    field.fill("1-3, 7")
    page.get_by_role("button", name="Save sections").click()
    expect(page.locator(".toast").last).to_contain_text("Sections saved")
    r = director.client.get(f"/api/t/{tid}/sections")
    assert r.json()["sections"]["fred"] == [1, 2, 3, 7]
    # Not table numbers: refused on the page, naming the account, nothing sent.
    field.fill("1-x")
    page.get_by_role("button", name="Save sections").click()
    expect(page.locator(".sections-form .error-text")).to_contain_text("fred")
    assert director.client.get(f"/api/t/{tid}/sections").json()["sections"]["fred"] == [1, 2, 3, 7]
    page.locator("#s-floorsections").screenshot(path=str(SHOTS / "console-sections-tv.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#s-floorsections").screenshot(path=str(SHOTS / "console-sections-phone.png"))
