"""The dealer room on two real servers and a real Valkey: the coordinator adds dealers (their
accounts with PINs) and clocks them in; the clock driver (whichever process holds the lease)
gives every playing table of every tournament a dealer, follows the tables as the floor
breaks them, and writes the pushes on time; a dealer's sign-in at a table screen starts a
down and the next one's ends it; a table screen reads who deals there and the next push; a
dealer's phone, signed in with a one-time code from the table screen, reads their own next
push and nothing else; the downs export as neutralised CSV. Bad input is refused, naming
the field, and changes nothing.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx
import pytest

from floor.redisdb.embedded import EmbeddedServer
from tests.e2e.conftest import Api, ServerProcess, add_user, paired, sign_in

T = TypeVar("T")
#: Fast pushes: the driver writes them within a second or two of their time.
SETTINGS = {
    "push_every": 4,
    "break_every": 2,
    "break_length": 4,
    "min_rest": 2,
    "signin_grace": 2,
    "zone": "Europe/Prague",
}


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    logs = tmp_path_factory.mktemp("dealers-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "fred", "floor-secret", "floor")
    add_user(valkey.url, "cora", "coordinator-secret", "coordinator")
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


def wait_for(check: Callable[[], T | None], timeout: float = 15.0) -> T:
    end = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def coordinator(servers: list[ServerProcess]) -> Iterator[Api]:
    api = Api(servers[1], sign_in(servers[1], "cora", "coordinator-secret"))
    yield api
    api.client.close()


def room(api: Api) -> dict[str, Any]:
    r = api.client.get("/api/dealers")
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()
    return got


def send(api: Api, command: dict[str, Any]) -> httpx.Response:
    return api.client.post("/api/dealers/commands", json={"command": command})


def test_the_room_seats_a_dealer_at_every_table_and_pushes_on_time(
    servers: list[ServerProcess], director: Api, coordinator: Api
) -> None:
    r = send(coordinator, {"type": "set_settings", "settings": SETTINGS})
    assert r.status_code == 200, r.text
    for i, name in enumerate(["ann", "bob", "cat", "dan", "eve"]):
        r = coordinator.client.post(
            "/api/dealers/people",
            json={"username": name, "name": f"{name.title()} Dealer", "pin": f"{1000 + i}"},
        )
        assert r.status_code == 201, r.text
        assert send(coordinator, {"type": "clock_in", "dealer": name}).status_code == 200
    director.create("room-a", 18)  # two tables of 9
    director.create("room-b", 9)

    def seated() -> dict[str, str] | None:
        tables = room(coordinator)["tables"]
        if len(tables) == 3 and all(t["dealer"] for t in tables):
            return {t["key"]: t["dealer"] for t in tables}
        return None

    first = wait_for(seated)
    assert len(set(first.values())) == 3
    due = min(t["due"] for t in room(coordinator)["tables"])
    # The push is written by the driver at its time: the table has a new dealer after it.
    pushed = wait_for(lambda: (s := seated()) and s != first and s)
    assert pushed != first
    view = room(coordinator)
    assert all(t["since"] >= due for t in view["tables"] if t["dealer"] != first[t["key"]])
    assert view["needed"] >= 3 and view["working"] == 5
    # Every dealer dealing has somewhere to go next.
    dealing = [d for d in view["dealers"] if d["status"] == "dealing"]
    assert all(d["next"] is not None for d in dealing)


def tables_of(api: Api, tid: str) -> dict[str, Any]:
    tables: dict[str, Any] = api.state(tid)["state"]["tables"]  # type: ignore[index,assignment]
    return tables


def test_a_table_the_floor_breaks_leaves_the_room(director: Api, coordinator: Api) -> None:
    # Players out at table 2 until the other seats everybody: one table breaks (the house's
    # order says which), its players are moved.
    while all(t["status"] == "open" for t in tables_of(director, "room-a").values()):
        player = next(iter(tables_of(director, "room-a")["2"]["occupants"].values()))
        director.ok("room-a", {"type": "bust", "player": player})
    if director.state("room-a")["plan"]["moves"]:  # type: ignore[index]
        director.ok("room-a", {"type": "confirm_all", "reason": "break"})
    left = {n for n, t in tables_of(director, "room-a").items() if t["status"] != "broken"}
    assert len(left) == 1
    expected = {f"room-a/{n}" for n in left} | {"room-b/1"}
    wait_for(lambda: {t["key"] for t in room(coordinator)["tables"]} == expected)


def test_a_sign_in_at_the_table_screen_starts_a_down_and_the_next_one_ends_it(
    servers: list[ServerProcess], director: Api, coordinator: Api
) -> None:
    screen = paired(servers[0], director, "room-b", 1)
    for name, pin in (("ann", "1000"), ("bob", "1001")):
        r = httpx.post(
            servers[0].base + "/api/table/signin",
            json={"username": name, "secret": pin},
            headers=screen,
        )
        assert r.status_code == 200, r.text
        time.sleep(0.2)
    sheet = coordinator.client.get("/api/dealers/downs").json()
    rows = [(r["dealer"], r["tournament"], r["table"], r["end"] is None) for r in sheet["rows"]]
    assert rows == [("ann", "room-b", 1, False), ("bob", "room-b", 1, True)]
    ann = next(t for t in sheet["totals"] if t["dealer"] == "ann")
    assert ann["downs"] == 1 and 0 < ann["seconds"] < 10
    # The table screen reads its own table: who deals, and the next push.
    seen = httpx.get(servers[1].base + "/api/dealers/table", headers=screen).json()
    assert (seen["tournament"], seen["table"], seen["playing"]) == ("room-b", 1, True)
    assert seen["signed"] == {"id": "bob", "name": "Bob Dealer"}
    assert seen["due"] is not None and seen["coming"] is not None
    # It cannot name another table; the staff can.
    other = httpx.get(
        servers[1].base + "/api/dealers/table?tournament=room-a&table=1", headers=screen
    ).json()
    assert (other["tournament"], other["table"]) == ("room-b", 1)
    r = director.client.get("/api/dealers/table?tournament=room-a&table=1")
    assert r.status_code == 200 and r.json()["playing"], r.text
    # Signing out ends bob's down.
    r = httpx.post(servers[0].base + "/api/table/signout", headers=screen)
    assert r.status_code == 200, r.text
    sheet = coordinator.client.get("/api/dealers/downs").json()
    assert all(r["end"] is not None for r in sheet["rows"])


def test_a_dealer_s_phone_signs_in_with_a_code_from_the_table_screen(
    servers: list[ServerProcess], director: Api
) -> None:
    screen = paired(servers[0], director, "room-b", 1)
    r = httpx.post(servers[0].base + "/api/dealers/phone/code", headers=screen)
    assert r.status_code == 403, "the screen alone, no dealer on it, gets no code"
    r = httpx.post(
        servers[0].base + "/api/table/signin",
        json={"username": "cat", "secret": "1002"},
        headers=screen,
    )
    assert r.status_code == 200, r.text
    r = httpx.post(servers[0].base + "/api/dealers/phone/code", headers=screen)
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    with httpx.Client(base_url=servers[1].base) as phone:
        assert phone.post("/api/dealers/phone", json={"code": "000000000"}).status_code == 401
        r = phone.post("/api/dealers/phone", json={"code": code})
        assert r.status_code == 200, r.text
        assert r.json()["principal"]["role"] == "dealer_phone"
        assert phone.post("/api/dealers/phone", json={"code": code}).status_code == 401  # once
        token = r.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        own = phone.get("/api/dealers/me", headers=headers).json()
        assert own["dealer"] == {"id": "cat", "name": "Cat Dealer"}
        assert own["status"] in ("pool", "dealing", "break")
        # The phone reads its dealer alone: no tournament command, no room, no PIN change.
        assert phone.get("/api/dealers", headers=headers).status_code == 403
        r = phone.post(
            "/api/t/room-b/commands",
            json={"command": {"type": "hand", "table": 1}},
            headers=headers,
        )
        assert r.status_code == 403
        r = phone.put("/api/me/secret", json={"current": "1002", "secret": "9999"}, headers=headers)
        assert r.status_code == 403
        # A new PIN ends the phone's session with the dealer's others.
        r = director.client.put("/api/dealers/people/cat/pin", json={"pin": "2002"})
        assert r.status_code == 200, r.text
        assert phone.get("/api/dealers/me", headers=headers).status_code in (401, 403)


def test_the_downs_export_as_a_spreadsheet_with_neutralised_cells(coordinator: Api) -> None:
    r = coordinator.client.post(
        "/api/dealers/people",
        json={"username": "hostile", "name": "=HYPERLINK(1)", "pin": "4444"},
    )
    assert r.status_code == 201, r.text
    r = coordinator.client.get("/api/dealers/downs.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["dealer", "name", "pay day"]
    totals = coordinator.client.get("/api/dealers/downs.csv?kind=totals")
    assert totals.status_code == 200
    assert coordinator.client.get("/api/dealers/downs.csv?kind=sums").status_code == 422
    assert coordinator.client.get("/api/dealers/downs?period=yesterday").status_code == 422


def test_bad_input_is_refused_naming_the_field_and_changes_nothing(
    director: Api, coordinator: Api
) -> None:
    before = room(coordinator)
    cases: list[tuple[dict[str, Any], int, str | None]] = [
        ({"type": "clock_in", "dealer": "nobody"}, 409, "dealer"),
        ({"type": "clock_in", "dealer": "Not A Name"}, 422, "command.dealer"),
        (
            {"type": "set_settings", "settings": {"push_every": 0}},
            422,
            "command.settings.push_every",
        ),
        ({"type": "set_settings", "settings": {"zone": "Mars/Olympus"}}, 422, "settings.zone"),
        (
            {"type": "set_settings", "settings": {"min_rest": 900, "break_length": 600}},
            422,
            "command.settings",
        ),
        ({"type": "swap", "a": "room-a/1", "b": "room-a/1"}, 409, "b"),
        ({"type": "warp", "dealer": "ann"}, 422, "command.type"),
    ]
    for command, status, field in cases:
        r = send(coordinator, command)
        assert r.status_code == status, (command, r.text)
        assert r.json()["error"]["field"] == field, (command, r.text)
    r = coordinator.client.post("/api/dealers/people", json={"username": "newbie", "name": "N"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "pin"
    r = coordinator.client.post(
        "/api/dealers/people", json={"username": "fred", "name": "Fred", "pin": "1234"}
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "username"
    after = room(coordinator)
    assert after["settings"] == before["settings"]
    assert {d["id"] for d in after["dealers"]} == {d["id"] for d in before["dealers"]}


def test_the_room_is_the_coordinator_s_and_the_director_s_alone(
    servers: list[ServerProcess], coordinator: Api
) -> None:
    floor = Api(servers[0], sign_in(servers[0], "fred", "floor-secret"))
    assert floor.client.get("/api/dealers").status_code == 403
    assert send(floor, {"type": "clock_in", "dealer": "ann"}).status_code == 403
    assert httpx.get(servers[0].base + "/api/dealers").status_code == 403
    floor.client.close()
    # The coordinator changes no tournament.
    r = coordinator.command("room-a", {"type": "hand", "table": 1})
    assert r.status_code == 403, r.text
