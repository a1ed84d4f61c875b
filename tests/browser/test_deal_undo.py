"""A deal on the final table's screen and taken back (issue 27, part 3's left-overs), in a real
Chromium against real servers: a deal that plays on for what is left shows on the final
table's pay ladder (each player's share, the places paid by the deal, what is still played
for); the director undoes it from the console with a reason, and the ladder shows the pool's
prizes again; a deal made again and played to a bust-out then stands (the undo refused,
named)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DIRECTOR, Api, Pages, ServerProcess, name_of, new_tournament
from tests.browser.test_deal import DEAL_STRUCTURE
from tests.browser.test_finish import seated

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screens" / "deal"


def deal_on(director: Api, tid: str, players: list[str]) -> None:
    director.ok(tid, {"type": "propose_deal", "method": "chip_chop", "left_to_play": 100})
    director.ok(tid, {"type": "make_deal", "agreed": players})


def test_a_deal_shows_on_the_final_ladder_and_is_undone_from_the_console(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "undealt"
    new_tournament(director, tid, 6, structure=DEAL_STRUCTURE)
    director.ok(tid, {"type": "clock_start"})
    players = seated(director, tid)
    for pid in players[:3]:
        director.ok(tid, {"type": "bust", "player": pid})
    director.ok(tid, {"type": "hand", "table": 1})
    left = players[3:]
    stacks = dict(zip(left, (30_000, 18_000, 12_000), strict=True))
    counts = [{"player": p, "stack": s} for p, s in stacks.items()]
    director.ok(tid, {"type": "count_table", "table": 1, "stacks": counts})
    deal_on(director, tid, left)
    deal = director.state(tid)["state"]["deal"]  # type: ignore[index]
    shares = {x["player"]: x["amount"] for x in deal["shares"]}  # type: ignore[index]

    final = pages.open(servers[1], f"/final/{tid}", size="tv")
    line = final.locator(".final-deal")
    names = {p: name_of(director, tid, p) for p in left}
    expect(line).to_contain_text("Deal (chip chop)")
    for p in left:
        expect(line).to_contain_text(f"{names[p]} €{shares[p]:,}")
    expect(line).to_contain_text("€100 still played for")
    # The three places left are paid by the deal, not by the pool's ladder.
    expect(final.locator(".final-place .fp-who", has_text="by the deal")).to_have_count(3)
    SHOTS.mkdir(parents=True, exist_ok=True)
    final.screenshot(path=str(SHOTS / "final-deal-tv.png"))

    console = pages.open(servers[0], f"/director?t={tid}", size="desk", user=DIRECTOR)
    box = console.locator("#s-deal")
    console.once("dialog", lambda dialog: dialog.accept("a share was typed wrong"))
    box.get_by_role("button", name="Undo the deal").click()
    expect(final.locator(".final-deal")).to_have_count(0)
    expect(final.locator(".final-place .fp-who", has_text="by the deal")).to_have_count(0)
    state = director.state(tid)["state"]
    assert state["deal"] is None  # type: ignore[index]
    expect(box).to_contain_text("Compute ICM")

    # Made again and played for: it stands.
    deal_on(director, tid, left)
    director.ok(tid, {"type": "hand", "table": 1})
    director.ok(tid, {"type": "bust", "player": left[2]})
    r = director.command(tid, {"type": "undo_deal", "reason": "too late"})
    assert r.status_code == 409, r.text
    assert (r.json()["error"]["reason"], r.json()["error"]["field"]) == ("deal_played_on", "type")
    third = final.locator(".final-place").nth(2)
    expect(third).to_contain_text(names[left[2]])
    final.set_viewport_size({"width": 390, "height": 844})
    final.screenshot(path=str(SHOTS / "final-deal-phone.png"), full_page=True)
