"""Announcements that need no phone (issue 29.4), on real Chromium against real servers: a
called move of a Spanish player is captioned in Spanish on their table's screen (an English
one) and handed to ``speechSynthesis.speak`` in Spanish; quiet hours keep the caption and
silence the voice; the wall captions a table breaking in the two languages of its players,
one after the other.

Headless Chromium has no voices: ``speechSynthesis.speak`` is spied on by an init script,
each utterance's text, lang and volume read back before it is passed on.

``FLOOR_SCREENSHOTS=1`` also saves the screens into docs/screens/ (the wall at 1920x1080 and
390x844, the table screen at 1280x800, 1024x768 and 390x844).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    NAMES,
    Api,
    Pages,
    ServerProcess,
    occupants,
    wait_for,
)
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.browser

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"

#: Every utterance handed to speechSynthesis.speak, read back by the test, and ended a moment
#: later as a voice would end it (headless Chromium has none to say it with).
SPY = """
window.__spoken = [];
if (window.speechSynthesis) {
  window.speechSynthesis.speak = (u) => {
    window.__spoken.push({ text: u.text, lang: u.lang, volume: u.volume });
    setTimeout(() => u.dispatchEvent(new Event("end")), 300);
  };
}
"""


def shoot(page: Page, name: str, sizes: dict[str, tuple[int, int]]) -> None:
    if not os.environ.get("FLOOR_SCREENSHOTS"):
        return
    for label, (w, h) in sizes.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(SCREENS / f"{name}-{label}.png"))


def tournament(api: Api, tid: str, langs: list[str]) -> dict[str, Any]:
    """Players registered each with their language, seats drawn, a button at every table."""
    body = {"id": tid, "name": f"Test {tid}", "rules": "tda-2024", "structure": "demo-fast"}
    r = api.client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    for i, lang in enumerate(langs):
        api.ok(tid, {"type": "register", "name": NAMES[i], "player": f"P{i}", "lang": lang})
    api.ok(tid, {"type": "draw_seats"})
    for number, table in api.state(tid)["state"]["tables"].items():  # type: ignore[union-attr]
        api.ok(
            tid, {"type": "button", "table": int(number), "seat": min(map(int, table["occupants"]))}
        )
    state: dict[str, Any] = api.state(tid)
    return state


def spoken(page: Page) -> list[dict[str, Any]]:
    said: list[dict[str, Any]] = page.evaluate("window.__spoken")
    return said


def test_a_spanish_players_called_move_is_captioned_and_spoken_in_spanish_at_their_table(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "habla"
    # 17 Spanish players at 9 and 8: a bust-out at the short table plans a move from the full.
    state = tournament(director, tid, ["es"] * 17)
    tables = state["state"]["tables"]
    full = max(tables.values(), key=lambda t: len(t["occupants"]))["number"]
    short = min(tables.values(), key=lambda t: len(t["occupants"]))["number"]

    page = pages.tablet(servers[1], director, tid, full, size="desk")
    page.add_init_script(SPY)
    page.reload()
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    # The set-up: this screen speaks (the tap on it lets the browser speak).
    setup = page.locator(".speak-setup")
    expect(setup).to_have_attribute("data-mode", "off")
    setup.locator("summary").click()
    setup.get_by_label("This screen speaks").check()
    setup.get_by_label("Volume").evaluate(
        "(el) => { el.value = '60'; el.dispatchEvent(new Event('change')); }"
    )
    expect(setup).to_have_attribute("data-mode", "on")
    shoot(page, "speak-setup", {"1280x800": (1280, 800), "390x844": (390, 844)})
    page.set_viewport_size({"width": 1280, "height": 800})
    setup.locator("summary").click()

    _, busted = sorted(occupants(director, tid, short).items())[0]
    director.ok(tid, {"type": "bust", "player": busted})
    (move,) = director.state(tid)["plan"]["moves"]  # type: ignore[index]
    mover = str(move["player"])
    floor = Api(servers[0], sign_in(servers[0], *FLOOR))
    try:
        floor.ok(tid, {"type": "call_move", "player": mover})
    finally:
        floor.client.close()
    called = director.state(tid)["plan"]["moves"][0]  # type: ignore[index]
    seat_from = called["from"]["seat"]
    to = called["to"]
    name = director.state(tid)["state"]["players"][mover]["name"]  # type: ignore[index]
    said = (
        f"{name}, mesa {full}, asiento {seat_from}: por favor, cambie a la mesa {to['table']}, "
        f"asiento {to['seat']}."
    )
    caption = page.locator(".speak-caption .speak-text")
    expect(caption).to_have_text(said)
    expect(caption).to_have_attribute("lang", "es")
    utterances = wait_for(lambda: spoken(page))
    assert utterances == [{"text": said, "lang": "es", "volume": pytest.approx(0.6)}]
    shoot(
        page,
        "speak-table",
        {"1280x800": (1280, 800), "1024x768": (1024, 768), "390x844": (390, 844)},
    )
    page.set_viewport_size({"width": 1280, "height": 800})

    # Quiet hours now (an hour either side of the screen's time): the caption, no voice.
    now = page.evaluate("new Date().getHours() * 60 + new Date().getMinutes()")
    setup.locator("summary").click()
    setup.get_by_label("From", exact=True).fill(hhmm(now + 23 * 60))
    setup.get_by_label("Until", exact=True).fill(hhmm(now + 60))
    expect(setup).to_have_attribute("data-mode", "quiet")
    setup.locator("summary").click()
    # The floor calls the move again, to the other free seat there.
    target = director.state(tid)["state"]["tables"][str(to["table"])]  # type: ignore[index]
    taken = {int(s) for s in target["occupants"]} | {to["seat"]}
    other = min(set(range(1, target["seats"] + 1)) - taken)
    floor = Api(servers[0], sign_in(servers[0], *FLOOR))
    try:
        floor.ok(tid, {"type": "call_move", "player": mover, "seat": other})
    finally:
        floor.client.close()
    expect(caption).to_have_text(
        f"{name}, mesa {full}, asiento {seat_from}: por favor, cambie a la mesa {to['table']}, "
        f"asiento {other}."
    )
    expect(caption).to_have_attribute("lang", "es")
    said_lines = page.evaluate("window.floorTable.speaker.said")
    assert [(x["lang"], x["spoken"]) for x in said_lines] == [("es", True), ("es", False)]
    assert len(spoken(page)) == 1


def hhmm(minutes: int) -> str:
    return f"{(minutes // 60) % 24:02d}:{minutes % 60:02d}"


def test_the_wall_captions_and_speaks_a_table_breaking_in_its_players_languages_in_turn(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "anuncio"
    # German, Spanish and French players by turns: 19 of them at three tables (7, 6, 6).
    tournament(director, tid, ["de", "es", "fr"] * 6 + ["de"])
    # The director names the hall's screen and has it speak, at 70 (kept on the server).
    console = pages.open(servers[0], f"/director?t={tid}", size="desk", user=DIRECTOR)
    console.fill("#screen-name", "hall-b")
    console.select_option("#screen-voice", "on")
    console.fill("#screen-volume", "70")
    console.locator("#screen-save").click()
    expect(console.locator('[data-screen="hall-b"]')).to_contain_text("speaks, volume 70")
    if os.environ.get("FLOOR_SCREENSHOTS"):
        for label, (w, h) in {"1920x1080": (1920, 1080), "390x844": (390, 844)}.items():
            console.set_viewport_size({"width": w, "height": h})
            console.locator(".walls-voice").scroll_into_view_if_needed()
            console.screenshot(path=str(SCREENS / f"speak-console-{label}.png"))

    wall = pages.open(servers[1], f"/wall/{tid}?screen=hall-b", size="tv")
    wall.add_init_script(SPY)
    wall.reload()
    expect(wall.locator(".conn").first).to_have_attribute("data-status", "live")
    setup = wall.locator(".speak-setup")
    # The browser lets it speak after a tap: the set-up asks for one, and a tap anywhere does.
    expect(setup).to_have_attribute("data-mode", "locked")
    expect(setup.locator("summary")).to_contain_text("Tap to let this screen speak")
    wall.locator(".wall-clock").click()
    expect(setup).to_have_attribute("data-mode", "on")
    tables = director.state(tid)["state"]["tables"]  # type: ignore[index]
    seven = max(tables.values(), key=lambda t: len(t["occupants"]))
    # Eighteen left fit two tables: one breaks by the rule.
    director.ok(tid, {"type": "bust", "player": min(seven["occupants"].values())})
    state = director.state(tid)["state"]
    (number,) = [int(n) for n, t in state["tables"].items() if t["status"] == "breaking"]  # type: ignore[union-attr]
    at_it = state["tables"][str(number)]["occupants"].values()  # type: ignore[index]
    seated = [state["players"][p]["lang"] for p in at_it]  # type: ignore[index]
    # The language more of the table's players read first (a tie: by code).
    first, second = sorted(set(seated), key=lambda c: (-seated.count(c), c))[:2]
    texts = {
        "de": f"Tisch {number} wird aufgelöst. Spieler an Tisch {number}: bitte bleiben Sie "
        "sitzen, bis Sie einen neuen Platz erhalten.",
        "es": f"La mesa {number} se rompe. Jugadores de la mesa {number}: permanezcan sentados "
        "hasta recibir su nuevo asiento.",
        "fr": f"La table {number} est cassée. Joueurs de la table {number} : restez assis "
        "jusqu'à ce qu'une nouvelle place vous soit donnée.",
    }
    caption = wall.locator(".speak-caption .speak-text")
    expect(caption).to_have_attribute("lang", first)
    expect(caption).to_have_text(texts[first])
    shoot(wall, "speak-wall", {"1920x1080": (1920, 1080), "390x844": (390, 844)})
    wall.set_viewport_size({"width": 1920, "height": 1080})
    expect(caption).to_have_attribute("lang", second, timeout=15_000)
    expect(caption).to_have_text(texts[second])
    said = wait_for(lambda: spoken(wall)[:2] if len(spoken(wall)) >= 2 else None)
    assert said == [
        {"text": texts[first], "lang": first, "volume": pytest.approx(0.7)},
        {"text": texts[second], "lang": second, "volume": pytest.approx(0.7)},
    ]

    # An unnamed wall takes its voice from its URL; one that does not speak shows no set-up.
    by_url = pages.open(servers[0], f"/wall/{tid}?speak=1&volume=50&quiet=00:00-23:59", size="tv")
    expect(by_url.locator(".speak-setup")).to_have_attribute("data-mode", "locked")
    by_url.locator(".topbar .title").click()
    late = by_url.evaluate("new Date().getHours() * 60 + new Date().getMinutes() >= 23 * 60 + 59")
    expect(by_url.locator(".speak-setup")).to_have_attribute("data-mode", "on" if late else "quiet")
    assert by_url.evaluate("window.floorWall.speaker.settings.volume") == 50
    plain = pages.open(servers[0], f"/wall/{tid}", size="tv")
    expect(plain.locator(".speak-setup")).to_be_hidden()
