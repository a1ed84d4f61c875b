"""The front desk in Chromium: two desks (a tablet and a phone) take players through the
form, each seat card shown and printed at once; one player at each desk pays with a ticket of
the house's ledger (the desk lists the event's tickets, the amount is the ticket's value) and
the shift counts the tickets apart from the cash; a person on the exclusion list is refused,
and everyone while the list is older than the venue allows, and while the check cannot
answer (a director at a desk lets one through with a reason); each desk closes its shift with
the cash counted and the report says it balances; the cashier pays the money finishers in
order, a payout slip printed for each, the totals paid and owed on the screen; in a bounty
tournament the cashier lists the bounties won beside the places and pays them with the prize,
the slip saying them.

The printing itself is the browser's: ``window.print`` is watched (what the receipt holds
when it is called), and the receipt is looked at under the print stylesheet.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import Page, expect

from floor.redisdb.embedded import EmbeddedServer
from floor.redisdb.exclusion import RedisExclusionList
from tests.browser.conftest import Pages, wait_for
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in

TID = "desk-night"
PRIZE = {
    "currency": "CZK",
    "buy_in": 1000,
    "fee": 100,
    "payouts": [{"entries": 3, "percents": [50, 30, 20]}],
}
DORA = ("dora", "desk-secret-1")
DIRK = ("dirk", "desk-secret-2")
LIST = b"surname,given_names,birth_date,document_number\nVylouceny,Karel,1970-03-04,\n"
#: Screenshots for a person to look at (FLOOR_DESK_SHOTS=dir), else a temporary folder.
SHOTS = os.environ.get("FLOOR_DESK_SHOTS")

#: Records each print: the receipt's text when ``window.print`` is called.
WATCH_PRINT = """
window.__prints = [];
window.print = () => { window.__prints.push(document.getElementById('desk-paper').innerText); };
"""


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    logs = tmp_path_factory.mktemp("desk-browser-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, *DORA, "desk")
    add_user(valkey.url, *DIRK, "desk")
    procs = [
        ServerProcess(valkey.url, logs / f"server-{i}.log", FLOOR_RATE_LIMIT="0") for i in range(2)
    ]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


@pytest.fixture(scope="module")
def boss(servers: list[ServerProcess]) -> Iterator[Api]:
    api = Api(servers[0], sign_in(servers[0], "boss", "director-secret"))
    r = api.client.post(
        "/api/tournaments",
        json={"id": TID, "name": "Desk Night", "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert r.status_code == 201, r.text
    api.ok(TID, {"type": "set_prize", "prize": PRIZE})
    for i in range(3):
        api.ok(TID, {"type": "register", "name": f"Early {i}", "player": f"E{i}"})
    api.ok(TID, {"type": "draw_seats"})
    assert api.client.post("/api/desk/exclusions", content=LIST).status_code == 200
    yield api
    api.client.close()


def desk_page(pages: Pages, server: ServerProcess, user: tuple[str, str], size: str) -> Page:
    ctx = pages.context(server, size=size, user=user)
    ctx.add_init_script(WATCH_PRINT)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"/desk: {e}"))
    page.goto("/desk")
    return page


def open_shift(page: Page, desk: str, float_: int) -> None:
    page.fill("#desk-name", desk)
    page.fill("#desk-float", str(float_))
    page.click("#desk-open-shift")
    expect(page.locator(".desk-shiftbar")).to_contain_text(f"Desk {desk}")


def fill_player(
    page: Page, given: str, surname: str, doc: str, born: str, method: str = "cash"
) -> None:
    page.fill("#desk-given", given)
    page.fill("#desk-surname", surname)
    page.check("#desk-consent")
    page.select_option("#desk-doc-type", "passport")
    page.fill("#desk-doc-number", doc)
    page.fill("#desk-birth", born)
    page.click(f"[data-method={method}]")


def prints(page: Page) -> list[str]:
    got: list[str] = page.evaluate("window.__prints")
    return got


def shoot(page: Page, name: str, tmp: Path) -> None:
    where = Path(SHOTS) if SHOTS else tmp
    where.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(where / f"{name}.png"), full_page=True)


def take(
    page: Page, given: str, surname: str, doc: str, born: str = "1985-06-07", method: str = "cash"
) -> None:
    fill_player(page, given, surname, doc, born, method)
    page.click("#desk-go")


def test_two_desks_take_players_refuse_by_the_list_close_their_shifts_and_the_cashier_pays(
    pages: Pages, servers: list[ServerProcess], boss: Api, valkey: EmbeddedServer, tmp_path: Path
) -> None:
    tablet = desk_page(pages, servers[0], DORA, "tv")
    phone = desk_page(pages, servers[1], DIRK, "phone")
    open_shift(tablet, "A", 2000)
    open_shift(phone, "B", 500)
    names: list[str] = []
    for i, (page, method) in enumerate(
        ((tablet, "cash"), (phone, "card"), (tablet, "card"), (phone, "cash"))
    ):
        take(page, f"Guest{i}", f"Surname{i}", f"PX{7000 + i}", method=method)
        card = page.locator("#desk-card")
        expect(card).to_contain_text(f"Guest{i} Surname{i}")
        expect(card).to_contain_text("Table")
        wait_for(
            lambda page=page, i=i: any(f"Guest{i} Surname{i}" in p for p in prints(page)), page
        )
        names.append(f"Guest{i} Surname{i}")
    shoot(tablet, "desk-take-tv", tmp_path)
    shoot(phone, "desk-take-phone", tmp_path)
    # The seat card's receipt, under the print stylesheet.
    tablet.emulate_media(media="print")
    shoot(tablet, "desk-card-print", tmp_path)
    tablet.emulate_media(media="screen")

    # A buy-in paid with a ticket at each desk: the ledger's tickets for the event listed, the
    # amount the ticket's value (not typed), the ticket used by the player seated.
    for ticket in ("TK-A", "TK-B"):
        command = {"type": "sell_ticket", "target": TID, "value": 1100, "id": ticket}
        r = boss.client.post("/api/tickets/commands", json={"command": command})
        assert r.status_code == 200, r.text
    for page, ticket, i in ((tablet, "TK-A", 5), (phone, "TK-B", 6)):
        fill_player(page, f"Ticket{i}", f"Holder{i}", f"PX{7000 + i}", "1985-06-07", "ticket")
        expect(page.locator(f"#desk-ticket option[value={ticket}]")).to_have_count(1)
        page.select_option("#desk-ticket", ticket)
        expect(page.locator("#desk-amount")).to_have_value("1100")
        expect(page.locator("#desk-amount")).to_be_disabled()
        if page is tablet:
            shoot(page, "desk-ticket-tv", tmp_path)
        else:
            shoot(page, "desk-ticket-phone", tmp_path)
        page.click("#desk-go")
        expect(page.locator("#desk-card")).to_contain_text(f"Ticket{i} Holder{i}")
        expect(page.locator("#desk-card")).to_contain_text("Table")
    ledger = boss.client.get("/api/tickets", params={"target": TID}).json()["tickets"]
    assert {t["id"]: t["status"] for t in ledger} == {"TK-A": "used", "TK-B": "used"}

    # A person on the list: refused, nothing taken, the reason on the screen.
    before = len(boss.state(TID)["state"]["players"])  # type: ignore[arg-type]
    take(tablet, "Karel", "Vyloučený", "CZ1111", born="1970-03-04")
    expect(tablet.locator("#desk-refused")).to_contain_text("exclusion list")
    # The list older than the venue allows: everyone refused until it is imported again.
    settings = {"retention_days": 30, "list_max_age_hours": 0.0001, "min_age": 18, "buy_in": 0}
    assert boss.client.put("/api/desk/settings", json=settings).status_code == 200
    phone.wait_for_timeout(600)
    take(phone, "Late", "Comer", "PX9999")
    expect(phone.locator("#desk-refused")).to_contain_text("older than the venue allows")
    shoot(phone, "desk-refused-phone", tmp_path)
    assert len(boss.state(TID)["state"]["players"]) == before  # type: ignore[arg-type]
    settings["list_max_age_hours"] = 24
    assert boss.client.put("/api/desk/settings", json=settings).status_code == 200
    # The check cannot answer (the register has no list to answer from, as a register that
    # is down answers nothing): the desk refuses; a director at a desk lets one through
    # with a reason, and the checks' log keeps it.
    with redis.Redis.from_url(valkey.url) as r:
        r.delete(*RedisExclusionList.READS)
    take(tablet, "Down", "Check", "PX8888")
    expect(tablet.locator("#desk-refused")).to_contain_text("cannot answer")
    assert len(boss.state(TID)["state"]["players"]) == before  # type: ignore[arg-type]
    director = desk_page(pages, servers[0], ("boss", "director-secret"), "tv")
    open_shift(director, "D", 0)
    fill_player(director, "Down", "Check", "PX8888", "1985-06-07")
    director.fill("#desk-override", "the register is down")
    shoot(director, "desk-override-tv", tmp_path)
    director.click("#desk-go")
    expect(director.locator("#desk-card")).to_contain_text("Down Check")
    assert len(boss.state(TID)["state"]["players"]) == before + 1  # type: ignore[arg-type]
    checks = boss.client.get("/api/desk/checks").json()
    assert (checks[0]["result"], checks[0]["reason"]) == ("overridden", "the register is down")
    assert checks[1]["result"] == "unavailable"
    assert boss.client.post("/api/desk/exclusions", content=LIST).status_code == 200

    # Each desk closes its shift: the cash expected is counted, and the drawer balances.
    expected = {"A": 2000 + 1100, "B": 500 + 1100}
    for page, desk in ((tablet, "A"), (phone, "B")):
        page.click("[data-tab=shift]")
        expect(page.locator("#desk-totals")).to_contain_text("Cash")
        # The ticket's buy-in on its own line: no cash in the drawer for it.
        ticket_row = page.locator("#desk-totals tbody tr").filter(has_text="Ticket")
        expect(ticket_row).to_contain_text("1,100")
        expect(page.locator("#desk-entries")).to_contain_text("Ticket TK-")
        shoot(page, f"desk-shift-open-{'tv' if page is tablet else 'phone'}", tmp_path)
        page.fill("#desk-counted", str(expected[desk]))
        page.click("#desk-close")
        expect(page.locator("#desk-closed")).to_contain_text("The drawer balances.")
        wait_for(lambda page=page, desk=desk: any(f"desk {desk}" in p for p in prints(page)), page)
    shoot(tablet, "desk-shift-tv", tmp_path)
    shoot(phone, "desk-shift-phone", tmp_path)

    # The tournament plays to its winner; the cashier pays the money finishers in order.
    state: Any = boss.state(TID)["state"]
    left = [p["id"] for p in state["players"].values() if p["table"] is not None]
    for pid in left[:-1]:
        boss.ok(TID, {"type": "bust", "player": pid})
    tablet.click("[data-tab=cashier]")
    rows = tablet.locator("#desk-cashier tbody tr")
    expect(rows).to_have_count(3)
    expect(tablet.locator("#desk-cashier tbody tr").first).to_contain_text("3rd")
    shoot(tablet, "desk-cashier-tv", tmp_path)
    for i in range(3):
        tablet.locator("#desk-cashier tbody tr").nth(i).get_by_role("button").click()
        expect(tablet.locator("#desk-cashier tbody tr").nth(i)).to_contain_text("Paid")
    slips = [p for p in prints(tablet) if "Payout" in p]
    assert len(slips) == 3
    expect(tablet.locator("#desk-cashier-totals")).to_contain_text("Still to pay CZK 0")
    phone.click("[data-tab=cashier]")
    expect(phone.locator("#desk-cashier-totals")).to_contain_text("Still to pay")
    shoot(phone, "desk-cashier-phone", tmp_path)
    tablet.emulate_media(media="print")
    shoot(tablet, "desk-slip-print", tmp_path)
    tablet.emulate_media(media="screen")

    # A bounty tournament: the winner's bounties beside their place, paid with the prize.
    hunt = "desk-hunt"
    r = boss.client.post(
        "/api/tournaments",
        json={"id": hunt, "name": "Hunt", "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert r.status_code == 201, r.text
    bounty = {"kind": "knockout", "part": 200, "paid_at": "cashier"}
    boss.ok(hunt, {"type": "set_prize", "prize": {**PRIZE, "bounty": bounty}})
    for i in range(1, 5):
        boss.ok(hunt, {"type": "register", "name": f"Hunter {i}", "player": f"H{i}"})
    boss.ok(hunt, {"type": "draw_seats"})
    for out in ("H4", "H3", "H2"):
        boss.ok(hunt, {"type": "bust", "player": out, "eliminators": ["H1"]})
    for page, size in ((tablet, "tv"), (phone, "phone")):
        page.reload()
        page.click("[data-tab=cashier]")
        page.select_option("#desk-cashier-tournament", hunt)
        winner = page.locator("#desk-cashier tbody tr[data-player=H1]")
        expect(winner).to_contain_text("800")
        expect(page.locator("#desk-cashier-totals")).to_contain_text("Bounties still to pay")
        shoot(page, f"desk-cashier-bounty-{size}", tmp_path)
    tablet.locator("#desk-cashier tbody tr[data-player=H1]").get_by_role("button").click()
    expect(tablet.locator("#desk-cashier tbody tr[data-player=H1]")).to_contain_text("Paid")
    wait_for(lambda: any("Bounties" in p for p in prints(tablet)), tablet)
    assert boss.state(hunt)["state"]["players"]["H1"]["bounty"]["paid"] == 800  # type: ignore[index]
    assert pages.errors == []
