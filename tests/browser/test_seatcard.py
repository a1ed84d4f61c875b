"""The digital seat card in Chromium (issue 28.4): a player taken at the desk (their passport
kept apart) finds themselves on their phone and shows their seat card; the table screen's
camera, Chromium's fake camera fed a video made from the card's own image on that phone,
reads it, and the dealer sees the name and the document's type and last digits. The same
card shown again is refused (one scan); after the player is moved, the old card is void and
names their seat now, while the phone already shows the new seat's card.

Screenshots at 1920x1080 and 390x844 of the phone and of the table screen go to a temporary
folder, or to ``FLOOR_SEATCARD_SHOTS`` for a person to look at.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from floor.redisdb.embedded import EmbeddedServer
from tests.browser.conftest import CHROMIUM_ARGS, FLOOR, Pages, chromium_path
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in

pytestmark = pytest.mark.browser

TID = "card-night"
DESK = ("dora", "desk-secret-1")
LIST = b"surname,given_names,birth_date,document_number\nVylouceny,Karel,1970-03-04,\n"
SHOTS = os.environ.get("FLOOR_SEATCARD_SHOTS")
#: The fake camera's picture: the card's code drawn on white in the middle of it.
W, H, CODE = 640, 480, 360

#: The card's picture on the phone (a PNG of its pixels there), painted as a camera would
#: see it: on a white frame, returned as the frame's luma (8 bits a pixel), base64.
FRAME_OF_CARD = """async ([png, w, h, size]) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + png;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = w; canvas.height = h;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(img, (w - size) / 2, (h - size) / 2, size, size);
  const rgba = ctx.getImageData(0, 0, w, h).data;
  let luma = '';
  for (let i = 0; i < rgba.length; i += 4) {
    const y = 0.299 * rgba[i] + 0.587 * rgba[i + 1] + 0.114 * rgba[i + 2];
    luma += String.fromCharCode(Math.round(y));
  }
  return btoa(luma);
}"""


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    logs = tmp_path_factory.mktemp("seatcard-browser-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, *DESK, "desk")
    add_user(valkey.url, *FLOOR, "floor")
    proc = ServerProcess(valkey.url, logs / "server.log", FLOOR_RATE_LIMIT="0")
    try:
        proc.start()
        yield [proc]
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def boss(servers: list[ServerProcess]) -> Iterator[Api]:
    api = Api(servers[0], sign_in(servers[0], "boss", "director-secret"))
    r = api.client.post(
        "/api/tournaments",
        json={"id": TID, "name": "Card Night", "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert r.status_code == 201, r.text
    for i in range(5):
        api.ok(TID, {"type": "register", "name": f"Early {i}", "player": f"E{i}"})
    api.ok(TID, {"type": "draw_seats"})
    assert api.client.post("/api/desk/exclusions", content=LIST).status_code == 200
    yield api
    api.client.close()


def take_at_desk(server: ServerProcess) -> dict[str, object]:
    """Jana Horáková bought in at the desk with her passport: the card the desk answers."""
    desk = Api(server, sign_in(server, *DESK))
    try:
        shift = desk.client.post("/api/desk/shifts", json={"desk": "A", "float": 0})
        assert shift.status_code == 201, shift.text
        body = {
            "id": "seatcard-take-1",
            "shift": shift.json()["id"],
            "tournament": TID,
            "given_names": "Jana",
            "surname": "Horáková",
            "identity": {
                "doc_type": "passport",
                "doc_number": "CZ 40 817 263",
                "birth_date": "1991-05-17",
                "country": "CZ",
            },
            "method": "cash",
            "amount": 1100,
        }
        r = desk.client.post("/api/desk/take", json=body)
        assert r.status_code == 201, r.text
        card: dict[str, object] = r.json()["card"]
        return card
    finally:
        desk.client.close()


def shoot(page: Page, name: str, tmp: Path) -> Path:
    where = Path(SHOTS) if SHOTS else tmp
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def y4m_of(luma: bytes, path: Path) -> Path:
    """A still video (YUV 4:2:0, grey) of one frame's luma: what Chromium's fake camera plays."""
    assert len(luma) == W * H
    grey = bytes([128]) * (W // 2 * H // 2)
    frame = b"FRAME\n" + luma + grey + grey
    path.write_bytes(f"YUV4MPEG2 W{W} H{H} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * 5)
    return path


def camera_on(browser: Browser, phone: Page, video: Path) -> Browser:
    """A Chromium whose camera films the card shown on ``phone`` now (its own pixels)."""
    png = base64.b64encode(phone.locator(".seatcard-card svg").screenshot()).decode()
    luma = base64.b64decode(phone.evaluate(FRAME_OF_CARD, [png, W, H, CODE]))
    y4m_of(luma, video)
    return browser.browser_type.launch(
        executable_path=chromium_path(),
        args=[
            *CHROMIUM_ARGS,
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )


def test_the_dealer_scans_a_players_seat_card_once_and_a_move_voids_it(
    browser: Browser, pages: Pages, servers: list[ServerProcess], boss: Api, tmp_path: Path
) -> None:
    server = servers[0]
    card = take_at_desk(server)
    pid, table, seat = str(card["player"]), int(str(card["table"])), int(str(card["seat"]))

    # The player's phone: they found themselves (the follow is kept on the phone).
    ctx = pages.context(server, size="phone")
    ctx.add_init_script(
        f"localStorage.setItem('floor.follow.{TID}', "
        f"{json.dumps(json.dumps({'id': pid, 'name': 'Jana Horáková'}))});"
    )
    phone = ctx.new_page()
    phone.on("pageerror", lambda e: pages.errors.append(f"/player: {e}"))
    phone.goto(f"/player/{TID}")
    expect(phone.locator(".follow-card .result-name")).to_have_text("Jana Horáková")
    phone.get_by_role("button", name="Show my seat card").click()
    shown = phone.locator(".seatcard-card")
    expect(shown).to_have_attribute("data-seat", str(seat))
    expect(shown).to_contain_text(f"Table {table} · Seat {seat}")
    expect(shown.locator("svg")).to_have_attribute(
        "aria-label", f"Seat card of Jana Horáková: table {table}, seat {seat}"
    )
    shown.scroll_into_view_if_needed()
    shoot(phone, "seatcard-phone-390x844", tmp_path)
    phone.set_viewport_size({"width": 1920, "height": 1080})
    shoot(phone, "seatcard-phone-1920x1080", tmp_path)
    phone.set_viewport_size({"width": 390, "height": 844})

    # The card's own image, as the camera of the table screen sees it.
    camera = camera_on(browser, phone, tmp_path / "card.y4m")
    table_pages = Pages(camera)
    try:
        screen = table_pages.tablet(server, boss, TID, table, size="tv")
        screen.context.grant_permissions(["camera"])
        screen.get_by_role("button", name="Scan a seat card").click()
        result = screen.locator(".seatcard-result")
        expect(result).to_have_attribute("data-verdict", "ok", timeout=20_000)
        expect(result.locator(".seatcard-who")).to_have_text("Jana Horáková")
        expect(result.locator(".seatcard-doc")).to_have_text("Passport ending 263")
        expect(result).to_contain_text(f"Seat card valid: table {table}, seat {seat}")
        # Nothing of the document but its type and last digits reached the screen.
        assert "40 817" not in screen.content() and "1991" not in screen.content()
        result.scroll_into_view_if_needed()
        shoot(screen, "seatcard-table-1920x1080", tmp_path)
        screen.set_viewport_size({"width": 390, "height": 844})
        result.scroll_into_view_if_needed()
        shoot(screen, "seatcard-table-390x844", tmp_path)
        screen.set_viewport_size({"width": 1920, "height": 1080})

        # The same card again: good for one scan.
        screen.get_by_role("button", name="Scan another card").click()
        expect(result).to_have_attribute("data-verdict", "used", timeout=20_000)
        expect(result).to_contain_text("a seat card is good for one scan")
        expect(result.locator(".seatcard-doc")).to_have_count(0)

        # The floor moves her to another seat of the table: the old card names a seat that
        # is not hers.
        occupied = {int(s) for s in boss.state(TID)["state"]["tables"][str(table)]["occupants"]}  # type: ignore[index]
        free = min(set(range(1, 10)) - occupied)
        boss.ok(TID, {"type": "correct_seat", "player": pid, "table": table, "seat": free})
        screen.get_by_role("button", name="Scan another card").click()
        expect(result).to_have_attribute("data-verdict", "void", timeout=20_000)
        expect(result).to_contain_text("This card is void")
        expect(result.locator(".seatcard-now")).to_have_text(
            f"The player's seat now: table {table}, seat {free}."
        )
        shoot(screen, "seatcard-table-void-1920x1080", tmp_path)
    finally:
        table_pages.close()
        camera.close()
    assert not table_pages.errors, table_pages.errors

    # The phone shows the new seat's card by itself (under the alert of the move, which she
    # reads and closes), and the floor's phone reads that one.
    phone.get_by_role("alert").get_by_role("button", name="OK").click()
    expect(shown).to_have_attribute("data-seat", str(free))
    expect(shown).to_contain_text(f"Table {table} · Seat {free}")
    camera = camera_on(browser, phone, tmp_path / "new-card.y4m")
    floor_pages = Pages(camera)
    try:
        floor = floor_pages.open(server, f"/floor/{TID}", user=FLOOR)
        floor.context.grant_permissions(["camera"])
        floor.locator(".nav-btn", has_text="Table").click()
        floor.get_by_role("button", name="Scan a seat card").click()
        result = floor.locator(".seatcard-result")
        expect(result).to_have_attribute("data-verdict", "ok", timeout=20_000)
        expect(result).to_contain_text(f"Seat card valid: table {table}, seat {free}")
        expect(result.locator(".seatcard-doc")).to_have_text("Passport ending 263")
        result.scroll_into_view_if_needed()
        shoot(floor, "seatcard-floor-390x844", tmp_path)
    finally:
        floor_pages.close()
        camera.close()
    assert not floor_pages.errors, floor_pages.errors
