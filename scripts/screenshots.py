#!/usr/bin/env python3
"""Screenshots of every screen at TV (1920x1080) and phone (390x844) size, into docs/screens/.

By default this starts ``floor demo`` on a free port with a throw-away data directory, waits
until the tournament has moved a little (bust-outs, moves, a table break), signs in where a
screen needs it, saves the screenshots and stops the demo. With ``--url`` it uses a running
server instead (``--user`` / ``--password`` of a director for the signed-in screens).

    .venv/bin/python scripts/screenshots.py                 # everything, from a fresh demo
    .venv/bin/python scripts/screenshots.py --only wall,floor --wait 10
    .venv/bin/python scripts/screenshots.py --url http://127.0.0.1:8200 --password ...  # a director

Besides the four screens and the start page it also shows: the wall's other pages (seat
changes, prizes and results, charts), the wall in Czech, a time call on the wall, the floor's
table pad, the floor tools (a chip race counted and its result, the pot calculator, the
rulebook), the player screen's alert after a move, and a 150-table room on one 1080p wall
page. The floor tools and the prizes page use two small tournaments of their own: one at a
colour-up break, one down to the money with a shared place.

Needs Playwright for Python and Chromium (``/usr/bin/chromium``, or ``--chromium``).

The key moments of a whole tournament day (docs/screens/day-*.png) are taken by the browser
test that plays one to its winner: ``FLOOR_SHOTS=1 pytest tests/browser/test_whole_day.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SIZES = {"tv": (1920, 1080), "phone": (390, 844)}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TID = "demo"


# The server ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def demo_server(pace: float) -> Iterator[tuple[str, str, str]]:
    """``floor demo`` on a free port in a temporary data directory: (url, user, password)."""
    port = free_port()
    floor = ROOT / ".venv" / "bin" / "floor"
    command = [str(floor) if floor.exists() else "floor", "demo", "--port", str(port)]
    command += ["--pace", str(pace)]
    with tempfile.TemporaryDirectory(prefix="floor-screens-") as data:
        env = {**os.environ, "FLOOR_DATA_DIR": data, "FLOOR_LOG_LEVEL": "warning"}
        env.pop("REDIS_URL", None)
        log = open(Path(data) / "demo.log", "w+")  # noqa: SIM115
        proc = subprocess.Popen(
            command,
            cwd=data,
            env=env,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            start_new_session=True,
        )
        try:
            password = None
            deadline = time.time() + 60
            assert proc.stdout is not None
            while time.time() < deadline and password is None:
                line = proc.stdout.readline()
                if not line:
                    if proc.poll() is not None:
                        log.seek(0)
                        raise SystemExit(f"floor demo stopped:\n{log.read()[-3000:]}")
                    continue
                m = re.search(r"sign in as\s+(\S+)\s*/\s*(\S+)", line)
                if m:
                    user, password = m.group(1), m.group(2)
            if password is None:
                raise SystemExit("floor demo did not print its sign-in in time")
            url = f"http://127.0.0.1:{port}"
            wait_http(url + "/healthz", 30)
            yield url, user, password
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
            log.close()


def wait_http(url: str, seconds: float) -> None:
    deadline = time.time() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.time() > deadline:
            raise SystemExit(f"{url} did not answer")
        time.sleep(0.3)


class Api:
    """Just enough of the HTTP API for setting scenes: a bearer token and JSON."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.token: str | None = None
        self.n = 0

    def call(
        self, method: str, path: str, body: Any = None, ok: tuple[int, ...] = (200, 201)
    ) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            if e.code in ok:
                return json.loads(e.read() or b"null")
            return {"ok": False, "status": e.code, "body": e.read().decode(errors="replace")}

    def sign_in(self, user: str, password: str) -> None:
        session = self.call("POST", "/api/signin", {"username": user, "secret": password})
        if not session or "token" not in session:
            raise SystemExit(f"could not sign in as {user}: {session}")
        self.token = session["token"]

    def command(self, tid: str, command: dict[str, Any]) -> Any:
        self.n += 1
        return self.call(
            "POST",
            f"/api/t/{tid}/commands",
            {"id": f"screens-{int(time.time())}-{self.n}", "command": command},
        )

    def snapshot(self, tid: str) -> Any:
        return self.call("GET", f"/api/t/{tid}")


def wait_for_movement(api: Api, tid: str, seconds: float) -> None:
    """Until some players are out and seats have changed (or the time is up)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        snap = api.snapshot(tid)
        state = snap.get("state", {}) if isinstance(snap, dict) else {}
        broken = sum(1 for t in state.get("tables", {}).values() if t["status"] != "open")
        busted = state.get("busted", 0)
        if busted >= 25 and broken >= 1 and time.time() > deadline - seconds + 10:
            return
        time.sleep(1)


def big_room(api: Api, tables: int = 150) -> str:
    """A second tournament with `tables` full tables (9-handed), a few breaking, some halted."""
    tid = "room150"
    existing = api.snapshot(tid)
    if isinstance(existing, dict) and existing.get("state"):
        return tid
    api.call(
        "POST", "/api/tournaments", {"id": tid, "name": "Big room (150 tables)", "config": "demo"}
    )
    players = tables * 9
    names = [f"Player {i:04d}" for i in range(1, players + 1)]
    for name in names:
        api.command(tid, {"type": "register", "name": name})
    api.command(tid, {"type": "draw_seats"})
    snap = api.snapshot(tid)
    # Buttons everywhere, then some bust-outs: short tables halt, the plan moves players.
    for n, table in snap["state"]["tables"].items():
        seat = min(int(s) for s in table["occupants"])
        api.command(tid, {"type": "button", "table": int(n), "seat": seat})
    for n in (7, 7, 7, 7, 31, 31, 31, 31, 88, 88, 88, 88, 120, 120):
        snap = api.snapshot(tid)
        occ = snap["state"]["tables"][str(n)]["occupants"]
        if occ:
            api.command(tid, {"type": "bust", "player": occ[sorted(occ, key=int)[-1]]})
    api.command(tid, {"type": "break_table", "table": 150})
    api.command(tid, {"type": "clock_start"})
    return tid


#: Czech names, so that the screens show diacritics where players will see them.
CZECH = [
    "Jiří Dvořák", "Tomáš Novák", "Eva Svobodová", "Petr Černý", "Jana Nováková",
    "Lukáš Procházka", "Anna Kučerová", "Martin Veselý", "Lucie Horáková", "Pavel Němec",
    "Kateřina Marková", "Jan Pokorný", "Tereza Pospíšilová", "David Hájek", "Veronika Jelínková",
    "Michal Král", "Barbora Růžičková", "Ondřej Beneš", "Zuzana Fialová", "Filip Šimek",
    "Adéla Doležalová", "Vojtěch Zeman", "Klára Kolářová", "Matěj Navrátil", "Simona Urbanová",
    "Radek Kříž", "Hana Bartošová",
]  # fmt: skip

#: A club night with money: rebuys until level 2, an add-on, one re-entry, a colour-up break.
CLUB_STRUCTURE: dict[str, Any] = {
    "name": "club-tools",
    "starting_stack": 10_000,
    "chips": [25, 100, 500, 1_000],
    "levels": [
        {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
        {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 20},
        {"type": "break", "name": "Colour-up", "minutes": 15, "color_up": [25]},
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
    ],
    "late_registration_until": 2,
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "fee": 10,
        "guarantee": 2_500,
        "round_to": 10,
        "rebuy": {"price": 100, "chips": 10_000, "until_level": 2},
        "add_on": {"price": 50, "chips": 5_000, "level": 2},
        "re_entry": {"max_per_player": 1},
        "payouts": [
            {"entries": 2, "percents": [100]},
            {"entries": 10, "percents": [50, 30, 20]},
            {"entries": 16, "percents": [40, 25, 15, 12, 8]},
        ],
    },
}


def club_room(api: Api, tid: str, players: int) -> dict[str, Any]:
    """A small tournament of `players` Czech names with buttons at every table."""
    existing = api.snapshot(tid)
    if isinstance(existing, dict) and existing.get("state"):
        return existing
    api.call(
        "POST",
        "/api/tournaments",
        {"id": tid, "name": "Club night", "rules": "tda-2024", "structure": CLUB_STRUCTURE},
    )
    for i in range(players):
        api.command(tid, {"type": "register", "name": CZECH[i % len(CZECH)], "player": f"C{i + 1}"})
    api.command(tid, {"type": "draw_seats"})
    snap = api.snapshot(tid)
    for n, table in snap["state"]["tables"].items():
        seat = min(int(s) for s in table["occupants"])
        api.command(tid, {"type": "button", "table": int(n), "seat": seat})
    api.command(tid, {"type": "clock_start"})
    return api.snapshot(tid)


def tools_room(api: Api) -> str:
    """The club night at its colour-up break, with a rebuy and an add-on sold."""
    tid = "club"
    club_room(api, tid, 18)
    api.command(tid, {"type": "rebuy", "player": "C2"})
    api.command(tid, {"type": "clock_level", "to": 2})
    api.command(tid, {"type": "add_on", "player": "C4"})
    return tid


def results_room(api: Api) -> str:
    """A club night down to the money: two out in the same hand share 5th-6th."""
    tid = "results"
    snap = club_room(api, tid, 20)
    if snap["state"]["busted"]:
        return tid
    order = [f"C{i}" for i in (20, 3, 17, 8, 11, 14, 5, 19, 2, 9, 16, 12, 7, 1)]
    for pid in order:
        api.command(tid, {"type": "bust", "player": pid})
    api.command(
        tid,
        {
            "type": "bust_same_hand",
            "players": [{"player": "C6", "stack": 21_000}, {"player": "C13", "stack": 21_000}],
        },
    )
    return tid


# The browser --------------------------------------------------------------------------------------


def shoot(args: argparse.Namespace, base: str, user: str, password: str, api: Api) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None
    saved: list[Path] = []
    errors: list[str] = []

    def want(name: str) -> bool:
        return only is None or name.split("-")[0] in only or name in only

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)

        def context(size: str, signed_in: bool, lang: str = "en") -> Any:
            w, h = SIZES[size]
            ctx = browser.new_context(
                viewport={"width": w, "height": h},
                device_scale_factor=1,
                is_mobile=size == "phone",
                has_touch=size == "phone",
                locale="cs-CZ" if lang == "cs" else "en-GB",
            )
            ctx.add_init_script(f"localStorage.setItem('floor.lang', '{lang}');")
            if signed_in:
                r = ctx.request.post(
                    base + "/api/signin", data={"username": user, "secret": password}
                )
                if not r.ok:
                    raise SystemExit(f"sign-in failed: {r.status} {r.text()}")
            return ctx

        def save(page: Any, name: str) -> None:
            path = out / f"{name}.png"
            page.screenshot(path=str(path))
            saved.append(path)
            print(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

        def open_page(ctx: Any, path: str, settle: float = 2.5) -> Any:
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(f"{path}: {e}"))
            page.on(
                "console",
                lambda m: (
                    errors.append(f"{path}: console {m.type}: {m.text}")
                    if m.type == "error"
                    else None
                ),
            )
            page.goto(base + path)
            page.wait_for_timeout(settle * 1000)
            return page

        # A quiet second tournament (nobody carries out its plan): halted tables, a table
        # breaking and moves waiting, as the floor phone sees a busy moment.
        big = None
        if args.big and (want("wall-150-tv") or want("floor-phone")):
            print("  (setting up a 150-table room...)")
            big = big_room(api)
        floor_tid = big or TID

        for size in SIZES:
            if want(f"index-{size}"):
                ctx = context(size, False)
                save(open_page(ctx, "/"), f"index-{size}")
                ctx.close()
            if want(f"wall-{size}"):
                ctx = context(size, False)
                save(open_page(ctx, f"/wall/{TID}?pages=tables"), f"wall-{size}")
                if size == "tv":
                    save(open_page(ctx, f"/wall/{TID}?pages=moves"), "wall-moves-tv")
                    save(open_page(ctx, f"/wall/{TID}?pages=charts"), "wall-charts-tv")
                ctx.close()
                if size == "tv":
                    ctx = context(size, False, "cs")
                    save(open_page(ctx, f"/wall/{TID}?pages=moves"), "wall-cs-tv")
                    ctx.close()
            if want(f"floor-{size}"):
                ctx = context(size, True)
                page = open_page(ctx, f"/floor/{floor_tid}", 3)
                save(page, f"floor-{size}")
                if size == "phone":
                    # The table pad: a table typed in, a seat picked.
                    page.get_by_role("button", name=re.compile("^(Table|Stůl)$")).click()
                    snap = api.snapshot(floor_tid)
                    table = next(
                        t for t in snap["state"]["tables"].values() if t["status"] == "open"
                    )
                    for digit in str(table["number"]):
                        page.locator(".pad-keys .key", has_text=re.compile(f"^{digit}$")).click()
                    page.locator(".pad-keys .key.primary").click()
                    page.locator(".seats .seat-btn:not(.empty)").first.click()
                    page.wait_for_timeout(500)
                    save(page, "floor-table-phone")
                    # Large text (the reader's own setting, emulated): everything reflows.
                    page.add_style_tag(content="html { font-size: 150% !important; }")
                    page.get_by_role("button", name=re.compile("^(Moves|Přesuny)")).click()
                    page.wait_for_timeout(500)
                    save(page, "floor-large-text-phone")
                ctx.close()
                if size == "phone":
                    # In Czech, the first planned move opened to show the rule it follows.
                    ctx = context(size, True, "cs")
                    page = open_page(ctx, f"/floor/{floor_tid}", 3)
                    if page.locator(".move-main").count():
                        page.locator(".move-main").first.click()
                        page.wait_for_timeout(300)
                    save(page, "floor-cs-phone")
                    ctx.close()
                ctx = context(size, False)
                save(open_page(ctx, f"/floor/{TID}"), f"floor-signin-{size}")
                ctx.close()
            if want(f"player-{size}"):
                ctx = context(size, False)
                page = open_page(ctx, f"/player/{TID}")
                snap = api.snapshot(TID)
                seated = [pl for pl in snap["state"]["players"].values() if pl["table"] is not None]

                # Typed without diacritics, as a player would on a phone.
                # A surname with diacritics ("Novák"), typed without them ("novak").
                def surname(pl: dict[str, Any]) -> str:
                    return str(pl["name"].split()[-1])

                name = next((pl for pl in seated if surname(pl) != strip(surname(pl))), seated[0])
                page.fill("#player-search", strip(surname(name)).lower())
                page.wait_for_timeout(1500)
                save(page, f"player-{size}")
                if size == "phone":
                    page.locator(".result-card button").first.click()
                    page.wait_for_timeout(300)
                    # The player follows their name; the floor corrects their seat (a real
                    # players_moved event), and the alert comes up.
                    followed = page.evaluate(
                        "() => JSON.parse(localStorage.getItem('floor.follow.demo')).id"
                    )
                    move_somewhere(api, TID, followed)
                    page.wait_for_timeout(2000)
                    save(page, "player-alert-phone")
                ctx.close()
            if want(f"director-{size}"):
                ctx = context(size, True)
                page = open_page(ctx, f"/director?t={TID}", 3)
                save(page, f"director-{size}")
                if size == "tv":
                    page.set_viewport_size({"width": 1920, "height": 3000})
                    page.wait_for_timeout(800)
                    save(page, "director-full-tv")
                ctx.close()

        if want("wall-timecall-tv"):
            snap = api.snapshot(TID)
            table = next(t for t in snap["state"]["tables"].values() if t["status"] == "open")
            seat = int(sorted(table["occupants"], key=int)[0])
            api.command(TID, {"type": "call_time", "table": table["number"], "seat": seat})
            ctx = context("tv", False)
            page = open_page(ctx, f"/wall/{TID}?pages=tables", 3)
            save(page, "wall-timecall-tv")
            ctx.close()
            api.command(
                TID,
                {
                    "type": "end_time_call",
                    "table": table["number"],
                    "seat": seat,
                    "outcome": "cancelled",
                },
            )

        if want("wall-prizes-tv") or want("wall-prizes-phone"):
            results = results_room(api)
            for size in SIZES:
                if want(f"wall-prizes-{size}"):
                    ctx = context(size, False)
                    page = open_page(ctx, f"/wall/{results}?pages=prizes", 3)
                    if size == "phone":  # one column: the prizes are under the clock
                        page.evaluate("document.querySelector('.page-prizes').scrollIntoView()")
                        page.wait_for_timeout(300)
                    save(page, f"wall-prizes-{size}")
                    ctx.close()

        if any(want(f"floor-{v}-{size}") for v in ("race", "pots", "rules") for size in SIZES):
            club = tools_room(api)
            for size in ("phone", "tv"):  # the phone counts the race, the TV shows it
                ctx = context(size, True)
                page = open_page(ctx, f"/floor/{club}", 3)
                page.get_by_role("button", name=re.compile("^Tools")).click()
                # The chip race: the leaving 25s counted at table 1, then the race as dealt.
                page.get_by_role("button", name="Chip race", exact=True).click()
                page.wait_for_timeout(300)
                raced = page.get_by_role("button", name="Table 1: raced")
                if raced.count():
                    raced.click()
                else:
                    page.get_by_role("button", name="Table 1", exact=True).click()
                    for count in ("7", "3", "0", "13", "2", "6", "9", "1", "5"):
                        for digit in count:
                            page.locator(
                                ".race-pad-keys .key", has_text=re.compile(f"^{digit}$")
                            ).click()
                        page.get_by_role("button", name="Next seat").click()
                    page.locator(".race-row").nth(2).locator(".race-count").click()
                    page.wait_for_timeout(300)
                    if size == "phone" and want("floor-race-count-phone"):
                        save(page, "floor-race-count-phone")
                    page.get_by_role("button", name="Race this table").click()
                    page.get_by_role("button", name="Yes, race").click()
                page.locator(".race-result-box .race-result").wait_for()
                page.wait_for_timeout(2800)  # the notice of the command sent has gone
                save(page, f"floor-race-{size}")
                # The pot calculator: a three-way all-in with two side pots and an odd chip.
                page.get_by_role("button", name="Pots", exact=True).click()
                page.get_by_label("Smallest chip in play").fill("25")
                page.get_by_label("Button seat").fill("4")
                hand = {
                    1: ("1000", "1"),
                    3: ("2525", "2"),
                    4: ("4000", "3"),
                    6: ("4000", "2"),
                    8: ("300", ""),
                }
                for seat, (amount, rank) in hand.items():
                    page.get_by_label(f"Seat {seat}: chips put in").fill(amount)
                    if rank:
                        page.get_by_label(f"Seat {seat}: rank of the hand (1 = best)").fill(rank)
                page.get_by_label("Seat 8 folded").check()
                page.get_by_role("button", name="Split the pot").click()
                page.locator(".pot-list").wait_for()
                page.wait_for_timeout(300)
                if size == "phone":
                    page.evaluate("window.scrollTo(0, 0)")
                    page.wait_for_timeout(500)
                    save(page, "floor-pots-phone")
                    page.evaluate("document.querySelector('.pots-result').scrollIntoView()")
                    page.wait_for_timeout(500)
                    save(page, "floor-pots-result-phone")
                else:
                    save(page, "floor-pots-tv")
                # The rulebook: searched without diacritics, one rule opened.
                page.get_by_role("button", name="Rulebook", exact=True).click()
                page.get_by_label("Search the rules").fill("zetony")
                page.locator(".rule-item").first.wait_for()
                page.wait_for_timeout(400)
                save(page, f"floor-rules-{size}")
                page.locator(".rule-item").first.click()
                page.locator(".rule-text").wait_for()
                page.wait_for_timeout(300)
                save(page, f"floor-rule-{size}")
                ctx.close()

        if big and want("wall-150-tv"):
            ctx = context("tv", False)
            page = open_page(ctx, f"/wall/{big}?pages=tables", 3)
            save(page, "wall-150-tv")
            ctx.close()

        browser.close()
    for e in errors:
        print("  page problem:", e, file=sys.stderr)
    return saved


def move_somewhere(api: Api, tid: str, player: str) -> None:
    """Move a player to a free seat at another table (a seat correction by the floor)."""
    snap = api.snapshot(tid)
    me = snap["state"]["players"][player]
    planned = {(m["to"]["table"], m["to"]["seat"]) for m in snap["plan"]["moves"]}
    for table in snap["state"]["tables"].values():
        if table["status"] != "open" or table["number"] == me["table"]:
            continue
        for seat in range(1, table["seats"] + 1):
            if str(seat) not in table["occupants"] and (table["number"], seat) not in planned:
                api.command(
                    tid,
                    {
                        "type": "correct_seat",
                        "player": player,
                        "table": table["number"],
                        "seat": seat,
                    },
                )
                return


def strip(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="a running server (default: start floor demo)")
    parser.add_argument("--user", default="director")
    parser.add_argument("--password", help="the director's password (with --url)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "screens"))
    parser.add_argument("--wait", type=float, default=40, help="seconds to let the demo play first")
    parser.add_argument(
        "--pace", type=float, default=0.5, help="the demo floor's pace (lower: faster)"
    )
    parser.add_argument("--only", help="comma-separated screens: index,wall,floor,player,director")
    parser.add_argument(
        "--big",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also set up a 150-table tournament for the wall (default: only with a fresh demo)",
    )
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()

    if args.url:
        if not args.password:
            parser.error("--url needs --password (of a director)")
        api = Api(args.url.rstrip("/"))
        api.sign_in(args.user, args.password)
        args.big = bool(args.big)
        wait_for_movement(api, TID, args.wait)
        shoot(args, args.url.rstrip("/"), args.user, args.password, api)
        return 0
    with demo_server(args.pace) as (url, user, password):
        print(f"floor demo at {url}; letting it play for up to {args.wait:.0f} s")
        api = Api(url)
        api.sign_in(user, password)
        args.big = args.big is None or args.big
        wait_for_movement(api, TID, args.wait)
        shoot(args, url, user, password, api)
    return 0


if __name__ == "__main__":
    sys.exit(main())
