"""A deal at the final table through the screens (issue 27, part 3), in a real Chromium
against real servers: a small tournament down to three, their stacks counted after the last
hand; the director computes ICM in the console's Deal section, adjusts the amounts, records
each player's agreement and makes the deal, which ends the tournament with the places by
chips; the console's results, the wall's prizes page and the files show the deal. A bad
deal (shares that do not add up) is refused naming the field."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import axe_violations, unnamed_controls
from tests.browser.conftest import (
    DIRECTOR,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    name_of,
    new_tournament,
)
from tests.browser.test_finish import seated

pytestmark = pytest.mark.browser

# 6 entries, the pool the guarantee's 1,500: 750 / 450 / 300 for the last three.
DEAL_STRUCTURE: dict[str, Any] = {
    **TOOLS_STRUCTURE,
    "name": "browser-deal",
    "prize": {
        **TOOLS_STRUCTURE["prize"],
        "payouts": [{"entries": 3, "percents": [50, 30, 20]}],
    },
}


def test_a_three_way_deal_made_in_the_console_ends_the_tournament_and_shows_in_the_payouts(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "dealt"
    new_tournament(director, tid, 6, structure=DEAL_STRUCTURE)
    director.ok(tid, {"type": "clock_start"})
    players = seated(director, tid)
    for pid in players[:3]:
        director.ok(tid, {"type": "bust", "player": pid})
    director.ok(tid, {"type": "hand", "table": 1})
    leader, second, third = players[3:]
    stacks = {leader: 30_000, second: 18_000, third: 12_000}
    director.ok(
        tid,
        {
            "type": "count_table",
            "table": 1,
            "stacks": [{"player": p, "stack": s} for p, s in stacks.items()],
        },
    )
    console = pages.open(servers[0], f"/director?t={tid}", size="desk", user=DIRECTOR)
    wall = pages.open(servers[1], f"/wall/{tid}?pages=prizes", size="tv")
    box = console.locator("#s-deal")
    expect(box).to_be_visible()
    expect(box).to_contain_text("Prizes still to be paid: €750 · €450 · €300")

    # ICM of 30,000 / 18,000 / 12,000 for 750 / 450 / 300: 575.85 / 491.25 / 432.90, in
    # tens (the prize's rounding): the ten left over to the largest remainder.
    box.get_by_role("button", name="Compute ICM").click()
    amount = {p: box.locator(f"#deal-amount-{p}") for p in stacks}
    expect(amount[leader]).to_have_value("580")
    expect(amount[second]).to_have_value("490")
    expect(amount[third]).to_have_value("430")
    expect(box.locator(".deal-total")).to_contain_text("Offer (ICM): €1,500 shared")
    # Every control of the offer is named, and axe-core finds nothing in the Deal section
    # (the console's other sections are test_axe's).
    assert unnamed_controls(console) == []
    assert [v for v in axe_violations(console) if "deal" in v] == []

    # Adjusted by hand, still adding up to the prizes: an offer of its own.
    amount[leader].fill("560")
    amount[second].fill("500")
    amount[third].fill("440")
    box.get_by_role("button", name="Save the amounts").click()
    expect(box.locator(".deal-total")).to_contain_text("Offer (adjusted)")
    expect(box.locator(f"#deal-amount-{leader}")).to_have_value("560")

    # A bad deal from the API is refused naming the field, and changes nothing.
    bad = director.command(
        tid,
        {
            "type": "propose_deal",
            "method": "custom",
            "shares": [{"player": p, "amount": 600} for p in stacks],
        },
    )
    assert bad.status_code == 409, bad.text
    error = bad.json()["error"]
    assert (error["field"], error["reason"]) == ("shares", "deal_shares_total")
    assert director.state(tid)["state"]["deal_offer"]["method"] == "custom"  # type: ignore[index]

    # Two agree, the third not yet: refused, the deal not made.
    box.get_by_label("agrees").nth(0).check()
    box.get_by_label("agrees").nth(1).check()
    console.once("dialog", lambda dialog: dialog.accept())
    box.get_by_role("button", name="Make the deal and end the tournament").click()
    expect(console.locator(".toast").last).to_contain_text("has not agreed to the deal")
    box.get_by_label("agrees").nth(2).check()
    console.once("dialog", lambda dialog: dialog.accept())
    box.get_by_role("button", name="Make the deal and end the tournament").click()

    expect(box.locator(".deal-made")).to_have_text(
        "Deal made (adjusted): the tournament ended by it, places by chips at the deal."
    )
    leader_name = name_of(director, tid, leader)
    expect(console.locator(".end-box .end-winner")).to_have_text(
        f"Finished — winner: {leader_name}"
    )
    results = console.locator("#s-prizes .two-col table").nth(1).locator("tbody tr")
    expect(results.nth(0)).to_contain_text(leader_name)
    expect(results.nth(0)).to_contain_text("€560")
    expect(results.nth(0).locator(".badge-deal")).to_have_text("deal")
    expect(results.nth(2)).to_contain_text("€440")

    # The wall's final standings tell the room, the winner's prize is the deal's.
    expect(wall.locator(".deal-made")).to_have_text(
        "Deal made (adjusted): the tournament ended by it, places by chips at the deal."
    )
    expect(wall.locator(".standings-list .badge-deal")).to_have_count(3)
    expect(wall.locator(".wall-winner .ww-prize")).to_have_text("Prize by the deal €560")

    # The files: the results and the results-database file mark the deal.
    export = director.client.get(f"/api/t/{tid}/export/results.csv").text
    rows = list(csv.DictReader(io.StringIO(export.lstrip("\ufeff"))))
    assert [(r["place"], r["player"], r["prize"], r["deal"]) for r in rows[:3]] == [
        ("1", leader, "560", "1"),
        ("2", second, "500", "1"),
        ("3", third, "440", "1"),
    ]
    hendon = director.client.get(f"/api/t/{tid}/export/hendon.csv").text
    assert [r["Deal"] for r in csv.DictReader(io.StringIO(hendon.lstrip("\ufeff")))] == ["Deal"] * 3
    payouts = director.client.get(f"/api/t/{tid}/export/payouts.csv").text
    paid = [r["paid"] for r in csv.DictReader(io.StringIO(payouts.lstrip("\ufeff")))]
    assert paid == ["560", "500", "440"]
    # The printed payout sheet names the deal beside each place's prize.
    sheet = pages.open(
        servers[0], f"/print/{tid}?what=payouts", size="desk", user=DIRECTOR, live=False
    )
    expect(sheet.locator("body")).to_have_attribute("data-ready", "1")
    expect(sheet.locator("table.grid tbody tr").first).to_contain_text(
        f"{leader_name} (deal: €560)"
    )
    prizes = director.client.get(f"/api/t/{tid}/prizes").json()
    assert [(r["player"], r["prize"], r["deal"]) for r in prizes["results"][:3]] == [
        (leader, 560, True),
        (second, 500, True),
        (third, 440, True),
    ]
