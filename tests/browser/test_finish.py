"""The end of a tournament through the screens (issue 16, "The end", and defect 1), in a real
Chromium against real servers: the last bust-out makes the winner on the wall (large, with
the final standings and prizes), the console, the player screen and the start page; the
average stack is no longer shown; the director undoes the last bust-out with a reason (live
again, the clock still paused), it is made again and the tournament closed, after which the
server refuses what is sent. The final table's own wall is readable from five metres.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    DIRECTOR,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    name_of,
    new_tournament,
    occupants,
)
from tests.browser.test_wall import small_texts

pytestmark = pytest.mark.browser


def seated(director: Api, tid: str) -> list[str]:
    """The players still seated, by table and seat."""
    tables = director.state(tid)["state"]["tables"]  # type: ignore[index]
    return [
        pid
        for n in sorted(tables, key=int)  # type: ignore[arg-type]
        for _, pid in sorted(occupants(director, tid, int(n)).items())
    ]


def finished_banner(page: Page) -> Any:
    return page.locator(".finish-banner")


def test_a_tournament_played_to_its_winner_is_finished_on_every_screen(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "endgame"
    new_tournament(director, tid, 4, structure=TOOLS_STRUCTURE)
    director.ok(tid, {"type": "clock_start"})
    wall = pages.open(servers[1], f"/wall/{tid}", size="tv")
    console = pages.open(servers[0], f"/director?t={tid}", size="desk", user=DIRECTOR)
    player = pages.open(servers[1], f"/player/{tid}")
    expect(wall.locator(".wall-clock")).to_be_visible()
    expect(console.locator("#s-clock .clock-stats")).to_contain_text("Average stack")

    first, second, third, winner = seated(director, tid)
    for pid in (first, second):
        director.ok(tid, {"type": "bust", "player": pid})
    director.ok(tid, {"type": "hand", "table": 1})
    director.ok(tid, {"type": "bust", "player": third})
    name = name_of(director, tid, winner)

    # The wall: the winner large in the clock's place, the final standings with the prizes.
    expect(wall.locator(".wall-winner .ww-name")).to_have_text(name)
    expect(wall.locator(".wall-winner .ww-status")).to_have_text("Finished")
    expect(wall.locator(".wall-winner .ww-prize")).to_contain_text("First prize")
    expect(wall.locator(".wall-clock")).to_be_hidden()
    expect(wall.locator(".page-nav li")).to_have_text(["Standings", "Charts"])
    rows = wall.locator(".standings-list .standing")
    expect(rows).to_have_count(4)
    expect(rows.first.locator(".st-names")).to_have_text(name)
    expect(rows.first.locator(".st-prize")).to_have_text(re.compile(r"€"))
    assert small_texts(wall) == []
    # The average stack is gone from every screen (defect 1: 599,975 = 1,000 BB).
    assert "Average stack" not in wall.inner_text("body")
    stats = console.locator("#s-clock .clock-stats")
    expect(stats).to_contain_text(f"Winner{name}")
    expect(stats).not_to_contain_text("Average stack")
    # Finished everywhere: the console, the player screen, the start page.
    expect(finished_banner(console)).to_have_text(f"Finished — winner: {name}")
    expect(finished_banner(player)).to_have_text(f"Finished — winner: {name}")
    expect(console.locator(".end-box .end-winner")).to_have_text(f"Finished — winner: {name}")
    expect(console.locator("#s-clock .clock-controls button")).to_have_count(0)
    expect(console.locator("#s-clock .clock-note")).to_have_text("Finished")
    start = pages.open(servers[0], "/", live=False)
    expect(start.locator(".t-item[data-status='finished'] .t-status")).to_have_text(
        f"Finished — winner: {name}"
    )

    # The director undoes the last bust-out, with a reason: live again, the clock paused.
    reason = console.get_by_label(f"Reason for the undo of {name_of(director, tid, third)}")
    reason.fill("chips hidden under a card")
    console.get_by_role(
        "button", name=f"Undo the bust-out of {name_of(director, tid, third)}"
    ).click()
    expect(finished_banner(console)).to_be_hidden()
    expect(finished_banner(player)).to_be_hidden()
    expect(wall.locator(".wall-winner")).to_be_hidden()
    expect(wall.locator(".wall-clock .clock-note")).to_have_text("Paused")
    expect(console.get_by_role("button", name="Resume")).to_be_visible()
    log = director.client.get(f"/api/t/{tid}/events", params={"since": 0}).json()
    undone = [e["event"] for e in log["events"] if e["event"]["type"] == "bust_undone"]
    assert undone[-1]["reason"] == "chips hidden under a card"

    # Out again, and closed: nothing more is taken.
    director.ok(tid, {"type": "bust", "player": third})
    expect(console.locator(".end-box .end-winner")).to_have_text(f"Finished — winner: {name}")
    console.once("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name="Close the tournament").click()
    expect(finished_banner(console)).to_have_text(f"Closed — winner: {name}")
    expect(finished_banner(player)).to_have_text(f"Closed — winner: {name}")
    expect(wall.locator(".wall-winner .ww-status")).to_have_text("Closed")
    expect(console.locator(".end-box form")).to_have_count(0)
    refused = director.command(tid, {"type": "undo_bust", "player": third, "reason": "too late"})
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["reason"] == "tournament_closed"
    start.reload()
    expect(start.locator(".t-item[data-status='closed'] .t-status")).to_have_text(
        f"Closed — winner: {name}"
    )


def test_the_final_table_has_a_wall_of_its_own_read_from_five_metres(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "finalwall"
    new_tournament(director, tid, 12, structure=TOOLS_STRUCTURE)
    director.ok(tid, {"type": "clock_start"})
    final = pages.open(servers[1], f"/final/{tid}", size="tv")
    expect(final.locator(".final-note")).to_contain_text(
        "has not formed yet: 12 players at 2 tables"
    )

    while len(seated(director, tid)) > 9:
        director.ok(tid, {"type": "bust", "player": seated(director, tid)[0]})
    director.ok(tid, {"type": "confirm_all", "reason": "final"})
    state = director.state(tid)["state"]
    table = state["final_table"]  # type: ignore[index]
    at_final = occupants(director, tid, table)
    director.ok(tid, {"type": "set_stack", "player": at_final[min(at_final)], "stack": 31_500})

    expect(final.locator(".final-head h2").first).to_have_text(f"Final table · table {table}")
    seats = final.locator(".final-seat")
    expect(seats.first.locator(".fs-stack")).to_contain_text("31,500")
    expect(final.locator(".final-seat:not(.empty)")).to_have_count(9)
    expect(final.locator(".final-seat:not(.empty) .fs-stack.muted")).to_have_count(8)
    expect(final.locator(".final-seat .fs-stack.muted").first).to_have_text("not counted")
    # The ladder: a place per seat, the three paid still to be paid, the next one marked.
    ladder = final.locator(".final-place")
    expect(ladder).to_have_count(9)
    expect(ladder.first).to_contain_text("1st")
    expect(final.locator(".final-place.open:not(.unpaid) .fp-who")).to_have_text(["to be paid"] * 3)
    expect(final.locator(".final-place.next")).to_have_count(0)  # 9 left, 3 paid
    director.ok(tid, {"type": "bust", "player": at_final[max(at_final)]})
    expect(final.locator(".final-place.done .fp-place")).to_have_text(["9th"])
    assert small_texts(final) == []
    # Nothing sticks out of the screen or is cut at the bottom.
    assert final.evaluate(
        "() => [...document.querySelectorAll('.final-seat, .final-place')].every((r) => "
        "r.getBoundingClientRect().bottom <= innerHeight + 1)"
    )
