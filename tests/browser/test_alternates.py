"""A full flight's alternates on real Chromium against real servers: the director sets the
capacity on the console, five people queue (three from their phones by the wall's code, two at
the desk), bust-outs call them one by one, one misses the time and the next is called, and the
phones, the wall and the console show it as it happens."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.a11y import axe_violations
from tests.browser.conftest import DIRECTOR, Pages, wait_for
from tests.e2e.conftest import Api, ServerProcess

STRUCTURE: dict[str, Any] = {
    "name": "sold-out",
    "starting_stack": 20_000,
    "chips": [100, 500],
    "levels": [
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 60},
        {"type": "level", "small_blind": 200, "big_blind": 400, "minutes": 60},
    ],
}
#: Where the screenshots go when asked for (``FLOOR_SHOTS``): looked at before a change lands.
SHOTS = os.environ.get("FLOOR_SHOTS")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png")


def line(director: Api, tid: str) -> list[dict[str, Any]]:
    state: Any = director.state(tid)["state"]
    entries: list[dict[str, Any]] = state["alternates"]["line"]
    return entries


def join(pages: Pages, server: ServerProcess, tid: str, name: str) -> Page:
    phone = pages.open(server, f"/line/{tid}")
    phone.get_by_label("Your name as on your ID").fill(name)
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.locator(".line-status")).to_contain_text("Your place:")
    return phone


def test_a_full_flight_calls_its_alternates_and_the_next_when_one_misses_the_time(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "soldout"
    body = {"id": tid, "name": "Sold Out", "rules": "tda-2024", "structure": STRUCTURE}
    assert director.client.post("/api/tournaments", json=body).status_code == 201
    entries = [{"name": f"Seated Player {i}", "player": f"S{i}"} for i in range(18)]
    director.ok(tid, {"type": "register_many", "entries": entries})
    director.ok(tid, {"type": "draw_seats"})
    director.ok(tid, {"type": "clock_start"})

    # The director sets the capacity on the console: 18 seats, 9 seconds to take a seat.
    console = pages.open(servers[0], f"/director?t={tid}", size="desk", user=DIRECTOR)
    panel = console.locator("#s-alternates")
    panel.get_by_label("Counted in").select_option("seats")
    panel.get_by_label("How many").fill("18")
    panel.get_by_label("Minutes to take the seat").fill("0.15")
    panel.get_by_role("button", name="Save the capacity").click()
    expect(panel.locator(".alt-facts")).to_contain_text("18 of 18 seats taken or held")
    expect(panel.locator(".alt-full")).to_have_text("The flight is full: registrations go in line.")

    # The wall shows the code to join while full.
    wall = pages.open(servers[0], f"/wall/{tid}", size="tv")
    code = wall.locator(".alt-code")
    expect(code).to_be_visible()
    expect(code.locator("svg.qr")).to_have_attribute("aria-label", "Full: scan to join the line")

    # Three join from their phones, two at the desk (a registration while full waits in line).
    ann = join(pages, servers[0], tid, "Ann Walker")
    bob = join(pages, servers[1], tid, "Bob Later")
    director.ok(tid, {"type": "register", "name": "Cy Desk"})
    dee = join(pages, servers[0], tid, "Dee Phone")
    panel.get_by_label("Name to put in line").fill("Eve Desk")
    panel.get_by_role("button", name="Put in line").click()
    wait_for(lambda: len(line(director, tid)) == 5, console)
    assert [a["name"] for a in line(director, tid)] == [
        "Ann Walker", "Bob Later", "Cy Desk", "Dee Phone", "Eve Desk",
    ]  # fmt: skip
    expect(dee.locator(".line-status")).to_contain_text("Your place: 4 of 5")
    expect(wall.locator(".alt-wall-next li")).to_have_count(4)
    expect(wall.locator(".alt-wall-next")).to_contain_text("and 1 more")
    expect(panel.locator(".alt-table tbody tr")).to_have_count(5)
    shot(wall, "alternates-wall-tv")
    shot(ann, "alternates-line-phone")
    panel.locator(".alt-list").scroll_into_view_if_needed()
    shot(console, "alternates-console-desk")

    # A bust-out calls Ann: her phone, the wall and the console say so; she takes the seat.
    director.ok(tid, {"type": "bust", "player": "S0"})
    expect(ann.locator(".line-status")).to_contain_text("Your seat is ready: go to the desk now")
    expect(wall.locator(".alt-wall-called li")).to_contain_text("Ann Walker")
    expect(code).to_be_visible()  # others wait: a newcomer still joins behind them
    expect(panel.locator("tr.alt-called")).to_contain_text(re.compile(r"called · 0:0\d left"))
    shot(ann, "alternates-line-called-phone")
    panel.get_by_role("button", name="Seated: Ann Walker").click()
    wait_for(lambda: line(director, tid)[0]["name"] == "Bob Later", console)
    state: Any = director.state(tid)["state"]
    ann_entry = next(p for p in state["players"].values() if p["name"] == "Ann Walker")
    assert ann_entry["table"] is not None and ann_entry["seat"] is not None
    expect(ann.locator(".line-status")).to_contain_text("You are no longer in line")

    # Another calls Bob, who does not come: the clock driver ends his time, Cy is called.
    director.ok(tid, {"type": "bust", "player": "S1"})
    expect(bob.locator(".line-status")).to_contain_text("Your seat is ready")
    expect(wall.locator(".alt-wall-called li")).to_contain_text("Bob Later")
    expect(wall.locator(".alt-wall-called li")).to_contain_text("Cy Desk", timeout=20_000)
    expect(bob.locator(".line-status")).to_contain_text("You are no longer in line")
    expect(dee.locator(".line-status")).to_contain_text("Your place: 2 of 3")
    entries_now = line(director, tid)
    assert [(a["name"], a["called_at"] is not None) for a in entries_now] == [
        ("Cy Desk", True), ("Dee Phone", False), ("Eve Desk", False),
    ]  # fmt: skip
    assert director.state(tid)["state"]["alternates"]["lapsed"] == 1
    expect(panel.locator(".alt-facts")).to_contain_text("missed their time 1")
    shot(wall, "alternates-wall-called-tv")
    # Nothing axe-core finds on the three screens as they stand: a call, a line, a lapse.
    for name, page in (("wall", wall), ("line page", dee), ("console", console)):
        assert axe_violations(page) == [], name
    if SHOTS:  # the same screens at the other size
        for path, size, name in (
            (f"/wall/{tid}", "phone", "alternates-wall-phone"),
            (f"/line/{tid}", "tv", "alternates-line-tv"),
        ):
            shot(pages.open(servers[0], path, size=size), name)
        small = pages.open(servers[0], f"/director?t={tid}", user=DIRECTOR)
        small.locator("#s-alternates .alt-list").scroll_into_view_if_needed()
        shot(small, "alternates-console-phone")
    assert pages.errors == []
