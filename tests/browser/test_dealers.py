"""The dealer room's day in real Chromium against two real servers: 6 tables, 9 dealers,
pushes every 20 seconds (the room's time scale, as the house sets it), one dealer marked
sick by the coordinator on /dealers, two tables broken by the floor's plan. At every push
the coordinator's screen, every table screen's dealer strip and one dealer's phone (/dealer,
signed in with the code its table screen gave) show what the server's plan has: who deals
where, the next push and who comes then, the phone's dealer dealing, pushed, on break. The
dealers sign in at table 1 through its screen as they arrive, and the downs sheet on
/dealers counts those downs and adds up.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from floor.redisdb.embedded import EmbeddedServer
from tests.browser.conftest import Pages
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in

TID = "day"
PUSH = 20
SETTINGS = {
    "push_every": PUSH,
    "break_every": 2,
    "break_length": 20,
    "min_rest": 12,
    "when_short": "shorten_breaks",
    "early_outs": "list",
    "reserve": 1,
    "signin_grace": 600,
    "zone": "UTC",
}
DEALERS = ["ada", "ben", "cyd", "dot", "eli", "fay", "gus", "hal", "ivy"]
PIN = {d: f"{5000 + i}" for i, d in enumerate(DEALERS)}
COORDINATOR = ("cora", "coordinator-secret")


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    logs = tmp_path_factory.mktemp("dealers-browser-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, *COORDINATOR, "coordinator")
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
def coordinator(servers: list[ServerProcess]) -> Iterator[Api]:
    api = Api(servers[1], sign_in(servers[1], *COORDINATOR))
    yield api
    api.client.close()


def plan(api: Api) -> dict[str, Any]:
    r = api.client.get("/api/dealers")
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()
    return got


def send(api: Api, command: dict[str, Any]) -> None:
    r = api.client.post("/api/dealers/commands", json={"command": command})
    assert r.status_code == 200, r.text


def agree(
    name: str, shown: Callable[[], Any], planned: Callable[[], Any], timeout: float = 15.0
) -> Any:
    """Poll until the screen shows what the server's plan has (both read afresh each time:
    a break may end between two pushes); the plan's value."""
    end = time.monotonic() + timeout
    while True:
        want, got = planned(), shown()
        if want == got:
            return want
        if time.monotonic() > end:
            raise AssertionError(f"{name}: the screen shows {got!r}, the plan has {want!r}")
        time.sleep(0.25)


# What each screen shows, read from its page -----------------------------------------------

ROOM_JS = """() => ({
  tables: [...document.querySelectorAll("li.room-table")].map((li) => {
    const push = li.querySelector(".room-push");
    return [li.dataset.key, li.querySelector(".room-table-dealer").dataset.dealer || null,
      push ? Number(push.dataset.due) : null, push ? push.dataset.coming || null : null];
  }),
  dealers: Object.fromEntries([...document.querySelectorAll("li.room-dealer")]
    .map((li) => [li.dataset.dealer, li.dataset.status])),
})"""

STRIP_JS = """() => {
  const strip = document.querySelector("section.table-dealers");
  if (!strip || strip.hidden) return null;
  const now = strip.querySelector(".dealer-now");
  const push = strip.querySelector(".dealer-push");
  return [now ? now.dataset.dealer || null : null, push ? Number(push.dataset.due) : null,
    push ? push.dataset.coming || null : null];
}"""

PHONE_JS = """() => {
  const now = document.querySelector(".own-now");
  if (!now) return null;
  const next = document.querySelector(".own-next");
  return [now.dataset.status, now.textContent, next ? next.dataset.to || null : null];
}"""


def room_shown(page: Page) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(ROOM_JS)
    return {"tables": [tuple(t) for t in got["tables"]], "dealers": got["dealers"]}


def room_planned(view: dict[str, Any]) -> dict[str, Any]:
    return {
        "tables": [(t["key"], t["dealer"], t["due"], t["coming"]) for t in view["tables"]],
        "dealers": {d["id"]: d["status"] for d in view["dealers"]},
    }


def strip_planned(view: dict[str, Any], table: int) -> tuple[Any, ...] | None:
    t = next((t for t in view["tables"] if t["key"] == f"{TID}/{table}"), None)
    return None if t is None else (t["dealer"], t["due"], t["coming"])


def phone_planned(view: dict[str, Any], did: str) -> tuple[Any, ...]:
    d = next(d for d in view["dealers"] if d["id"] == did)
    words = {"pool": "in the pool", "break": "on break", "home": "gone home"}
    text = f"Table {d['table']}" if d["status"] == "dealing" else words.get(d["status"])
    return (d["status"], text, d["next"]["to"] if d["next"] else None)


def phone_shown(page: Page) -> tuple[Any, ...] | None:
    got = page.evaluate(PHONE_JS)
    return None if got is None else tuple(got)


# The floor's side --------------------------------------------------------------------------


def break_a_table(director: Api) -> int:
    """Bust players from the fullest tables until the plan breaks one, and carry its moves
    out; the table broken."""

    def tables() -> dict[str, Any]:
        got: dict[str, Any] = director.state(TID)["state"]["tables"]  # type: ignore[index]
        return got

    before = {n for n, t in tables().items() if t["status"] != "broken"}
    for _ in range(20):
        now = tables()
        if any(t["status"] == "breaking" for t in now.values()):
            director.ok(TID, {"type": "confirm_all", "reason": "break"})
        left = {n for n, t in tables().items() if t["status"] != "broken"}
        if len(left) < len(before):
            (gone,) = before - left
            return int(gone)
        fullest = max(
            (t for t in now.values() if t["status"] == "open"), key=lambda t: len(t["occupants"])
        )
        player = next(iter(fullest["occupants"].values()))
        director.ok(TID, {"type": "bust", "player": player})
    raise AssertionError("no table broke")


class TableOne:
    """Table 1's screen: the dealers the rotation sends sign in on it as they arrive."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.signed: list[str] = []

    def sign_in(self, did: str) -> None:
        page = self.page
        if self.signed:
            page.get_by_role("button", name="Dealer out").click()
            expect(page.get_by_role("button", name="Dealer sign-in")).to_be_visible()
        page.get_by_role("button", name="Dealer sign-in").click()
        page.locator("#dealer-user").fill(did)
        page.locator("#dealer-pin").fill(PIN[did])
        page.get_by_role("button", name="Sign in at this table").click()
        expect(page.get_by_role("button", name="Dealer out")).to_be_visible()
        self.signed.append(did)

    def sign_out(self) -> None:
        self.page.get_by_role("button", name="Dealer out").click()
        expect(self.page.get_by_role("button", name="Dealer sign-in")).to_be_visible()


def test_a_day_of_the_room_as_the_coordinator_the_tables_and_a_dealer_see_it(
    pages: Pages, servers: list[ServerProcess], coordinator: Api
) -> None:
    director = Api(servers[0], sign_in(servers[0], "boss", "director-secret"))
    room_page = pages.open(servers[1], "/dealers", size="tv", user=COORDINATOR, live=False)
    send(coordinator, {"type": "set_settings", "settings": SETTINGS})
    director.create(TID, 48)  # six tables of eight
    # No dealer yet: six tables waiting, none with a push.
    expect(room_page.locator("li.room-table.no-dealer")).to_have_count(6, timeout=15_000)
    expect(room_page.locator("li.room-table .room-push")).to_have_count(0)

    for did in DEALERS:
        r = coordinator.client.post(
            "/api/dealers/people",
            json={"username": did, "name": did.title(), "pin": PIN[did]},
        )
        assert r.status_code == 201, r.text
        send(coordinator, {"type": "clock_in", "dealer": did})
    agree(
        "every table seated",
        lambda: [bool(t["dealer"]) for t in plan(coordinator)["tables"]],
        lambda: [True] * 6,
    )
    view = plan(coordinator)
    screens = {n: pages.tablet(servers[n % 2], director, TID, n, size="desk") for n in range(1, 7)}
    table_one = TableOne(screens[1])

    # The dealer at table 1 signs in there and takes its code to their phone.
    first = next(t["dealer"] for t in view["tables"] if t["key"] == f"{TID}/1")
    table_one.sign_in(first)
    screens[1].locator("[data-action=phone]").click()
    shown = screens[1].locator(".phone-code").inner_text()
    code = re.sub(r"\D", "", shown.split(":")[1])[:9]
    phone = pages.open(servers[0], "/dealer", size="phone", live=False)
    phone.locator("#phone-code").fill(code)
    phone.get_by_role("button", name="Show my rotation").click()
    # The others go home early in this order, the phone's dealer never.
    early = [d for d in DEALERS if d != first]
    send(coordinator, {"type": "set_early_list", "dealers": early})

    sick: str | None = None
    broken: list[int] = []
    phone_saw: list[tuple[Any, ...]] = []
    tables_seen: list[int] = []
    for round_ in range(7):
        view = plan(coordinator)
        # The plan itself: nobody at two tables, the sick dealer at none, no broken table.
        dealing = [t["dealer"] for t in view["tables"] if t["dealer"]]
        assert len(dealing) == len(set(dealing)), view["tables"]
        assert sick is None or sick not in dealing
        assert not {f"{TID}/{n}" for n in broken} & {t["key"] for t in view["tables"]}

        agree(f"/dealers, round {round_}", lambda: room_shown(room_page),
              lambda: room_planned(plan(coordinator)))  # fmt: skip
        for n, page in screens.items():
            agree(
                f"table {n}'s strip, round {round_}",
                lambda page=page: page.evaluate(STRIP_JS),  # type: ignore[misc]
                lambda n=n: (  # type: ignore[misc]
                    None if (s := strip_planned(plan(coordinator), n)) is None else list(s)
                ),
            )
        seen = agree(
            f"the phone of {first}, round {round_}",
            lambda: phone_shown(phone),
            lambda: phone_planned(plan(coordinator), first),
        )
        phone_saw.append(seen)
        if seen[0] == "dealing":
            tables_seen.append(int(seen[1].split()[-1]))

        # Whoever the rotation sent to table 1 signs in there (after the first, already in).
        at_one = strip_planned(plan(coordinator), 1)
        if round_ and at_one is not None and at_one[0] and at_one[0] != table_one.signed[-1]:
            table_one.sign_in(at_one[0])

        if round_ == 1:
            # The coordinator marks a dealer at a table sick: replaced from the pool at once.
            sick = next(
                t["dealer"]
                for t in plan(coordinator)["tables"]
                if t["dealer"] not in (first, None) and t["key"] != f"{TID}/1"
            )
            where = next(t["key"] for t in plan(coordinator)["tables"] if t["dealer"] == sick)
            row = room_page.locator(f"li.room-dealer[data-dealer={sick}]")
            row.locator("select").first.select_option("sick")
            expect(room_page.locator(f"li.room-dealer[data-dealer={sick}]")).to_have_class(
                re.compile("is-marked")
            )
            card = room_page.locator(f"li.room-table[data-key='{where}']")
            expect(card.locator(".room-table-dealer")).not_to_have_attribute("data-dealer", sick)
            # Replaced from the pool, or (nobody free: the pool is on break) the table waits
            # for the first back, with no push shown, as the plan has it.
            now = next(t for t in plan(coordinator)["tables"] if t["key"] == where)
            if now["dealer"] is None:
                assert now["waiting"] is not None and now["due"] is None, now
                expect(card.locator(".badge-waiting")).to_be_visible()
                expect(card.locator(".room-push")).to_have_count(0)
        if round_ in (2, 4):
            gone = break_a_table(director)
            broken.append(gone)
            expect(room_page.locator(f"li.room-table[data-key='{TID}/{gone}']")).to_have_count(
                0, timeout=15_000
            )
            expect(screens[gone].locator("section.table-dealers")).to_be_hidden(timeout=15_000)
        # The next push: every table's due passed and written.
        view = plan(coordinator)
        due = min((t["due"] for t in view["tables"] if t["due"] is not None), default=None)
        assert due is not None, view["tables"]
        agree(
            f"the push after round {round_}",
            lambda due=due: all(  # type: ignore[misc]
                t["due"] is None or t["due"] > due for t in plan(coordinator)["tables"]
            ),
            lambda: True,
            timeout=PUSH + 10,
        )

    # The phone showed its dealer dealing at more than one table, and on break.
    assert len(set(tables_seen)) >= 2, phone_saw
    assert any(s[0] == "break" for s in phone_saw), phone_saw
    # Early outs in the house's order: those going home (at their next push) or gone are the
    # first on its list, and go; the coordinator's screen says so.
    view = plan(coordinator)
    going = [d["id"] for d in view["dealers"] if d["status"] == "home" or d["leaving"]]
    listed = [d for d in early if d != sick]
    assert going and going == listed[: len(going)], (going, listed)
    agree(
        "the early outs gone home",
        lambda: [d["id"] for d in plan(coordinator)["dealers"] if d["status"] == "home"],
        lambda: going,
        timeout=PUSH + 10,
    )
    for did in going:
        expect(room_page.locator(f"li.room-dealer[data-dealer={did}]")).to_have_attribute(
            "data-status", "home"
        )

    # The downs: one per sign-in at table 1, each ended; the sheet on /dealers adds up.
    table_one.sign_out()
    sheet = coordinator.client.get("/api/dealers/downs").json()
    rows = [r for r in sheet["rows"] if r["table"] == 1]
    assert [r["dealer"] for r in sorted(rows, key=lambda r: r["start"])] == table_one.signed
    assert all(r["end"] is not None and r["seconds"] > 0 for r in rows)
    counted = Counter(table_one.signed)
    for total in sheet["totals"]:
        mine = [r for r in sheet["rows"] if r["dealer"] == total["dealer"]]
        assert total["downs"] == len(mine) == counted[total["dealer"]]
        assert total["seconds"] == pytest.approx(sum(r["seconds"] for r in mine))
    room_page.locator("nav.room-tabs [data-tab=downs]").click()
    for did, n in counted.items():
        expect(room_page.locator(f".downs-totals tr[data-dealer={did}] td").first).to_have_text(
            str(n)
        )
        expect(room_page.locator(f".downs-sheet[data-dealer={did}] tbody tr")).to_have_count(n)
    director.client.close()
