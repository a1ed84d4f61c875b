"""How it must be shown: the screens in a real Chromium, live, against real server processes.

The floor phone (signed in as floor staff) does things by clicking; the wall display and the
player screen (public, on the other server process) must show them within a second.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    DIRECTOR,
    FLOOR,
    TOOLS_STRUCTURE,
    Api,
    Pages,
    ServerProcess,
    name_of,
    new_tournament,
    occupants,
    open_table,
    pick_seat,
    strip_accents,
    wait_for,
)

pytestmark = pytest.mark.browser

#: Everything a screen must show after a click on another screen, in milliseconds.
WITHIN = 1000


def tile_count(wall: Page, table: int) -> Any:
    return wall.locator(f'.tile[aria-label^="Table {table},"] .tile-count')


def test_a_bust_and_a_move_on_the_floor_view_appear_on_the_wall_and_player_views_within_a_second(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    # 17 players at two tables of 9 and 8: a bust at the short one leaves 9 against 7, and the
    # next big blind of the full table is planned to move.
    state = new_tournament(director, "live", 17)
    tables = state["state"]["tables"]
    short = min(tables.values(), key=lambda t: len(t["occupants"]))["number"]
    seat, busted = sorted(occupants(director, "live", short).items())[0]
    busted_name = name_of(director, "live", busted)

    wall = pages.open(servers[1], "/wall/live?pages=tables", size="tv")
    player = pages.open(servers[0], "/player/live")
    floor = pages.open(servers[0], "/floor/live", user=FLOOR)
    player.fill("#player-search", strip_accents(busted_name.split()[-1]).lower())
    card = player.locator(".result-card", has_text=busted_name)
    expect(card.locator(".seat-big")).to_contain_text(str(short))
    expect(tile_count(wall, short)).to_have_text("8/9")

    open_table(floor, short)
    # At 390 px a seat's name gets two lines rather than being cut ("Barbora / Růžičková").
    clipped = floor.locator(".seats .seat-name").evaluate_all(
        "els => els.filter((e) => e.scrollHeight > e.clientHeight + 1"
        " || e.scrollWidth > e.clientWidth + 1)"
        ".map((e) => e.textContent)"
    )
    assert clipped == []
    pick_seat(floor, seat)
    floor.get_by_role("button", name="Bust-out").click()
    floor.get_by_role("button", name="Yes, busted").click()
    # The notice is at the top: never over the buttons and the navigation at the bottom.
    notice = floor.locator(".toast").first
    expect(notice).to_contain_text("Bust-out")
    box = notice.bounding_box()
    assert box is not None and box["y"] + box["height"] < 844 / 3, box

    expect(tile_count(wall, short)).to_have_text("7/9", timeout=WITHIN)
    expect(card.locator(".seat-big")).to_have_text("Out in 17th place", timeout=WITHIN)

    (move,) = director.state("live")["plan"]["moves"]  # type: ignore[index]
    mover = name_of(director, "live", move["player"])
    floor.get_by_role("button", name=re.compile("^Moves")).click()
    floor.locator(".move-card", has_text=mover).get_by_role("button", name="Done").click()

    to = f"T{move['to']['table']} S{move['to']['seat']}"
    latest = wall.locator(".latest-list li:not(.pending)").first
    expect(latest).to_contain_text(mover, timeout=WITHIN)
    expect(latest).to_contain_text(to, timeout=WITHIN)
    board = player.locator(".player-board .move-row:not(.pending)").first
    expect(board).to_contain_text(mover, timeout=WITHIN)
    expect(board).to_contain_text(to, timeout=WITHIN)
    assert director.state("live")["plan"]["moves"] == []  # type: ignore[index]

    # A screen switched on afterwards shows it too, from the board its snapshot holds: no
    # read of the events back, nor of the board on its own.
    asked: list[str] = []
    late = pages.context(servers[1], size="phone", user=None).new_page()
    late.on("request", lambda r: asked.append(r.url))
    late.goto("/player/live")
    line = late.locator(".player-board .move-row:not(.pending)").first
    expect(line).to_contain_text(mover)
    expect(line).to_contain_text(to)
    assert not any(f"/api/t/live/{x}" in url for url in asked for x in ("events", "board")), asked
    assert not any("/events" in url for url in asked), asked


def test_the_player_search_finds_a_seat_typed_without_diacritics(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    state = new_tournament(director, "search", 12, buttons=False)
    me = next(p for p in state["state"]["players"].values() if p["name"] == "Jiří Dvořák")
    player = pages.open(servers[1], "/player/search")

    player.fill("#player-search", "jiri dvorak")

    card = player.locator(".result-card")
    expect(card).to_have_count(1)
    expect(card.locator(".result-name")).to_have_text("Jiří Dvořák")
    expect(card.locator(".seat-big")).to_have_text(f"Table{me['table']}Seat{me['seat']}")


def test_the_clock_counts_down_and_changes_level(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    structure = {
        "name": "seconds",
        "starting_stack": 5_000,
        "chips": [25, 100],
        "levels": [
            {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 0.05},
            {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 10},
        ],
    }
    new_tournament(director, "clock", 4, structure=structure)
    wall = pages.open(servers[1], "/wall/clock?pages=tables", size="tv")
    floor = pages.open(servers[0], "/floor/clock", user=FLOOR)
    open_table(floor, 1)
    level = wall.locator(".wall-clock .clock-level")
    time_left = wall.locator(".wall-clock .clock-time")
    expect(level).to_have_text("Level 1")
    expect(time_left).to_have_text("0:03")

    director.ok("clock", {"type": "clock_start"})
    director.ok("clock", {"type": "hand", "table": 1})  # dealt at level 1

    expect(time_left).to_have_text(re.compile(r"^0:0[12]$"), timeout=2500)
    expect(level).to_have_text("Level 2", timeout=5000)
    expect(wall.locator(".wall-clock .clock-blinds")).to_contain_text("50 / 100")
    expect(time_left).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    # The hand in progress finishes at the old blinds; the next one is dealt at the new level.
    old = floor.locator(".table-head .old-level")
    expect(old).to_contain_text("level 1 blinds (25 / 50)")
    director.ok("clock", {"type": "hand", "table": 1})
    expect(old).to_have_count(0)


def test_a_public_page_has_no_way_to_change_anything(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "public", 10)
    before = director.state("public")
    staff = re.compile(
        r"bust|done|call time|rebuy|add-on|re-entry|chip race|undo|confirm|new hand|"
        r"button here|break|final|register|draw|start|pause|level|split",
        re.IGNORECASE,
    )
    for path in ("/wall/public", "/player/public", "/wall/public?pages=prizes"):
        page = pages.open(servers[0], path, size="tv" if "wall" in path else "phone")
        page.wait_for_timeout(300)
        assert page.locator("form").count() == 0, path
        labels = page.locator("button:visible").all_inner_texts()
        assert not [x for x in labels if staff.search(x)], (path, labels)
        # A command sent from the page by hand is refused: the public only reads.
        answer = page.evaluate(
            """async () => {
                const r = await fetch('/api/t/public/commands', {
                  method: 'POST', headers: {'Content-Type': 'application/json'},
                  body: JSON.stringify({id: 'public-1', command: {type: 'bust', player: 'P1'}}),
                });
                return [r.status, (await r.json()).error.code];
            }"""
        )
        assert answer == [403, "forbidden"], path
    # The floor phone, not signed in, shows the sign-in form and nothing else.
    floor = pages.open(servers[0], "/floor/public", live=False)
    expect(floor.locator("form.signin")).to_be_visible()
    expect(floor.locator(".bottom-nav")).to_be_hidden()
    expect(floor.locator(".floor-app")).to_be_hidden()
    # Eight languages are a list to pick from; the only button signs in.
    assert floor.locator("button:visible").all_inner_texts() == ["Sign in"]
    expect(floor.locator(".lang select")).to_be_visible()
    assert director.state("public") == before


def test_the_floor_phones_outbox_survives_an_offline_moment(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "offline", 12)
    seat, player = sorted(occupants(director, "offline", 1).items())[0]
    floor = pages.open(servers[0], "/floor/offline", user=FLOOR)
    open_table(floor, 1)
    pick_seat(floor, seat)
    floor.get_by_role("button", name="Bust-out").click()

    floor.context.set_offline(True)
    floor.get_by_role("button", name="Yes, busted").click()

    expect(floor.locator(".offline-bar")).to_contain_text("1 command waits")
    floor.wait_for_timeout(1500)  # the outbox tries again meanwhile, and cannot
    assert not director.state("offline")["state"]["players"][player]["busted"]  # type: ignore[index]

    floor.context.set_offline(False)

    wait_for(lambda: director.state("offline")["state"]["players"][player]["busted"], floor)  # type: ignore[index]
    expect(floor.locator(".conn")).to_have_attribute("data-status", "live")
    expect(floor.locator(".offline-bar")).to_be_hidden()
    floor.get_by_role("button", name=re.compile("^Sent")).click()
    expect(floor.locator(".sent-item").first).to_contain_text("Done")
    busts = [
        e
        for e in director.client.get("/api/t/offline/events?since=0").json()["events"]
        if e["event"]["type"] == "player_busted"
    ]
    assert [e["event"]["player"] for e in busts] == [player]


def test_a_command_whose_answer_is_lost_is_sent_again_and_applied_once(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "lost", 12)
    seat, player = sorted(occupants(director, "lost", 2).items())[-1]
    floor = pages.open(servers[0], "/floor/lost", user=FLOOR)
    sent: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        sent.append(route.request.post_data_json["id"])
        if len(sent) == 1:
            route.fetch()  # the server applies it...
            route.abort("connectionreset")  # ...and the phone never hears back
        else:
            route.continue_()

    floor.route("**/api/t/lost/commands", lose_the_first_answer)
    open_table(floor, 2)
    pick_seat(floor, seat)
    floor.get_by_role("button", name="Bust-out").click()
    floor.get_by_role("button", name="Yes, busted").click()

    wait_for(lambda: len(sent) >= 2, floor)
    floor.get_by_role("button", name=re.compile("^Sent")).click()
    expect(floor.locator(".sent-item").first).to_contain_text("Done")
    assert sent[0] == sent[1]  # the same command id both times
    busts = [
        e
        for e in director.client.get("/api/t/lost/events?since=0").json()["events"]
        if e["event"]["type"] == "player_busted"
    ]
    assert [e["event"]["player"] for e in busts] == [player]


def test_a_chip_race_entered_on_the_floor_view_updates_the_average_stack_on_the_wall_view(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "race", 20, structure=TOOLS_STRUCTURE)
    director.ok("race", {"type": "clock_start"})
    director.ok("race", {"type": "clock_level", "to": 1})  # the colour-up break: 25s leave
    (_, first), (b, second) = sorted(occupants(director, "race", 1).items())[:2]
    wall = pages.open(servers[1], "/wall/race?pages=tables", size="tv")
    average = wall.locator(".wall-clock .stat", has_text="Average stack").locator("dd strong")
    expect(average).to_have_text("10,000")
    # Two bust-outs at table 3: its players are to move. The colour-up under the clock leaves
    # the latest seat changes three rows at least (the clock's digits shrink instead).
    for pid in sorted(occupants(director, "race", 3).values())[:2]:
        director.ok("race", {"type": "bust", "player": pid})
    moves = director.state("race")["plan"]["moves"]  # type: ignore[index]
    # The room is shown them once called (the floor calls the break at once).
    for reason in sorted({m["reason"] for m in moves}):  # type: ignore[index]
        director.ok("race", {"type": "call_all", "reason": reason})
    rows = wall.locator(".latest-list li")
    assert len(moves) >= 3, moves
    wait_for(lambda: rows.count() >= 3, wall)
    inside = wall.evaluate(
        """() => { const box = document.querySelector('.wall-latest').getBoundingClientRect();
          return [...document.querySelectorAll('.latest-list li')]
            .every((li) => li.getBoundingClientRect().bottom <= box.bottom + 1); }"""
    )
    assert inside
    floor = pages.open(servers[0], "/floor/race", user=FLOOR)

    floor.get_by_role("button", name=re.compile("^Tools")).click()
    floor.get_by_role("button", name="Chip race", exact=True).click()
    expect(floor.locator(".race-leaving")).to_contain_text("The 25s leave play; 100s replace them.")
    floor.get_by_role("button", name="Table 1", exact=True).click()
    # Nobody counted a stack yet: none is shown as if it were (the starting stack assumed).
    expect(floor.locator(".race-stack").first).to_contain_text("not counted")
    # A count the server would refuse is said on its row, and nothing is sent.
    for _ in range(5):
        floor.locator(".race-pad-keys .key", has_text=re.compile("^9$")).click()
    expect(floor.locator(".race-row").first.locator(".race-error")).to_have_text(
        "At most 10,000 chips of one kind: count again."
    )
    floor.get_by_role("button", name="Race this table").click()
    expect(floor.get_by_role("button", name="Yes, race")).to_have_count(0)
    for _ in range(5):
        floor.get_by_role("button", name="Delete").click()
    expect(floor.locator(".race-error")).to_have_count(0)
    # One odd 25 at each of the first two seats: half a 100, which rounds up to one chip raced.
    floor.locator(".race-pad-keys .key", has_text=re.compile("^1$")).click()
    floor.get_by_role("button", name="Next seat").click()
    floor.locator(".race-pad-keys .key", has_text=re.compile("^1$")).click()
    expect(
        floor.get_by_role("button", name=re.compile(f"^Seat {b}, .*: 1 chips of 25$"))
    ).to_be_visible()
    floor.get_by_role("button", name="Race this table").click()
    floor.get_by_role("button", name="Yes, race").click()

    result = floor.locator(".race-result-box .race-result")
    expect(result.locator(".race-summary")).to_contain_text(
        "2 odd chips of 25 (50): 1 chip of 100 raced"
    )
    expect(result.locator(".pcard")).to_have_count(2)
    for card in result.locator(".pcard").all():
        assert re.fullmatch(
            r"(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
            r"(spades|hearts|diamonds|clubs)",
            card.get_attribute("aria-label") or "",
        )
        assert card.locator(".pcard-letter").inner_text().lower() in "shdc"
    expect(result.locator(".badge", has_text="Won a 100")).to_have_count(1)
    stats = director.state("race")["stats"]
    assert stats["chips"] == 20 * 10_000 + 50  # type: ignore[index]
    expect(average).to_have_text(f"{stats['average_stack']:,}", timeout=WITHIN)  # type: ignore[index]
    names = {name_of(director, "race", first), name_of(director, "race", second)}
    assert set(result.locator(".rs-name").all_inner_texts()[:2]) == names


def test_a_time_call_shows_on_the_wall_and_ends_by_itself(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(
        director, "timecall", 12, overrides={"time_call_seconds": 5, "time_call_count": 4}
    )
    seat, player = sorted(occupants(director, "timecall", 1).items())[1]
    wall = pages.open(servers[1], "/wall/timecall?pages=tables", size="tv")
    floor = pages.open(servers[0], "/floor/timecall", user=FLOOR)
    open_table(floor, 1)
    pick_seat(floor, seat)

    floor.get_by_role("button", name="Call time").click()

    call = wall.locator(".time-call")
    expect(call).to_be_visible(timeout=WITHIN)
    expect(call.locator(".tc-where")).to_have_text(
        f"Table 1 · seat {seat} · {name_of(director, 'timecall', player)}"
    )
    expect(call.locator(".tc-phase")).to_have_text("to act")
    expect(call.locator(".tc-count")).to_have_text(re.compile(r"^0:0[1-5]$"))
    # Beside the map, never over a table.
    covered = wall.evaluate(
        """() => { const c = document.querySelector('.time-call').getBoundingClientRect();
          return [...document.querySelectorAll('.tile')].filter((el) => {
            const r = el.getBoundingClientRect();
            return r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom;
          }).length; }"""
    )
    assert covered == 0
    # The floor phone shows it too: a line on the table pad, the whole call on the moves tab.
    expect(floor.locator(".urgent-summary")).to_contain_text("1 time call")
    floor.get_by_role("button", name=re.compile("^Moves")).click()
    phone = floor.locator(".urgent-card.timecall")
    expect(phone).to_contain_text(f"Table 1 · seat {seat}")
    expect(phone.locator(".tc-phase")).to_have_text("to act")
    # The minute (here five seconds), then the count in red, then it ends by itself.
    expect(wall.locator(".time-call.count .tc-phase")).to_have_text(
        "ten-second count", timeout=6000
    )
    expect(wall.locator(".time-call.count .tc-count")).to_have_text(re.compile(r"^[1-4]$"))
    expect(phone.locator(".tc-phase")).to_have_text("ten-second count")
    expect(call).to_have_count(0, timeout=7000)
    expect(phone).to_have_count(0)
    wait_for(lambda: director.state("timecall")["state"]["time_calls"] == [], wall)  # type: ignore[index]
    ended = [
        e["event"]
        for e in director.client.get("/api/t/timecall/events?since=0").json()["events"]
        if e["event"]["type"] == "time_call_ended"
    ]
    assert [e["outcome"] for e in ended] == ["dead"]


def test_in_czech_the_floor_phone_gives_the_servers_refusals_and_pot_splits_in_czech(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "czech", 12)
    floor = pages.open(servers[0], "/floor/czech?lang=cs", user=FLOOR)
    floor.get_by_role("button", name=re.compile("^Nástroje")).click()
    floor.get_by_role("button", name="Poty", exact=True).click()
    amounts, ranks = floor.locator(".pot-amount"), floor.locator(".pot-rank")
    amounts.nth(0).fill("500")
    amounts.nth(1).fill("1000")
    ranks.nth(0).fill("2")
    ranks.nth(1).fill("1")
    floor.get_by_label("Místo buttonu").fill("3")
    floor.locator("#pots-total").fill("999")
    floor.get_by_role("button", name="Rozdělit pot").click()
    # Czech words, the venue's numbers (en-GB on the test servers: FLOOR_LOCALE).
    expect(floor.locator("#pots-err-total")).to_contain_text(
        "vklady dávají dohromady 1,500, ne 999 v potu"
    )

    floor.locator("#pots-total").fill("")
    floor.get_by_role("button", name="Rozdělit pot").click()

    notes = floor.locator(".pot-note")
    expect(notes.first).to_be_visible()
    text = " ".join(notes.all_inner_texts())
    # Rendered from the note's clauses: Czech words, Czech numbers (a no-break space).
    assert "hlavní pot: místo 2 bere 1,000" in text, text
    assert "posledních 500 od místa 2 nikdo nedorovnal" in text, text

    # A refusal is said from its reason and params, not matched by its English words.
    director.ok("czech", {"type": "bust", "player": "P0"})
    said = floor.evaluate(
        """async () => {
          const { api } = await import("/static/js/ui.js");
          try {
            await api("/api/t/czech/commands", { method: "POST",
              body: { id: "again-1", command: { type: "bust", player: "P0" } } });
          } catch (err) { return [err.status, err.reason, err.params, err.message]; }
        }"""
    )
    assert said == [409, "player_out", {"player": "P0"}, "hráč P0 už je vyřazený"]

    # The rulebook: Czech words found by their start, whatever the ending; citations in Czech.
    floor.get_by_role("button", name="Pravidla", exact=True).click()
    floor.locator("#rule-search").fill("vyvazovanim stoly")
    first = floor.locator(".rule-item").first
    expect(first.locator(".rule-title")).to_have_text("Vyvažování stolů")
    expect(first.locator(".rule-cite")).to_have_text("TDA 2024 pravidlo 11A")


def test_a_screen_holds_the_places_the_server_holds_after_late_entries_and_bust_outs(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    """The screens keep their own copy of the state (the batches' patches): after bust-outs with
    late entries between them, its places are the server's, none shared."""
    new_tournament(director, "places", 20)
    wall = pages.open(servers[1], "/wall/places", size="tv")
    director.ok("places", {"type": "bust", "player": "P1"})
    director.ok("places", {"type": "register", "name": "Late One", "player": "L1"})
    director.ok("places", {"type": "bust", "player": "P2"})
    director.ok("places", {"type": "register", "name": "Late Two", "player": "L2"})
    last = director.ok("places", {"type": "bust", "player": "P3"})["last"]

    server = {
        pid: p["bust"]["place"]
        for pid, p in director.state("places")["state"]["players"].items()  # type: ignore[union-attr]
        if p["bust"]
    }
    wait_for(lambda: wall.evaluate("window.floorWall.conn.seq") >= last, wall)
    screen = wall.evaluate(
        "Object.fromEntries(Object.values(window.floorWall.conn.state.players)"
        ".filter((p) => p.bust).map((p) => [p.id, p.bust.place]))"
    )
    assert server == {"P1": 22, "P2": 21, "P3": 20}
    assert screen == server


def test_the_floor_phone_offers_a_re_entry_only_while_one_can_be_made(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    """Late registration closes after level 1 and a player may re-enter once
    (TOOLS_STRUCTURE): past either, the search says so instead of offering a button the
    server would refuse. A player out is a line of text, not a greyed-out button."""
    new_tournament(director, "reentry", 12, structure=TOOLS_STRUCTURE)
    director.ok("reentry", {"type": "clock_start"})
    director.ok("reentry", {"type": "bust", "player": "P0"})  # Jiří Dvořák
    director.ok("reentry", {"type": "bust", "player": "P1"})  # Tomáš Novák
    director.ok("reentry", {"type": "register", "name": "Tomáš Novák", "player": "P1"})
    director.ok("reentry", {"type": "bust", "player": "P1"})
    floor = pages.open(servers[0], "/floor/reentry", user=FLOOR)
    floor.get_by_role("button", name=re.compile("^Search")).click()

    floor.fill("#floor-search", "jiri dvorak")
    item = floor.locator(".result-item")
    expect(item).to_have_count(1)
    expect(item.locator(".result-where")).to_have_text(re.compile(r"^busted, place \d+$"))
    expect(item.locator("button.result")).to_have_count(0)
    expect(item.get_by_role("button", name="Re-entry")).to_be_visible()

    floor.fill("#floor-search", "tomas novak")
    expect(item).to_have_count(1)
    expect(item.locator(".sale-closed")).to_have_text(
        "Tomáš Novák has made the 1 re-entry a player may make."
    )
    expect(item.get_by_role("button", name="Re-entry")).to_have_count(0)

    director.ok("reentry", {"type": "clock_level", "to": 2})  # level 2: late registration over
    floor.fill("#floor-search", "jiri dvorak")
    expect(item.locator(".sale-closed")).to_have_text(
        "Late registration closed after level 1: no more re-entries."
    )
    expect(item.get_by_role("button", name="Re-entry")).to_have_count(0)


def test_a_150_table_room_fits_the_wall_and_stays_readable(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    body = {"id": "room", "name": "Big room", "rules": "tda-2024", "structure": "demo-fast"}
    r = director.client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    for i in range(150 * 9):
        director.ok("room", {"type": "register", "name": f"Player {i:04d}", "player": f"R{i}"})
    director.ok("room", {"type": "draw_seats"})
    assert len(director.state("room")["state"]["tables"]) == 150  # type: ignore[arg-type]

    wall = pages.open(servers[1], "/wall/room?pages=tables", size="tv")

    # At 27 px and more for every count and tag (test_wall.py), 150 tables take three pages.
    tiles = wall.locator(".tile")
    expect(tiles).to_have_count(50)
    expect(wall.locator(".page-nav li")).to_have_text(["Tables 1/3"])
    sizes = wall.evaluate(
        """() => [...document.querySelectorAll('.tile')].map((el) => {
          const r = el.getBoundingClientRect();
          const px = (sel) => parseFloat(getComputedStyle(el.querySelector(sel)).fontSize);
          return { inside: r.left >= 0 && r.top >= 0
                             && r.right <= innerWidth && r.bottom <= innerHeight,
                   no: px('.tile-no'), count: px('.tile-count') };
        })"""
    )
    assert all(s["inside"] for s in sizes)
    # The table number read from five metres (about 30 px and more on a 1080p TV).
    assert min(s["no"] for s in sizes) >= 30, min(s["no"] for s in sizes)
    assert min(s["count"] for s in sizes) >= 27, min(s["count"] for s in sizes)


def test_the_director_archives_a_tournament_from_the_console(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "oldnight", 4, buttons=False)
    console = pages.open(servers[0], "/director?t=oldnight", user=DIRECTOR)
    entry = console.locator(".tournament-list li", has_text="(oldnight)")
    expect(entry).to_be_visible()
    console.once("dialog", lambda dialog: dialog.accept())
    entry.get_by_role("button", name="Archive").click()
    expect(entry).to_have_count(0)
    archived = director.client.get("/api/tournaments?archived=1").json()
    assert "oldnight" in [x["id"] for x in archived]


def test_the_phones_offline_rulebook_search_finds_what_the_servers_does(
    servers: list[ServerProcess], pages: Pages
) -> None:
    """A phone that has lost the server searches its copy of the rule set: the same rules
    in the same order as the server's search (floor/engine/rulebook.py)."""
    queries = ["vyvazovanim stoly", "liche zetony", "chip race", "11D", "ante", "rozpadani, stolu"]
    page = pages.open(servers[0], "/player/none", live=False)
    offline = page.evaluate(
        """async (queries) => {
          const { searchBook } = await import("/static/js/rulebook.js");
          const book = await (await fetch("/api/rulebook?set=pfp-2014&lang=cs")).json();
          return queries.map((q) => searchBook(book, q).map((r) => r.id));
        }""",
        queries,
    )
    for query, found in zip(queries, offline, strict=True):
        answer = httpx.get(
            servers[0].base + "/api/rulebook", params={"set": "pfp-2014", "lang": "cs", "q": query}
        ).json()
        assert found == [r["id"] for r in answer["rules"]], query
        assert found or query == "ante", query
