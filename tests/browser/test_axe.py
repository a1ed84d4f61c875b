"""axe-core on every page and every role: the wall (each of its pages), the final table's
screen, the player screen, the floor phone (every view, as the floor and the director), the
table screen (paired, and a dealer signed in on it), the director console and the print page
(each printable), each for the public and for every staff role that can open it. Any rule
axe-core finds broken fails the test, with the rule, its elements and the page.

axe-core comes from npm (the top-level ``package.json``, pinned by ``package-lock.json``,
installed by ``scripts/install --tests``) and is run in the page by ``page.evaluate``: the
page's Content-Security-Policy stays on.

One busy moment is set up for all of them: a halted table and moves planned and called, the
colour-up break with a chip race run at one table, a time call running, a ruling with a
sit-out, players out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.a11y import axe_violations
from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
    occupants,
)
from tests.browser.test_accessibility import floor_views

pytestmark = pytest.mark.browser

TID = "axe"
DEALER = ("dana", "4321")  # the e2e servers' dealer (a PIN: table screens only)
PRINTABLES = ["cards", "draw", "draw-tables", "tables", "payouts", "counts", "results"]

#: A day further on, for the console's boxes that scroll (the payouts, the results, the plan):
#: 60 entries, 20 places paid, 20 out.
BIG = "axe-big"
BIG_STRUCTURE: dict[str, Any] = {
    **TOOLS_STRUCTURE,
    "name": "browser-big",
    "prize": {
        **TOOLS_STRUCTURE["prize"],
        "payouts": [
            {"entries": 2, "percents": [100]},
            {
                "entries": 40,
                "percents": [21, 14, 10, 8, 6, 5, 4.5, 4, 3.5, 3, 2.5, 2.5, *[2] * 8],
            },
        ],
    },
}


@pytest.fixture(scope="module")
def scene(director: Api) -> dict[str, Any]:
    new_tournament(director, TID, 17, structure=TOOLS_STRUCTURE)
    director.ok(TID, {"type": "clock_start"})
    director.ok(TID, {"type": "clock_level", "to": 1})
    for player in list(occupants(director, TID, 2).values())[:3]:
        director.ok(TID, {"type": "bust", "player": player})
    first = director.state(TID)["plan"]["moves"][0]  # type: ignore[index]
    director.ok(TID, {"type": "call_move", "player": first["player"]})
    seats = occupants(director, TID, 2)
    director.ok(
        TID,
        {"type": "chip_race", "table": 2, "seats": [{"seat": s, "chips": 3} for s in seats]},
    )
    at_one = occupants(director, TID, 1)
    seat = min(at_one)
    director.ok(TID, {"type": "call_time", "table": 1, "seat": seat, "seconds": 600})
    director.ok(
        TID,
        {
            "type": "record_ruling",
            "table": 1,
            "players": [at_one[max(at_one)]],
            "note": "exposed a card",
            "penalties": [{"player": at_one[max(at_one)], "kind": "sit_out", "minutes": 10}],
        },
    )
    new_tournament(director, BIG, 60, structure=BIG_STRUCTURE)
    director.ok(BIG, {"type": "clock_start"})
    for table in (1, 2, 3, 4, 5):
        for player in list(occupants(director, BIG, table).values())[:4]:
            director.ok(BIG, {"type": "bust", "player": player})
    return director.state(TID)


def views(pages: Pages, server: ServerProcess, api: Api) -> Iterator[tuple[str, Page]]:
    """Every page, for every role that opens it, in the states worth checking."""
    # The public.
    for name, path, size in [
        ("start page", "/", "phone"),
        ("wall, tables", f"/wall/{TID}?pages=tables", "tv"),
        ("wall, moves", f"/wall/{TID}?pages=moves", "tv"),
        ("wall, prizes", f"/wall/{TID}?pages=prizes", "tv"),
        ("wall, charts", f"/wall/{TID}?pages=charts", "tv"),
        ("wall, phone", f"/wall/{TID}", "phone"),
        ("final table", f"/final/{TID}", "tv"),
        ("player screen", f"/player/{TID}", "phone"),
        ("floor phone, signed out", f"/floor/{TID}", "phone"),
        ("table screen, not paired", f"/table/{TID}/1", "desk"),
        ("console, signed out", f"/director?t={TID}", "desk"),
        ("print page, signed out", f"/print/{TID}?what=draw", "desk"),
    ]:
        page = pages.open(server, path, size=size, live=False)
        page.wait_for_load_state("networkidle")
        yield f"public: {name}", page
        if name == "player screen":
            page.fill("#player-search", "novak")
            expect(page.locator(".result-card").first).to_be_visible()
            yield "public: player screen, searched", page
        page.context.close()
    # The floor: the phone's every view, the console (not theirs), the printables.
    page = pages.open(server, f"/floor/{TID}", user=FLOOR)
    for view in floor_views(page):
        yield f"floor: floor phone, {view}", page
    page.context.close()
    page = pages.open(server, f"/director?t={TID}", size="desk", user=FLOOR, live=False)
    expect(page.locator(".director-signin")).to_be_visible()
    yield "floor: console", page
    page.context.close()
    page = pages.open(server, f"/print/{TID}?what=counts", size="desk", user=FLOOR, live=False)
    expect(page.locator("body[data-ready='1']")).to_be_attached()
    yield "floor: print page, counts", page
    page.context.close()
    # A table screen paired with table 1 (the floor asked for its code): no dealer signed in
    # on it, then a dealer with a PIN, the only place a dealer signs in.
    page = pages.tablet(server, api, TID, 1)
    expect(page.locator(".table-seats .seat").first).to_be_visible()
    yield "paired table screen, no dealer", page
    page.context.close()
    page = pages.tablet(server, api, TID, 1, dealer=DEALER)
    expect(page.locator(".table-seats .seat").first).to_be_visible()
    yield "dealer: table screen", page
    page.locator('.table-actions [data-action="out"]').click()
    yield "dealer: table screen, picking who is out", page
    page.context.close()
    # The director: the console whole, the phone's table tools, each printable.
    page = pages.open(server, f"/director?t={TID}", size="desk", user=DIRECTOR)
    expect(page.locator("#s-prizes table").first).to_be_visible()
    yield "director: console", page
    page.set_viewport_size({"width": 390, "height": 844})
    yield "director: console, phone size", page
    page.context.close()
    page = pages.open(server, f"/director?t={BIG}", size="desk", user=DIRECTOR)
    expect(page.locator("#s-prizes table").nth(1)).to_be_visible()
    yield "director: console of a bigger day", page
    page.context.close()
    page = pages.open(server, f"/floor/{TID}", user=DIRECTOR)
    page.get_by_role("button", name=re.compile(r"^Table\b")).click()
    page.locator(".pad-keys .key", has_text=re.compile("^1$")).click()
    page.locator(".pad-keys .key.primary").click()
    page.get_by_role("button", name="Count chips").click()
    yield "director: floor phone, count sheet", page
    # Kept on the phone, and counted from another phone meanwhile (drafts.js).
    page.locator(".count-sheet .count-input").first.fill("12000")
    player = next(iter(occupants(api, TID, 1).values()))
    api.ok(TID, {"type": "count_table", "table": 1, "stacks": [{"player": player, "stack": 9_000}]})
    expect(page.locator(".draft-stale")).to_be_visible()
    yield "director: floor phone, a kept sheet counted elsewhere", page
    page.get_by_role("button", name="Other table").click()
    expect(page.locator(".drafts-kept")).to_be_visible()
    yield "director: floor phone, the sheets kept", page
    page.get_by_role("button", name="Count sheet, table 1").click()
    page.locator(".count-sheet").get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name="Ruling").click()
    yield "director: floor phone, a ruling", page
    page.context.close()
    for what in PRINTABLES:
        page = pages.open(
            server, f"/print/{TID}?what={what}", size="desk", user=DIRECTOR, live=False
        )
        expect(page.locator("body[data-ready='1']")).to_be_attached()
        yield f"director: print page, {what}", page
        page.context.close()


def test_axe_core_finds_nothing_on_any_page_for_any_role(
    scene: dict[str, Any], servers: list[ServerProcess], pages: Pages, director: Api
) -> None:
    problems: dict[str, list[str]] = {}
    checked = 0
    for name, page in views(pages, servers[0], director):
        checked += 1
        if found := axe_violations(page):
            problems[name] = found
    assert checked >= 40
    assert not problems, "\n".join(
        f"{name}:\n  " + "\n  ".join(found) for name, found in problems.items()
    )
