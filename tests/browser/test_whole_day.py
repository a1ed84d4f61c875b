"""How issue 16 must be shown: a 60-player tournament played to its winner through the
screens alone, in a real Chromium against two real server processes.

The director creates the tournament on the console from the shipped "club-night" config
(60 entries pay 7 places), registers a pasted list and one latecomer by hand, draws the seats
and starts the clock. The floor phone reports the button at every table and then plays the
day: every bust-out is tapped on the phone (table pad, seat, "Bust-out", "Yes, busted") and
every move the plan makes is carried out on the phone ("Done" on a move, "All done" on a
breaking table). Along the way a move is called on the phone; a second floor phone that lost
the network had sent that move elsewhere and is refused once it is back, and says why; the
move is called again to the new seat, and done. A player follows their name on the player
screen: the move is not shown before the call and is shown after each call; the director
corrects that player's name in the console's player panel. On the bubble (8 left, 7 paid)
the final table is counted on the phone's count sheet (the wall's chip leaders follow) and
two players with equal stacks go out in one hand: they share 7th-8th place and its prize.
The phone busts the rest; the wall shows the winner and the standings, the start page says
finished.

The API is only read (to pick who goes out next, and for assertions); nothing is sent to it:
all 59 bust-outs and every move are tapped on the phone (the day takes about a minute). With
``FLOOR_SHOTS=1`` the day's moments are saved in docs/screens/day-*.png (docs/screens/README.md).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DIRECTOR, FLOOR, Pages, strip_accents, wait_for
from tests.browser.test_wall import small_texts
from tests.e2e.conftest import Api, ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TID = "friday"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screens"

#: Sixty names with diacritics, none a part of another (a locator by name finds one).
FIELD = [
    "Jiří Dvořák", "Tomáš Novák", "Eva Svobodová", "Petr Černý", "Jana Nováková",
    "Lukáš Procházka", "Anna Kučerová", "Martin Veselý", "Lucie Horáková", "Pavel Němec",
    "Kateřina Marková", "Jan Pokorný", "Tereza Pospíšilová", "David Hájek", "Veronika Jelínková",
    "Michal Král", "Barbora Růžičková", "Ondřej Beneš", "Zuzana Fialová", "Filip Šimek",
    "Adéla Doležalová", "Vojtěch Zeman", "Klára Kolářová", "Matěj Navrátil", "Simona Urbanová",
    "Radek Kříž", "Hana Bartošová", "Josef Vaněk", "Monika Šťastná", "Roman Sedláček",
    "Ivana Kopecká", "Karel Holub", "Petra Malá", "Aleš Blažek", "Markéta Říhová",
    "Zdeněk Kovář", "Lenka Vlčková", "Milan Štěpánek", "Alena Vacková", "Jaroslav Pešek",
    "Dana Čermáková", "Miroslav Kratochvíl", "Šárka Bílá", "Stanislav Dušek", "Jitka Machová",
    "Václav Krejčí", "Renata Holá", "Libor Skála", "Blanka Žáková", "Antonín Havlík",
    "Naděžda Slaninová", "Bohumil Rys", "Olga Tichá", "Vladimír Hrubý", "Irena Suchá",
    "Ludvík Šustr", "Marie Hanáková", "Oldřich Lukeš", "Dagmar Šebková", "Přemysl Vondra",
]  # fmt: skip
LATECOMER = "Přemysl Vondra"
#: The stacks of the eight at the final table when it is counted on the bubble; the last
#: two are equal, and those two go out in the same hand.
BUBBLE_STACKS = [182_000, 126_000, 94_500, 71_500, 52_000, 34_000, 20_000, 20_000]


def shot(page: Page, name: str) -> None:
    """A screenshot for docs/screens, only when asked for (FLOOR_SHOTS=1), once the notices
    of the last taps have gone (they cover the top of a phone)."""
    if os.environ.get("FLOOR_SHOTS") != "1":
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    expect(page.locator(".toast")).to_have_count(0, timeout=10_000)
    page.screenshot(path=str(SHOTS / f"day-{name}.png"))


def turn_to(wall: Page, label: str) -> None:
    """Turn the wall's pages by hand (the arrow keys of a keyboard or a TV remote) until the
    page ``label`` is on screen."""

    def there() -> bool:
        if wall.locator(".page-nav li.current").inner_text().startswith(label):
            return True
        wall.keyboard.press("ArrowRight")
        return False

    wait_for(there, wall)


def players_left(wall: Page) -> Any:
    return wall.locator(".wall-clock .stat", has_text="Players left").locator("dd")


# Reading the server ------------------------------------------------------------------------------


def snapshot(api: Api) -> dict[str, Any]:
    return api.state(TID)


def players(api: Api) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = snapshot(api)["state"]["players"]
    return found


def seated(api: Api) -> list[dict[str, Any]]:
    return [p for p in players(api).values() if p["table"] is not None and not p["busted"]]


def plan_moves(api: Api) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = snapshot(api)["plan"]["moves"]
    return moves


def next_out(api: Api, keep: set[str], table: int | None) -> dict[str, Any]:
    """Who goes out next: somebody at the fullest table (the phone's own table among the
    fullest), so that the tables stay balanced and the day needs few moves."""
    field = [p for p in seated(api) if p["id"] not in keep]
    size: dict[int, int] = {}
    for p in seated(api):
        size[p["table"]] = size.get(p["table"], 0) + 1
    most = max(size[p["table"]] for p in field)
    at_most = [p for p in field if size[p["table"]] == most]
    here = [p for p in at_most if p["table"] == table]
    return max(here or at_most, key=lambda p: (p["table"], p["seat"]))


# The floor phone -----------------------------------------------------------------------------


def go_to_table(phone: Page, table: int) -> None:
    """The phone's table view of ``table``, from wherever the phone is."""
    phone.get_by_role("button", name=re.compile(r"^Table\b")).click()
    head = phone.locator(".table-head h2")
    if head.count():
        if re.match(rf"Table {table}\b", head.inner_text()):
            return
        phone.get_by_role("button", name="Other table").click()
    for digit in str(table):
        phone.locator(".pad-keys .key", has_text=re.compile(f"^{digit}$")).click()
    phone.get_by_role("button", name="Open", exact=True).click()
    expect(head).to_have_text(re.compile(rf"^Table {table}\b"))


def seat_button(phone: Page, seat: int) -> Any:
    return phone.locator(".seats .seat-btn").nth(seat - 1)


def bust(phone: Page, p: dict[str, Any]) -> None:
    """Tap a player out: the table, the seat, "Bust-out", "Yes, busted"."""
    table, seat = p["table"], p["seat"]
    go_to_table(phone, table)
    if seat_button(phone, seat).get_attribute("aria-pressed") != "true":
        seat_button(phone, seat).click()
    expect(phone.locator(".selected-seat")).to_have_text(f"T{table} S{seat} · {p['name']}")
    phone.get_by_role("button", name="Bust-out").click()
    phone.get_by_role("button", name="Yes, busted").click()
    expect(seat_button(phone, seat)).to_have_class(re.compile(r"\bempty\b"))


def carry_out_moves(phone: Page, api: Api) -> int:
    """Every planned move carried out on the phone's moves tab: "All done" where a breaking
    table offers it, else "Done" on each move (a seat picked where the floor picks it)."""
    done = 0
    phone.get_by_role("button", name=re.compile(r"^Moves\b")).click()
    while moves := plan_moves(api):
        all_done = phone.get_by_role("button", name=re.compile(r"^All \d+ moves done$"))
        if all_done.count():
            all_done.first.click()
        else:
            m = moves[0]
            assert m["player"] is not None, m  # every table reported its button
            card = phone.locator(".move-card", has_text=players(api)[m["player"]]["name"])
            card.get_by_role("button", name="Done").click()
            if m["to"]["seat"] is None:
                card.locator(".picker .seat-btn:not([disabled])").first.click()
        wait_for(lambda: plan_moves(api) != moves, phone)
        done += 1
    expect(phone.locator(".move-list .move-card")).to_have_count(0)
    return done


# The day -----------------------------------------------------------------------------------------


def test_a_sixty_player_day_is_played_to_its_winner_through_the_screens(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    assert len(set(FIELD)) == 60
    assert not [a for a in FIELD for b in FIELD if a != b and a in b]

    # The console: the tournament created from its config, the field registered, the draw,
    # the clock started.
    console = pages.open(servers[0], "/director", size="tv", user=DIRECTOR, live=False)
    console.get_by_label("Id (in addresses)").fill(TID)
    console.get_by_label("Name (optional)").fill("Friday Club Night")
    console.get_by_label("Set up from").select_option(label="A tournament config")
    console.get_by_label("Tournament config").select_option("club-night")
    console.get_by_role("button", name="Create", exact=True).click()
    expect(console).to_have_url(re.compile(rf"\?t={TID}$"))
    expect(console.locator(".conn").first).to_have_attribute("data-status", "live")

    players_box = console.locator("#s-players")
    pasted = [n for n in FIELD if n != LATECOMER]
    players_box.get_by_label("Paste a list or a spreadsheet's cells").fill("\n".join(pasted))
    players_box.get_by_label("Header row").select_option(label="No header")
    players_box.get_by_role("button", name="Preview").click()
    players_box.get_by_role("button", name="Register 59 players").click()
    expect(players_box.locator("#import-progress-text")).to_have_text("59 players registered")
    players_box.get_by_label("Name", exact=True).fill(LATECOMER)
    players_box.get_by_role("button", name="Register", exact=True).click()
    expect(console.locator("#h-players")).to_contain_text("60 entries")
    players_box.get_by_role("button", name="Draw seats").click()
    expect(console.locator("#s-tables .dtable")).to_have_count(7)
    console.locator("#s-clock").get_by_role("button", name="Start").click()
    expect(console.locator("#s-clock").get_by_role("button", name="Pause")).to_be_visible()
    state = snapshot(director)["state"]
    assert state["entries"] == 60
    assert sorted(len(t["occupants"]) for t in state["tables"].values()) == [8, 8, 8, 9, 9, 9, 9]

    wall = pages.open(servers[1], f"/wall/{TID}", size="tv")
    expect(wall.locator(".tile")).to_have_count(7)
    expect(wall.locator(".wall-clock .clock-level")).to_have_text("Level 1")

    # The floor phone: the button at every table, as the dealers start.
    phone = pages.open(servers[0], f"/floor/{TID}", user=FLOOR)
    for table in range(1, 8):
        first = min(int(s) for s in state["tables"][str(table)]["occupants"])
        go_to_table(phone, table)
        seat_button(phone, first).click()
        phone.get_by_role("button", name="Button here").click()
        expect(seat_button(phone, first).locator(".dealer-btn")).to_be_visible()

    # A bust-out at a table of 8 leaves it 2 short of the tables of 9: a balance move is
    # planned, and the room is told nothing yet.
    short = min(int(n) for n, t in state["tables"].items() if len(t["occupants"]) == 8)
    bust(phone, max((p for p in seated(director) if p["table"] == short), key=lambda p: p["seat"]))
    (move,) = wait_for(lambda: plan_moves(director), phone)
    assert move["reason"] == "balance" and move["called"] == 0
    mover = players(director)[move["player"]]
    name = mover["name"]
    planned = f"T{move['to']['table']} S{move['to']['seat']}"

    player = pages.open(servers[1], f"/player/{TID}")
    player.get_by_label("Player name").fill(strip_accents(name.split()[-1]).lower())
    found = player.locator(".result-card", has_text=name)
    found.get_by_role("button", name=re.compile("^Follow")).click()
    follow = player.locator(".follow-card")
    expect(follow.locator(".result-name")).to_have_text(name)
    expect(follow.locator(".seat-big")).to_have_text(f"Table{mover['table']}Seat{mover['seat']}")

    phone.get_by_role("button", name=re.compile(r"^Moves\b")).click()
    card = phone.locator(".move-card", has_text=name)
    expect(card.locator(".badge-move-planned")).to_have_text("Planned")
    expect(follow.locator(".planned")).to_have_count(0)
    expect(player.locator(".player-alert")).to_be_hidden()
    expect(players_left(wall)).to_have_text("59 / 60")  # the wall has the bust-out...
    expect(wall.locator(".latest-list li", has_text=name)).to_have_count(0)  # ...not the move

    # A second floor phone, off the network, sends the move to another seat meanwhile.
    other_phone = pages.open(servers[0], f"/floor/{TID}", user=FLOOR)
    other_card = other_phone.locator(".move-card", has_text=name)
    expect(other_card.locator(".badge-move-planned")).to_be_visible()
    other_phone.context.set_offline(True)
    other_card.get_by_role("button", name="Other seat").click()
    elsewhere = other_card.locator(".picker .seat-btn:not([disabled])").filter(
        has_not_text=re.compile(rf"^{move['to']['seat']}$")
    )
    seat_label = elsewhere.first.get_attribute("aria-label") or ""
    other_seat = int(re.findall(r"\d+", seat_label)[-1])
    elsewhere.first.click()
    expect(other_phone.locator(".offline-bar")).to_contain_text("1 command waits")

    # The floor calls the move on the phone: the player is told, the wall shows it.
    shot(phone, "floor-planned-phone")
    card.get_by_role("button", name="Call", exact=True).click()
    expect(card.locator(".badge-move-called")).to_have_text("Called")
    expect(follow.locator(".planned")).to_contain_text(planned)
    expect(player.locator(".player-alert .alert-title")).to_have_text("Get ready to move")
    expect(wall.locator(".latest-list li.pending", has_text=name)).to_contain_text(planned)
    shot(phone, "floor-called-phone")
    shot(player, "player-alert-phone")
    player.get_by_role("button", name="OK").click()
    shot(player, "player-called-phone")
    turn_to(wall, "Seat changes")
    expect(wall.locator(".page-moves .move-row.pending", has_text=name)).to_contain_text("Go now")
    shot(wall, "wall-called-tv")

    # Back on the network, the other phone's redirect is refused, and it says why.
    other_phone.context.set_offline(False)
    called_to = f"was called to table {move['to']['table']} seat {move['to']['seat']}"
    # (The outbox tries again at its own pace: up to 15 s apart.)
    expect(other_phone.locator(".toast-error")).to_contain_text(called_to, timeout=20_000)
    other_phone.get_by_role("button", name=re.compile(r"^Sent\b")).click()
    refused = other_phone.locator(".sent-item.refused")
    expect(refused.locator(".badge")).to_have_text("Refused")
    expect(refused).to_contain_text(f"call it again to seat {other_seat} first")
    shot(other_phone, "floor-refused-phone")
    assert players(director)[mover["id"]]["table"] == mover["table"]  # nobody moved
    expect(follow.locator(".planned")).to_contain_text(planned)

    # Called again to that seat on the phone: every screen shows the new seat; then done.
    moved_to = f"T{move['to']['table']} S{other_seat}"
    card.get_by_role("button", name="Other seat").click()
    card.get_by_role("button", name=f"Table {move['to']['table']} seat {other_seat}").click()
    expect(card.locator(".badge-move-called_again")).to_have_text("Called again")
    expect(follow.locator(".planned")).to_contain_text(moved_to)
    expect(wall.locator(".latest-list li.pending", has_text=name)).to_contain_text(moved_to)
    card.get_by_role("button", name="Done").click()
    expect(player.locator(".player-alert .alert-title")).to_have_text("You have been moved")
    expect(follow.locator(".seat-big")).to_have_text(f"Table{move['to']['table']}Seat{other_seat}")
    expect(wall.locator(".latest-list li:not(.pending)", has_text=name).first).to_contain_text(
        moved_to
    )
    player.get_by_role("button", name="OK").click()
    other_phone.context.close()

    # The director corrects the followed player's name in the console's player panel, while
    # the phone has them found in its search.
    phone.get_by_role("button", name=re.compile(r"^Search\b")).click()
    phone.get_by_label("Player name").fill(strip_accents(name.split()[-1]).lower())
    phone_result = phone.locator(".result-item", has_text=name).locator(".result-name")
    expect(phone_result).to_have_text(name)
    phone.get_by_label("Player name").blur()  # the keyboard closed
    fixed = f"{name} ml."
    console.get_by_label("Find a player").fill(strip_accents(name).lower())
    console.get_by_role("button", name=f"Manage {name}").click()
    panel = console.get_by_role("dialog")
    panel.get_by_label("Name", exact=True).fill(fixed)
    panel.get_by_role("button", name="Save name").click()
    expect(panel.locator("#manage-title")).to_have_text(fixed)
    panel.get_by_role("button", name="Close").click()
    expect(follow.locator(".result-name")).to_have_text(fixed)
    # The searches were answered before the correction: their cards show the name now.
    expect(found.locator(".result-name")).to_have_text(fixed)
    expect(phone_result).to_have_text(fixed)
    winner = mover["id"]

    # The middle of the day, on the phone: out one by one down to the bubble, every move
    # carried out as the plan makes it.
    # The wall (the other server process) follows every bust-out, the followed player's
    # screen every move of theirs.
    at: int | None = None
    left = len(seated(director))
    while left > 8:
        p = next_out(director, {winner}, at)
        bust(phone, p)
        at, left = p["table"], left - 1
        expect(players_left(wall)).to_have_text(f"{left} / 60")
        if plan_moves(director):
            carry_out_moves(phone, director)
            me = players(director)[winner]
            expect(follow.locator(".seat-big")).to_have_text(f"Table{me['table']}Seat{me['seat']}")
        if left == 40:
            expect(console.locator("#h-players")).to_contain_text("60 entries · 40 left")
            turn_to(wall, "Tables")
            shot(wall, "wall-tv")
            turn_to(wall, "Seat changes")
            shot(wall, "wall-moves-tv")
            console.get_by_role("link", name="Clock", exact=True).click()
            shot(console, "console-tv")
    state = snapshot(director)["state"]
    final = state["final_table"]
    assert final is not None
    at_final = {int(s): pid for s, pid in state["tables"][str(final)]["occupants"].items()}
    assert len(at_final) == 8 and winner in at_final.values()

    # The bubble: the final table counted on the phone's sheet.
    go_to_table(phone, final)
    phone.get_by_role("button", name="Count chips").click()
    sheet = phone.get_by_role("form", name=f"Chip count · Table {final}")
    order = sorted(at_final, key=lambda s: at_final[s] != winner)  # the winner the leader
    counted = dict(zip(order, BUBBLE_STACKS, strict=True))
    for seat, stack in counted.items():
        sheet.get_by_label(re.compile(f"^Seat {seat}, ")).fill(f"{stack:,}".replace(",", " "))
    sheet.get_by_role("heading").scroll_into_view_if_needed()
    shot(phone, "floor-count-phone")
    sheet.get_by_role("button", name="Save 8 counts").click()
    expect(sheet).to_have_count(0)
    names = {pid: p["name"] for pid, p in players(director).items()}
    leaders = player.locator(".player-leaders .leaders-list li")
    expect(leaders).to_have_count(8)
    expect(leaders.first).to_contain_text(fixed)
    expect(leaders.first).to_contain_text("182,000")
    expect(player.locator(".player-leaders .leaders-meta")).to_contain_text("8 of 8 counted")
    expect(player.locator(".player-leaders .leaders-meta")).to_contain_text("average 75,000")
    turn_to(wall, "Chip counts")  # in the rotation once anybody is counted
    chips_page = wall.locator(".page-chips")
    expect(chips_page.locator(".chips-row").first.locator(".who")).to_have_text(fixed)
    expect(chips_page.locator(".chips-meta")).to_contain_text("8 of 8 counted · average 75,000")
    shot(wall, "wall-chips-tv")

    # Two go out in one hand with 20,000 each: they share 7th-8th and its prize.
    pair = [s for s, stack in counted.items() if stack == 20_000]
    phone.get_by_role("button", name="Several out this hand").click()
    for seat in pair:
        seat_button(phone, seat).click()
    same = phone.get_by_role("region", name="Out in the same hand")
    expect(same.get_by_label("Stack at the start of the hand")).to_have_count(2)
    for box in same.get_by_label("Stack at the start of the hand").all():
        expect(box).to_have_value("20000")  # from the count
    places = same.locator(".same-places li")
    expect(places).to_have_count(2)
    places.last.scroll_into_view_if_needed()
    for row in places.all():
        expect(row.locator(".same-place")).to_have_text("7th–8th")
        expect(row.locator(".same-prize")).to_contain_text("750")
        expect(row.locator(".same-prize")).to_contain_text("shared by 2")
    expect(same).to_contain_text("6 players left after this hand")
    shot(phone, "floor-same-hand-phone")
    same.get_by_role("button", name="2 out in this hand").click()
    phone.get_by_role("button", name="Yes, they are out").click()
    expect(same).to_have_count(0)
    for seat in pair:
        expect(seat_button(phone, seat)).to_have_class(re.compile(r"\bempty\b"))
    out = {at_final[s] for s in pair}
    busts = {pid: players(director)[pid]["bust"] for pid in out}
    assert {(b["place"], b["shares"]) for b in busts.values()} == {(7, 2)}
    prizes = httpx.get(f"{servers[1].base}/api/t/{TID}/prizes", timeout=10).json()
    paid = {r["player"]: r["prize"] for r in prizes["results"]}
    assert [paid[pid] for pid in out] == [750, 750]

    # The rest on the phone, the winner last.
    while len(seated(director)) > 1:
        bust(phone, next_out(director, {winner}, final))

    # The end, on every screen: the winner (by their corrected name) and the standings.
    expect(wall.locator(".wall-winner .ww-name")).to_have_text(fixed)
    expect(wall.locator(".wall-winner .ww-status")).to_have_text("Finished")
    expect(wall.locator(".wall-winner .ww-prize")).to_contain_text("9,900")
    expect(wall.locator(".wall-clock")).to_be_hidden()
    rows = wall.locator(".standings-list .standing")
    expect(rows.first.locator(".st-names")).to_have_text(fixed)
    shared = wall.locator(".standings-list .standing", has_text="7th–8th")
    expect(shared.locator(".st-names")).to_contain_text(names[next(iter(out))])
    expect(shared.locator(".badge-shared")).to_be_visible()
    assert small_texts(wall) == []
    shot(wall, "wall-finished-tv")
    banner = f"Finished — winner: {fixed}"
    expect(player.locator(".finish-banner")).to_have_text(banner)
    expect(phone.locator(".finish-banner")).to_have_text(banner)
    expect(console.locator(".finish-banner")).to_have_text(banner)
    expect(console.locator("#s-clock .clock-note")).to_have_text("Finished")
    expect(console.locator(".tournament-list li.current")).to_contain_text(banner)
    console.get_by_role("link", name="Clock", exact=True).click()
    shot(console, "console-finished-tv")
    if player.locator(".player-alert").is_visible():  # the final table's seat draw
        player.get_by_role("button", name="OK").click()
    shot(player, "player-finished-phone")
    wall_phone = pages.open(servers[1], f"/wall/{TID}", size="phone")
    expect(wall_phone.locator(".wall-winner .ww-name")).to_have_text(fixed)
    shot(wall_phone, "wall-finished-phone")
    start = pages.open(servers[1], "/", live=False)
    expect(start.locator(".t-item[data-status='finished'] .t-status")).to_have_text(banner)
    shot(start, "index-finished-phone")
    result = snapshot(director)
    assert result["stats"]["players_left"] == 1
    assert players(director)[winner]["bust"] is None
