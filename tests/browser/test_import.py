"""A spreadsheet imported through the console as a director brings it: the header found
whatever its language (or asked about), nothing seated by a column's values alone, a
surname-first list keeping its surnames, and a name twice in a list not registered twice
unless the director ticks it.

The .xlsx files are built with openpyxl, as Excel saves them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from playwright.sync_api import Page, expect

from tests.browser.conftest import DIRECTOR, Pages
from tests.e2e.conftest import Api, ServerProcess

pytestmark = pytest.mark.browser

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"

#: 32 players as a Czech club writes them: surname first, then the first name.
PLAYERS = [
    ("Dvořák", "Jiří"), ("Novák", "Tomáš"), ("Svobodová", "Eva"), ("Černý", "Petr"),
    ("Nováková", "Jana"), ("Procházka", "Lukáš"), ("Kučerová", "Anna"), ("Veselý", "Martin"),
    ("Horáková", "Lucie"), ("Němec", "Pavel"), ("Marková", "Kateřina"), ("Pokorný", "Jan"),
    ("Pospíšilová", "Tereza"), ("Hájek", "David"), ("Jelínková", "Veronika"), ("Král", "Michal"),
    ("Růžičková", "Barbora"), ("Beneš", "Ondřej"), ("Fialová", "Zuzana"), ("Šimek", "Filip"),
    ("Doležalová", "Adéla"), ("Zeman", "Vojtěch"), ("Kolářová", "Klára"), ("Navrátil", "Matěj"),
    ("Čermák", "Radek"), ("Urbanová", "Markéta"), ("Vaněk", "Štěpán"), ("Blažková", "Ilona"),
    ("Kříž", "Roman"), ("Kovářová", "Simona"), ("Bartoš", "Aleš"), ("Žáková", "Irena"),
]  # fmt: skip
CLUBS = ["PokerClub Praha", "Card Casino Brno", "Kings Rozvadov", "Royal Ostrava"]


def _xlsx(rows: list[list[Any]]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _create(director: Api, tid: str) -> None:
    r = director.client.post(
        "/api/tournaments", json={"id": tid, "rules": "tda-2024", "structure": "demo-fast"}
    )
    assert r.status_code == 201, r.text


def _players(director: Api, tid: str) -> list[dict[str, Any]]:
    state = director.state(tid)["state"]
    return list(state["players"].values())  # type: ignore[index]


def _upload(console: Page, name: str, data: bytes) -> None:
    console.locator("#import-file").set_input_files(
        files=[
            {
                "name": name,
                "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                "buffer": data,
            }
        ]
    )
    expect(console.locator(".import-summary")).to_be_visible()


def test_a_czech_sheet_registers_its_players_not_its_header_and_seats_nobody_apart(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    """Issue 25, defect 1: "Příjmení a jméno | Klub | Buy-in zaplaceno" above 32 players with
    "ano" in the third column registered 33 players, one named "Příjmení a jméno", each
    with a special-needs seat."""
    _create(director, "czech")
    rows: list[list[Any]] = [["Příjmení a jméno", "Klub", "Buy-in zaplaceno"]]
    rows += [[f"{s} {g}", CLUBS[i % 4], "ano"] for i, (s, g) in enumerate(PLAYERS)]
    console = pages.open(servers[0], "/director?t=czech", size="tv", user=DIRECTOR)
    _upload(console, "hraci.xlsx", _xlsx(rows))
    expect(console.locator(".import-summary")).to_contain_text("with a header")
    expect(console.locator(".import-summary")).to_contain_text("32 rows: 32 to register")
    # The paid column is nobody's seat: it is not taken for special needs.
    expect(console.locator("#import-col-2")).not_to_have_value("special_needs")
    expect(console.locator("#import-needs")).to_have_count(0)
    # The preview says which word of each name is the surname.
    surnames = console.locator(".import-rows tbody td.import-surname")
    expect(surnames).to_have_text([s for s, _ in PLAYERS])
    if os.environ.get("FLOOR_SCREENSHOTS"):
        console.locator("#s-players").screenshot(path=str(SCREENS / "director-import-czech-tv.png"))
    console.click("#import-register")
    expect(console.locator("#import-progress-text")).to_contain_text("32 players registered")
    players = _players(director, "czech")
    assert len(players) == 32
    assert not [p for p in players if "jméno" in p["name"].casefold()]
    assert not [p["name"] for p in players if p["special_needs"]]
    # Held first name first, as a list of first and last names is: the surname is the
    # name's last word, whichever order the sheet wrote it in.
    assert sorted(p["name"] for p in players) == sorted(f"{g} {s}" for s, g in PLAYERS)


def test_a_first_row_the_shape_leaves_open_is_asked_before_anything_registers(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    _create(director, "asked")
    names = [f"{g} {s}" for s, g in PLAYERS[:10]]
    console = pages.open(servers[0], "/director?t=asked", size="phone", user=DIRECTOR)
    console.locator("#import-paste").fill("\n".join(["SEZNAM", *names]))
    console.click("#import-preview-btn")
    expect(console.locator("#import-ask-q")).to_have_text("Is the first row a header?")
    expect(console.locator(".import-ask-cells")).to_have_text("SEZNAM")
    expect(console.locator("#import-register")).to_be_disabled()
    expect(console.locator("#import-waiting")).to_contain_text(
        "say whether the first row is a header"
    )
    console.locator(".import-ask").scroll_into_view_if_needed()
    if os.environ.get("FLOOR_SCREENSHOTS"):  # a test run changes no file of the checkout
        console.screenshot(path=str(SCREENS / "director-import-ask-phone.png"))
    console.click("#import-header-yes")
    expect(console.locator(".import-summary")).to_contain_text("10 rows: 10 to register")
    expect(console.locator(".import-summary")).to_contain_text("with a header")
    expect(console.locator(".import-ask")).to_have_count(0)
    console.click("#import-register")
    expect(console.locator("#import-progress-text")).to_contain_text("10 players registered")
    assert sorted(p["name"] for p in _players(director, "asked")) == sorted(names)
    # The answer was about that list: the next one is judged, and asked about, afresh.
    later = [f"{g} {s}" for s, g in PLAYERS[10:14]]
    console.locator("#import-paste").fill("\n".join(["SEZNAM", *later]))
    console.click("#import-preview-btn")
    expect(console.locator("#import-ask-q")).to_be_visible()
    expect(console.locator("#import-header")).to_have_value("auto")
    console.click("#import-header-no")
    expect(console.locator(".import-summary")).to_contain_text("5 rows: 5 to register")
    expect(console.locator("#import-register")).to_be_enabled()


def test_special_needs_named_by_a_header_are_counted_and_confirmed_before_registering(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    _create(director, "needs")
    rows: list[list[Any]] = [["Jméno", "Vozík", "Zaplaceno"]]
    rows += [[f"{g} {s}", "ano" if i % 5 == 0 else "", "ano"] for i, (s, g) in enumerate(PLAYERS)]
    console = pages.open(servers[0], "/director?t=needs", size="tv", user=DIRECTOR)
    _upload(console, "vozik.xlsx", _xlsx(rows))
    expect(console.locator("#import-col-1")).to_have_value("special_needs")
    expect(console.locator("#import-col-2")).to_have_value("")
    needs = console.locator("#import-needs")
    expect(needs).to_contain_text("7 players would get a special-needs seat")
    expect(needs).to_contain_text("“Vozík”")
    expect(console.locator("#import-register")).to_be_disabled()
    # One of the seven unticked: the count follows the ticks, and asks again.
    console.get_by_label("Register line 2", exact=True).uncheck()
    expect(needs).to_contain_text("6 players would get a special-needs seat")
    console.check("#import-needs-ok")
    expect(console.locator("#import-register")).to_be_enabled()
    if os.environ.get("FLOOR_SCREENSHOTS"):
        console.locator("#s-players").screenshot(path=str(SCREENS / "director-import-needs-tv.png"))
    console.get_by_label("Register line 2", exact=True).check()
    expect(needs).to_contain_text("7 players would get a special-needs seat")
    expect(console.locator("#import-needs-ok")).not_to_be_checked()
    expect(console.locator("#import-register")).to_be_disabled()
    console.check("#import-needs-ok")
    console.click("#import-register")
    expect(console.locator("#import-progress-text")).to_contain_text("32 players registered")
    seated_apart = sorted(p["name"] for p in _players(director, "needs") if p["special_needs"])
    assert seated_apart == sorted(f"{g} {s}" for i, (s, g) in enumerate(PLAYERS) if i % 5 == 0)


def test_a_name_twice_in_one_file_is_registered_once_unless_the_director_ticks_it(
    pages: Pages, servers: list[ServerProcess], director: Api
) -> None:
    _create(director, "twice")
    names = ["Jiří Dvořák", "Eva Svobodová", "Petr Černý", "Jiří Dvořák", "Anna Kučerová",
             "Eva Svobodová"]  # fmt: skip
    console = pages.open(servers[0], "/director?t=twice", size="tv", user=DIRECTOR)
    console.locator("#import-paste").fill("\n".join(names))
    console.click("#import-preview-btn")
    expect(console.locator(".import-summary")).to_contain_text("6 rows: 4 to register")
    expect(console.get_by_label("Register line 4", exact=True)).not_to_be_checked()
    expect(console.get_by_label("Register line 6", exact=True)).not_to_be_checked()
    expect(console.locator('tr[data-line="4"] .import-flags')).to_contain_text(
        "the same name as line 1"
    )
    # Two players named Eva Svobodová: the director ticks the second.
    console.get_by_label("Register line 6", exact=True).check()
    expect(console.locator("#import-register")).to_have_text("Register 5 players")
    console.click("#import-register")
    expect(console.locator("#import-progress-text")).to_contain_text("5 players registered")
    registered = sorted(p["name"] for p in _players(director, "twice"))
    assert registered == sorted([*names[:3], names[4], names[5]])
