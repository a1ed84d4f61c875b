"""The digital seat card over HTTP, on two real servers sharing one Valkey: a card made by one
process is read by the other (one key for the floor); it is good for one scan, whichever
process takes it; read at another table it names its seat and takes no scan; a player the
desk never took shows "no document"; a table screen reads cards of its own tournament alone;
a forged or altered card is refused naming the field, and changes nothing; a screen that
scans without end is held back.
"""

from __future__ import annotations

import time

import httpx
import pytest

from tests.e2e.conftest import Api, ServerProcess, paired

TID, OTHER = "card-e2e", "card-e2e-other"


@pytest.fixture(scope="module")
def room(director: Api) -> Api:
    director.create(TID, 12)
    director.create(OTHER, 4)
    return director


def card_on(server: ServerProcess, tid: str, pid: str, seat: int | None = None) -> dict:  # type: ignore[type-arg]
    """The player's card as ``server`` makes it, once its copy holds the seat ``seat``."""
    for _ in range(200):
        r = httpx.get(f"{server.base}/api/t/{tid}/seatcard/{pid}")
        assert r.status_code == 200, r.text
        assert r.headers["cache-control"] == "no-store"
        card = r.json()["card"]
        if card is not None and (seat is None or card["seat"] == seat):
            return card  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError(f"no card of {pid} at seat {seat} on {server.base}")


def seat_of(api: Api, tid: str, pid: str) -> tuple[int, int]:
    p = api.state(tid)["state"]["players"][pid]  # type: ignore[index]
    return int(p["table"]), int(p["seat"])


def test_a_card_made_by_one_process_is_scanned_once_by_either(
    servers: list[ServerProcess], room: Api
) -> None:
    table, seat = seat_of(room, TID, "P0")
    card = card_on(servers[1], TID, "P0")
    assert (card["table"], card["seat"], card["entry"]) == (table, seat, 1)
    # The QR's modules come as data: square, 0s and 1s.
    assert card["qr"]["size"] == len(card["qr"]["rows"]) >= 21
    # The same seat, the same card, from either process.
    assert card_on(servers[0], TID, "P0")["code"] == card["code"]

    screen = paired(servers[0], room, TID, table)
    url = f"/api/t/{TID}/seatcard/scan"
    first = httpx.post(servers[0].base + url, json={"code": card["code"]}, headers=screen)
    assert first.status_code == 200, first.text
    got = first.json()
    assert (got["verdict"], got["table"], got["seat"]) == ("ok", table, seat)
    # Registered by the director, never at the desk: nothing to compare but the name.
    assert (
        got["document"] is None and got["name"] == room.state(TID)["state"]["players"]["P0"]["name"]
    )  # type: ignore[index]
    again = httpx.post(servers[1].base + url, json={"code": card["code"]}, headers=screen)
    assert again.json()["verdict"] == "used"
    assert again.json()["scanned"]["table"] == table
    assert again.json()["document"] is None


def test_a_card_read_at_another_table_names_its_seat_and_keeps_its_scan(
    servers: list[ServerProcess], room: Api
) -> None:
    table, seat = seat_of(room, TID, "P1")
    tables = {int(n) for n in room.state(TID)["state"]["tables"]}  # type: ignore[union-attr]
    other = min(tables - {table})
    card = card_on(servers[0], TID, "P1")
    url = servers[0].base + f"/api/t/{TID}/seatcard/scan"
    there = paired(servers[0], room, TID, other)
    got = httpx.post(url, json={"code": card["code"], "table": table}, headers=there).json()
    # A table screen reads at its own table, whatever the body names.
    assert (got["verdict"], got["right_table"], got["right_seat"]) == ("other_table", table, seat)
    assert got["document"] is None
    # The floor's phone at no table in particular: the scan is taken there.
    floor = room.client.post(f"/api/t/{TID}/seatcard/scan", json={"code": card["code"]})
    assert floor.json()["verdict"] == "ok"


def test_a_table_screen_reads_cards_of_its_own_tournament_alone(
    servers: list[ServerProcess], room: Api
) -> None:
    table, _ = seat_of(room, OTHER, "P0")
    card = card_on(servers[0], OTHER, "P0")
    screen = paired(servers[0], room, TID, 1)
    r = httpx.post(
        servers[0].base + f"/api/t/{OTHER}/seatcard/scan",
        json={"code": card["code"]},
        headers=screen,
    )
    assert r.status_code == 403, r.text
    # A card of the other tournament sent to this one's route: not a card of this one.
    r = httpx.post(
        servers[0].base + f"/api/t/{TID}/seatcard/scan", json={"code": card["code"]}, headers=screen
    )
    assert (r.status_code, r.json()["error"]["field"]) == (422, "code")
    # Neither took the card's scan.
    fresh = room.client.post(
        f"/api/t/{OTHER}/seatcard/scan", json={"code": card["code"], "table": table}
    )
    assert fresh.json()["verdict"] == "ok"


def test_the_card_of_a_player_nobody_registered_is_refused_in_the_templates_words(
    servers: list[ServerProcess], room: Api
) -> None:
    r = httpx.get(f"{servers[0].base}/api/t/{TID}/seatcard/NOBODY")
    error = r.json()["error"]
    assert (r.status_code, error["field"], error["reason"]) == (404, "player", "player_unknown")
    # The English is the template's, as every screen says it (not a second sentence).
    assert error["message"] == "NOBODY is not in the tournament"


def test_a_forged_card_is_refused_naming_the_code_and_takes_nothing(
    servers: list[ServerProcess], room: Api
) -> None:
    card = card_on(servers[0], TID, "P2")
    body, tag = card["code"].rsplit(".", 1)
    url = f"/api/t/{TID}/seatcard/scan"
    for forged in (body + "." + tag[::-1], body + "x." + tag, "FS1.e30." + tag, "not a card"):
        r = room.client.post(url, json={"code": forged})
        assert (r.status_code, r.json()["error"]["field"]) == (422, "code"), r.text
    r = room.client.post(url, json={"code": card["code"], "extra": 1})
    assert r.status_code == 422, r.text
    assert room.client.post(url, json={"code": card["code"]}).json()["verdict"] == "ok"


def test_a_screen_that_scans_without_end_is_held_back(
    servers: list[ServerProcess], room: Api
) -> None:
    screen = paired(servers[1], room, TID, 1)
    url = servers[1].base + f"/api/t/{TID}/seatcard/scan"
    answers = [
        httpx.post(url, json={"code": "FS1.x.y"}, headers=screen).status_code for _ in range(40)
    ]
    assert answers[0] == 422 and answers[-1] == 429, answers
    assert set(answers) == {422, 429}
