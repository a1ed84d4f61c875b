"""A milestone satellite through the screens (issue 27.2), in a real Chromium against real
servers: twenty entries for four seats, a seat at 40,000 chips counted. The console's
satellite panel lists the player whose count reached it (a count below it lists nobody),
one tap awards the seat: the player leaves their seat with their chips out of play, the
panel says a seat was won, the console's results show them first with a seat, and their own
phone says the seat won and its worth. At the
cashier's screen the seat's ticket, issued with the award, shows beside the place and is
marked paid there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DIRECTOR, Api, Pages, ServerProcess, new_tournament
from tests.browser.test_finish import seated

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screens" / "milestone"

MILESTONE: dict[str, Any] = {
    "name": "browser-milestone",
    "starting_stack": 10_000,
    "chips": [25, 100, 500],
    "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 30}],
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "fee": 10,
        "payouts": [{"entries": 1, "percents": [100]}],
        "satellite": {"target": "main-ms", "seat": 500, "milestone": 40_000},
    },
}


def follow(pages: Pages, servers: list[ServerProcess], tid: str, pid: str) -> Page:
    """The player screen following ``pid`` (as "Follow" left it on the phone)."""
    ctx = pages.context(servers[0])
    held = json.dumps(json.dumps({"id": pid, "name": pid}))
    ctx.add_init_script(f"localStorage.setItem('floor.follow.{tid}', {held});")
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"player {pid}: {e}"))
    page.goto(f"/player/{tid}")
    expect(page.locator(".conn")).to_have_attribute("data-status", "live")
    expect(page.locator(".follow-card")).to_be_visible()
    return page


def test_the_console_awards_a_seat_to_a_count_at_the_milestone(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "ms-browser"
    new_tournament(director, tid, 20, structure=MILESTONE)
    director.ok(tid, {"type": "clock_start"})
    big, short = seated(director, tid)[:2]
    s = director.state(tid)["state"]
    name = s["players"][big]["name"]
    for pid, stack in ((big, 41_000), (short, 39_500)):
        table = s["players"][pid]["table"]
        count = [{"player": pid, "stack": stack}]
        director.ok(tid, {"type": "count_table", "table": table, "stacks": count})

    console = pages.open(servers[0], f"/director?t={tid}", size="tv", user=DIRECTOR)
    panel = console.locator("#s-tickets")
    expect(panel.locator(".milestone-rule")).to_have_text(
        "A milestone satellite: a counted stack of 40,000 chips wins a seat at once"
    )
    # The engine decides who reached it: the count below it is not listed.
    reached = panel.locator(".milestone-reached li")
    expect(reached).to_have_count(1)
    expect(reached).to_have_attribute("data-player", big)
    expect(reached).to_contain_text(f"{name} · 41,000 chips counted")
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel.screenshot(path=str(SHOTS / "milestone-reached-tv.png"))

    console.once("dialog", lambda dialog: dialog.accept())
    reached.get_by_role("button", name="Award a seat").click()
    expect(panel.locator(".milestone-won")).to_have_text(f"1 seat won at the milestone: {name}")
    expect(panel.locator(".milestone-none")).to_have_text("No count has reached the milestone yet.")
    s = director.state(tid)["state"]
    assert s["players"][big]["table"] is None and s["players"][big]["bust"]["seat_won"]
    assert (s["seats_won"], s["chips_out"]) == (1, 41_000)
    assert big not in seated(director, tid)

    # The console's players: a seat won, not a place out.
    row = console.locator("#s-players tbody tr", has_text=name)
    expect(row).to_contain_text("Won a seat at the milestone")
    # The next one out is last of all 20 (the seat won stands above), as the results say,
    # not 19th of the 19 still in when they busted.
    out = seated(director, tid)[-1]
    director.ok(tid, {"type": "bust", "player": out})
    out_name = director.state(tid)["state"]["players"][out]["name"]
    expect(console.locator("#s-players tbody tr", has_text=out_name)).to_contain_text(
        "Out in 20th place"
    )

    # The results: the seat winner first, with a seat worth its 500.
    results = console.locator("#s-prizes")
    first = results.locator("tbody tr", has_text=name)
    expect(first).to_contain_text("1st")
    expect(first).to_contain_text("Seat")
    expect(first).to_contain_text("€500")
    prizes = director.client.get(f"/api/t/{tid}/prizes").json()
    won = next(r for r in prizes["results"] if r["player"] == big)
    assert (won["place"], won["prize"], won["seat"]) == (1, 500, True)
    results.screenshot(path=str(SHOTS / "milestone-results-tv.png"))

    # The winner's own phone: a seat won, not a place out, and what the seat is worth.
    mine = follow(pages, servers, tid, big)
    expect(mine.locator(".seat-big")).to_have_text("Won a seat at the milestone")
    expect(mine.locator(".follow-finish")).to_have_text("Seat won · a ticket worth €500")
    mine.screenshot(path=str(SHOTS / "milestone-player-phone.png"), full_page=True)

    phone = pages.open(servers[1], f"/director?t={tid}", size="phone", user=DIRECTOR)
    box = phone.locator("#s-tickets")
    expect(box.locator(".milestone-won")).to_have_text(f"1 seat won at the milestone: {name}")
    box.screenshot(path=str(SHOTS / "milestone-console-phone.png"))


def test_a_milestone_seat_ticket_shows_at_the_cashier_and_is_marked_paid_there(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "ms-cashier"
    new_tournament(director, tid, 20, structure={**MILESTONE, "name": "Milestone cashier"})
    director.ok(tid, {"type": "clock_start"})
    big = seated(director, tid)[0]
    s = director.state(tid)["state"]
    table = s["players"][big]["table"]
    count = [{"player": big, "stack": 45_000}]
    director.ok(tid, {"type": "count_table", "table": table, "stacks": count})
    director.ok(tid, {"type": "award_seat", "player": big})
    ticket = f"{tid}-milestone-1"

    page = pages.open(servers[1], "/desk", size="tv", user=DIRECTOR, live=False)
    page.click("[data-tab=cashier]")
    page.select_option("#desk-cashier-tournament", tid)
    row = page.locator(f'#desk-cashier tr[data-player="{big}"]')
    expect(row.locator(".desk-won-ticket")).to_have_text(f"{ticket} → main-ms")
    expect(row).to_contain_text("1st")
    # The seat is paid with the ticket: no cash to hand over, none owed in the totals.
    expect(row.locator("td.num").first).to_have_text("Seat won · a ticket worth €500")
    expect(page.locator("#desk-cashier-totals")).to_contain_text("Still to pay €0")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "milestone-cashier-tv.png"))
    row.get_by_role("button", name="Pay").click()
    expect(row).to_contain_text("Paid")
    sheet = director.client.get(f"/api/desk/cashier/{tid}").json()["sheet"]
    (paid,) = [r for r in sheet["rows"] if r["player"] == big]
    assert (paid["ticket"], paid["paid"]) == (ticket, True)
