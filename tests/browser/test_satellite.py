"""A satellite through the screens (issue 27, part 2), in a real Chromium against real
servers: 30 entries of 100 for seats worth 1,000 in the main event (3 seats); played down to
four, two out in one hand at the bubble (the bigger stack takes the third seat), it stops at
three. The console shows the seat winners and enters their tickets in the house's ledger; one
of them registers in the main event with their ticket from the main event's console, and the
ledger shows it used, the main event's pool counting it as a buy-in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DIRECTOR, Api, Pages, ServerProcess, new_tournament, wait_for
from tests.browser.test_finish import seated

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screens" / "satellite"

SATELLITE: dict[str, Any] = {
    "name": "browser-satellite",
    "starting_stack": 10_000,
    "chips": [25, 100, 500],
    "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 30}],
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "fee": 10,
        "payouts": [{"entries": 1, "percents": [100]}],
        "satellite": {"target": "main-evt", "seat": 1_000},
    },
}
MAIN: dict[str, Any] = {
    **SATELLITE,
    "name": "browser-main",
    "prize": {"currency": "EUR", "buy_in": 900, "fee": 100,
              "payouts": [{"entries": 1, "percents": [100]}]},
}  # fmt: skip


def state(api: Api, tid: str) -> Any:
    return api.state(tid)["state"]


def play_down_to_four(director: Api, tid: str) -> None:
    """Bust-outs, the floor's moves carried out, until four are left."""
    while len(seated(director, tid)) > 4:
        director.ok(tid, {"type": "bust", "player": seated(director, tid)[-1]})
        for move in state(director, tid).get("plan", {}).get("moves", []):
            director.command(tid, {"type": "confirm", "player": move["player"]})


def test_a_satellite_of_30_for_3_seats_stops_at_3_and_a_ticket_enters_the_main_event(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    # The main event's own players are numbered apart from the satellite's: a ticket bound to
    # its holder enters that id, which must not be a main-event player's already.
    new_tournament(director, "main-evt", 10, structure=MAIN, ids="M")
    new_tournament(director, "sat30", 30, structure=SATELLITE)
    director.ok("sat30", {"type": "clock_start"})
    play_down_to_four(director, "sat30")
    console = pages.open(servers[0], "/director?t=sat30", size="tv", user=DIRECTOR)
    panel = console.locator("#s-tickets")
    expect(panel).to_contain_text("A satellite: each seat is a ticket to main-evt, worth €1,000")
    expect(
        panel.get_by_role("button", name="Enter the seats' tickets in the ledger")
    ).to_have_count(0)

    # The bubble: two out in one hand, the bigger stack placed third (a seat), the other fourth.
    four = seated(director, "sat30")
    small, big = four[0], four[1]
    busted = [{"player": small, "stack": 3_000}, {"player": big, "stack": 9_000}]
    director.ok("sat30", {"type": "bust_same_hand", "players": busted})
    s = state(director, "sat30")
    assert s["satellite_end"]["seats"] == [*four[2:], big]
    assert s["players"][big]["bust"]["place"] == 3 and s["players"][small]["bust"]["place"] == 4
    assert s["winner"] is None and not s["clock"]["running"]

    expect(panel.locator(".satellite-ended")).to_have_text("The satellite has ended: 3 seats won")
    winners = [s["players"][p]["name"] for p in s["satellite_end"]["seats"]]
    expect(panel.locator(".seat-winners li")).to_have_text(winners)
    # Nothing plays on: a bust-out is refused, named.
    r = director.command("sat30", {"type": "bust", "player": four[2]})
    assert r.status_code == 409 and r.json()["error"]["reason"] == "satellite_ended"

    panel.get_by_role("button", name="Enter the seats' tickets in the ledger").click()
    expect(panel.locator(".ok-text")).to_have_text("3 tickets are in the ledger")
    rows = panel.locator(".ticket-table tbody tr")
    expect(rows).to_have_count(3)
    expect(panel.locator('tr[data-status="issued"]')).to_have_count(3)
    console.set_viewport_size({"width": 1920, "height": 1080})
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel.screenshot(path=str(SHOTS / "satellite-console-tv.png"))
    ledger = director.client.get("/api/tickets", params={"origin": "sat30"}).json()["tickets"]
    assert sorted(t["holder"] for t in ledger) == sorted(s["satellite_end"]["seats"])
    assert {(t["target"], t["value"], t["status"]) for t in ledger} == {
        ("main-evt", 1_000, "issued")
    }

    # The bigger stack of the bubble registers in the main event with their ticket.
    ticket = next(t["id"] for t in ledger if t["holder"] == big)
    main = pages.open(servers[1], "/director?t=main-evt", size="phone", user=DIRECTOR)
    box = main.locator("#s-tickets")
    expect(box.locator(".ticket-table")).to_be_visible()
    expect(box.locator(f'tr[data-ticket="{ticket}"]')).to_have_attribute("data-status", "issued")
    form = box.locator("form.ticket-register")
    form.get_by_label("Ticket", exact=True).fill(ticket)
    form.get_by_label("Ticket", exact=True).dispatch_event("change")
    expect(form.get_by_label("Player id")).to_have_value(big)
    expect(form.get_by_label("Name", exact=True)).to_have_value(s["players"][big]["name"])
    form.get_by_role("button", name="Register", exact=True).click()
    # The console's answer first (a refusal would say why here), then the ledger it reads again.
    expect(main.locator(".toast").last).to_contain_text(
        f"✓ {s['players'][big]['name']} registered with ticket"
    )
    expect(box.locator(f'tr[data-ticket="{ticket}"]')).to_have_attribute(
        "data-status", "used", timeout=15_000
    )
    box.screenshot(path=str(SHOTS / "satellite-main-phone.png"))
    main_state = wait_for(
        lambda: big in state(director, "main-evt")["players"] and state(director, "main-evt")
    )
    assert main_state["entries"] == 11
    # The same ticket again: refused, named.
    again = {"type": "register", "name": "Someone", "player": "X1", "ticket": ticket}
    r = director.command("main-evt", again)
    assert r.status_code == 409 and r.json()["error"]["reason"] == "ticket_not_issued"
    console.screenshot(path=str(SHOTS / "satellite-console-page-tv.png"))
