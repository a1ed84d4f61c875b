"""The smaller defects a director met on the console and the floor phone (issue 25, point 9),
each shown in a real Chromium against real servers:

- the Prizes panel follows the money saved, without a reload;
- the structure editor's headers break between words, never a letter a line (1920 and 390);
- every character the tournament id's hint names is one the server takes;
- a second phone about to report a player out is told who did first, and when;
- the offline bar never counts "0 commands", and goes once everything is sent;
- several out in one hand keep the stacks the floor typed, not the stacks on record.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    Pages,
    new_tournament,
    occupants,
    open_table,
    pick_seat,
    wait_for,
)
from tests.e2e.conftest import Api, ServerProcess

pytestmark = pytest.mark.browser

#: No money tracked yet: the console's Prizes panel says so until the money is saved.
NO_MONEY: dict[str, Any] = {
    "name": "no-money",
    "starting_stack": 10_000,
    "chips": [25, 100],
    "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 30}],
}


def test_the_prizes_panel_shows_the_money_once_it_is_saved_without_a_reload(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    # The money is set before anybody buys in (the buy-in stays once entries are sold).
    r = director.client.post(
        "/api/tournaments",
        json={"id": "money-saved", "name": "Money", "rules": "tda-2024", "structure": NO_MONEY},
    )
    assert r.status_code == 201, r.text
    console = pages.open(servers[0], "/director?t=money-saved", size="tv", user=DIRECTOR)
    prizes = console.locator("#s-prizes")
    expect(prizes.locator("h2")).to_contain_text("no prize settings")

    money = console.locator("#money-form")
    money.get_by_label("Currency").fill("EUR")
    money.get_by_label("Buy-in (to the pool)").fill("100")
    money.get_by_role("button", name="Save the money").click()
    expect(prizes.locator("h2")).not_to_contain_text("no prize settings")
    expect(prizes.locator("h2")).to_contain_text("€0")

    # 12 entries of 100 EUR, one place paid (the form's first row).
    for i in range(12):
        director.ok("money-saved", {"type": "register", "name": f"Player {i}"})
    expect(prizes.locator("h2")).to_contain_text("€1,200")
    expect(prizes.locator("table").first).to_contain_text("€1,200")


#: Each header's words, and how many lines each takes: a word on two lines was broken.
BROKEN_WORDS = """(table) => {
  const out = [];
  for (const th of table.querySelectorAll("thead th")) {
    const text = th.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const range = document.createRange();
    let at = 0;
    for (const word of text.textContent.split(" ")) {
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (word && lines.size > 1) out.push(`${word} on ${lines.size} lines`);
      at += word.length + 1;
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", ["tv", "phone"])
def test_the_structure_editor_breaks_its_headers_between_words_only(
    servers: list[ServerProcess], director: Api, pages: Pages, size: str
) -> None:
    tid = f"headers-{size}"
    new_tournament(director, tid, 9)
    console = pages.open(servers[0], f"/director?t={tid}", size=size, user=DIRECTOR)
    table = console.locator("#structure-form table.structure-steps")
    expect(table).to_be_visible()
    headers = table.locator("thead th")
    assert headers.count() == 8
    assert table.evaluate(BROKEN_WORDS) == []
    if size == "tv":
        # A wide screen has room for the whole table: nothing scrolls sideways.
        box = console.locator("#structure-form .scroll-box")
        assert box.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1")


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_every_character_the_id_hint_names_is_one_a_new_tournament_may_have(
    servers: list[ServerProcess], director: Api, pages: Pages, lang: str
) -> None:
    console = pages.open(
        servers[0], f"/director?lang={lang}", size="desk", user=DIRECTOR, live=False
    )
    hint = console.locator("#new-id + .hint")
    expect(hint).to_be_visible()
    promised = re.findall(r"[“„](.)[”“]", hint.inner_text())
    assert promised, hint.inner_text()
    for i, char in enumerate(promised):
        tid = f"hint{lang}{i}{char}x"
        r = director.client.post(
            "/api/tournaments",
            json={"id": tid, "name": tid, "rules": "tda-2024", "structure": "demo-fast"},
        )
        assert r.status_code == 201, f"the hint names {char!r}: {r.text}"


def test_a_second_phone_about_to_report_a_player_out_is_told_who_was_first(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "twice", 18)
    seat, player = min(occupants(director, "twice", 1).items())
    name = director.state("twice")["state"]["players"][player]["name"]  # type: ignore[index]
    phone = pages.open(servers[0], "/floor/twice", user=FLOOR)
    open_table(phone, 1)
    pick_seat(phone, seat)
    phone.get_by_role("button", name="Bust-out", exact=True).click()
    expect(phone.get_by_role("button", name="Yes, busted")).to_be_visible()

    # The director's phone (or the console) reports the player first.
    director.ok("twice", {"type": "bust", "player": player})
    record = director.state("twice")["state"]["players"][player]["bust"]  # type: ignore[index]
    assert record["by"] == "boss"

    told = phone.locator(".already-out")
    expect(told).to_be_visible()
    time = phone.evaluate(
        "(at) => new Intl.DateTimeFormat('en-GB', {hour: '2-digit', minute: '2-digit'})"
        ".format(new Date(at * 1000))",
        record["at"],
    )
    expect(told).to_contain_text(f"{name}: already out, by boss at {time}")
    expect(phone.get_by_role("button", name="Yes, busted")).to_have_count(0)
    told.get_by_role("button", name="OK").click()
    expect(told).to_have_count(0)
    assert director.state("twice")["state"]["busted"] == 1  # type: ignore[index]


def offline_bar(page: Page) -> Any:
    return page.locator(".offline-bar")


def test_the_offline_bar_never_counts_zero_commands_and_goes_once_all_is_sent(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "sending", 18, buttons=False)
    phone = pages.open(servers[0], "/floor/sending", user=FLOOR)
    open_table(phone, 1)
    pick_seat(phone, 3)

    # Offline with nothing to send: offline, and no count.
    phone.context.set_offline(True)
    expect(offline_bar(phone)).to_be_visible()
    expect(offline_bar(phone)).to_contain_text("Offline")
    expect(offline_bar(phone)).not_to_contain_text("0 command")

    # A command waits, and is said to.
    phone.get_by_role("button", name="Button here").click()
    expect(offline_bar(phone)).to_contain_text("1 command waits")

    # Back online: sent, and the bar goes with its text.
    phone.context.set_offline(False)
    wait_for(
        lambda: director.state("sending")["state"]["tables"]["1"]["positions"],  # type: ignore[index]
        phone,
    )
    expect(phone.locator(".conn")).to_have_attribute("data-status", "live")
    expect(offline_bar(phone)).to_be_hidden()
    expect(offline_bar(phone)).to_have_text("")


def test_several_out_in_one_hand_keep_the_stacks_the_floor_typed(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "typed", 18)
    (s1, p1), (s2, p2) = sorted(occupants(director, "typed", 1).items())[:2]
    phone = pages.open(servers[0], "/floor/typed", user=FLOOR)
    open_table(phone, 1)
    phone.get_by_role("button", name="Several out this hand").click()
    phone.locator(".seats .seat-btn").nth(s1 - 1).click()
    phone.locator(".seats .seat-btn").nth(s2 - 1).click()
    panel = phone.get_by_role("region", name="Out in the same hand")
    stacks = panel.get_by_label("Stack at the start of the hand")
    stacks.nth(0).fill("4000")
    stacks.nth(1).fill("7500")
    expect(panel.locator(".same-places li")).to_have_count(2)
    panel.get_by_role("button", name="2 out in this hand").click()
    phone.get_by_role("button", name="Yes, they are out").click()
    expect(panel).to_have_count(0)

    players = director.state("typed")["state"]["players"]  # type: ignore[index]
    # Never counted: the stacks on record were the starting stack, 10,000 each.
    assert (players[p1]["bust"]["stack"], players[p2]["bust"]["stack"]) == (4000, 7500)
    assert (players[p1]["bust"]["by"], players[p2]["bust"]["by"]) == ("fred", "fred")
    # Undone, the player has back the stack they were out with.
    director.ok("typed", {"type": "undo_bust", "player": p2, "reason": "wrong seat"})
    assert director.state("typed")["state"]["players"][p2]["stack"] == 7500  # type: ignore[index]
