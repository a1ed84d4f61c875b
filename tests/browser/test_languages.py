"""The player screen in every language shipped (issue 29.3), in real Chromium against a real
server, at a phone's size (390x844):

- a player following themself reads their called move, the clock and the prizes in the
  language asked for, and no word of the English page is left but those the language's
  glossary says as English does (docs/glossary/<code>.toml);
- the phone fetches the chosen language's texts and English (the fallback) alone, not every
  language of the field;
- the picker offers every language in its own name, and choosing one switches the page.

Each screen is saved, with the move's alert and without (docs/screens/lang-<code>-*.png with
FLOOR_SHOTS=1, else the test's own folder), to be looked at.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from floor.server.languages import shipped
from tests.browser.conftest import Api, Pages, ServerProcess, new_tournament, occupants
from tests.browser.test_room_screens import PAID, TEXTS

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LANGS = shipped(ROOT / "web")
SHOTS = ROOT / "docs" / "screens"
WORD = re.compile(r"[^\W\d_]{2,}")
#: Each language in its own name, as the picker shows them (i18n.js LANGUAGE_NAMES).
OWN_NAMES = {
    "en": "English", "cs": "Čeština", "de": "Deutsch", "pl": "Polski", "es": "Español",
    "pt-br": "Português (Brasil)", "fr": "Français", "it": "Italiano",
}  # fmt: skip
#: Words every language writes as English does on this screen: the currency, the games, "OK",
#: the search hint's example name.
ALIKE = {"EUR", "OK", "Hold'em", "BB", "SB", "Novak", "Novák"}


def same_as_english(code: str) -> set[str]:
    """The words the language's glossary lets a text keep from English."""
    path = ROOT / "docs" / "glossary" / f"{code}.toml"
    glossary = tomllib.loads(path.read_text(encoding="utf-8"))
    words = set(ALIKE)
    for value in glossary.get("same_as_english", {}).get("values", []):
        words |= set(WORD.findall(value))
    for rendering in glossary.get("terms", {}).values():
        for r in [rendering] if isinstance(rendering, str) else rendering:
            words |= set(WORD.findall(r))
    for name in OWN_NAMES.values():
        words |= set(WORD.findall(name))
    return {w.lower() for w in words}


def open_following(
    pages: Pages, server: ServerProcess, tid: str, player: dict[str, str], code: str
) -> tuple[Page, list[str]]:
    """The player screen in ``code``, following ``player``; the language files it fetched."""
    ctx = pages.context(server, size="phone")
    ctx.add_init_script(
        f"localStorage.setItem('floor.follow.{tid}', {json.dumps(json.dumps(player))});"
    )
    fetched: list[str] = []
    ctx.on("request", lambda r: fetched.append(r.url) if "/static/js/lang/" in r.url else None)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"{code}: {e}"))
    page.goto(f"/player/{tid}?lang={code}")
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
    expect(page.locator("html")).to_have_attribute("lang", code)
    # Until the clock shows its time, a text may still be on its way.
    expect(page.locator(".clock-time").first).to_have_text(re.compile(r"\d:\d\d"))
    return page, fetched


def test_the_player_screen_in_every_language(
    servers: list[ServerProcess], director: Api, pages: Pages, tmp_path: Path
) -> None:
    assert {"en", "cs", "de", "pl", "es", "pt-br", "fr", "it"} <= set(LANGS)
    tid = "jazyky"
    new_tournament(director, tid, 18, structure=PAID)
    director.ok(tid, {"type": "clock_start"})
    for pid in list(occupants(director, tid, 1).values())[:2]:
        director.ok(tid, {"type": "bust", "player": pid})
    moves = [m for m in director.state(tid)["plan"]["moves"] if m["player"]]
    assert moves
    director.ok(tid, {"type": "call_move", "player": moves[0]["player"]})
    pid = moves[0]["player"]
    player = {"id": pid, "name": director.state(tid)["state"]["players"][pid]["name"]}
    names = {p["name"] for p in director.state(tid)["state"]["players"].values()}
    names.add(director.state(tid)["state"]["name"])

    def words(texts: list[str]) -> set[str]:
        out: set[str] = set()
        for text in texts:
            for name in sorted(names, key=len, reverse=True):
                text = text.replace(name, " ")
            out |= {w.lower() for w in WORD.findall(text)}
        return out

    english_page, _ = open_following(pages, servers[0], tid, player, "en")
    english = words(english_page.evaluate(TEXTS))
    english_page.context.close()
    out = SHOTS if os.environ.get("FLOOR_SHOTS") == "1" else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    left: dict[str, list[str]] = {}
    for code in LANGS:
        page, fetched = open_following(pages, servers[0], tid, player, code)
        # The called move, in this language: the table and seat it names are on screen.
        expect(page.locator("body")).to_contain_text(str(moves[0]["to"]["table"]))
        page.screenshot(path=str(out / f"lang-{code}-alert.png"))
        page.get_by_role("button", name="OK", exact=True).click()
        page.screenshot(path=str(out / f"lang-{code}-player.png"))
        if code != "en":
            mine = words(page.evaluate(TEXTS))
            left[code] = sorted((mine & english) - same_as_english(code))
        # English and this language only: the other languages stay on the server. (The
        # service worker reads every language's notifications, a few lines each, to show
        # an alert in its subscription's language: push-*.js.)
        files = {u.rsplit("/", 1)[1] for u in fetched}
        files = {f for f in files if not f.startswith("push-")}
        own = {f for f in files if f == f"{code}.js" or f.endswith(f"-{code}.js")}
        fallback = {f for f in files if f == "en.js" or f.endswith("-en.js")}
        assert files - own - fallback == set(), (code, sorted(files - own - fallback))
        if code != "en":
            assert f"{code}.js" in own and f"table-{code}.js" in own
        page.context.close()
    assert {k: v for k, v in left.items() if v} == {}


def test_the_picker_offers_every_language_in_its_own_name_and_switches(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "picker"
    new_tournament(director, tid, 9, structure=PAID)
    page = pages.open(servers[0], f"/player/{tid}?lang=en")
    picker = page.locator(".lang select").first
    options = picker.locator("option")
    assert options.all_inner_texts() == [OWN_NAMES[c] for c in LANGS]
    assert [o.get_attribute("lang") for o in options.all()] == list(LANGS)
    expect(page.locator(".lang").first).to_have_attribute("aria-label", "Language")
    picker.select_option("de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator(".lang").first).to_have_attribute("aria-label", "Sprache")
    expect(page.locator(".lang select").first).to_have_value("de")
    # Remembered on this phone for its next visit.
    assert page.evaluate("localStorage.getItem('floor.lang')") == "de"
