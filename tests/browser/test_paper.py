"""Paper and files through the screens: every printable rendered to PDF by Chromium (its page
size, every name on it), a list pasted into the console registered in batches, and the money
and structure set in the console.

The printables are also kept as PNG pages in ``docs/screens/`` (the print media, as the
printer gets it).
"""

from __future__ import annotations

import io
import os
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.browser.conftest import DIRECTOR, NAMES, TOOLS_STRUCTURE, Pages
from tests.e2e.conftest import Api, ServerProcess

pytestmark = pytest.mark.browser

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
#: Page sizes in PDF points (1/72 inch): A4 210 x 297 mm, Letter 8.5 x 11 in, 80 x 110 mm.
SIZES = {"a4": (595.3, 841.9), "letter": (612.0, 792.0), "receipt": (226.8, 311.8)}


def _plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def _pdf(page: Page) -> PdfReader:
    return PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True, print_background=True)))


def _text(pdf: PdfReader) -> str:
    return _plain(" ".join(p.extract_text() or "" for p in pdf.pages))


def _open(pages: Pages, server: ServerProcess, tid: str, query: str) -> Page:
    page = pages.open(server, f"/print/{tid}?{query}", size="desk", user=DIRECTOR, live=False)
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    return page


@pytest.fixture(scope="module")
def day(director: Api) -> dict[str, Any]:
    """24 players registered as one list, seated, two out, a table breaking planned."""
    tid = "paper"
    r = director.client.post(
        "/api/tournaments",
        json={
            "id": tid,
            "name": "Paper Cup",
            "rules": "tda-2024",
            "structure": TOOLS_STRUCTURE,
            "overrides": {"seats": 9},
        },
    )
    assert r.status_code == 201, r.text
    entries = [
        {"name": name, "player": f"C{100 + i}", "country": "CZ"} for i, name in enumerate(NAMES)
    ]
    director.ok(tid, {"type": "register_many", "entries": entries})
    director.ok(tid, {"type": "draw_seats"})
    director.ok(tid, {"type": "clock_start"})
    for pid in ("C100", "C101"):
        director.ok(tid, {"type": "bust", "player": pid})
    return director.state(tid)["state"]  # type: ignore[return-value]


PRINTABLES = [
    ("cards", "a4"),
    ("cards", "letter"),
    ("cards", "receipt"),
    ("draw", "a4"),
    ("draw-tables", "a4"),
    ("tables", "a4"),
    ("payouts", "a4"),
    ("counts", "a4"),
    ("results", "a4"),
]


@pytest.mark.parametrize(("what", "paper"), PRINTABLES)
def test_each_printable_prints_on_its_paper_with_every_name(
    pages: Pages, servers: list[ServerProcess], day: dict[str, Any], what: str, paper: str
) -> None:
    page = _open(pages, servers[0], "paper", f"what={what}&paper={paper}")
    pdf = _pdf(page)
    width, height = SIZES[paper]
    for p in pdf.pages:
        assert float(p.mediabox.width) == pytest.approx(width, abs=1.5)
        assert float(p.mediabox.height) == pytest.approx(height, abs=1.5)
    text = _text(pdf)
    players = day["players"].values()
    seated = [p for p in players if p["table"] is not None]
    out = [p for p in players if p["busted"]]
    tables = sorted({p["table"] for p in seated})
    if what in ("cards", "draw", "draw-tables", "counts"):
        expected = [p["name"] for p in seated]
    elif what == "results":
        expected = [p["name"] for p in out]
    else:
        expected = []
    missing = [n for n in expected if _plain(n) not in text]
    assert not missing, f"{what} on {paper} lacks {missing}"
    assert "Paper Cup" in text or what == "tables"
    if what == "cards":
        # Every card carries its seat's code; receipts print one card a page.
        codes = re.findall(r"Check ([A-Z0-9]{4})", text)
        assert len(codes) == len(seated)
        if paper == "receipt":
            assert len(pdf.pages) == len(seated)
    if what == "tables":
        assert len(pdf.pages) == len(tables)
        assert all(f"Table {n}" in text.replace("TABLE", "Table") or str(n) in text for n in tables)
    if what == "payouts":
        assert "€1,500" in text  # the guarantee: 24 entries bring 2,400, the pool
    if what == "counts":
        assert len(pdf.pages) >= len(tables)
    # On screen the same sheets as A4; kept in docs/screens when asked (a test run changes
    # no file of the checkout).
    if paper != "letter" and os.environ.get("FLOOR_SCREENSHOTS"):
        page.emulate_media(media="print")
        page.screenshot(path=str(SCREENS / f"print-{what}-{paper}.png"), full_page=True)


def test_a_card_is_one_tap_from_the_console_and_checks_by_its_code(
    pages: Pages, servers: list[ServerProcess], day: dict[str, Any], director: Api
) -> None:
    console = pages.open(servers[0], "/director?t=paper", size="desk", user=DIRECTOR)
    link = console.locator("a.print-card").first
    expect(link).to_be_visible()
    href = link.get_attribute("href") or ""
    assert "what=cards" in href and "auto=1" in href
    card = _open(pages, servers[0], "paper", href.split("?", 1)[1].replace("auto=1", "auto=0"))
    pid = re.search(r"player=([^&]+)", href)
    assert pid is not None
    p = day["players"][pid.group(1)]
    text = _text(_pdf(card))
    assert _plain(p["name"]) in text
    code = re.search(r"Check ([A-Z0-9]{4})", text)
    assert code is not None
    good = director.client.get(
        "/api/t/paper/paper/check",
        params={"table": p["table"], "seat": p["seat"], "code": code.group(1)},
    ).json()
    assert good["valid"] and good["player"] == p["id"]
    stale = director.client.get(
        "/api/t/paper/paper/check", params={"table": p["table"], "seat": p["seat"], "code": "AAAA"}
    ).json()
    assert not stale["valid"]


def test_a_spreadsheet_pasted_into_the_console_is_previewed_then_registered_in_batches(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    r = director.client.post(
        "/api/tournaments", json={"id": "listed", "rules": "tda-2024", "structure": "demo-fast"}
    )
    assert r.status_code == 201, r.text
    rows = [f"Hráč {i}\t{5000 + i}\tCZ" for i in range(1300)]
    pasted = "\n".join(["Jméno\tKarta\tZemě", *rows, "\t5999\tCZ", "Hráč 7\t5007\tCZ"])
    console = pages.open(servers[0], "/director?t=listed", size="tv", user=DIRECTOR)
    # Set as a paste sets it (fill types it, 40 KB of it).
    console.locator("#import-paste").evaluate("(el, text) => { el.value = text; }", pasted)
    console.click("#import-preview-btn")
    summary = console.locator(".import-summary")
    expect(summary).to_contain_text("1,302 rows: 1,300 to register, 2 with an error")
    expect(console.locator("#import-col-0")).to_have_value("name")
    expect(console.locator("#import-col-1")).to_have_value("player")
    if os.environ.get("FLOOR_SCREENSHOTS"):
        console.locator("#s-players").screenshot(path=str(SCREENS / "director-import-tv.png"))
    console.click("#import-register")
    expect(console.locator("#import-progress-text")).to_contain_text("1,300 players registered")
    state = director.state("listed")["state"]
    assert state["entries"] == 1300  # type: ignore[index]
    assert state["players"]["5007"]["country"] == "CZ"  # type: ignore[index]


def test_the_money_and_the_structure_are_set_in_the_console(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    r = director.client.post(
        "/api/tournaments", json={"id": "money", "rules": "tda-2024", "structure": "demo-fast"}
    )
    assert r.status_code == 201, r.text
    console = pages.open(servers[0], "/director?t=money", size="tv", user=DIRECTOR)
    console.fill("#money-currency", "CZK")
    console.fill("#money-buy-in", "1000")
    console.fill("#money-fee", "200")
    console.fill("#money-guarantee", "100000")
    console.fill("#money-curve-entries", "300")
    console.click("#money-curve")
    expect(console.locator("#payout-sum-0")).to_contain_text("100.00")
    console.click("#money-save")
    expect(console.locator(".toast").last).to_contain_text("Money saved")
    prize = director.state("money")["state"]["structure"]["prize"]  # type: ignore[index]
    assert (prize["buy_in"], prize["fee"], prize["guarantee"]) == (1000, 200, 100_000)
    assert len(prize["payouts"]) > 10
    if os.environ.get("FLOOR_SCREENSHOTS"):
        console.locator("#s-money").screenshot(path=str(SCREENS / "director-money-tv.png"))
    director.ok("money", {"type": "clock_start"})
    # A change after the start: a later level's minutes, an event in the log.
    console.reload()
    expect(console.locator(".conn").first).to_have_attribute("data-status", "live")
    minutes = console.locator('#structure-form tr[data-step="3"] input[aria-label="Minutes"]')
    minutes.fill("45")
    bad = console.evaluate(
        "[...document.querySelectorAll('#structure-form input')].filter((i) => !i.checkValidity())"
        ".map((i) => i.getAttribute('aria-label') + '=' + i.value + ' ' + i.validationMessage)"
    )
    assert not bad, bad
    console.click("#structure-save")
    expect(console.locator(".toast").last).to_contain_text("Structure saved")
    events = director.client.get("/api/t/money/events", params={"since": 0}).json()["events"]
    assert [e["event"]["type"] for e in events][-1] == "structure_changed"
    if os.environ.get("FLOOR_SCREENSHOTS"):
        console.locator("#s-structure").screenshot(path=str(SCREENS / "director-structure-tv.png"))
