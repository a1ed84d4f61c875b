"""Benchmark: printing from the browser (print stylesheets) against PDFs drawn by a library.

The issue that asked for printing said "print stylesheets from the browser, or PDFs from a
well-kept library: measure which serves better". This measures it.

A `floor serve` process on the embedded Valkey holds a 1,300-player tournament (Czech names
with Č, Š, ř; registered as one pasted list, then seats drawn: 145 tables of nine seats).
The list takes two ``register_many`` commands, not one: the engine takes at most 1,000
entries a command and the server a body of 64 KiB (``FLOOR_MAX_BODY``), so the bench splits
it as the console does (``web/js/import.js``). The same printables are made two ways, in the
same run, from the same ``GET /api/t/{id}/paper`` read:

- the browser path, the product's: headless Chromium (Playwright, ``/usr/bin/chromium``,
  ``--no-sandbox``) opens ``/print/{id}?what=...`` signed in as the director, a fresh page
  each run; the page loads its modules, reads ``/paper`` and lays the sheets out (until
  ``data-ready``, in the page's own clock), then ``page.pdf()`` prints it on the CSS page
  size, as ``tests/browser/test_paper.py`` does;
- the library path, the baseline: the bench reads ``/paper`` over HTTP and draws the same
  layout (the cards and the three columns of tables as ``web/css/print.css`` sets them)
  with ReportLab, DejaVu Sans, Bold and Mono Bold embedded as subsets.

Printables: one player's 80 mm card (``?what=cards&paper=receipt&player=...``: the time to
first card), the 1,300 cards on A4 (eight a page) and the draw by table on A4; each timed
from the read to the PDF in hand, the median of ``--runs`` runs; for each PDF its bytes, its
pages, its page size (80 x 110 mm, A4) and whether pypdf finds every name and every card's
check code in it.

    .venv/bin/pip install -e '.[test,bench]'      # Playwright and pypdf; ReportLab
    .venv/bin/python bench/printing.py [--players 1300] [--runs 5] [--out DIR]

It prints the figures and a verdict; it never fails on a timing (only on a PDF that lacks a
name, or a page of the wrong size). ``--out`` keeps the six PDFs.

Results, three runs on this 2-core machine while other test suites ran on it (load average
5 to 8), medians of five:

| printable | browser: time, bytes, pages | ReportLab: time, bytes, pages |
|---|---|---|
| one card, 80 mm | 0.65 to 0.93 s, 24 KB, 1 | 32 to 52 ms, 60 KB, 1 |
| 1,300 cards, A4 | 7.6 to 10.6 s, 4.25 MB, 163 | 0.75 to 1.08 s, 328 KB, 163 |
| draw by table, A4 | 3.1 to 4.5 s, 75 KB, 13 | 0.23 to 0.28 s, 101 KB, 13 |

Every name (1,300 of 1,300, Č, Š and ř included) and every check code was found in both
paths' PDFs, on the right page size. Of the browser's card, about 0.5 to 0.65 s is the page
itself loading (its modules and stylesheet, the read, the layout); of the 1,300 cards, 2.0
to 2.5 s is the page's layout and the rest Chromium's print. ``/paper`` is 309 KB and
answers in 22 to 32 ms: the server's whole part in the browser path. ReportLab spends about
0.7 s of one CPU per 1,300 cards.

Decision: the browser path stays; the library is not added to the product. The library is
10 to 19 times faster, but nothing a floorperson does waits on that: a card comes out in
under a second, and the 1,300 cards' 7.6 to 10.6 s are small beside the printer's own 163
pages (five minutes and more at 30 pages a minute). The browser path runs on the phone or
desk that prints, straight to the venue's printer through the system print dialog, with no
server work but one read and no dependency; the library path would put most of a second of
a server core per draw on the process that serves the screens (so a worker thread or
process) and hand the phone a PDF it must still open and print. Not measured here: a
phone's Chromium is slower than this machine's; were it three times slower, a card would
take 2 to 3 s and the 1,300 cards half a minute, still short of the printer's time. (The
verdict line calls the browser path failing a real need past 2 s for a card or a minute
for the 1,300 cards on this machine.) A server-drawn PDF serves a need the product does not
have yet, a PDF the server must send or keep (an email, a print server, an archive);
should one come, the same ``/paper`` data draws it as this bench does.

Why ReportLab and not fpdf2 for the baseline (both looked at in their wheels and release
notes): both are maintained and released in the last months (ReportLab 5.1.0, fpdf2 2.8.9),
both marked stable and both embed subset TrueType fonts. ReportLab is BSD-licensed, like
floor's other dependencies (MIT or BSD), where fpdf2 is LGPL-3.0; it needs only Pillow and
charset-normalizer (fpdf2 also fontTools and defusedxml); it is the more used (among the
600 most downloaded packages on PyPI, fpdf2 among the 1,400) and kept by one company since
2000. fpdf2 develops in the open on GitHub with many outside contributors, its one point
ahead.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.serving import add_user, wait_http  # noqa: E402
from floor.redisdb.embedded import EmbeddedServer, free_port  # noqa: E402

try:
    from playwright.sync_api import BrowserContext, sync_playwright
    from pypdf import PdfReader
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
except ImportError as e:  # pragma: no cover - a set-up message, not a code path
    sys.exit(
        f"bench/printing.py needs the test and bench extras: pip install -e '.[test,bench]'\n{e}"
    )

TID = "paper-bench"
NAME = "Podzimní turnaj Šumava"
SECRET = "printing-bench-secret"
CHROMIUM = os.environ.get("FLOOR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
]
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
#: Page sizes in PDF points, as tests/browser/test_paper.py checks them.
SIZES = {"a4": (595.3, 841.9), "receipt": (226.8, 311.8)}
#: What the console splits a pasted list at (web/js/import.js): the engine takes at most
#: 1,000 entries a command and the server a body of FLOOR_MAX_BODY (64 KiB).
CHUNK_ROWS, CHUNK_BYTES = 1000, 48 * 1024

# Czech names, men's and women's, so that no name is a part of another.
MEN = (  # noqa: SIM905
    "Jiří Jan Petr Josef Pavel Martin Tomáš Jaroslav Miroslav Zdeněk Václav Michal František "
    "Jakub Milan Karel Lukáš David Ondřej Vojtěch Matěj Čeněk Přemysl Bořivoj Řehoř Šimon "
    "Štěpán Radek Aleš Luboš"
).split()
MEN_LAST = (  # noqa: SIM905
    "Novák Svoboda Novotný Dvořák Černý Procházka Kučera Veselý Horák Němec Pokorný Pospíšil "
    "Hájek Král Jelínek Růžička Beneš Fiala Sedláček Doležal Zeman Kolář Navrátil Čermák "
    "Vaněk Kříž Řezníček Šimek Šťastný Žák"
).split()
WOMEN = (  # noqa: SIM905
    "Marie Jana Eva Hana Anna Lenka Kateřina Lucie Věra Alena Petra Veronika Jaroslava Tereza "
    "Martina Michaela Zuzana Markéta Šárka Božena Dagmar Klára Barbora Jitka Ludmila Růžena "
    "Zdeňka Iveta Radka Štěpánka"
).split()
WOMEN_LAST = (  # noqa: SIM905
    "Nováková Svobodová Novotná Dvořáková Černá Procházková Kučerová Veselá Horáková Němcová "
    "Pokorná Pospíšilová Hájková Králová Jelínková Růžičková Benešová Fialová Sedláčková "
    "Doležalová Zemanová Kolářová Navrátilová Čermáková Vaňková Křížová Řezníčková Šimková "
    "Šťastná Žáková"
).split()


def names(n: int, seed: int = 1) -> list[str]:
    every = [f"{a} {b}" for a in MEN for b in MEN_LAST] + [
        f"{a} {b}" for a in WOMEN for b in WOMEN_LAST
    ]
    if n > len(every):
        raise SystemExit(f"at most {len(every)} players")
    return random.Random(seed).sample(every, n)


# The server ------------------------------------------------------------------------------------


class Http:
    """The director's HTTP calls (one keep-alive connection)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers: dict[str, str] = {"Content-Type": "application/json"}
        self.n = 0

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        try:
            self.conn.request(method, path, data, self.headers)
            r = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed the idle keep-alive connection: once more on a new one.
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.conn.request(method, path, data, self.headers)
            r = self.conn.getresponse()
        return r.status, r.read()

    def ok(self, method: str, path: str, body: Any = None) -> bytes:
        status, raw = self.request(method, path, body)
        if status not in (200, 201):
            raise RuntimeError(f"{method} {path}: {status} {raw[:300]!r}")
        return raw

    def command(self, command: dict[str, Any]) -> None:
        self.n += 1
        self.ok("POST", f"/api/t/{TID}/commands", {"id": f"print-{self.n}", "command": command})


def chunks(entries: list[dict[str, str]]) -> list[list[dict[str, str]]]:
    """The list as the console sends it: commands under CHUNK_BYTES and CHUNK_ROWS."""
    out: list[list[dict[str, str]]] = [[]]
    size = 0
    for e in entries:
        n = len(json.dumps(e).encode()) + 1
        if out[-1] and (size + n > CHUNK_BYTES or len(out[-1]) >= CHUNK_ROWS):
            out.append([])
            size = 0
        out[-1].append(e)
        size += n
    return out


def set_up(api: Http, players: int) -> int:
    """The tournament, its players as one list, the draw. Returns the commands the list took."""
    api.ok(
        "POST",
        "/api/tournaments",
        {"id": TID, "name": NAME, "rules": "tda-2024", "structure": "demo-fast"},
    )
    entries = [
        {"name": name, "player": f"C{1000 + i}", "country": "CZ"}
        for i, name in enumerate(names(players))
    ]
    parts = chunks(entries)
    for part in parts:
        api.command({"type": "register_many", "entries": part})
    api.command({"type": "draw_seats"})
    return len(parts)


# The paper's data, as print.js reads it -----------------------------------------------------------


def cards_asked(data: dict[str, Any], player: str | None = None) -> list[dict[str, Any]]:
    """The cards ``print.js`` prints: one player's, or every seated player's by table and
    seat (a planned move's card goes to the seat it takes the player to)."""
    moves = {m["player"]: m for m in data["moves"] if m["seat"] is not None}

    def of(p: dict[str, Any]) -> dict[str, Any]:
        m = moves.get(p["id"])
        if m is not None and player is not None:
            spot = {"table": m["from_table"], "seat": m["from_seat"], "reason": m["reason"]}
            return {**m, "id": p["id"], "from": spot}
        return {**p, "from": None}

    seated = [p for p in data["players"] if not p["busted"] and p["table"] is not None]
    if player is not None:
        return [of(p) for p in seated if p["id"] == player]
    return sorted((of(p) for p in seated), key=lambda c: (c["table"], c["seat"]))


def when(at: float) -> str:
    return time.strftime("%d/%m/%Y %H:%M", time.localtime(at))


def level_text(data: dict[str, Any]) -> str:
    if data["level"] is None:
        return ""
    return ("break after level {}" if data["on_break"] else "level {}").format(data["level"])


# The library path: ReportLab ----------------------------------------------------------------------

SANS, BOLD, MONO = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono-Bold"


def load_fonts() -> None:
    """DejaVu Sans, bold and mono bold, embedded as subsets (once per process)."""
    for name in (SANS, BOLD, MONO):
        pdfmetrics.registerFont(TTFont(name, str(DEJAVU / f"{name}.ttf")))


def fit(text: str, font: str, size: float, width: float, least: float = 8.0) -> float:
    """The largest size at most ``size`` at which ``text`` fits ``width`` (a long name)."""
    while size > least and pdfmetrics.stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def draw_card(
    c: Canvas, data: dict[str, Any], card: dict[str, Any], box: tuple[float, float, float, float]
) -> None:
    """One seat card in ``box`` (x, y, width, height; y at the bottom), laid out as
    ``print.css`` lays it: the event on top, table and seat large, the name, the foot with
    the player and the check code."""
    x, y, w, h = box
    receipt = w < 90 * mm
    pad = 0 if receipt else 4 * mm
    if not receipt:
        c.setDash(1.2 * mm, 0.8 * mm)
        c.setLineWidth(0.3 * mm)
        c.rect(x, y, w, h)
        c.setDash()
    left, right, top, bottom = x + pad, x + w - pad, y + h - pad, y + pad
    c.setFont(SANS, 9)
    c.drawString(left, top - 9, data["name"])
    c.drawRightString(right, top - 9, when(data["printed_at"]))
    value = 60 if receipt else 54
    for i, (label, n) in enumerate((("TABLE", card["table"]), ("SEAT", card["seat"]))):
        cx = left + (right - left) * (0.25 + 0.5 * i)
        c.setFont(SANS, 10)
        c.drawCentredString(cx, top - 9 - 6 * mm - 10, label)
        c.setFont(BOLD, value)
        c.drawCentredString(cx, top - 9 - 6 * mm - 10 - value * 0.95, str(n))
    spot_bottom = top - 9 - 6 * mm - 10 - value * 1.05
    size = fit(card["name"], BOLD, 15, right - left)
    name_y = (spot_bottom + bottom + 13) / 2 - size / 3
    c.setFont(BOLD, size)
    c.drawCentredString((left + right) / 2, name_y, card["name"])
    if card["from"] is not None:
        moved = card["from"]
        c.setFont(BOLD, 10)
        line = f"{moved['reason'].capitalize()} move · from T{moved['table']} S{moved['seat']}"
        c.drawCentredString((left + right) / 2, name_y - 14, line)
    c.setFont(SANS, 9)
    c.drawString(left, bottom + 1.5 * mm, card["id"])
    code = card["code"] or "–"
    code_w = pdfmetrics.stringWidth(code, MONO, 13) + 3 * mm
    c.drawRightString(right - code_w - 1.5 * mm, bottom + 1.5 * mm, "Check")
    c.setFont(MONO, 13)
    c.drawString(right - code_w + 1.5 * mm, bottom + 1.5 * mm, code)
    c.setLineWidth(0.4 * mm)
    c.rect(right - code_w, bottom, code_w, 13 + 1.5 * mm)


def lib_cards(data: dict[str, Any], paper: str, player: str | None = None) -> bytes:
    out = io.BytesIO()
    cards = cards_asked(data, player)
    if paper == "receipt":
        size = (80 * mm, 110 * mm)
        c = Canvas(out, pagesize=size, pageCompression=1)
        for card in cards:
            draw_card(c, data, card, (4 * mm, 16 * mm, 72 * mm, 90 * mm))
            c.showPage()
    else:
        size = (210 * mm, 297 * mm)
        c = Canvas(out, pagesize=size, pageCompression=1)
        for i in range(0, len(cards), 8):
            for k, card in enumerate(cards[i : i + 8]):
                col, row = k % 2, k // 2
                box = (10 * mm + col * 95 * mm, size[1] - 10 * mm - (row + 1) * 68 * mm)
                draw_card(c, data, card, (*box, 95 * mm, 68 * mm))
            c.showPage()
    c.setTitle(f"Seat cards · {data['name']}")
    c.save()
    return out.getvalue()


def lib_draw_tables(data: dict[str, Any]) -> bytes:
    """The draw by table on A4: a heading, then each table's block (never split) in three
    columns, filled top to bottom, page after page."""
    out = io.BytesIO()
    width, height = 210 * mm, 297 * mm
    c = Canvas(out, pagesize=(width, height), pageCompression=1)
    c.setTitle(f"The draw by table · {data['name']}")
    margin, gap = 10 * mm, 6 * mm
    col_w = (width - 2 * margin - 2 * gap) / 3
    row_h, head_h = 9.5 * 1.3 + 0.9 * mm, 12 * 1.3 + 1.3 * mm
    tables = [t for t in data["tables"] if t["occupants"]]
    top = height - margin
    c.setFont(BOLD, 16)
    c.drawString(margin, top - 16, "The draw by table")
    meta = " · ".join(
        x
        for x in (data["name"], when(data["printed_at"]), level_text(data), f"{len(tables)} tables")
        if x
    )
    c.setFont(SANS, 9)
    c.drawRightString(width - margin, top - 16, meta)
    c.setLineWidth(0.6 * mm)
    c.line(margin, top - 16 - 1.5 * mm - 4, width - margin, top - 16 - 1.5 * mm - 4)
    col, y0 = 0, top - 16 - 1.5 * mm - 4 - 3 * mm
    y = low = y0

    def rules() -> None:
        """The column rules, as deep as the page's columns go."""
        c.setLineWidth(0.2 * mm)
        c.setStrokeGray(0.6)
        for k in range(1, min(col, 2) + 1):
            x = margin + k * (col_w + gap) - gap / 2
            c.line(x, y0, x, low)
        c.setStrokeGray(0)

    for t in tables:
        block = head_h + 1 * mm + row_h * len(t["occupants"]) + 3 * mm
        if y - block < margin:
            col += 1
            y = y0
            if col == 3:
                rules()
                c.showPage()
                col, y0 = 0, height - margin
                y = low = y0
        x = margin + col * (col_w + gap)
        c.setFont(BOLD, 12)
        title = f"Table {t['table']}" + (" · final table" if t["final"] else "")
        c.drawString(x, y - 12, title)
        c.setLineWidth(0.3 * mm)
        c.line(x, y - head_h, x + col_w, y - head_h)
        y -= head_h + 1 * mm
        c.setLineWidth(0.1 * mm)
        for o in t["occupants"]:
            c.setFont(BOLD, 9.5)
            c.drawString(x, y - 10, f"Seat {o['seat']}")
            c.setFont(SANS, fit(o["name"], SANS, 9.5, col_w - 14 * mm, 6))
            c.drawRightString(x + col_w, y - 10, o["name"])
            c.setStrokeGray(0.8)
            c.line(x, y - row_h, x + col_w, y - row_h)
            c.setStrokeGray(0)
            y -= row_h
        low = min(low, y)
        y -= 3 * mm
    rules()
    c.showPage()
    c.save()
    return out.getvalue()


# Measuring ---------------------------------------------------------------------------------------


@dataclass
class Result:
    seconds: list[float] = field(default_factory=list)
    #: Of each run: the part before the PDF (the page ready / the read over HTTP).
    before: list[float] = field(default_factory=list)
    #: Of each library run: this process's CPU drawing the PDF (what a server would spend).
    cpu: list[float] = field(default_factory=list)
    pdf: bytes = b""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


@dataclass
class Checked:
    pages: int
    sizes_ok: bool
    names: int
    expected: int
    codes: int


def check(pdf: bytes, paper: str, expected: list[str]) -> Checked:
    reader = PdfReader(io.BytesIO(pdf))
    w, h = SIZES[paper]
    sizes_ok = all(
        abs(float(p.mediabox.width) - w) < 1.5 and abs(float(p.mediabox.height) - h) < 1.5
        for p in reader.pages
    )
    text = plain(" ".join(p.extract_text() or "" for p in reader.pages))
    found = sum(1 for n in expected if plain(n) in text)
    codes = len(re.findall(r"Check ([A-Z0-9]{4})", text))
    return Checked(len(reader.pages), sizes_ok, found, len(expected), codes)


#: Marks the moment the page says it is ready (``data-ready``), in the page's own clock from
#: the navigation's start: Playwright's own waiting (its first selector in a new page) is
#: then not in the figure.
READY_MARK = """
new MutationObserver((_, seen) => {
  if (document.body && document.body.dataset.ready) {
    window.__readyAt = performance.now();
    seen.disconnect();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
"""


def browser_runs(ctx: BrowserContext, query: str, runs: int) -> Result:
    """Each run a fresh page (a phone opening the print link): the page loads, reads
    ``/paper`` and lays it out (until ``data-ready``, in the page's clock); then Chromium
    prints it to PDF (``page.pdf()``, timed around the call)."""
    result = Result()
    for _ in range(runs):
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(f"/print/{TID}?{query}")
        page.wait_for_selector("body[data-ready]", state="attached", timeout=120_000)
        mark = page.evaluate("window.__readyAt")
        if mark is None:
            raise RuntimeError("the page's ready mark is missing")
        ready = mark / 1000
        if page.evaluate("document.body.dataset.ready") != "1":
            raise RuntimeError(f"/print/{TID}?{query}: the page did not get its data")
        started = time.perf_counter()
        pdf = page.pdf(prefer_css_page_size=True, print_background=True)
        printed = time.perf_counter() - started
        page.close()
        if errors:
            raise RuntimeError(f"/print/{TID}?{query}: {errors}")
        result.seconds.append(ready + printed)
        result.before.append(ready)
        result.pdf = pdf
    return result


def library_runs(api: Http, draw: Callable[[dict[str, Any]], bytes], runs: int) -> Result:
    """Each run the same read the page makes (``GET /paper`` over HTTP, decoded), then the
    PDF drawn in this process."""
    result = Result()
    for _ in range(runs):
        started = time.perf_counter()
        data = json.loads(api.ok("GET", f"/api/t/{TID}/paper"))
        read, cpu = time.perf_counter(), time.process_time()
        pdf = draw(data)
        done = time.perf_counter()
        result.cpu.append(time.process_time() - cpu)
        result.seconds.append(done - started)
        result.before.append(read - started)
        result.pdf = pdf
    return result


def secs(x: float) -> str:
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=1300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, help="a folder to keep the six PDFs in")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="floor-printing-") as tmp_name:
        tmp = Path(tmp_name)
        valkey = EmbeddedServer(tmp / "valkey")
        valkey.start()
        env = {**os.environ, "REDIS_URL": valkey.url, "FLOOR_LOG_LEVEL": "warning"}
        add_user(valkey.url, "bench", SECRET, "director", env)
        port = free_port()
        with (tmp / "serve.log").open("wb") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "floor", "serve", "--port", str(port)],
                env=env,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        try:
            wait_http(port)
            run(port, args)
        finally:
            server.terminate()
            server.wait(10)
            valkey.stop()


def run(port: int, args: argparse.Namespace) -> None:
    api = Http(port)
    raw = api.ok("POST", "/api/signin", {"username": "bench", "secret": SECRET})
    api.headers["Authorization"] = f"Bearer {json.loads(raw)['token']}"
    started, started_load = time.perf_counter(), os.getloadavg()[0]
    commands = set_up(api, args.players)
    print(
        f"{args.players} players registered as one list ({commands} register_many commands, "
        f"as the console splits it) and drawn in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    data = json.loads(api.ok("GET", f"/api/t/{TID}/paper"))
    seated = [p for p in data["players"] if p["table"] is not None and not p["busted"]]
    tables = len([t for t in data["tables"] if t["occupants"]])
    # The 80 mm card: a player whose name has a háček, as a floorperson would reprint it.
    one = next(p for p in sorted(seated, key=lambda p: p["id"]) if "ř" in p["name"])
    every = [p["name"] for p in seated]
    printables = [
        ("first card, 80 mm", "receipt", f"what=cards&paper=receipt&player={one['id']}"),
        (f"{len(seated):,} cards, A4", "a4", "what=cards&paper=a4"),
        (f"draw by table, A4 ({tables} tables)", "a4", "what=draw-tables&paper=a4"),
    ]
    expected = {printables[0][0]: [one["name"]], printables[1][0]: every, printables[2][0]: every}
    draws: list[Callable[[dict[str, Any]], bytes]] = [
        lambda d: lib_cards(d, "receipt", one["id"]),
        lambda d: lib_cards(d, "a4"),
        lib_draw_tables,
    ]
    body = api.ok("GET", f"/api/t/{TID}/paper")
    reads = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        api.request("GET", f"/api/t/{TID}/paper")
        reads.append(time.perf_counter() - t0)
    print(
        f"GET /api/t/{TID}/paper: {len(body) / 1024:.0f} KB, {secs(statistics.median(reads))} "
        "(median): the server's whole part in the browser path",
        flush=True,
    )

    browser: dict[str, Result] = {}
    with sync_playwright() as p:
        t0 = time.perf_counter()
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        launch = time.perf_counter() - t0
        ctx = b.new_context(
            viewport={"width": 1280, "height": 900},
            locale="en-GB",
            base_url=f"http://127.0.0.1:{port}",
        )
        ctx.add_init_script("localStorage.setItem('floor.lang', 'en');")
        ctx.add_init_script(READY_MARK)
        r = ctx.request.post("/api/signin", data={"username": "bench", "secret": SECRET})
        assert r.ok, r.text()
        # One page load first: the modules and the stylesheet in the browser's cache, as on
        # a phone that has the console open.
        browser_runs(ctx, "what=tables&paper=a4&table=1", 1)
        for label, _, query in printables:
            browser[label] = browser_runs(ctx, query, args.runs)
            print(f"  browser  {label}: {secs(browser[label].median)}", flush=True)
        b.close()
    print(f"(Chromium's start, not in the figures: {secs(launch)})", flush=True)

    t0 = time.perf_counter()
    load_fonts()
    fonts = time.perf_counter() - t0
    library: dict[str, Result] = {}
    for (label, _, _), draw in zip(printables, draws, strict=True):
        library[label] = library_runs(api, draw, args.runs)
        print(f"  library  {label}: {secs(library[label].median)}", flush=True)
    print(f"(DejaVu's three faces loaded once, not in the figures: {secs(fonts)})", flush=True)

    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for k, (label, _, query) in enumerate(printables):
            stem = f"{k + 1}-" + re.sub(r"[^a-z0-9]+", "-", query.split("&player")[0].lower())
            (args.out / f"{stem}-browser.pdf").write_bytes(browser[label].pdf)
            (args.out / f"{stem}-library.pdf").write_bytes(library[label].pdf)
    report(printables, expected, browser, library, args.runs)
    print(f"(load average {started_load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end)")


def report(
    printables: list[tuple[str, str, str]],
    expected: dict[str, list[str]],
    browser: dict[str, Result],
    library: dict[str, Result],
    runs: int,
) -> None:
    print()
    print(f"median of {runs} runs (fastest to slowest) | Chromium page.pdf() | ReportLab 5.1.0")
    print("|---|---|---|")
    failures = []
    checked: dict[tuple[str, str], Checked] = {}
    for label, paper, _ in printables:
        cells = []
        for path, result in (("browser", browser[label]), ("library", library[label])):
            c = check(result.pdf, paper, expected[label])
            checked[(path, label)] = c
            if c.names < c.expected or not c.sizes_ok:
                failures.append(f"{path} {label}: {c.names}/{c.expected} names, sizes {c.sizes_ok}")
            cells.append(
                f"{secs(result.median)} ({secs(min(result.seconds))} to "
                f"{secs(max(result.seconds))}; read and layout "
                f"{secs(statistics.median(result.before))})"
                f", {len(result.pdf) / 1024:,.0f} KB, {c.pages} pages, "
                f"{c.names:,}/{c.expected:,} names"
                + (f", {c.codes:,} codes" if "card" in label else "")
            )
        print(f"| {label} | {cells[0]} | {cells[1]} |")
    print()
    first, many = printables[0][0], printables[1][0]
    b_first, l_first = browser[first].median, library[first].median
    b_many, l_many = browser[many].median, library[many].median
    pages = PdfReader(io.BytesIO(browser[many].pdf)).get_num_pages()
    print(
        f"time to first card: browser {secs(b_first)}, library {secs(l_first)} "
        f"({b_first / l_first:.1f}x); {many}: browser {secs(b_many)}, library {secs(l_many)} "
        f"({b_many / l_many:.1f}x)"
    )
    if failures:
        print("verdict: a PDF lacks a name or has the wrong page size: " + "; ".join(failures))
        raise SystemExit(1)
    # The browser path fails a real need only if a floorperson waits for a card at the table
    # (more than 2 s) or the whole draw's cards do not come out within a minute.
    if b_first <= 2.0 and b_many <= 60.0:
        print(
            f"verdict: the browser path serves better. Both print every name on the right "
            f"paper; the library is {b_many / l_many:.0f}x faster at {many} and "
            f"{b_first / l_first:.0f}x at one card, but the browser's {secs(b_first)} for a "
            f"card and {secs(b_many)} for the whole draw are small beside the printer itself "
            f"({pages} A4 pages at 30 a minute take {pages / 30:.1f} minutes), are spent on "
            "the phone or desk that prints (the server answers one /paper read, where the "
            f"library would spend {secs(statistics.median(library[many].cpu))} of a server "
            f"core's CPU per {many}), and need no "
            "dependency and no step between the phone and the venue's printer. A "
            "server-drawn PDF is worth adding only when the server itself must hold the PDF "
            "(an email, a print server, an archive); the same /paper data draws it.",
        )
    else:
        print(
            f"verdict: the browser path fails a real need ({secs(b_first)} for a card, "
            f"{secs(b_many)} for {many}): a server-drawn PDF serves better."
        )


if __name__ == "__main__":
    main()
