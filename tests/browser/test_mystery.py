"""A mystery bounty through the screens (issue 27.1), in a real Chromium against real servers.

The director sets the bounty in the console's money panel (40 of each 100 buy-in, an envelope
pool of 500 x 1, 100 x 2 and 20 x 10, drawn from level 2); a bust-out before level 2 draws
nothing; from level 2 the floor phone's one tap on the seat that won the pot draws an envelope
(the server's draw, recorded in the event), a split pot shares one; an undo puts it back. The
wall lists the envelopes left by amount and the last drawn, the player's phone what they drew,
the table screen the last envelope drawn at it, the payout sheet the envelopes, the results file
what each won."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    NAMES,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    name_of,
    occupants,
    open_table,
    pick_seat,
    wait_for,
)

pytestmark = pytest.mark.browser

POOL = {500: 1, 100: 2, 20: 10}


def record(api: Api, tid: str, pid: str) -> dict[str, Any]:
    p: Any = api.state(tid)["state"]["players"][pid]  # type: ignore[index]
    return p.get("bounty") or {}


def drawn(api: Api, tid: str) -> dict[int, int]:
    book: Any = api.state(tid)["state"]["bounties"]  # type: ignore[index]
    return {int(k): v for k, v in (book or {}).get("drawn", {}).items()}


def bust_on_phone(page: Page, seat: int) -> None:
    pick_seat(page, seat)
    page.locator(".seat-actions").get_by_role("button", name="Bust-out").click()
    expect(page.locator(".confirm-box .bounty-pick")).to_be_visible()


def test_a_mystery_phase_with_envelopes_drawn_on_the_wall(
    servers: list[ServerProcess], director: Api, pages: Pages, tmp_path: Any
) -> None:
    tid = "mystery"
    r = director.client.post(
        "/api/tournaments",
        json={
            "id": tid,
            "name": "Mystery Night",
            "rules": "tda-2024",
            "structure": {**TOOLS_STRUCTURE, "name": "browser-mystery"},
        },
    )
    assert r.status_code == 201, r.text

    # The console: a mystery bounty set in the money panel before anybody buys in.
    console = pages.open(servers[0], f"/director?t={tid}", size="tv", user=DIRECTOR)
    money = console.locator("#money-form")
    money.locator("#money-bounty-kind").select_option("mystery")
    expect(money.locator("#money-bounty-envelopes")).to_be_visible()
    money.locator("#money-bounty-part").fill("40")
    money.locator("#money-bounty-envelopes").fill("500 x 1\n100 x 2\n20 x 10")
    expect(money.locator("#money-bounty-envelopes-sum")).to_contain_text("13 envelopes")
    money.locator("#money-bounty-from").select_option("level")
    money.locator("#money-bounty-level").fill("2")
    money.locator(".bounty-money").screenshot(path=str(tmp_path / "console-mystery-tv.png"))
    narrow_console = pages.open(servers[0], f"/director?t={tid}", size="phone", user=DIRECTOR)
    narrow_console.locator("#money-bounty-kind").select_option("mystery")
    expect(narrow_console.locator("#money-bounty-envelopes")).to_be_visible()
    narrow_console.locator(".bounty-money").screenshot(
        path=str(tmp_path / "console-mystery-phone.png")
    )
    console.click("#money-save")
    expect(console.locator(".toast").last).to_contain_text("Money saved")
    prize: Any = director.state(tid)["state"]["structure"]["prize"]  # type: ignore[index]
    assert prize["bounty"]["kind"] == "mystery"
    assert prize["bounty"]["envelopes"] == [[500, 1], [100, 2], [20, 10]]
    assert (prize["bounty"]["mystery_from"], prize["bounty"]["mystery_level"]) == ("level", 2)
    # A line that is no envelope: refused naming it, nothing changed.
    bad = director.command(
        tid,
        {"type": "set_prize", "prize": {**prize, "bounty": {**prize["bounty"], "envelopes": []}}},
    )
    assert bad.status_code in (400, 409, 422), bad.text
    assert "bounty" in bad.text

    for i in range(18):
        director.ok(tid, {"type": "register", "name": NAMES[i], "player": f"P{i}"})
    director.ok(tid, {"type": "draw_seats"})
    for number, table in director.state(tid)["state"]["tables"].items():  # type: ignore[union-attr]
        director.ok(
            tid, {"type": "button", "table": int(number), "seat": min(map(int, table["occupants"]))}
        )
    pool = director.client.get(f"/api/t/{tid}/prizes").json()["pool"]
    assert pool["bounties"] == 18 * 40

    seats = occupants(director, tid, 1)
    order = sorted(seats)
    # Before the phase: the eliminator is named, no envelope is drawn.
    director.ok(tid, {"type": "bust", "player": seats[order[-1]], "eliminators": [seats[order[1]]]})
    assert record(director, tid, seats[order[1]]).get("won", 0) == 0
    assert drawn(director, tid) == {}

    # Level 2 (step 2: the break between): every elimination draws.
    director.ok(tid, {"type": "clock_start"})
    director.ok(tid, {"type": "clock_level", "to": 2})

    phone = pages.open(servers[0], f"/floor/{tid}", user=FLOOR)
    open_table(phone, 1)
    winner = order[1]
    bust_on_phone(phone, order[-2])
    phone.locator(f'.bounty-winner[data-winner="{seats[winner]}"]').click()
    wait_for(lambda: len(record(director, tid, seats[winner]).get("drew", [])) == 1)
    first = record(director, tid, seats[winner])["drew"][0]
    assert first in POOL and record(director, tid, seats[winner])["won"] == first

    # A split pot: one envelope for the two winners, split in tens.
    a, b = order[2], order[3]
    bust_on_phone(phone, order[-3])
    phone.get_by_role("button", name="Split pot…").click()
    phone.locator(f'.bounty-winner[data-winner="{seats[a]}"]').click()
    phone.locator(f'.bounty-winner[data-winner="{seats[b]}"]').click()
    phone.get_by_role("button", name=re.compile("^Bust-out, 2 winners")).click()
    wait_for(lambda: len(record(director, tid, seats[a]).get("drew", [])) == 1)
    shared = record(director, tid, seats[a])["drew"][0]
    assert record(director, tid, seats[b])["drew"] == [shared]
    assert record(director, tid, seats[a])["won"] + record(director, tid, seats[b])["won"] == shared

    # More from the API, on the other table; one undone: its envelope goes back.
    other = occupants(director, tid, 2)
    more = sorted(other)
    for s in more[-3:]:
        director.ok(tid, {"type": "bust", "player": other[s], "eliminators": [other[more[0]]]})
    before = drawn(director, tid)
    assert sum(before.values()) == 5
    undone = record(director, tid, other[more[-1]])["envelope"]
    director.ok(tid, {"type": "undo_bust", "player": other[more[-1]], "reason": "wrong seat"})
    after = drawn(director, tid)
    assert sum(after.values()) == 4 and after.get(undone, 0) == before[undone] - 1
    # Drawn plus left make the pool, amount by amount.
    assert all(after.get(x, 0) <= n for x, n in POOL.items())

    # The wall: the envelopes left by amount, the last four drawn.
    wall = pages.open(servers[1], f"/wall/{tid}?pages=bounties", size="tv")
    page = wall.locator(".page-bounties")
    expect(page.locator("h3").first).to_have_text("Envelopes left")
    rows = page.locator(".envelope-row")
    expect(rows).to_have_count(3)
    for amount, count in POOL.items():
        row = page.locator(f'.envelope-row[data-amount="{amount}"]')
        expect(row).to_have_attribute("data-left", str(count - after.get(amount, 0)))
    expect(page.locator(".envelope-drawn")).to_have_count(4)
    expect(page.locator(".envelope-state")).to_have_text("Every elimination draws an envelope")
    expect(page.locator(".chips-meta")).to_contain_text("Envelope pool €900")
    wall.screenshot(path=str(tmp_path / "wall-mystery-tv.png"))
    narrow = pages.open(servers[1], f"/wall/{tid}?pages=bounties", size="phone")
    expect(narrow.locator(".page-bounties .envelope-drawn")).to_have_count(4)
    narrow.screenshot(path=str(tmp_path / "wall-mystery-phone.png"), full_page=True)

    # The winner's phone: what they drew.
    me = name_of(director, tid, seats[winner])
    player = pages.open(servers[1], f"/player/{tid}")
    player.fill("#player-search", me)
    player.locator(".result-card", has_text=me).get_by_role(
        "button", name=re.compile("^Follow")
    ).click()
    box = player.locator(".follow-card .mystery-box")
    expect(box.locator('[data-bounty="drew"]')).to_have_text(f"✉ €{first}")
    expect(box.locator('[data-bounty="won"]')).to_have_text(f"€{first}")
    player.screenshot(path=str(tmp_path / "player-mystery-phone.png"), full_page=True)

    # The table screen: the last envelope drawn at it, no bounty on the seats.
    table = pages.tablet(servers[0], director, tid, 1, size="tv")
    expect(table.locator(".notice-envelope")).to_contain_text(f"€{shared}")
    expect(table.locator(".seat .bounty-head")).to_have_count(0)
    table.screenshot(path=str(tmp_path / "table-mystery-tv.png"))
    small = pages.tablet(servers[0], director, tid, 1, size="phone")
    expect(small.locator(".notice-envelope")).to_be_visible()
    small.screenshot(path=str(tmp_path / "table-mystery-phone.png"), full_page=True)

    # The payout sheet: the envelopes, drawn and left.
    sheet = pages.open(
        servers[0], f"/print/{tid}?what=payouts&paper=a4", size="desk", user=DIRECTOR, live=False
    )
    expect(sheet.locator("body")).to_have_attribute("data-ready", "1")
    expect(sheet.locator(".facts")).to_contain_text("Envelope pool")
    expect(sheet.locator(".facts")).to_contain_text("€500 × 1")
    sheet.screenshot(path=str(tmp_path / "print-mystery.png"), full_page=True)

    # The results file: what each won (the players out are in it: the winner of the first
    # envelope goes out now, drawing one more for who knocks them out).
    director.ok(tid, {"type": "bust", "player": seats[winner], "eliminators": [seats[order[0]]]})
    export = director.client.get(f"/api/t/{tid}/export/results.csv").text
    rows_csv = {r["player"]: r for r in csv.DictReader(io.StringIO(export.lstrip("\ufeff")))}
    assert rows_csv[seats[winner]]["bounties"] == str(first)
    assert rows_csv[seats[order[-1]]]["bounties"] == "0"


def test_the_money_panel_keeps_a_knockout_s_bounty_when_it_is_saved(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    # The money panel sent no bounty: saving it took a knockout's bounty away.
    tid = "keepko"
    structure = {
        **TOOLS_STRUCTURE,
        "name": "browser-keep-ko",
        "prize": {
            **TOOLS_STRUCTURE["prize"],
            "bounty": {"kind": "progressive", "part": 50, "paid_at": "cashier"},
        },
    }
    r = director.client.post(
        "/api/tournaments",
        json={"id": tid, "name": "Keep", "rules": "tda-2024", "structure": structure},
    )
    assert r.status_code == 201, r.text
    console = pages.open(servers[0], f"/director?t={tid}", size="tv", user=DIRECTOR)
    money = console.locator("#money-form")
    expect(money.locator("#money-bounty-kind")).to_have_value("progressive")
    expect(money.locator("#money-bounty-part")).to_have_value("50")
    expect(money.locator("#money-bounty-envelopes")).to_be_hidden()
    money.locator("#money-guarantee").fill("2000")
    console.click("#money-save")
    expect(console.locator(".toast").last).to_contain_text("Money saved")
    prize: Any = director.state(tid)["state"]["structure"]["prize"]  # type: ignore[index]
    assert prize["guarantee"] == 2_000
    assert (prize["bounty"]["kind"], prize["bounty"]["part"], prize["bounty"]["paid_at"]) == (
        "progressive",
        50,
        "cashier",
    )
