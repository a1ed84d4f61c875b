"""What the room reads on the wall, the final table and the phones (issue 25, defects 3 and 8
and three of item 9), in real Chromium against real servers:

- nothing pushes a called move out of view on the wall: with players sitting out, the called
  move is on screen, whole and uncovered, on every page of the rotation;
- every count shows its age, an old one (a level change, a bust-out at its table since) is
  marked old, and the final table asks for a recount of it;
- the bubble bursting is a moment on the wall and the phones, and a player out (or the
  winner) reads their place and prize on the phone that follows them;
- the Czech wall, final table and player screen show no English word.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    FLOOR,
    Api,
    Pages,
    ServerProcess,
    new_tournament,
    occupants,
    wait_for,
)

pytestmark = pytest.mark.browser

#: Twelve entries of 100 EUR: five places paid, 480, 300, 180, 144, 96.
PAID: dict[str, Any] = {
    "name": "paid",
    "starting_stack": 20_000,
    "chips": [25, 100, 500],
    "levels": [
        {"type": "level", "small_blind": 100, "big_blind": 200, "ante": 200, "minutes": 60},
        {"type": "break", "minutes": 15, "color_up": [25], "name": "Colour-up"},
        {"type": "level", "small_blind": 200, "big_blind": 400, "minutes": 60},
        {"type": "level", "small_blind": 300, "big_blind": 600, "minutes": 60},
    ],
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "fee": 10,
        "guarantee": 1_000,
        "payouts": [
            {"entries": 2, "percents": [100]},
            {"entries": 10, "percents": [40, 25, 15, 12, 8]},
        ],
    },
}


def state(api: Api, tid: str) -> dict[str, Any]:
    return api.state(tid)


def seated(api: Api, tid: str) -> dict[int, dict[int, str]]:
    tables = state(api, tid)["state"]["tables"]
    return {
        int(n): {int(s): p for s, p in t["occupants"].items()}
        for n, t in tables.items()
        if t["occupants"]
    }


def name_of(api: Api, tid: str, pid: str) -> str:
    return str(state(api, tid)["state"]["players"][pid]["name"])


def count_all(api: Api, tid: str) -> None:
    for table, seats in seated(api, tid).items():
        stacks = [{"player": p, "stack": 18_000 + 500 * s} for s, p in seats.items()]
        api.ok(tid, {"type": "count_table", "table": table, "stacks": stacks})


#: What keeps each element matching a selector (and holding a text) from being read: off the
#: screen, cut by a box that holds it (its overflow), or something painted over its middle.
#: One look at the page, so that a list drawn again meanwhile is seen whole.
IN_VIEW = """([selector, text]) => {
  const found = [...document.querySelectorAll(selector)]
    .filter((el) => !text || el.textContent.includes(text));
  if (!found.length) return [`nothing is ${selector}`];
  const problems = [];
  for (const el of found) {
    const r = el.getBoundingClientRect();
    const inside = (b) => r.left >= b.left - 0.5 && r.right <= b.right + 0.5
      && r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
    const what = el.textContent.trim().slice(0, 30);
    if (!inside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight })) {
      problems.push(`${what}: off the screen`);
    }
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflow !== "visible" && !inside(p.getBoundingClientRect())) {
        problems.push(`${what}: cut by ${p.className}`);
      }
    }
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!top || !(el === top || el.contains(top))) {
      problems.push(`${what}: under ${top?.className}`);
    }
  }
  return problems;
}"""


def in_view(page: Page, selector: str, text: str | None = None) -> list[str]:
    problems: list[str] = page.evaluate(IN_VIEW, [selector, text])
    return problems


# A called move while players sit out ------------------------------------------------------------


def test_a_called_move_stays_in_view_on_every_page_while_players_sit_out(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "gonow"
    new_tournament(director, tid, 40, structure=PAID)
    director.ok(tid, {"type": "clock_start"})
    count_all(director, tid)  # the chip counts' page is in the rotation
    for pid in list(occupants(director, tid, 1).values())[:2]:
        director.ok(tid, {"type": "bust", "player": pid})  # the prizes' page has results
    moves = [m for m in state(director, tid)["plan"]["moves"] if m["player"]]
    assert moves, "a balance move into table 1"
    mover = moves[0]["player"]
    director.ok(tid, {"type": "call_move", "player": mover})
    # Five players sit out: the box of sit-outs is taller than the room under the clock.
    out = [
        p
        for n, seats in seated(director, tid).items()
        if n != 1
        for p in seats.values()
        if p != mover
    ][:5]
    for pid in out:
        table = state(director, tid)["state"]["players"][pid]["table"]
        penalty = {"player": pid, "kind": "sit_out", "minutes": 10}
        director.ok(
            tid,
            {"type": "record_ruling", "table": table, "players": [pid], "note": "phone",
             "penalties": [penalty]},
        )  # fmt: skip
    name = name_of(director, tid, mover)

    wall = pages.open(servers[1], f"/wall/{tid}?rotate=600", size="tv")
    called = wall.locator(".wall-latest .latest-list li.pending", has_text=name)
    expect(called).to_contain_text("T1")
    sit_outs = wall.locator(".wall-left .sit-outs")
    expect(sit_outs).to_be_visible()
    seen: list[str] = []
    for _ in range(8):
        page = wall.locator(".page-nav li.current").inner_text().strip("▶ ").strip()
        if page in seen:
            break
        seen.append(page)
        expect(called).to_be_visible()
        assert in_view(wall, ".wall-latest .latest-list li.pending", name) == [], page
        if page == "Seat changes":
            assert in_view(wall, ".wall-moves .move-row.pending", name) == []
        # The sit-outs give way, their rows that do not fit counted: none cut, none off screen.
        assert in_view(wall, ".wall-left .sit-outs .so-title, .wall-left .sit-outs li") == [], page
        wall.keyboard.press("ArrowRight")
        expect(wall.locator(".page-nav li.current")).not_to_have_text(re.compile(re.escape(page)))
    assert seen == ["Tables", "Seat changes", "Prizes", "Chip counts", "Charts"], seen
    shown = sit_outs.locator(".so-row").count()
    assert shown < len(out)
    expect(sit_outs.locator(".so-more")).to_have_text(f"and {len(out) - shown} more")


# Old counts ------------------------------------------------------------------------------------


def test_every_count_shows_its_age_and_the_final_table_asks_for_a_recount_of_old_ones(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "ages"
    new_tournament(director, tid, 12, structure=PAID)  # two tables of six
    director.ok(tid, {"type": "clock_start"})
    count_all(director, tid)
    first = min(seated(director, tid))
    for pid in list(occupants(director, tid, first).values())[:3]:
        director.ok(tid, {"type": "bust", "player": pid})  # nine left: the final table
    director.ok(tid, {"type": "confirm_all", "reason": "final"})
    final_table = state(director, tid)["state"]["final_table"]
    assert final_table is not None
    # The first table's counts were taken before its bust-outs; the other table's stand.
    views = {v["table"]: v for v in state(director, tid)["tables"]}
    old = views[final_table]["old_counts"]
    players = state(director, tid)["state"]["players"]
    assert old and all(why == "bust" for why in old.values())
    current = [p for p in occupants(director, tid, final_table).values() if p not in old]
    assert current, "the other table's counts stand"

    final = pages.open(servers[1], f"/final/{tid}", size="tv")
    rows = final.locator(".final-seat:not(.empty)")
    expect(rows).to_have_count(9)
    recount = final.locator(".final-seat .badge-recount")
    expect(recount).to_have_count(len(old))
    expect(final.locator(".final-recount")).to_contain_text(f"{len(old)} counts are old")
    for pid in old:
        row = final.locator(".final-seat", has_text=players[pid]["name"])
        expect(row.locator(".fs-stack")).to_have_class(re.compile(r"\bold\b"))
        expect(row.locator(".badge-recount")).to_have_text("Recount")
        expect(row.locator(".fs-bb")).to_have_count(0)  # no big blinds of a stack not in play
    for pid in current:
        row = final.locator(".final-seat", has_text=players[pid]["name"])
        expect(row.locator(".fs-age")).to_have_text(re.compile(r"^counted \d\d:\d\d$"))
        expect(row.locator(".fs-bb")).to_have_text(re.compile(r"\d+ BB"))
        expect(row.locator(".badge-recount")).to_have_count(0)

    # A recount of one old stack: current again.
    again = next(iter(old))
    director.ok(
        tid,
        {"type": "count_table", "table": final_table,
         "stacks": [{"player": again, "stack": 31_000}]},
    )  # fmt: skip
    again_row = final.locator(".final-seat", has_text=players[again]["name"])
    expect(again_row.locator(".badge-recount")).to_have_count(0)
    expect(again_row.locator(".fs-count")).to_contain_text("31,000")
    expect(recount).to_have_count(len(old) - 1)

    # The wall's chip counts: each with its time, the old ones said so.
    wall = pages.open(servers[0], f"/wall/{tid}?pages=chips", size="tv")
    chip_rows = wall.locator(".chips-row")
    expect(chip_rows).to_have_count(9)
    expect(wall.locator(".chips-row.old")).to_have_count(len(old) - 1)
    expect(wall.locator(".chips-row .at").first).to_have_text(re.compile(r"^\d\d:\d\d"))
    expect(wall.locator(".chips-row.old .at .count-old").first).to_have_text("· old")

    # A new level: every count is old now, the recount asked for each.
    director.ok(tid, {"type": "clock_level", "step": 1})
    director.ok(tid, {"type": "clock_level", "step": 1})
    expect(recount).to_have_count(9)
    expect(wall.locator(".chips-row.old")).to_have_count(9)
    views = {v["table"]: v for v in state(director, tid)["tables"]}
    assert set(views[final_table]["old_counts"].values()) == {"level"}

    # A phone shows the chip leaders with the age of their counts.
    phone = pages.open(servers[0], f"/player/{tid}")
    leader = phone.locator(".leaders-list li").first
    expect(leader.locator(".at")).to_contain_text("old: the level changed since")


# The money --------------------------------------------------------------------------------------


@pytest.fixture
def follow(pages: Pages, servers: list[ServerProcess]) -> Any:
    """Opens the player screen following a player (as "Follow" left it on the phone)."""

    def open_following(tid: str, pid: str) -> Page:
        ctx = pages.context(servers[0])
        held = json.dumps(json.dumps({"id": pid, "name": pid}))
        ctx.add_init_script(f"localStorage.setItem('floor.follow.{tid}', {held});")
        page = ctx.new_page()
        page.on("pageerror", lambda e: pages.errors.append(f"player {pid}: {e}"))
        page.goto(f"/player/{tid}")
        expect(page.locator(".conn")).to_have_attribute("data-status", "live")
        expect(page.locator(".follow-card")).to_be_visible()
        return page

    return open_following


def test_the_bubble_bursting_is_a_moment_on_the_wall_and_phones_and_a_phone_says_its_prize(
    servers: list[ServerProcess], director: Api, pages: Pages, follow: Any
) -> None:
    tid = "money"
    new_tournament(director, tid, 12, structure=PAID)
    director.ok(tid, {"type": "clock_start"})
    for pid in list(occupants(director, tid, min(seated(director, tid))).values())[:3]:
        director.ok(tid, {"type": "bust", "player": pid})  # 12th to 10th: the final table
    director.ok(tid, {"type": "confirm_all", "reason": "final"})
    order = list(occupants(director, tid, state(director, tid)["state"]["final_table"]).values())
    # Out in this order: 9th to 7th; the bubble (6th); 5th, paid, to 2nd; then a winner.
    bubble, paid, winner = order[3], order[4], order[-1]
    for pid in order[:3]:
        director.ok(tid, {"type": "bust", "player": pid})

    wall = pages.open(servers[1], f"/wall/{tid}", size="tv")
    floor = pages.open(servers[0], f"/floor/{tid}", user=FLOOR)
    room = pages.open(servers[1], f"/player/{tid}")
    bubble_phone = follow(tid, bubble)
    paid_phone = follow(tid, paid)
    winner_phone = follow(tid, winner)
    screens = [wall, floor, room, bubble_phone, paid_phone, winner_phone]
    for page in screens:
        expect(page.locator(".money-banner")).to_be_hidden()

    director.ok(tid, {"type": "bust", "player": bubble})  # sixth: the bubble bursts
    for page in screens:
        banner = page.locator(".money-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("In the money")
        expect(banner).to_contain_text("5 places paid")
    # On the wall, over the top bar: never over the clock or the map.
    box = wall.locator(".money-banner").bounding_box()
    clock = wall.locator(".wall-clock").bounding_box()
    assert box is not None and clock is not None and box["y"] + box["height"] <= clock["y"]
    expect(bubble_phone.locator(".seat-big")).to_have_text("Out in 6th place")
    expect(bubble_phone.locator(".follow-finish")).to_have_text("no prize")

    # An undo takes the bubble back: the moment with it.
    director.ok(tid, {"type": "undo_bust", "player": bubble, "reason": "wrong player"})
    for page in screens:
        expect(page.locator(".money-banner")).to_be_hidden()
    expect(bubble_phone.locator(".follow-finish")).to_have_count(0)
    director.ok(tid, {"type": "bust", "player": bubble})
    expect(wall.locator(".money-banner")).to_be_visible()

    for pid in order[4:-1]:
        director.ok(tid, {"type": "bust", "player": pid})  # 5th (paid) to 2nd
    expect(paid_phone.locator(".seat-big")).to_have_text("Out in 5th place")
    expect(paid_phone.locator(".follow-finish")).to_have_text("prize €96")
    expect(winner_phone.locator(".follow-finish")).to_have_text("Winner · prize €480")
    expect(winner_phone.locator(".follow-finish")).to_have_class(re.compile(r"\bwinner\b"))


# Czech ------------------------------------------------------------------------------------------

#: Every text a page shows or says (text, titles, labels, placeholders, the title).
TEXTS = """() => {
  const out = new Set();
  const shown = (el) => el.closest(".sr-only")
    || el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    if (text && n.parentElement && shown(n.parentElement)) out.add(text);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    if (!shown(el)) continue;
    for (const a of ["title", "aria-label", "placeholder", "alt"]) {
      if (el.getAttribute(a)?.trim()) out.add(el.getAttribute(a).trim());
    }
  }
  out.add(document.title);
  return [...out];
}"""

#: Words both languages write alike: abbreviations, the switch's own names, the games' names,
#: currency codes, the search hint's example name, and Czech "data".
ALIKE = {"BB", "SB", "OK", "EN", "CS", "English", "Čeština", "Hold'em", "Omaha", "Stud", "EUR"}
ALIKE |= {"Novak", "Novák", "data"}
# The language picker's other languages, each in its own name.
ALIKE |= {"Deutsch", "Polski", "Español", "Português", "Brasil", "Français", "Italiano"}

WORD = re.compile(r"[^\W\d_]{2,}")


def texts(pages: Pages, server: ServerProcess, path: str, lang: str) -> set[str]:
    page = pages.open(server, f"{path}?lang={lang}", size="tv")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # Until the clock shows its time (or the end), a text may still be on its way.
    expect(page.locator(".clock-time").first).to_have_text(re.compile(r"\d:\d\d"))
    seen: set[str] = set(page.evaluate(TEXTS))
    if path.startswith("/wall"):
        # Every page of the rotation.
        for _ in range(len(page.locator(".page-nav li").all())):
            current = page.locator(".page-nav li.current").inner_text()
            page.keyboard.press("ArrowRight")
            expect(page.locator(".page-nav li.current")).not_to_have_text(current)
            seen |= set(page.evaluate(TEXTS))
    page.context.close()
    return seen


def english_left(
    pages: Pages, server: ServerProcess, director: Api, tid: str, path: str
) -> list[tuple[str, list[str]]]:
    """The Czech page's texts holding a word of the English page's (names of people and of
    the tournament aside)."""
    names = sorted(
        {p["name"] for p in state(director, tid)["state"]["players"].values()}
        | {state(director, tid)["state"]["name"]},
        key=len,
        reverse=True,
    )

    def words(text: str) -> list[str]:
        for name in names:
            text = text.replace(name, " ")
        return [w for w in WORD.findall(text) if w not in ALIKE]

    english = {w.lower() for x in texts(pages, server, path, "en") for w in words(x)}
    czech = texts(pages, server, path, "cs")
    return sorted(
        (x, found) for x in czech if (found := [w for w in words(x) if w.lower() in english])
    )


def test_the_czech_wall_final_table_and_player_screen_show_no_english(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    tid = "cesky"
    new_tournament(director, tid, 18, structure=PAID)
    director.ok(tid, {"type": "clock_start"})
    count_all(director, tid)
    for pid in list(occupants(director, tid, 1).values())[:2]:
        director.ok(tid, {"type": "bust", "player": pid})
    for move in state(director, tid)["plan"]["moves"]:
        if move["player"]:
            director.ok(tid, {"type": "call_move", "player": move["player"]})
    seats = occupants(director, tid, 2)
    sitter = seats[min(seats)]
    director.ok(
        tid,
        {"type": "record_ruling", "table": 2, "players": [sitter], "note": "",
         "penalties": [{"player": sitter, "kind": "sit_out", "minutes": 10}]},
    )  # fmt: skip
    director.ok(tid, {"type": "call_time", "table": 2, "seat": max(seats)})
    screens = [f"/wall/{tid}", f"/final/{tid}", f"/player/{tid}"]
    found = {f"{path} in play": english_left(pages, servers[0], director, tid, path)
             for path in screens}  # fmt: skip

    director.ok(tid, {"type": "clock_level", "step": 1})  # the colour-up break
    for path in screens:
        found[f"{path} at the break"] = english_left(pages, servers[0], director, tid, path)
    director.ok(tid, {"type": "clock_level", "step": 1})
    for move in state(director, tid)["plan"]["moves"]:
        if move["player"]:
            director.ok(tid, {"type": "confirm", "player": move["player"]})
    # Down to the money: the moment, then the final table.
    while state(director, tid)["stats"]["players_left"] > 5:
        tables = seated(director, tid)
        table = max(tables, key=lambda n: len(tables[n]))
        director.ok(tid, {"type": "bust", "player": tables[table][max(tables[table])]})
        moves = state(director, tid)["plan"]["moves"]
        if any(m["reason"] == "final" for m in moves):
            # The final redraw is a permutation of seats: everybody stands up and sits at once.
            director.ok(tid, {"type": "confirm_all", "reason": "final"})
            continue
        for move in moves:
            if move["player"]:
                director.ok(tid, {"type": "confirm", "player": move["player"]})
    wait_for(lambda: state(director, tid)["facts"]["in_the_money"] is not None)
    for path in screens:
        found[f"{path} in the money"] = english_left(pages, servers[0], director, tid, path)
    assert not any(found.values()), {k: v for k, v in found.items() if v}
