"""Rulings through the screens, in a real Chromium against real server processes: a ruling
with a 10-minute sit-out recorded on the floor phone, shown where the table and the wall
show it, ended by the server's clock; a disqualification that takes the chips out and records
the place; and the phone's offline rulebook search, which must find what the server finds."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
from playwright.sync_api import Page, expect

from floor import config
from floor.engine.rulebook import search
from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    Api,
    Pages,
    ServerProcess,
    name_of,
    new_tournament,
    occupants,
    open_table,
    wait_for,
)
from tests.browser.test_patch_parity import module_page  # noqa: F401

pytestmark = pytest.mark.browser

#: Everything a screen must show after a click on another screen, in milliseconds.
WITHIN = 1000


def events(api: Api, tid: str, kind: str) -> list[dict[str, Any]]:
    got = api.client.get(f"/api/t/{tid}/events?since=0").json()["events"]
    return [e["event"] for e in got if e["event"]["type"] == kind]


def start_ruling(floor: Page, seat: int) -> None:
    """On the open table: the ruling form, with the player in ``seat`` named."""
    floor.get_by_role("button", name="Ruling").click()
    form = floor.locator(".ruling-form")
    expect(form).to_be_visible()
    form.locator(".ruling-players").get_by_role("button", name=re.compile(f"^Seat {seat}:")).click()


def pick_rule(floor: Page, typed: str, title: str) -> None:
    floor.fill("#ruling-rule", typed)
    floor.locator(".ruling-rule-results .rule-item", has_text=title).click()
    expect(floor.locator(".ruling-rule-picked")).to_contain_text(title)


def test_a_ten_minute_sit_out_shows_on_the_table_and_the_wall_and_the_clock_ends_it(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "sitout", 12, rules="pfp-2014")
    seat, player = sorted(occupants(director, "sitout", 1).items())[2]
    name = name_of(director, "sitout", player)
    wall = pages.open(servers[1], "/wall/sitout?pages=moves", size="tv")
    floor = pages.open(servers[0], "/floor/sitout", user=FLOOR)
    open_table(floor, 1)

    start_ruling(floor, seat)
    # The rule as a floorperson types it: "mobile" finds rule 4 of the house rules.
    pick_rule(floor, "mobil", "Communication")
    floor.get_by_role("button", name="Sit-out", exact=True).click()
    expect(floor.locator("#ruling-amount")).to_have_value("10")
    floor.fill("#ruling-note", "phone call at the table")
    # Ruled at the table 9 minutes 57 seconds ago, recorded now: the ten minutes run from then.
    floor.get_by_role("button", name=re.compile("Ruled earlier")).click()
    earlier = floor.evaluate(
        """() => { const d = new Date(window.floorPhone.conn.now() - 597000);
          return [d.getHours(), d.getMinutes(), d.getSeconds()]
            .map((x) => String(x).padStart(2, "0")).join(":"); }"""
    )
    floor.fill("#ruling-time", earlier)
    floor.get_by_role("button", name="Record the ruling").click()

    # The floor phone: above every tab and on the table's view (a dealer's table screen).
    strip = floor.locator(".sit-out-strip .so-running")
    expect(strip).to_contain_text(name, timeout=WITHIN)
    expect(strip.locator(".so-left")).to_have_text(re.compile(r"^back at \d\d:\d\d · 0:0\d$"))
    expect(floor.locator(".so-table")).to_contain_text(name)
    # The wall: who sits out and when they are back, beside the board's entry.
    panel = wall.locator(".sit-outs")
    expect(panel.locator(".so-name")).to_have_text(name, timeout=WITHIN)
    expect(panel.locator(".so-where")).to_have_text(f"T1 S{seat}")
    expect(panel.locator(".so-left")).to_have_text(re.compile(r"^back at \d\d:\d\d · 0:0\d$"))
    expect(wall.locator(".wall-moves")).to_contain_text(f"{name} sits out (T1 S{seat})")
    (ruling,) = events(director, "sitout", "ruling_recorded")
    assert (ruling["rule"], ruling["note"], ruling["players"]) == (
        "electronic-devices",
        "phone call at the table",
        [player],
    )
    assert ruling["penalties"][0]["minutes"] == 10

    # The server's clock ends it: gone from the wall, back in play on the phone and the board.
    expect(panel).to_be_hidden(timeout=8000)
    expect(floor.locator(".sit-out-strip .so-back")).to_contain_text(f"{name} is back in play")
    expect(floor.locator(".so-table")).to_have_count(0)
    expect(wall.locator(".wall-moves")).to_contain_text(f"{name} is back in play")
    (ended,) = events(director, "sitout", "sit_out_ended")
    assert (ended["player"], ended["how"]) == (player, "time")
    assert ended["at"] == pytest.approx(ruling["penalties"][0]["ends_at"])

    # The next ruling naming the player has the earlier one at hand.
    start_ruling(floor, seat)
    record = floor.locator(f'.player-record[data-player="{player}"]')
    expect(record).to_contain_text("1 earlier penalty")
    expect(record).to_contain_text("Communication")
    expect(record).to_contain_text("sit-out, 10 minutes")
    expect(record.locator(".escalate")).to_contain_text("PFP 50")


def test_a_disqualification_takes_the_chips_out_and_records_the_place(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    state = new_tournament(director, "dq", 12, rules="pfp-2014")
    before = state["state"]
    seat, player = sorted(occupants(director, "dq", 2).items())[0]
    name = name_of(director, "dq", player)
    stack = before["players"][player]["stack"]
    left = sum(len(t["occupants"]) for t in before["tables"].values())
    floor = pages.open(servers[0], "/floor/dq", user=FLOOR)
    open_table(floor, 2)

    start_ruling(floor, seat)
    pick_rule(floor, "chip dumping", "Etiquette of the game")
    floor.get_by_role("button", name="Disqualify", exact=True).click()
    floor.fill("#ruling-note", "chip dumping with seat 5")
    floor.get_by_role("button", name="Disqualify…").click()
    expect(floor.locator(".confirm-text")).to_contain_text(f"Disqualify {name}?")
    floor.get_by_role("button", name="Yes, disqualify").click()
    expect(floor.locator(".ruling-form")).to_have_count(0, timeout=WITHIN)

    after = wait_for(
        lambda: (s := director.state("dq")["state"])["players"][player]["busted"] and s
    )
    p = after["players"][player]
    assert p["bust"]["place"] == left  # the place a bust-out would take now
    assert after["rulings"]["disqualified"] == {player: 1}
    # The chips leave the tournament: the chips in play are fewer by the stack.
    assert after["chips_added"] == before["chips_added"] - stack
    (busted,) = events(director, "dq", "player_busted")
    assert (busted["player"], busted["place"]) == (player, left)
    # Not undone as a bust-out: the table offers no undo for the player.
    expect(floor.locator(".undo")).to_have_count(0)

    console = pages.open(servers[0], "/director?t=dq", size="tv", user=DIRECTOR)
    row = console.locator(".rulings-table tbody tr").first
    expect(row).to_contain_text(name)
    expect(row).to_contain_text(f"disqualified (place {left})")
    expect(row).to_contain_text("PFP 2014 rule 53")
    expect(row).to_contain_text("chip dumping with seat 5")


def test_the_2024_book_on_the_phone_links_the_official_text_and_a_ruling_misses_rounds(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "book24", 12)  # TDA 2024
    seated = occupants(director, "book24", 1)
    seat, player = sorted(seated.items())[1]
    name = name_of(director, "book24", player)
    floor = pages.open(servers[0], "/floor/book24", user=FLOOR)

    # The rulebook: "phone" finds rule 5 first; opened, it says what it was checked against
    # and links the official text.
    floor.get_by_role("button", name=re.compile(r"^Tools\b")).click()
    floor.get_by_role("button", name="Rulebook", exact=True).click()
    floor.fill("#rule-search", "phone")
    first = floor.locator(".rule-list .rule-item").first
    expect(first).to_contain_text("TDA 2024 rule 5")
    expect(first).to_contain_text("Electronic devices and communication")
    first.click()
    source = floor.locator(".rule-detail .rule-source")
    expect(source).to_contain_text("Wording checked: Checked against the TDA 2024 rules")
    link = source.get_by_role("link", name="The official text (TDA 2024) ↗")
    expect(link).to_have_attribute("href", re.compile(r"^https://www\.dropbox\.com/"))
    # A house procedure the 2024 text does not hold says so, in the list and in full.
    floor.get_by_role("button", name=re.compile("All rules")).click()
    floor.fill("#rule-search", "high card")
    item = floor.locator(".rule-list .rule-item", has_text="Placing the button by high card")
    expect(item.locator(".badge-unchecked")).to_have_text("not checked")
    item.click()
    expect(floor.locator(".rule-detail .rule-source.unchecked")).to_contain_text(
        "Not checked: No rule or procedure of the 2024 text"
    )

    # A ruling under rule 56 with two missed rounds (rule 71): a hand per player seated.
    open_table(floor, 1)
    start_ruling(floor, seat)
    pick_rule(floor, "string bet", "String bets and raises")
    floor.get_by_role("button", name="Sit-out", exact=True).click()
    floor.get_by_role("button", name="rounds", exact=True).click()
    floor.fill("#ruling-amount", "2")
    hands = 2 * len(seated)
    expect(floor.locator(".rounds-hint")).to_have_text(
        f"A round is a hand per player at the table: 2 rounds × {len(seated)} players = "
        f"{hands} hands."
    )
    floor.get_by_role("button", name="Record the ruling").click()
    expect(floor.locator(".ruling-form")).to_have_count(0, timeout=WITHIN)
    (ruling,) = events(director, "book24", "ruling_recorded")
    assert ruling["rule"] == "string-bets"
    assert (ruling["penalties"][0]["rounds"], ruling["penalties"][0]["hands"]) == (2, hands)
    expect(floor.locator(".so-table")).to_contain_text(f"{hands} more hands")

    console = pages.open(servers[0], "/director?t=book24", size="tv", user=DIRECTOR)
    row = console.locator(".rulings-table tbody tr").first
    expect(row).to_contain_text(name)
    expect(row).to_contain_text("TDA 2024 rule 56 · String bets and raises")
    expect(row).to_contain_text(f"sit-out, 2 rounds ({hands} hands)")


QUERIES = [
    "misdeal", "misdael", "phone", "mobile phone", "cell", "mobil", "mobilní telefon", "telfon",
    "string bet", "strng bet", "stůl", "stul", "stolu", "rozpadani stolu", "lichý žeton",
    "liche zetony", "žetonů", "hráčů", "karet", "odsednutí", "diskvalifkace", "out of turn",
    "mimo pořadí", "PFP 2014 rule 24", "pravidlo 50", "11D", "6-max", "ante", "zebra", "", "a",
    "chip race", "sit-out", "sitout", "time", "čas", "balancing", "vyvazovani",
    "angle", "soft play", "one player to a hand", "sázka na etapy", "kapuce", "mekka hra",
    "jeden hráč na jednu hru", "big blind ante", "missed round",
]  # fmt: skip


def test_the_phones_offline_rulebook_search_finds_what_the_server_finds(
    module_page: Page,  # noqa: F811
) -> None:
    for name in sorted(config.rulebooks()):
        book = config.load_rulebook(name)
        copy = msgspec.json.decode(
            msgspec.json.encode({"rules": [msgspec.structs.asdict(r) for r in book.rules]})
        )
        shown = module_page.evaluate(
            """async ({ book, queries }) => {
              const { searchBook } = await import("/js/rulebook.js");
              return queries.map((q) => searchBook(book, q).map((r) => r.id));
            }""",
            {"book": copy, "queries": QUERIES},
        )
        server = [[r.id for r in search(book, q)] for q in QUERIES]
        assert dict(zip(QUERIES, shown, strict=True)) == dict(zip(QUERIES, server, strict=True))
