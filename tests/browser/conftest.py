"""Browser fixtures: Playwright for Python driving Chromium against real ``floor serve``
processes on a Valkey of each test module's own (the fixtures of ``tests/e2e/conftest.py``).

Chromium is ``$FLOOR_CHROMIUM``, else ``chromium`` on the PATH (``scripts/install --tests``
installs Debian's), else ``/usr/bin/chromium``. Staff pages are signed in through the context's
own request (the session cookie), as a phone would after the sign-in form.
"""

from __future__ import annotations

import os
import re
import shutil
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

# The e2e fixtures, re-exported: a Valkey per module, two server processes on it, the director.
from tests.e2e.conftest import (  # noqa: F401
    Api,
    ServerProcess,
    add_user,
    director,
    servers,
    sign_in,
    valkey,
)

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SIZES = {"phone": (390, 844), "tv": (1920, 1080), "desk": (1280, 900)}
#: The floor staff account the e2e ``servers`` fixture makes.
FLOOR = ("fred", "floor-secret")
DIRECTOR = ("boss", "director-secret")

#: Names with diacritics, as a Czech floor has them (searched without them).
NAMES = [
    "Jiří Dvořák", "Tomáš Novák", "Eva Svobodová", "Petr Černý", "Jana Nováková",
    "Lukáš Procházka", "Anna Kučerová", "Martin Veselý", "Lucie Horáková", "Pavel Němec",
    "Kateřina Marková", "Jan Pokorný", "Tereza Pospíšilová", "David Hájek", "Veronika Jelínková",
    "Michal Král", "Barbora Růžičková", "Ondřej Beneš", "Zuzana Fialová", "Filip Šimek",
    "Adéla Doležalová", "Vojtěch Zeman", "Klára Kolářová", "Matěj Navrátil",
]  # fmt: skip

#: A structure with a colour-up break (the 25s leave) and money: rebuys, add-on, re-entry.
TOOLS_STRUCTURE: dict[str, Any] = {
    "name": "browser-tools",
    "starting_stack": 10_000,
    "chips": [25, 100, 500],
    "levels": [
        {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 30},
        {"type": "break", "minutes": 30, "color_up": [25], "name": "Colour-up"},
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 30},
    ],
    "late_registration_until": 1,
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "fee": 10,
        "guarantee": 1_500,
        "round_to": 10,
        "rebuy": {"price": 100, "chips": 10_000, "until_level": 1},
        "add_on": {"price": 50, "chips": 5_000, "level": 1},
        "re_entry": {"max_per_player": 1},
        "payouts": [
            {"entries": 2, "percents": [100]},
            {"entries": 10, "percents": [50, 30, 20]},
        ],
    },
}


def chromium_path() -> str | None:
    for candidate in (
        os.environ.get("FLOOR_CHROMIUM"),
        shutil.which("chromium"),
        "/usr/bin/chromium",
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


# Package scope, not session: Playwright's sync API keeps an event loop running while it is
# open, and the async tests that run after this package need the thread's loop free.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    path = chromium_path()
    if path is None:
        # A missing browser is a broken set-up, not a reason to pass: CI installs it.
        pytest.fail("no Chromium: run scripts/install --tests or set FLOOR_CHROMIUM")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class Pages:
    """Opens pages in fresh browser contexts (each its own cookies and storage), closes them
    after the test, and fails the test on any uncaught error in a page."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def context(
        self, server: ServerProcess, *, size: str = "phone", user: tuple[str, str] | None = None
    ) -> BrowserContext:
        w, h = SIZES[size]
        ctx = self.browser.new_context(
            viewport={"width": w, "height": h},
            is_mobile=size == "phone",
            has_touch=size == "phone",
            locale="en-GB",
            base_url=server.base,
        )
        ctx.add_init_script("localStorage.setItem('floor.lang', 'en');")
        ctx.set_default_timeout(10_000)
        self.contexts.append(ctx)
        if user is not None:
            r = ctx.request.post(
                server.base + "/api/signin", data={"username": user[0], "secret": user[1]}
            )
            assert r.ok, r.text()
        return ctx

    def open(
        self,
        server: ServerProcess,
        path: str,
        *,
        size: str = "phone",
        user: tuple[str, str] | None = None,
        live: bool = True,
    ) -> Page:
        page = self.context(server, size=size, user=user).new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{path}: {e}"))
        page.goto(path)
        if live:
            expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
        return page

    def tablet(
        self,
        server: ServerProcess,
        staff: Api,
        tid: str,
        table: int,
        *,
        size: str = "desk",
        dealer: tuple[str, str] | None = None,
        path: str | None = None,
    ) -> Page:
        """A browser paired with ``table`` of ``tid`` (a code ``staff`` asked for, typed as
        the table screen types it), ``dealer`` signed in on it, at ``path`` (its table's
        page by default)."""
        r = staff.client.post("/api/pairing", json={"tournament": tid, "table": table})
        assert r.status_code == 201, r.text
        ctx = self.context(server, size=size)
        paired = ctx.request.post(server.base + "/api/signin/pair", data={"code": r.json()["code"]})
        assert paired.ok, paired.text()
        if dealer is not None:
            signed = ctx.request.post(
                server.base + "/api/table/signin",
                data={"username": dealer[0], "secret": dealer[1]},
            )
            assert signed.ok, signed.text()
        where = path or f"/table/{tid}/{table}"
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{where}: {e}"))
        page.goto(where)
        expect(page.locator(".conn").first).to_have_attribute("data-status", "live")
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    try:
        yield opened
    finally:
        opened.close()
    assert not opened.errors, "errors in the pages:\n" + "\n".join(opened.errors)


@pytest.fixture(scope="module")
def floor_staff(servers: list[ServerProcess]) -> Iterator[Api]:  # noqa: F811
    api = Api(servers[0], sign_in(servers[0], *FLOOR))
    yield api
    api.client.close()


def new_tournament(
    api: Api,
    tid: str,
    players: int,
    *,
    buttons: bool = True,
    ids: str = "P",
    **spec: object,
) -> dict[str, Any]:
    """A tournament with ``players`` named players (ids ``<ids>0``, ``<ids>1``...), seats drawn
    and (by default) a button at every table, so that balancing names the next big blind.
    Returns the state."""
    body = {"id": tid, "name": f"Test {tid}", "rules": "tda-2024", "structure": "demo-fast", **spec}
    r = api.client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    for i in range(players):
        name = NAMES[i] if i < len(NAMES) else f"Player {i}"
        api.ok(tid, {"type": "register", "name": name, "player": f"{ids}{i}"})
    api.ok(tid, {"type": "draw_seats"})
    state = api.state(tid)["state"]
    if buttons:
        for number, table in state["tables"].items():  # type: ignore[union-attr]
            seat = min(int(s) for s in table["occupants"])
            api.ok(tid, {"type": "button", "table": int(number), "seat": seat})
    result: dict[str, Any] = api.state(tid)
    return result


def occupants(api: Api, tid: str, table: int) -> dict[int, str]:
    """Seat → player id at ``table``."""
    tables = api.state(tid)["state"]["tables"]  # type: ignore[index]
    return {int(s): p for s, p in tables[str(table)]["occupants"].items()}  # type: ignore[index]


def name_of(api: Api, tid: str, player: str) -> str:
    return str(api.state(tid)["state"]["players"][player]["name"])  # type: ignore[index]


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def wait_for(
    check: Callable[[], Any], page: Page | None = None, timeout: float = 10.0, every: float = 0.1
) -> Any:
    """Poll ``check`` until it returns something true (for state on the server). With a
    ``page`` the wait lets Playwright work meanwhile (route handlers, events)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {check}")
        if page is not None:
            page.wait_for_timeout(every * 1000)
        else:
            time.sleep(every)


def open_table(page: Page, table: int) -> None:
    """On the floor phone: the Table tab, the number typed on the pad, Open."""
    page.get_by_role("button", name=re.compile(r"^Table\b")).click()
    for digit in str(table):
        page.locator(".pad-keys .key", has_text=re.compile(f"^{digit}$")).click()
    page.locator(".pad-keys .key.primary").click()
    expect(page.locator(".table-head h2")).to_contain_text(f"Table {table}")


def pick_seat(page: Page, seat: int) -> None:
    page.locator(".seats .seat-btn").nth(seat - 1).click()
    expect(page.locator(".selected-seat")).to_contain_text(f"S{seat}")
