"""Table screens and sign-in limits on real servers behind a trusted proxy (the clients'
addresses come in ``X-Forwarded-For``, as nginx sends them): one test per finding of issue 24
about them.

- a table-3 tablet busted a player at table 3 of another tournament;
- it saw special-needs flags and notes of every table;
- the director could neither list nor end nor move a tablet (now: its socket closes at once,
  on every process);
- 59 wrong dealer PINs from addresses inside one IPv6 /64 met no delay, and the right one was
  then accepted from anywhere;
- about a hundred wrong pairing codes from one address refused every pairing from it;
- an attempt already delayed still cost a hash (counted here by ``/metrics``).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from floor.redisdb.embedded import EmbeddedServer
from floor.server.signin_limits import FREE_FAILURES, MAX_FAILURES_PER_ADDRESS
from floor.server.tablets import PAIRING_TRIES
from tests.e2e.conftest import Api, ServerProcess, add_user, dealer_on, paired


@pytest.fixture(scope="module")
def servers(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """Two processes that trust this machine as their proxy: a test names each client's
    address in ``X-Forwarded-For``. No request rate limit: the sign-in limits are tested."""
    logs = tmp_path_factory.mktemp("tablets-logs")
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "dana", "4321", "dealer")
    add_user(valkey.url, "fred", "floor-secret", "floor")
    procs = [
        ServerProcess(
            valkey.url,
            logs / f"server-{i}.log",
            FLOOR_TRUSTED_PROXIES="127.0.0.1",
            FLOOR_RATE_LIMIT="0",
        )
        for i in range(2)
    ]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


def seat_at(api: Api, tid: str, table: int) -> tuple[int, str]:
    """A seat at ``table`` with a player in it, and the player."""
    occupants = api.state(tid)["state"]["tables"][str(table)]["occupants"]  # type: ignore[index]
    seat, player = next(iter(occupants.items()))  # type: ignore[union-attr]
    return int(seat), str(player)


def test_a_tablet_busts_nobody_at_its_table_of_another_tournament(
    servers: list[ServerProcess], director: Api
) -> None:
    """The finding: the table-3 tablet busted a player at table 3 of another tournament."""
    director.create("home", 20)
    director.create("elsewhere", 20)
    tablet = Api(servers[0], paired(servers[0], director, "home", 1))
    seat, player = seat_at(director, "elsewhere", 1)
    for command in (
        {"type": "bust", "table": 1, "seat": seat},
        {"type": "bust", "player": player},
        {"type": "hand", "table": 1},
    ):
        r = tablet.command("elsewhere", command)
        assert r.status_code == 403, r.text
        assert r.json()["error"]["field"] == "tournament"
    players = director.state("elsewhere")["state"]["players"]  # type: ignore[index]
    assert not players[player]["busted"]  # type: ignore[index]
    # At its own table of its own tournament it deals and busts; the dealer on it too.
    own_seat, own = seat_at(director, "home", 1)
    assert tablet.command("home", {"type": "bust", "table": 1, "seat": own_seat}).status_code == 200
    dealer = Api(servers[1], dealer_on(servers[1], paired(servers[1], director, "home", 2)))
    assert dealer.command("elsewhere", {"type": "hand", "table": 2}).status_code == 403
    assert dealer.command("home", {"type": "hand", "table": 1}).status_code == 403
    _, other = seat_at(director, "home", 2)
    assert dealer.command("home", {"type": "bust", "player": other}).status_code == 200
    assert director.state("home")["state"]["players"][own]["busted"]  # type: ignore[index]
    for api in (tablet, dealer):
        api.client.close()


async def receive(ws: Any, kind: str) -> dict[str, Any]:
    while (message := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != kind:
        pass
    return message  # type: ignore[no-any-return]


def test_a_tablet_is_shown_no_special_needs_nor_notes_nor_check_codes(
    servers: list[ServerProcess], director: Api
) -> None:
    """The finding: a tablet saw special-needs flags and notes everywhere, and every seat
    card's check code."""
    director.create("needs", 20)
    screen = paired(servers[0], director, "needs", 1)
    _, here = seat_at(director, "needs", 1)
    _, there = seat_at(director, "needs", 2)

    async def watch() -> list[dict[str, Any]]:
        url = f"{servers[1].ws}/ws/t/needs"
        async with connect(url, additional_headers=screen, compression=None) as ws:
            snapshot = await receive(ws, "snapshot")
            for pid in (here, there):
                director.ok("needs", {"type": "set_special_needs", "player": pid})
            director.ok("needs", {"type": "register", "name": "Noted", "note": "wheelchair"})
            batches = [await receive(ws, "events") for _ in range(3)]
            return [snapshot, *batches]

    seen = asyncio.run(watch())
    text = json.dumps(seen)
    assert '"special_needs": true' not in text and "wheelchair" not in text
    staff = director.state("needs")["state"]["players"]  # type: ignore[index]
    assert staff[here]["special_needs"] and staff[there]["special_needs"]  # type: ignore[index]
    # Over HTTP alike; and no printable with the cards' check codes, nor the metrics.
    for path in ("/api/t/needs", "/api/t/needs/snapshot"):
        body = httpx.get(servers[0].base + path, headers=screen).text
        assert '"special_needs":true' not in body and "wheelchair" not in body
    for path in ("/api/t/needs/paper", "/api/t/needs/bags", "/metrics"):
        assert httpx.get(servers[0].base + path, headers=screen).status_code == 403


async def closed_within(ws: Any, seconds: float) -> int:
    """The close code of ``ws``, closed by the server within ``seconds``."""
    code = None
    try:
        while True:
            await asyncio.wait_for(ws.recv(), seconds)
    except ConnectionClosed as e:
        code = None if e.rcvd is None else e.rcvd.code
    assert code is not None
    return code


def test_the_director_lists_ends_and_moves_tablets_on_every_process_at_once(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("list-a", 20)
    director.create("list-b", 20)
    screen = paired(servers[0], director, "list-a", 1)
    dealer_on(servers[0], screen)
    me = httpx.get(servers[1].base + "/api/me", headers=screen).json()
    device = me["device"]
    listed = {t["id"]: t for t in director.client.get("/api/tablets").json()}
    assert (listed[device]["tournament"], listed[device]["table"]) == ("list-a", 1)
    assert listed[device]["dealer"] == "dana" and listed[device]["last_seen"] is not None

    async def moved_then_ended() -> tuple[int, dict[str, Any], int]:
        # Its socket on the other process closes as soon as it is moved ...
        async with connect(
            f"{servers[1].ws}/ws/t/list-a", additional_headers=screen, compression=None
        ) as ws:
            await receive(ws, "snapshot")
            r = director.client.put(
                f"/api/tablets/{device}", json={"tournament": "list-b", "table": 3}
            )
            assert r.status_code == 200, r.text
            moved = await closed_within(ws, 5)
        # ... and it reconnects as table 3 of list-b, with no pairing, no dealer.
        async with connect(
            f"{servers[1].ws}/ws/t/list-b", additional_headers=screen, compression=None
        ) as ws:
            hello = await receive(ws, "hello")
            assert director.client.delete(f"/api/tablets/{device}").status_code == 200
            ended = await closed_within(ws, 5)
        return moved, hello, ended

    moved, hello, ended = asyncio.run(moved_then_ended())
    assert moved == ended == 4001
    assert (hello["role"], hello["table"], hello["device"]) == ("table", 3, device)
    # Ended: its token is nobody's, on every process.
    for server in servers:
        r = httpx.get(server.base + "/api/me", headers=screen)
        assert (r.status_code, r.json()["error"]["code"]) == (401, "signed_out")
        r = httpx.post(
            server.base + "/api/t/list-b/commands/hand", json={"table": 3}, headers=screen
        )
        assert r.status_code == 401
    assert device not in {t["id"] for t in director.client.get("/api/tablets").json()}
    r = director.client.delete(f"/api/tablets/{device}")
    assert (r.status_code, r.json()["error"]["reason"]) == (404, "no_such_tablet")


def wrong_signins(server: ServerProcess, name: str, secret: str, addresses: list[str]) -> list[int]:
    return [
        httpx.post(
            server.base + "/api/signin",
            json={"username": name, "secret": secret},
            headers={"X-Forwarded-For": address},
        ).status_code
        for address in addresses
    ]


def test_addresses_inside_one_64_through_the_trusted_proxy_meet_the_delay(
    servers: list[ServerProcess],
) -> None:
    """The finding: 59 wrong PINs from addresses inside one /64 met no delay."""
    inside = [f"2001:db8:24:6:{i:x}:{i * 7:x}::{i:x}" for i in range(1, 60)]
    statuses = wrong_signins(servers[0], "fred", "wrong secret", inside)
    assert statuses[:FREE_FAILURES] == [401] * FREE_FAILURES
    assert statuses[FREE_FAILURES] == 429
    # The right password from inside that /64 waits too; from another /64 it is let in.
    assert wrong_signins(servers[1], "fred", "floor-secret", ["2001:db8:24:6::99"]) == [429]
    assert wrong_signins(servers[1], "fred", "floor-secret", ["2001:db8:24:7::1"]) == [200]


def test_a_browser_that_signed_in_before_is_never_delayed_by_its_neighbours(
    servers: list[ServerProcess],
) -> None:
    home = "2001:db8:77:1::5"
    with httpx.Client(base_url=servers[0].base, headers={"X-Forwarded-For": home}) as browser:
        r = browser.post("/api/signin", json={"username": "boss", "secret": "director-secret"})
        assert r.status_code == 200 and "floor_known" in browser.cookies
        # Strangers on the same /64 guess the director's password until it is delayed ...
        wrong_signins(servers[0], "boss", "guess", [f"2001:db8:77:1::{i}" for i in range(10, 20)])
        assert wrong_signins(servers[0], "boss", "director-secret", [home]) == [429]
        # ... and this browser signs in all the same.
        r = browser.post("/api/signin", json={"username": "boss", "secret": "director-secret"})
        assert r.status_code == 200, r.text


def test_a_dealers_pin_is_accepted_on_a_paired_table_screen_only(
    servers: list[ServerProcess], director: Api
) -> None:
    """The finding: the right PIN after 59 wrong ones was accepted, from anywhere."""
    assert wrong_signins(servers[0], "dana", "4321", ["198.51.100.30"]) == [401]
    r = httpx.post(
        servers[0].base + "/api/table/signin", json={"username": "dana", "secret": "4321"}
    )
    assert r.status_code == 403
    director.create("pins", 12)
    screen = paired(servers[0], director, "pins", 1)
    r = httpx.post(
        servers[1].base + "/api/table/signin",
        json={"username": "dana", "secret": "4321"},
        headers=screen,
    )
    assert r.status_code == 200, r.text
    assert r.json()["principal"] == {
        "username": "dana",
        "role": "dealer",
        "table": 1,
        "tournament": "pins",
        "device": r.json()["principal"]["device"],
    }


def pair(server: ServerProcess, code: str, address: str) -> httpx.Response:
    return httpx.post(
        server.base + "/api/signin/pair",
        json={"code": code},
        headers={"X-Forwarded-For": address},
    )


def test_a_pairing_code_dies_after_its_wrong_tries_and_no_address_is_refused(
    servers: list[ServerProcess], director: Api
) -> None:
    """The finding: about a hundred wrong codes from one address refused every pairing
    from it (behind a venue's NAT, one phone stopped every tablet)."""
    director.create("codes", 12)

    def code(table: int) -> str:
        r = director.client.post("/api/pairing", json={"tournament": "codes", "table": table})
        assert r.status_code == 201, r.text
        return str(r.json()["code"])

    venue = "203.0.113.50"
    doomed, kept = code(1), code(2)
    slot = doomed[:3]
    for i in range(PAIRING_TRIES):
        wrong = f"{slot}{(int(doomed[3:]) + i + 1) % 10**6:06d}"
        assert pair(servers[0], wrong, venue).status_code == 401
    assert pair(servers[1], doomed, venue).status_code == 401  # void now
    # Wrong codes from the venue's address, past what refused it before ...
    typed = 0
    for i in range(MAX_FAILURES_PER_ADDRESS + 20):
        guess = f"{(i * 7919) % 10**9:09d}"
        if guess[:3] != kept[:3]:
            assert pair(servers[i % 2], guess, venue).status_code == 401
            typed += 1
    assert typed > MAX_FAILURES_PER_ADDRESS
    # ... and the next tablet there pairs with its code.
    r = pair(servers[0], kept, venue)
    assert r.status_code == 200, r.text
    assert (r.json()["principal"]["role"], r.json()["principal"]["table"]) == ("table", 2)


def hashes(server: ServerProcess, director: Api) -> int:
    text = httpx.get(server.base + "/metrics", headers=director.client.headers).text
    found = re.search(r"^floor_signin_hashes_total (\d+)$", text, re.M)
    assert found is not None, text
    return int(found.group(1))


def test_an_attempt_already_delayed_is_refused_before_hashing(
    servers: list[ServerProcess], director: Api
) -> None:
    # The director's session (its sign-in hashed) is made before the count starts.
    address = "198.51.100.77"
    before = hashes(servers[0], director)
    statuses = wrong_signins(servers[0], "fred", "wrong secret", [address] * FREE_FAILURES)
    assert statuses == [401] * FREE_FAILURES
    assert hashes(servers[0], director) == before + FREE_FAILURES

    async def burst() -> list[int]:
        async with httpx.AsyncClient(base_url=servers[0].base) as client:
            answers = await asyncio.gather(
                *(
                    client.post(
                        "/api/signin",
                        json={"username": "fred", "secret": secret},
                        headers={"X-Forwarded-For": address},
                    )
                    for secret in ["wrong secret"] * 20 + ["floor-secret"]
                )
            )
        return [r.status_code for r in answers]

    assert asyncio.run(burst()) == [429] * 21
    assert hashes(servers[0], director) == before + FREE_FAILURES
