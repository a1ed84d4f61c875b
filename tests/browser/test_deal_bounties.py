"""A progressive knockout's bounties in a deal through the screens (issue 27.3), in a real
Chromium against real servers: six entries of 100, half to the bounties, three knocked out by
named players, the three left counted; the director puts the bounties on their heads in the
deal in the console's Deal section, computes a chip chop of the prizes and the bounties, and
the deal is made; the console, the payout sheet and the results file show the bounties in it."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    DIRECTOR,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
)
from tests.browser.test_finish import seated

pytestmark = pytest.mark.browser

PKO_DEAL: dict[str, Any] = {
    **TOOLS_STRUCTURE,
    "name": "browser-pko-deal",
    "prize": {
        **TOOLS_STRUCTURE["prize"],
        "payouts": [{"entries": 3, "percents": [50, 30, 20]}],
        "bounty": {"kind": "progressive", "part": 50},
    },
}


def test_the_bounties_in_a_three_way_deal(
    servers: list[ServerProcess], director: Api, pages: Pages, tmp_path: Any
) -> None:
    tid = "pkodeal"
    new_tournament(director, tid, 6, structure=PKO_DEAL)
    director.ok(tid, {"type": "clock_start"})
    players = seated(director, tid)
    leader, second, third = players[3:]
    for pid, by in zip(players[:3], (leader, second, leader), strict=True):
        director.ok(tid, {"type": "bust", "player": pid, "eliminators": [by]})
    director.ok(tid, {"type": "hand", "table": 1})
    stacks = {leader: 30_000, second: 18_000, third: 12_000}
    director.ok(
        tid,
        {
            "type": "count_table",
            "table": 1,
            "stacks": [{"player": p, "stack": s} for p, s in stacks.items()],
        },
    )
    # 6 x 50 in bounties; three taken, 20 of each paid (half of 50 in tens), 30 added: 240 on
    # the heads of the three left.
    state: Any = director.state(tid)["state"]
    heads = sum(
        state["players"][p]["bounty"]["head"] if state["players"][p].get("bounty") else 50
        for p in stacks
    )
    assert heads == 240

    console = pages.open(servers[0], f"/director?t={tid}", size="tv", user=DIRECTOR)
    box = console.locator("#s-deal")
    expect(box.locator("label[for=deal-bounties]")).to_contain_text("€240")
    box.locator("#deal-bounties").select_option("in")
    box.get_by_role("button", name="Compute chip chop").click()
    # The prizes (750 / 450 / 300) and the 240 of bounties: 1,740 shared.
    expect(box.locator(".deal-total")).to_contain_text("€1,740")
    expect(box.locator(".deal-bounties")).to_have_text("Bounties in the deal: €240")
    offer: Any = director.state(tid)["state"]["deal_offer"]
    assert offer["bounties"] == 240
    assert sum(x["amount"] for x in offer["shares"]) == 1_740
    box.screenshot(path=str(tmp_path / "deal-bounties-tv.png"))
    narrow = pages.open(servers[0], f"/director?t={tid}", size="phone", user=DIRECTOR)
    expect(narrow.locator("#s-deal .deal-bounties")).to_be_visible()
    narrow.locator("#s-deal").screenshot(path=str(tmp_path / "deal-bounties-phone.png"))

    for i in range(3):
        box.get_by_label("agrees").nth(i).check()
    console.once("dialog", lambda dialog: dialog.accept())
    box.get_by_role("button", name="Make the deal and end the tournament").click()
    expect(box.locator(".deal-made")).to_be_visible()
    expect(box.locator(".deal-bounties")).to_have_text("Bounties in the deal: €240")
    made: Any = director.state(tid)["state"]["deal"]
    assert made["bounties"] == 240 and made["ends"]
    assert director.state(tid)["state"]["bounties"]["dealt"] == 240  # type: ignore[index]

    # The payout sheet and the results file.
    sheet = pages.open(
        servers[0], f"/print/{tid}?what=payouts&paper=a4", size="desk", user=DIRECTOR, live=False
    )
    expect(sheet.locator("body")).to_have_attribute("data-ready", "1")
    expect(sheet.locator(".facts")).to_contain_text("Bounties in the deal")
    expect(sheet.locator(".facts")).to_contain_text("€240")
    sheet.screenshot(path=str(tmp_path / "print-deal-bounties.png"), full_page=True)
    export = director.client.get(f"/api/t/{tid}/export/results.csv").text
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(export.lstrip("\ufeff")))}
    assert sum(int(rows[p]["deal_bounties"]) for p in stacks) == 240
    assert sum(int(rows[p]["prize"]) for p in stacks) == 1_740
