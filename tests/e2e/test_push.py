"""Notifications end to end: a phone opts in over HTTP, the floor acts, and a push service on
this machine (``pushpoint``) receives the message that the "browser" opens with its own keys
(RFC 8291) and whose VAPID signature it checks; bad opt-ins refused naming the field; the
limits per player and per address; a subscription the service says is gone, forgotten; a
floorperson woken for the tables of their section; the public edge taking opt-ins."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from floor.redisdb.embedded import EmbeddedServer
from floor.store.push_port import MOST_PER_OWNER
from tests.e2e import pushpoint
from tests.e2e.conftest import Api, EdgeProcess, ServerProcess, add_user, sign_in
from tests.e2e.pushpoint import Phone, PushPoint

TID = "push-a"
RATE = 4


@pytest.fixture(scope="module")
def point() -> Iterator[PushPoint]:
    found = pushpoint.start()
    yield found
    found.close()


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, point: PushPoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """A staff process and a public edge, both posting to the local push service only; this
    machine a trusted proxy, so that a test names its clients' addresses."""
    logs = tmp_path_factory.mktemp("push-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "fred", "floor-secret", "floor")
    add_user(valkey.url, "gina", "floor-secret", "floor")
    env = {
        "FLOOR_PUSH_SERVICES": point.origin,
        "FLOOR_PUSH_SUBJECT": "mailto:director@venue.example",
        "FLOOR_PUSH_RATE": str(RATE),
        "FLOOR_TRUSTED_PROXIES": "127.0.0.1",
    }
    procs: list[ServerProcess] = [
        ServerProcess(valkey.url, logs / "staff.log", **env),
        EdgeProcess(valkey.url, logs / "edge.log", **env),
    ]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


@pytest.fixture(scope="module")
def director(servers: list[ServerProcess]) -> Iterator[Api]:
    api = Api(servers[0], sign_in(servers[0], "boss", "director-secret"))
    fresh(api, TID)
    yield api
    api.client.close()


_address = iter(range(1, 250))


def fresh(director: Api, tid: str) -> dict[int, list[str]]:
    """A tournament of 27 players on three full tables: its players by table."""
    r = director.client.post(
        "/api/tournaments",
        json={"id": tid, "name": tid, "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert r.status_code == 201, r.text
    entries = [{"name": f"Player {i}", "player": f"P{i}"} for i in range(27)]
    director.ok(tid, {"type": "register_many", "entries": entries})
    director.ok(tid, {"type": "draw_seats"})
    return seated(director, tid)


def seated(director: Api, tid: str) -> dict[int, list[str]]:
    state: Any = director.state(tid)["state"]
    return {int(n): sorted(t["occupants"].values()) for n, t in state["tables"].items()}


def break_by_rule(director: Api, tid: str) -> int:
    """Bust players at tables 1 and 2 until table 3 breaks by the rule (its players fit in
    the seats left free): the table that broke."""
    for player in [*seated(director, tid)[1], *seated(director, tid)[2]]:
        director.ok(tid, {"type": "bust", "player": player})
        state: Any = director.state(tid)["state"]
        if state["tables"]["3"]["status"] == "breaking":
            return 3
    raise AssertionError("table 3 never broke")


def client(server: ServerProcess, address: str | None = None) -> httpx.Client:
    """A phone's client from an address of its own (told by the trusted proxy)."""
    ip = address or f"198.51.100.{next(_address)}"
    return httpx.Client(base_url=server.base, headers={"X-Forwarded-For": ip}, timeout=10.0)


def opt_in(
    server: ServerProcess, phone: Phone, player: str, tid: str = TID, **changes: Any
) -> httpx.Response:
    with client(server) as c:
        return c.put(f"/api/t/{tid}/push/{player}", json={**phone.subscription(), **changes})


def seat_of(director: Api, player: str) -> tuple[int, int]:
    p = director.state(TID)["state"]["players"][player]  # type: ignore[index]
    return int(p["table"]), int(p["seat"])


def opened(point: PushPoint, phone: Phone, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 20
    while len(point.to(phone)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    got = point.to(phone)
    assert len(got) >= count, f"{len(got)} pushes reached the phone, not {count}"
    return [phone.open(d.body) for d in got]


def test_a_phone_opted_in_is_woken_when_its_table_breaks_and_its_move_is_called(
    servers: list[ServerProcess], director: Api, point: PushPoint
) -> None:
    staff = servers[0]
    key = httpx.get(staff.base + "/api/push/key").json()
    assert key["enabled"] is True
    tid = "push-woken"
    player = fresh(director, tid)[3][0]
    name = director.state(tid)["state"]["players"][player]["name"]  # type: ignore[index]
    phone = point.phone()
    r = opt_in(staff, phone, player, tid, lang="cs")
    assert r.status_code == 201, r.text
    assert r.json() == {"ok": True, "held": 1}

    # Bust-outs elsewhere, balance moves planned: nothing the room is shown concerns the
    # player until their table breaks.
    assert break_by_rule(director, tid) == 3
    [breaking] = opened(point, phone, 1)
    assert breaking["lang"] == "cs"
    assert breaking["tournament"] == tid
    assert breaking["name"] == name
    assert breaking["url"] == f"/player/{tid}"
    assert breaking["alert"] == {"kind": "table_breaking", "player": player, "table": 3}

    director.ok(tid, {"type": "call_all", "reason": "break"})
    _, called = opened(point, phone, 2)
    move = next(
        m
        for m in director.state(tid)["plan"]["moves"]
        if m["player"] == player  # type: ignore[index]
    )
    assert called["alert"] == {
        "kind": "move_called",
        "player": player,
        "table": move["to"]["table"],
        "seat": move["to"]["seat"],
    }

    # As a push service receives it: encrypted (aes128gcm), kept a while, urgent, and signed
    # with the key the page subscribed with, for this service, by the venue's contact.
    delivery = point.to(phone)[0]
    assert delivery.headers["content-encoding"] == "aes128gcm"
    assert int(delivery.headers["ttl"]) > 0
    assert delivery.headers["urgency"] == "high"
    claims = pushpoint.vapid_claims(delivery.headers["authorization"], key["key"])
    assert claims["aud"] == point.origin
    assert claims["sub"] == "mailto:director@venue.example"
    assert claims["exp"] > time.time()


def test_an_opt_in_with_a_bad_field_is_refused_naming_it_and_keeps_nothing(
    servers: list[ServerProcess], director: Api, point: PushPoint
) -> None:
    staff = servers[0]
    phone = point.phone()
    good = phone.subscription()
    bad: list[tuple[dict[str, Any], int, str]] = [
        ({**good, "endpoint": "https://evil.example/x"}, 422, "endpoint"),
        ({**good, "endpoint": "http://10.0.0.1:6379/"}, 422, "endpoint"),
        ({**good, "keys": {**good["keys"], "p256dh": "BAAA"}}, 422, "keys.p256dh"),
        ({**good, "keys": {**good["keys"], "p256dh": "B" + "A" * 86}}, 422, "keys.p256dh"),
        ({**good, "keys": {**good["keys"], "auth": "c2hvcnQ"}}, 422, "keys.auth"),
        ({**good, "lang": "<script>"}, 422, "lang"),
        ({"keys": good["keys"]}, 422, "endpoint"),
    ]
    # Each from an address of its own: a refused opt-in counts against its address too.
    for body, status, field in bad:
        with client(staff) as c:
            r = c.put(f"/api/t/{TID}/push/P1", json=body)
        assert (r.status_code, r.json()["error"]["field"]) == (status, field), body
    with client(staff) as c:
        r = c.put(f"/api/t/{TID}/push/P1", json={**good, "extra": 1})
        assert r.status_code == 422 and "`extra`" in r.json()["error"]["message"]
    with client(staff) as c:
        r = c.put(f"/api/t/{TID}/push/P1", content=b'{"endpoint": "' + b"x" * 4000 + b'"}')
        assert r.status_code == 413
        r = c.put(f"/api/t/{TID}/push/nobody", json=good)
        assert (r.status_code, r.json()["error"]["field"]) == (404, "player")
        r = c.put(f"/api/t/{TID}-none/push/P1", json=good)
        assert r.status_code == 404
    # Nothing was kept: a break of P1's table wakes no phone.
    point.clear()
    director.ok(TID, {"type": "call_time", "table": seat_of(director, "P1")[0], "seat": 1})
    time.sleep(0.5)
    assert point.to(phone) == []


def test_a_player_holds_five_phones_at_most_and_a_phone_that_stops_is_not_woken(
    servers: list[ServerProcess], director: Api, point: PushPoint
) -> None:
    staff = servers[0]
    tid = "push-five"
    player = fresh(director, tid)[3][0]
    phones = [point.phone() for _ in range(MOST_PER_OWNER + 1)]
    for n, phone in enumerate(phones[:-1]):
        r = opt_in(staff, phone, player, tid)
        assert (r.status_code, r.json()["held"]) == (201, n + 1)
    r = opt_in(staff, phones[-1], player, tid)
    assert (r.status_code, r.json()["error"]["field"]) == (409, "player")
    # The same phone again is no sixth (a new language: replaced).
    assert opt_in(staff, phones[0], player, tid, lang="cs").json()["held"] == MOST_PER_OWNER

    with client(staff) as c:
        stop = {"endpoint": phones[1].endpoint}
        r = c.request("DELETE", f"/api/t/{tid}/push/{player}", json=stop)
        assert r.json() == {"ok": True, "removed": True}
        r = c.request("DELETE", f"/api/t/{tid}/push/{player}", json=stop)
        assert r.json() == {"ok": True, "removed": False}
    assert opt_in(staff, phones[-1], player, tid).status_code == 201

    break_by_rule(director, tid)
    for phone in (phones[0], *phones[2:]):
        opened(point, phone, 1)
    time.sleep(0.3)
    assert point.to(phones[1]) == []


def test_an_address_has_its_share_of_opt_ins_a_minute(
    servers: list[ServerProcess], director: Api, point: PushPoint
) -> None:
    staff = servers[0]
    with client(staff, "203.0.113.9") as c:
        answers = [
            c.put(f"/api/t/{TID}/push/P3", json=point.phone().subscription()).status_code
            for _ in range(RATE + 1)
        ]
        assert answers == [201] * min(RATE, MOST_PER_OWNER) + [429]
        r = c.put(f"/api/t/{TID}/push/P3", json=point.phone().subscription())
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "too_many_requests"
        assert int(r.headers["retry-after"]) >= 1
    # Another address is not held back by it.
    with client(staff, "203.0.113.10") as c:
        r = c.request("DELETE", f"/api/t/{TID}/push/P3", json={"endpoint": "http://x/y"})
        assert r.status_code == 200


def test_a_subscription_its_service_says_is_gone_is_forgotten(
    servers: list[ServerProcess], director: Api, point: PushPoint
) -> None:
    staff = servers[0]
    tid = "push-gone"
    player = fresh(director, tid)[3][0]
    phone = point.phone()
    assert opt_in(staff, phone, player, tid).status_code == 201
    point.gone.add(phone.endpoint.removeprefix(point.origin))
    break_by_rule(director, tid)
    opened(point, phone, 1)
    # Forgotten: five other phones fit beside it no more, but in its place.
    deadline = time.monotonic() + 10
    held: list[int | None] = []
    while time.monotonic() < deadline:
        with client(staff) as c:
            r = c.request(
                "DELETE", f"/api/t/{tid}/push/{player}", json={"endpoint": phone.endpoint}
            )
        if r.json()["removed"] is False:
            break
        # Not yet forgotten by the sender's report: put it back and look again.
        assert opt_in(staff, phone, player, tid).status_code == 201
        time.sleep(0.1)
    held = [
        opt_in(staff, point.phone(), player, tid).json().get("held") for _ in range(MOST_PER_OWNER)
    ]
    assert held == list(range(1, MOST_PER_OWNER + 1))


def test_a_floorperson_is_woken_for_the_tables_of_their_section(
    servers: list[ServerProcess], director: Api, point: PushPoint
) -> None:
    staff = servers[0]
    fred = Api(staff, sign_in(staff, "fred", "floor-secret"))
    gina = Api(staff, sign_in(staff, "gina", "floor-secret"))
    tables = sorted(
        int(n)
        for n, t in director.state(TID)["state"]["tables"].items()  # type: ignore[index]
        if t["status"] == "open"
    )
    mine, other = tables[0], tables[1]
    r = director.client.put(f"/api/t/{TID}/sections/fred", json={"tables": [mine]})
    assert r.status_code == 200, r.text
    assert r.json()["sections"] == {"fred": [mine]}
    bad = director.client.put(f"/api/t/{TID}/sections/fred", json={"tables": [0]})
    assert (bad.status_code, bad.json()["error"]["field"]) == (422, "tables[0]")
    assert (
        director.client.put(f"/api/t/{TID}/sections/ghost", json={"tables": [1]}).status_code == 404
    )
    assert fred.client.put(f"/api/t/{TID}/sections/fred", json={"tables": [1]}).status_code == 403
    assert fred.client.get(f"/api/t/{TID}/sections").json()["sections"] == {"fred": [mine]}

    fred_phone, gina_phone = point.phone(), point.phone()
    assert fred.client.put("/api/push/staff", json=fred_phone.subscription()).status_code == 201
    assert gina.client.put("/api/push/staff", json=gina_phone.subscription()).status_code == 201
    point.clear()
    director.ok(TID, {"type": "call_time", "table": mine, "seat": 2})
    [to_fred] = opened(point, fred_phone, 1)
    assert to_fred["alert"] == {"kind": "time_called", "table": mine, "seat": 2}
    assert to_fred["url"] == f"/floor/{TID}"
    # Gina has no section: a table in nobody's section is hers, Fred's is not.
    director.ok(TID, {"type": "call_time", "table": other, "seat": 2})
    [to_gina] = opened(point, gina_phone, 1)
    assert to_gina["alert"] == {"kind": "time_called", "table": other, "seat": 2}
    time.sleep(0.3)
    assert len(point.to(fred_phone)) == 1
    # Stopped (as the sign-out does): no more.
    r = fred.client.request("DELETE", "/api/push/staff", json={"endpoint": fred_phone.endpoint})
    assert r.json()["removed"] is True
    director.ok(TID, {"type": "call_time", "table": mine, "seat": 3})
    time.sleep(0.5)
    assert len(point.to(fred_phone)) == 1
    fred.client.close()
    gina.client.close()


def test_the_public_edge_takes_a_players_opt_in_and_refuses_the_staffs(
    servers: list[ServerProcess], director: Api, point: PushPoint
) -> None:
    staff, edge = servers
    key = httpx.get(edge.base + "/api/push/key").json()
    assert key == httpx.get(staff.base + "/api/push/key").json()  # one key for every process
    tid = "push-edge"
    player = fresh(director, tid)[3][0]
    phone = point.phone()
    assert opt_in(edge, phone, player, tid).status_code == 201
    fred = sign_in(staff, "fred", "floor-secret")
    r = httpx.put(edge.base + "/api/push/staff", json=phone.subscription(), headers=fred)
    assert r.status_code == 401
    break_by_rule(director, tid)
    [got] = opened(point, phone, 1)
    assert got["alert"]["kind"] == "table_breaking"
