"""Half-typed sheets survive a reload (issue 25, point 4), on real Chromium against real
servers: the count sheet, the bag-and-tag sheet, several out in one hand, a chip race and a
ruling keep what was typed on the phone (localStorage, by tournament, table and sheet) until
sent or discarded; a sheet another phone sent for the table meanwhile is said, with its time;
signing out clears every draft.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    FLOOR,
    TOOLS_STRUCTURE,
    Pages,
    new_tournament,
    occupants,
    open_table,
)
from tests.e2e.conftest import Api, ServerProcess

pytestmark = pytest.mark.browser

DRAFT_KEYS = "() => Object.keys(localStorage).filter((k) => k.startsWith('floor.draft.'))"


def reload(page: Page) -> None:
    page.reload()
    expect(page.locator(".conn").first).to_have_attribute("data-status", "live")


def count_field(page: Page, seat: int) -> Any:
    return page.locator(".count-sheet").get_by_label(
        re.compile(rf"^Seat {seat}, .*: stack counted$")
    )


def test_a_count_sheet_half_typed_survives_a_reload_warns_of_another_phone_and_goes_at_sign_out(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "drafts", 16)  # two tables of eight
    seats = sorted(occupants(director, "drafts", 1))
    assert len(seats) == 8
    phone = pages.open(servers[0], "/floor/drafts", user=FLOOR)
    open_table(phone, 1)
    phone.get_by_role("button", name="Count chips").click()
    typed = {seats[0]: "12500", seats[3]: "8000", seats[6]: "23 400"}
    for seat, value in typed.items():
        count_field(phone, seat).fill(value)

    reload(phone)
    # The sheet is open again where it was left, three of eight stacks in it.
    expect(phone.locator(".count-sheet")).to_be_visible()
    for seat in seats:
        expect(count_field(phone, seat)).to_have_value(typed.get(seat, ""))
    expect(phone.locator(".draft-kept")).to_contain_text("Kept on this phone")
    expect(phone.locator(".draft-stale")).to_have_count(0)

    # Another phone counts the table meanwhile: said, with the time, until answered.
    player = occupants(director, "drafts", 1)[seats[1]]
    director.ok(
        "drafts",
        {"type": "count_table", "table": 1, "stacks": [{"player": player, "stack": 9_900}]},
    )
    stale = phone.locator(".draft-stale")
    expect(stale).to_contain_text("Table 1 was counted from another phone at")
    expect(stale).to_have_attribute("role", "alert")
    stale.get_by_role("button", name="Keep mine").click()
    expect(stale).to_have_count(0)
    expect(count_field(phone, seats[3])).to_have_value("8000")
    reload(phone)
    expect(phone.locator(".draft-stale")).to_have_count(0)  # kept: told once
    expect(count_field(phone, seats[6])).to_have_value("23 400")

    # Signing out clears it: the next person on this phone finds no sheet.
    assert phone.evaluate(DRAFT_KEYS) == ["floor.draft.drafts.1.count"]
    phone.get_by_role("button", name=re.compile(r"^Sent")).click()
    phone.get_by_role("button", name="Sign out").click()
    expect(phone.locator("#signin-user")).to_be_visible()
    assert phone.evaluate(DRAFT_KEYS) == []
    phone.fill("#signin-user", FLOOR[0])
    phone.fill("#signin-secret", FLOOR[1])
    phone.locator("form.signin button[type=submit]").click()
    expect(phone.locator(".count-sheet")).to_have_count(0)
    open_table(phone, 1)
    phone.get_by_role("button", name="Count chips").click()
    for seat in seats:
        expect(count_field(phone, seat)).to_have_value("")


def test_a_count_sheet_sent_leaves_no_draft_and_warns_nobody(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "sent-draft", 16)
    seat, player = min(occupants(director, "sent-draft", 2).items())
    phone = pages.open(servers[0], "/floor/sent-draft", user=FLOOR)
    open_table(phone, 2)
    phone.get_by_role("button", name="Count chips").click()
    count_field(phone, seat).fill("15000")
    phone.get_by_role("button", name="Save 1 count").click()
    expect(phone.locator(".count-sheet")).to_have_count(0)
    assert director.state("sent-draft")["state"]["players"][player]["stack"] == 15_000  # type: ignore[index]
    assert phone.evaluate(DRAFT_KEYS) == []
    reload(phone)
    expect(phone.locator(".count-sheet")).to_have_count(0)


def test_several_out_in_one_hand_and_a_ruling_survive_a_reload(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "drafts-more", 16)
    (s1, _), (s2, p2) = sorted(occupants(director, "drafts-more", 1).items())[:2]
    phone = pages.open(servers[0], "/floor/drafts-more", user=FLOOR)
    open_table(phone, 1)
    phone.get_by_role("button", name="Several out this hand").click()
    phone.locator(".seats .seat-btn").nth(s1 - 1).click()
    phone.locator(".seats .seat-btn").nth(s2 - 1).click()
    panel = phone.get_by_role("region", name="Out in the same hand")
    panel.get_by_label("Stack at the start of the hand").nth(1).fill("6000")

    reload(phone)
    panel = phone.get_by_role("region", name="Out in the same hand")
    expect(panel.locator(".same-row")).to_have_count(2)
    expect(panel.get_by_label("Stack at the start of the hand").nth(1)).to_have_value("6000")
    panel.get_by_role("button", name="Cancel").click()
    assert phone.evaluate(DRAFT_KEYS) == []

    # A ruling: the player named and the note written, a reload, both back.
    phone.get_by_role("button", name="Ruling").click()
    form = phone.locator(".ruling-form")
    form.locator(".ruling-players .seat-btn").nth(0).click()
    form.get_by_label("Note").fill("exposed a card on the river")
    reload(phone)
    form = phone.locator(".ruling-form")
    expect(form.get_by_label("Note")).to_have_value("exposed a card on the river")
    expect(form.locator(".ruling-players .seat-btn").nth(0)).to_have_attribute(
        "aria-pressed", "true"
    )
    # Another phone records a ruling at the table meanwhile.
    director.ok("drafts-more", {"type": "record_ruling", "table": 1, "players": [p2], "note": "x"})
    expect(form.locator(".draft-stale")).to_contain_text(
        "A ruling at table 1 was recorded from another phone"
    )
    form.get_by_role("button", name="Record the ruling").click()
    expect(phone.locator(".ruling-form")).to_have_count(0)
    rulings = director.state("drafts-more")["state"]["rulings"]["made"]  # type: ignore[index]
    assert rulings[-1]["note"] == "exposed a card on the river"
    assert phone.evaluate(DRAFT_KEYS) == []


def test_a_chip_race_counted_in_part_survives_a_reload(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "drafts-race", 16, structure=TOOLS_STRUCTURE)
    director.ok("drafts-race", {"type": "clock_start"})
    director.ok("drafts-race", {"type": "clock_level", "to": 1})  # the colour-up break
    phone = pages.open(servers[0], "/floor/drafts-race", user=FLOOR)
    open_table(phone, 2)
    phone.locator(".race-offer button").click()
    for key in ("4", "next", "7"):
        name = "Next seat" if key == "next" else key
        phone.locator(".race-pad-keys").get_by_role("button", name=name, exact=True).click()
    rows = phone.locator(".race-rows .race-count-n")
    expect(rows.nth(0)).to_have_text("4")
    expect(rows.nth(1)).to_have_text("7")

    reload(phone)
    expect(phone.locator(".race-tool h2")).to_contain_text("Table 2")
    rows = phone.locator(".race-rows .race-count-n")
    expect(rows.nth(0)).to_have_text("4")
    expect(rows.nth(1)).to_have_text("7")
    # Raced from another phone meanwhile: said, and the counts kept here may go.
    seats = occupants(director, "drafts-race", 2)
    director.ok(
        "drafts-race",
        {"type": "chip_race", "table": 2, "seats": [{"seat": s, "chips": 1} for s in seats]},
    )
    stale = phone.locator(".draft-stale")
    expect(stale).to_contain_text("Table 2's chip race was sent from another phone")
    stale.get_by_role("button", name="Discard it").click()
    assert phone.evaluate(DRAFT_KEYS) == []


def test_a_bag_sheet_half_typed_survives_a_reload(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "drafts-bag", 16)
    director.ok("drafts-bag", {"type": "end_day", "now": True})
    seat = min(occupants(director, "drafts-bag", 1))
    phone = pages.open(servers[0], "/floor/drafts-bag", user=FLOOR)
    open_table(phone, 1)
    phone.get_by_role("button", name="Bag and tag").click()
    sheet = phone.locator(".bag-sheet")
    sheet.get_by_label(re.compile(rf"^Seat {seat}, .*: chips bagged$")).fill("31000")
    sheet.get_by_label("Chips on the table, counted together (optional)").fill("250000")

    reload(phone)
    sheet = phone.locator(".bag-sheet")
    expect(sheet.get_by_label(re.compile(rf"^Seat {seat}, .*: chips bagged$"))).to_have_value(
        "31000"
    )
    expect(sheet.get_by_label("Chips on the table, counted together (optional)")).to_have_value(
        "250000"
    )
    sheet.get_by_role("button", name="Cancel").click()
    assert phone.evaluate(DRAFT_KEYS) == []
