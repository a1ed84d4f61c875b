"""A main event in two flights on real Chromium against real servers: two flights of 100,
each bagged at the end of its day with one table's count off by 5,000 (one sheet typed on the
floor phone, flagged on the director's console with the table named), merged into Day 2 from
the console with a player who bagged in both, Day 2's seat found on the player screen, and
Day 2 played to its winner."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import DIRECTOR, FLOOR, Pages, open_table, wait_for
from tests.e2e.conftest import Api, ServerProcess

STRUCTURE: dict[str, Any] = {
    "name": "main-event",
    "starting_stack": 20_000,
    "chips": [100, 500, 1000],
    "levels": [
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 60},
        {"type": "level", "small_blind": 200, "big_blind": 400, "minutes": 60},
        {"type": "level", "small_blind": 300, "big_blind": 600, "minutes": 60},
    ],
}
#: 100 entries of 20,000, 50 survivors: 40,000 each.
STACK = 40_000


def state(api: Api, tid: str) -> Any:
    return api.state(tid)["state"]


def flight(director: Api, tid: str, order: int, prefix: str) -> None:
    body = {"id": tid, "name": f"Day 1{'AB'[order - 1]}", "rules": "tda-2024"}
    r = director.client.post("/api/tournaments", json={**body, "structure": STRUCTURE})
    assert r.status_code == 201, r.text
    rules = {"last_level": 1, "chip_tolerance": 1_000}
    director.ok(tid, {"type": "set_flight", "event": "main", "order": order, "rules": rules})
    entries = [{"name": "Shared Player", "player": "P0"}]
    entries += [{"name": f"{prefix} Player {i}", "player": f"{prefix}{i}"} for i in range(1, 100)]
    director.ok(tid, {"type": "register_many", "entries": entries})
    director.ok(tid, {"type": "draw_seats"})
    director.ok(tid, {"type": "clock_start"})
    for i in range(1, 51):
        director.ok(tid, {"type": "bust", "player": f"{prefix}{i}"})
    director.ok(tid, {"type": "clock_level", "step": 1})  # level 1 is over: the day ends
    assert state(director, tid)["day_ended"]["by"] == "last_level"


def bag_tables(director: Api, tid: str, skip: int | None, off: int | None) -> None:
    """Every table but ``skip`` bagged at 40,000 a player; ``off``'s first bag 5,000 high."""
    tables = state(director, tid)["tables"]
    for number, table in tables.items():
        n = int(number)
        seated = [p for _, p in sorted(table["occupants"].items(), key=lambda x: int(x[0]))]
        if not seated or n == skip:
            continue
        bags = [{"player": p, "stack": STACK} for p in seated]
        if n == off:
            bags[0]["stack"] = STACK + 5_000
        command = {"type": "bag_table", "table": n, "bags": bags}
        director.ok(tid, {**command, "chips_on_table": STACK * len(seated)})


def bag_of(director: Api, tid: str, pid: str) -> int:
    sheets = state(director, tid)["bags"].values()
    return int(next(b["stack"] for sheet in sheets for b in sheet["bags"] if b["player"] == pid))


def test_two_flights_bagged_and_merged_into_day2_played_to_its_winner(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    flight(director, "fa", 1, "A")
    flight(director, "fb", 2, "B")
    bag_tables(director, "fb", skip=None, off=2)
    bag_tables(director, "fa", skip=1, off=None)

    # Table 1 of flight A is bagged on the floor phone, one bag written 5,000 too high.
    phone = pages.open(servers[0], "/floor/fa", user=FLOOR)
    open_table(phone, 1)
    phone.get_by_role("button", name="Bag and tag").click()
    sheet = phone.get_by_role("form", name="Bag and tag · Table 1")
    inputs = sheet.get_by_label(re.compile(r"chips bagged$"))
    count = inputs.count()
    assert count > 0
    for i in range(count):
        inputs.nth(i).fill(str(STACK + (5_000 if i == 0 else 0)))
    sheet.get_by_label(re.compile(r"bag number$")).first.fill("A-17")
    sheet.get_by_label("Chips on the table, counted together (optional)").fill(str(STACK * count))
    sheet.get_by_role("button", name=re.compile(r"^Save \d+ bags?$")).click()
    expect(phone.get_by_role("button", name="Bag and tag")).to_be_visible()
    wait_for(lambda: "1" in state(director, "fa")["bags"], phone)

    # The director's console flags table 1 and says why.
    console = pages.open(servers[0], "/director?t=fa", size="desk", user=DIRECTOR)
    panel = console.locator("#s-flights")
    expect(panel.locator(".chip-check")).to_contain_text(
        "Must exist 2,000,000 · counted 2,005,000 · difference +5,000"
    )
    expect(panel.locator(".check-why")).to_contain_text(
        "Table 1: its bags are +5,000 against its total"
    )
    expect(panel.locator("tr.flagged")).to_have_count(1)
    # Its clock stopped with the day, said as such (not "Paused").
    stopped = console.locator(".clock-stopped").first
    expect(stopped).to_have_text("Day over after level 1")

    # Day 2 from both flights: P0 bagged in both and plays once.
    panel.get_by_label("Day 2 id").fill("day2")
    panel.get_by_label("Flights (ids)").fill("fa fb")
    # Both flights' checks failed (5,000 over a tolerance of 1,000): the director's word first.
    ack = panel.locator(".day2-ack")
    expect(ack).to_contain_text("Flight fa: the bags are +5,000 chips off what must exist")
    panel.get_by_role("button", name="Make Day 2 all the same").click()
    expect(ack.get_by_role("alert")).to_have_text(
        "Say why Day 2 is made although the chip check failed."
    )
    ack.get_by_label(re.compile(r"^Why Day 2 is made all the same")).fill("bags recounted: fine")
    panel.get_by_role("button", name="Make Day 2 all the same").click()
    # The word covers the flights shown: flight B's failed check is shown before it counts.
    expect(ack).to_contain_text("Flight fb: the bags are +5,000 chips off what must exist")
    expect(panel.locator(".flight-day2-result")).to_be_empty()
    panel.get_by_role("button", name="Make Day 2 all the same").click()
    expect(panel.locator(".flight-day2-result")).to_contain_text("Day 2: 99 players at 11 tables")
    expect(panel.locator(".flight-day2-result .carried-checks")).to_contain_text("Flight fb")
    expect(panel.locator(".flight-day2-result")).to_contain_text("1 bag set aside")
    day2 = state(director, "day2")
    assert day2["entries"] == 200  # the event's field: places and the pool count it
    # Best stack forward: the bigger of P0's bags (equal ones: the first flight's).
    bagged = [bag_of(director, tid, "P0") for tid in ("fa", "fb")]
    assert day2["players"]["P0"]["stack"] == max(bagged)

    # The seat list: a player finds their Day 2 seat on the player screen.
    player = pages.open(servers[0], "/player/day2")
    player.locator("#player-search").fill("shared")
    card = player.locator(".result-card").first
    expect(card.locator(".result-name")).to_have_text("Shared Player")
    seat = day2["players"]["P0"]
    expect(card.locator(".seat-big")).to_contain_text(str(seat["table"]))

    # Day 2 plays to its winner.
    director.ok("day2", {"type": "clock_start"})
    left = [p for p, v in day2["players"].items() if not v["busted"]]
    for pid in left[:-1]:
        director.ok("day2", {"type": "bust", "player": pid})
    assert state(director, "day2")["winner"] == left[-1]
