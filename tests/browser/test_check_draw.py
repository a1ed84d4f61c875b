"""A player checks their draw on their phone (issue 32.1), in a real Chromium against real
servers: the tournament committed to its seed chain at its creation; the first draw and a
late entry's seat each spent a seed. The player follows themselves on the player screen, taps
"Check your draw", and the check page hashes the seed of the draw that gave their seat back
to the committed head, in the browser, and says it matches."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DIRECTOR, Api, Pages, ServerProcess, new_tournament

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screens" / "check"
TID = "fair-draw"


def test_a_player_checks_the_seed_of_their_draw_on_their_phone(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, TID, 24)
    # The director types the number a witness announced in the room.
    console = pages.open(servers[0], f"/director?t={TID}", size="tv", user=DIRECTOR)
    console.get_by_label("Witness's number").fill("271828")
    console.get_by_role("button", name="Use this number").click()
    expect(console.get_by_text("Draws are mixed with the witness's number 271828.")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    console.locator("#s-players").screenshot(path=str(SHOTS / "witness-console-tv.png"))
    director.ok(TID, {"type": "register", "name": "Zdeňka Pozdní", "player": "LATE1"})
    state = director.state(TID)["state"]
    fair = state["fair"]
    late = state["players"]["LATE1"]
    assert fair["used"] >= 2 and late["draw"] == fair["used"] and late["table"] is not None

    # The seat card printed at the desk names the page that checks it.
    card = pages.open(
        servers[0],
        f"/print/{TID}?what=cards&paper=receipt&player=LATE1",
        size="desk",
        user=DIRECTOR,
        live=False,
    )
    expect(card.locator("body")).to_have_attribute("data-ready", "1")
    expect(card.locator(".card .check-url")).to_contain_text(
        f"Check your draw at 127.0.0.1:{servers[0].port}/check/{TID}?player=LATE1"
    )
    card.locator(".card").first.screenshot(path=str(SHOTS / "seat-card.png"))

    player = pages.open(servers[1], f"/player/{TID}", size="phone")
    player.get_by_role("searchbox").fill("Pozdní")
    player.get_by_role("button", name="Follow").click()
    link = player.get_by_role("link", name="Check your draw")
    expect(link).to_be_visible()
    link.click()
    verdict = player.locator(".c-verdict")
    expect(verdict).to_have_attribute("data-result", "ok", timeout=15_000)
    expect(verdict).to_contain_text("this seed was fixed before registration opened")
    expect(player.locator(".c-seat")).to_have_text(
        f"Zdeňka Pozdní: table {late['table']}, seat {late['seat']}"
    )
    expect(player.locator("[data-head]")).to_have_text(fair["head"])
    expect(player.get_by_text(f"Draws made so far: {fair['used']}.")).to_be_visible()
    expect(player.get_by_text("Mixed with the witness's number 271828.")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(SHOTS / "check-phone.png"), full_page=True)
    player.set_viewport_size({"width": 1920, "height": 1080})
    player.screenshot(path=str(SHOTS / "check-tv.png"))
    wide = player.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert wide


def test_an_unknown_player_is_said_and_asked_again(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "fair-draw-2", 12)
    page = pages.open(servers[0], "/check/fair-draw-2?player=NOBODY", size="phone", live=False)
    expect(page.get_by_text("There is no player NOBODY in this tournament.")).to_be_visible()
    page.get_by_label("Your player number").fill("P3")
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".c-verdict")).to_have_attribute("data-result", "ok", timeout=15_000)
