"""The live server end to end: real processes, the embedded Valkey, real websocket clients."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import pytest
import redis
from websockets.exceptions import ConnectionClosed

from floor.redisdb.embedded import EmbeddedServer
from tests.e2e.conftest import Api, ServerProcess, dealer_on, paired, sign_in
from tests.e2e.screens import Screen, as_public, state_json


def seq_of(api: Api, tid: str) -> int:
    return int(api.state(tid)["seq"])  # type: ignore[call-overload]


async def test_a_bust_out_reaches_every_subscribed_client_with_consecutive_numbers(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("fanout", 40)
    url = servers[0].ws + "/ws/t/fanout"
    screens = [await Screen.open(url) for _ in range(25)]
    for s in screens:
        s.take(await s.receive())
    start = screens[0].seq
    for pid in ("P1", "P2", "P3", "P4", "P5"):
        director.ok("fanout", {"type": "bust", "player": pid})
    end = seq_of(director, "fanout")
    assert end > start
    for s in screens:
        await s.until(end)
        assert s.seqs == list(range(start + 1, end + 1))
        assert s.t is not None
        assert state_json(s.t) == as_public(director.state("fanout")["state"])
    for s in screens:
        await s.close()


async def test_a_client_that_misses_events_and_reconnects_ends_with_the_servers_state(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("catchup", 40)
    url = servers[0].ws + "/ws/t/catchup"
    screen = await Screen.open(url)
    screen.take(await screen.receive())
    held, seq = screen.t, screen.seq
    await screen.close()
    for pid in ("P7", "P8", "P9", "P10", "P11", "P12"):
        director.ok("catchup", {"type": "bust", "player": pid})
    director.ok("catchup", {"type": "register", "name": "Late Entry", "player": "L1"})
    back = await Screen.open(url, since=seq)
    back.t, back.seq = held, seq
    await back.until(seq_of(director, "catchup"))
    assert back.batches[0]["from"] == seq + 1  # exactly what it missed, no snapshot
    assert back.t is not None
    assert state_json(back.t) == as_public(director.state("catchup")["state"])
    await back.close()


async def test_a_reconnect_from_too_long_ago_gets_a_fresh_snapshot(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("stale", 20)
    screen = await Screen.open(servers[0].ws + "/ws/t/stale", since=10**9)
    first = await screen.receive()
    assert first["type"] == "snapshot"
    assert first["seq"] == seq_of(director, "stale")
    await screen.close()


async def test_a_command_on_one_server_reaches_clients_of_the_other(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("twoproc", 30)
    other = await Screen.open(servers[1].ws + "/ws/t/twoproc")
    other.take(await other.receive())
    director.ok("twoproc", {"type": "bust", "player": "P3"})
    await other.until(seq_of(director, "twoproc"))
    busted = [
        e["event"]
        for b in other.batches
        for e in b["events"]
        if e["event"]["type"] == "player_busted"
    ]
    assert [e["player"] for e in busted] == ["P3"]
    await other.close()


def test_a_server_with_no_screens_answers_reads_with_the_current_state(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("reads", 20)
    elsewhere = Api(servers[1], dict(director.client.headers))
    assert seq_of(elsewhere, "reads") == seq_of(director, "reads")  # loaded there now
    for pid in ("P1", "P2", "P3"):
        director.ok("reads", {"type": "bust", "player": pid})
    target = seq_of(director, "reads")
    deadline = time.monotonic() + 5
    while seq_of(elsewhere, "reads") != target:
        assert time.monotonic() < deadline, "the other server kept an old copy"
        time.sleep(0.02)
    assert elsewhere.state("reads") == director.state("reads")
    elsewhere.client.close()


async def test_the_public_cannot_change_anything_and_a_dealer_only_their_own_table(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("roles", 20)
    t = director.state("roles")["state"]
    tables = t["tables"]  # type: ignore[index]
    at_other = next(p for p in t["players"].values() if p["table"] != 1)  # type: ignore[index,union-attr]
    public = Api(servers[0], {})
    before = seq_of(director, "roles")
    r = public.command("roles", {"type": "bust", "player": "P1"})
    assert r.status_code == 403
    assert "read-only" in r.json()["error"]["message"]
    dealer = Api(servers[0], dealer_on(servers[0], paired(servers[0], director, "roles", 1)))
    r = dealer.command("roles", {"type": "bust", "player": at_other["id"]})
    assert r.status_code == 403
    r = dealer.command("roles", {"type": "hand", "table": 2})
    assert r.status_code == 403
    assert seq_of(director, "roles") == before
    seat = next(iter(tables["1"]["occupants"]))  # type: ignore[index]
    r = dealer.command("roles", {"type": "button", "table": 1, "seat": int(seat)})
    assert r.status_code == 200, r.text
    screen = await Screen.open(servers[0].ws + "/ws/t/roles")
    screen.take(await screen.receive())
    await screen.ws.send(
        json.dumps({"type": "command", "id": "pub-1", "command": {"type": "hand", "table": 1}})
    )
    result = await screen.receive()
    assert result["type"] == "result"
    assert result["outcome"]["error"]["code"] == "forbidden"
    await screen.close()
    public.client.close()
    dealer.client.close()


async def test_the_public_is_not_sent_special_needs_seats_or_seat_locks(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("private", 12)
    staff_screen = await Screen.open(
        servers[1].ws + "/ws/t/private",
        additional_headers={"Authorization": director.client.headers["authorization"]},
    )
    public_screen = await Screen.open(servers[1].ws + "/ws/t/private")
    for s in (staff_screen, public_screen):
        s.take(await s.receive())
    director.ok(
        "private", {"type": "register", "name": "Ana Wheel", "player": "W1", "special_needs": True}
    )
    director.ok("private", {"type": "lock_seat", "player": "P2"})
    end = seq_of(director, "private")
    for s in (staff_screen, public_screen):
        await s.until(end)
    assert staff_screen.t is not None and public_screen.t is not None
    assert staff_screen.t.player("W1").special_needs and staff_screen.t.player("P2").locked
    assert not public_screen.t.player("W1").special_needs
    assert not public_screen.t.player("P2").locked
    # Apart from those flags the public sees the same tournament, at the same numbers.
    assert public_screen.seqs == staff_screen.seqs
    assert public_screen.t.player("W1").table == staff_screen.t.player("W1").table
    # A public screen joining now gets a snapshot without them; so do public reads.
    late = await Screen.open(servers[0].ws + "/ws/t/private")
    late.take(await late.receive())
    assert late.t is not None and late.seq == end
    for raw in (
        json.dumps(state_json(late.t)),
        httpx.get(servers[0].base + "/api/t/private").text,
        httpx.get(servers[0].base + "/api/t/private/events?since=0").text,
    ):
        assert '"special_needs":true' not in raw.replace(" ", "")
        assert '"locked":true' not in raw.replace(" ", "")
    staff_read = director.state("private")["state"]
    assert staff_read["players"]["W1"]["special_needs"]  # type: ignore[index]
    for s in (staff_screen, public_screen, late):
        await s.close()


async def _ws_command(screen: Screen, cid: str, command: dict[str, object]) -> dict[str, object]:
    await screen.ws.send(json.dumps({"type": "command", "id": cid, "command": command}))
    while True:
        message = await screen.receive()
        if message["type"] == "result":
            outcome: dict[str, object] = message["outcome"]
            return outcome


async def test_a_removed_staff_members_open_sockets_lose_their_rights(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("revoked", 20)
    r = director.client.post(
        "/api/staff", json={"username": "leaver", "secret": "leaver-secret", "role": "floor"}
    )
    assert r.status_code in (200, 201), r.text
    screens = []
    for server in servers:
        token = sign_in(server, "leaver", "leaver-secret")
        screens.append(await Screen.open(server.ws + "/ws/t/revoked", additional_headers=token))
    for screen in screens:
        assert screen.hello["role"] == "floor"
    ok = await _ws_command(screens[0], "leaver-1", {"type": "lock_seat", "player": "P1"})
    assert ok["ok"] is True, ok
    before = seq_of(director, "revoked")

    r = director.client.delete("/api/staff/leaver")
    assert r.status_code == 200, r.text

    # Closed by both processes (4001) within moments, by the sign-out feed the other process
    # hears through Redis, not left open until its next command is refused: until then the
    # socket was sent what only staff see. (Waiting for the close, not racing a command
    # against the feed.)
    for screen in screens:
        with pytest.raises(ConnectionClosed) as closed:
            await _until_closed(screen, 5)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 4001
        assert "sign in again" in closed.value.rcvd.reason
    assert seq_of(director, "revoked") == before


async def _until_closed(screen: Screen, within: float) -> None:
    """Read what the screen is sent until the server closes it (raises ConnectionClosed)."""
    async with asyncio.timeout(within):
        while True:
            await screen.receive()


def test_a_director_cannot_remove_the_account_they_are_signed_in_with(director: Api) -> None:
    r = director.client.delete("/api/staff/boss")

    assert r.status_code == 422
    assert r.json()["error"]["message"].startswith("you cannot remove the account you are signed")
    assert director.client.get("/api/me").json()["role"] == "director"


BAD_INPUTS = [
    ("not json", b'{"id": "x", "command":', 400, None),
    ("unknown field", {"id": "b1", "command": {"type": "bust", "playr": "P1"}}, 422, "command"),
    ("wrong type", {"id": "b2", "command": {"type": "hand", "table": "one"}}, 422, "command.table"),
    ("unknown command", {"id": "b3", "command": {"type": "deal_me_aces"}}, 422, "command.type"),
    (
        "unknown player",
        {"id": "b4", "command": {"type": "bust", "player": "nobody"}},
        404,
        "player",
    ),
    ("unknown table", {"id": "b5", "command": {"type": "hand", "table": 99}}, 404, "table"),
    (
        "refused by the rules",
        {"id": "b6", "command": {"type": "confirm", "player": "P1"}},
        409,
        "player",
    ),
    (
        "seat that does not exist",
        {"id": "b7", "command": {"type": "bust", "table": 1, "seat": 12}},
        409,
        "seat",
    ),
    (
        "bad command id",
        {"id": "no spaces allowed", "command": {"type": "bust", "player": "P1"}},
        422,
        "command_id",
    ),
    ("missing field", {"id": "b8", "command": {"type": "register"}}, 422, "command.name"),
    (
        "blank name",
        {"id": "b9", "command": {"type": "register", "name": "  "}},
        422,
        "name",
    ),
    (
        "number too large",
        {"id": "b10", "command": {"type": "set_stack", "player": "P1", "stack": 2**60}},
        422,
        "command.stack",
    ),
]


@pytest.mark.parametrize(
    ("name", "body", "status", "field"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS]
)
def test_bad_input_gets_a_4xx_naming_the_problem_and_changes_nothing(
    servers: list[ServerProcess],
    director: Api,
    name: str,
    body: object,
    status: int,
    field: str | None,
) -> None:
    tid = "badinput"
    try:
        director.state(tid)
    except AssertionError:
        director.create(tid, 20)
    before = director.state(tid)
    if isinstance(body, bytes):
        r = director.client.post(
            f"/api/t/{tid}/commands", content=body, headers={"content-type": "application/json"}
        )
    else:
        r = director.client.post(f"/api/t/{tid}/commands", json=body)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["message"]
    if field is not None:
        assert error["field"] == field, error
    assert director.state(tid) == before


def test_a_body_that_is_too_large_is_refused_with_413_and_changes_nothing(
    director: Api,
) -> None:
    director.create("toolarge", 12)
    before = director.state("toolarge")
    command = {"id": "big-1", "command": {"type": "bust", "player": "P1"}, "pad": "x" * 200_000}
    r = director.client.post("/api/t/toolarge/commands", json=command)
    assert r.status_code == 413
    assert r.json()["error"]["message"].startswith("the body is larger than")
    assert director.state("toolarge") == before


def test_a_path_command_whose_body_names_another_command_is_refused(director: Api) -> None:
    director.create("pathtype", 12)
    before = director.state("pathtype")
    r = director.client.post(
        "/api/t/pathtype/commands/lock_seat", json={"type": "bust", "player": "P1"}
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == "type"
    assert director.state("pathtype") == before
    same = director.client.post(
        "/api/t/pathtype/commands/lock_seat", json={"type": "lock_seat", "player": "P1"}
    )
    assert same.status_code == 200, same.text


def test_a_director_archives_a_tournament_and_a_retry_answers_the_same(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("arch-1", 4)
    fred = Api(servers[1], sign_in(servers[1], "fred", "floor-secret"))
    assert fred.client.post("/api/t/arch-1/archive").status_code == 403
    first = director.client.post("/api/t/arch-1/archive")
    again = director.client.post("/api/t/arch-1/archive")
    assert first.status_code == again.status_code == 200, first.text
    assert first.json() == again.json() and first.json()["status"] == "archived"
    live = [s["id"] for s in director.client.get("/api/tournaments").json()]
    archived = [s["id"] for s in director.client.get("/api/tournaments?archived=1").json()]
    assert "arch-1" not in live and "arch-1" in archived
    assert seq_of(director, "arch-1") > 4  # the log and its screens stay
    assert director.client.post("/api/t/never-was/archive").status_code == 404
    fred.client.close()


def test_a_retried_create_lists_a_tournament_the_first_attempt_did_not(
    valkey: EmbeddedServer, director: Api
) -> None:
    body = {"id": "relist-1", "name": "Relist", "rules": "tda-2024", "structure": "demo-fast"}
    assert director.client.post("/api/tournaments", json=body).status_code == 201
    # The first attempt wrote the log, then lost Redis before the listing was written.
    with redis.Redis.from_url(valkey.url) as r:
        assert r.hdel("floor:tournaments", "relist-1") == 1
    retry = director.client.post("/api/tournaments", json=body)
    assert retry.status_code == 201 and retry.json()["duplicate"], retry.text
    assert "relist-1" in [s["id"] for s in director.client.get("/api/tournaments").json()]


def test_a_mistyped_page_address_leads_back_to_the_start_page(
    servers: list[ServerProcess],
) -> None:
    base = servers[0].base
    r = httpx.get(base + "/director/spring-main")
    assert r.status_code == 307 and r.headers["location"] == "/director?t=spring-main"
    page = httpx.get(base + "/wal/spring-main")
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert 'href="/"' in page.text
    api = httpx.get(base + "/api/nothing-here")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


def test_an_unknown_tournament_is_404(director: Api) -> None:
    r = director.command("no-such-event", {"type": "bust", "player": "P1"})
    assert r.status_code == 404
    assert "there is no tournament no-such-event" in r.json()["error"]["message"]


async def test_a_websocket_from_a_foreign_origin_is_refused(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("origin", 10)
    # Accepted, then closed with the code docs/protocol.md names (a 403 handshake reached the
    # page as a bare 1006); nothing of the tournament is sent first.
    with pytest.raises(ConnectionClosed) as refused:
        await Screen.open(servers[0].ws + "/ws/t/origin", origin="http://evil.example")
    assert refused.value.rcvd is not None
    assert (refused.value.rcvd.code, refused.value.rcvd.reason) == (
        1008,
        "this origin may not connect",
    )


def test_the_schema_describes_every_command_and_message(servers: list[ServerProcess]) -> None:
    schema = httpx.get(servers[0].base + "/api/schema").json()
    text = json.dumps(schema)
    for kind in ("bust", "confirm", "clock_start", "call_time", "resync", "snapshot"):
        assert f'"{kind}"' in text


async def test_health_and_metrics_count_screens_not_the_clock_drivers_followers(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("counted", 6)
    # The process holding the clock lease follows every listed tournament (a rescan every
    # 5/3 s); those followers are not screens.
    await asyncio.sleep(2.0)
    holder = next(s for s in servers if httpx.get(s.base + "/healthz").json()["clock_lease"])
    health = httpx.get(holder.base + "/healthz").json()
    assert health["ok"] is True
    assert health["clients"] == 0
    screens = [await Screen.open(holder.ws + "/ws/t/counted") for _ in range(2)]
    for screen in screens:
        screen.take(await screen.receive())
    director.ok("counted", {"type": "bust", "player": "P1"})
    await asyncio.gather(*(screen.until(seq_of(director, "counted")) for screen in screens))
    assert httpx.get(holder.base + "/healthz").json()["clients"] == 2
    metrics = httpx.get(holder.base + "/metrics", headers=director.client.headers).text
    assert "floor_clients 2\n" in metrics
    assert "floor_commands_total" in metrics
    # Per screen a fan-out takes microseconds: its histogram has buckets that small.
    assert 'floor_fanout_per_client_seconds_bucket{le="1e-06"}' in metrics
    assert "floor_fanout_seconds_bucket" in metrics
    for screen in screens:
        await screen.close()


async def test_the_clock_changes_level_by_itself_also_after_its_driver_is_killed(
    servers: list[ServerProcess], director: Api
) -> None:
    structure = {
        "name": "quick",
        "starting_stack": 1000,
        "chips": [25, 100],
        "levels": [
            {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 0.05},
            {"type": "level", "small_blind": 50, "big_blind": 100, "minutes": 0.1},
            {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 0.1},
            {"type": "level", "small_blind": 200, "big_blind": 400, "minutes": 5},
        ],
    }
    r = director.client.post(
        "/api/tournaments",
        json={"id": "clock", "name": "clock", "rules": "tda-2024", "structure": structure},
    )
    assert r.status_code == 201, r.text
    watchers = [await Screen.open(s.ws + "/ws/t/clock") for s in servers]
    for w in watchers:
        w.take(await w.receive())
    try:
        holders = [s for s in servers if httpx.get(s.base + "/healthz").json()["clock_lease"]]
        assert len(holders) == 1
        director.ok("clock", {"type": "clock_start"})
        started = time.time()
        first = await watchers[0].until_event("level_changed", timeout=10, level=1)
        ends = director.state("clock")["state"]["clock"]  # type: ignore[index]
        assert first["event"]["level"] == 1
        assert first["event"]["by"] == "clock"
        assert abs(first["event"]["at"] - (started + 3.0)) < 1.0
        # Kill whichever process drives the clock now; another takes over within the lease.
        holder = next(s for s in servers if httpx.get(s.base + "/healthz").json()["clock_lease"])
        holder.kill()
        survivor = watchers[1] if holder is servers[0] else watchers[0]
        second = await survivor.until_event("level_changed", timeout=15, level=2)
        assert second["event"]["level"] == 2
        # Timed from the end of level 1, not from the moment the new driver took over.
        assert second["event"]["at"] == pytest.approx(first["event"]["ends_at"])
        assert ends["level"] >= 1
    finally:
        for w in watchers:
            await w.close()
        for s in servers:
            if s.proc is not None and s.proc.poll() is not None:
                s.start()
        await asyncio.sleep(0)


async def test_floor_serve_with_two_workers_serves_and_every_worker_logs(
    valkey: EmbeddedServer, servers: list[ServerProcess], tmp_path: Path
) -> None:
    """(``servers`` made the accounts.)"""
    server = ServerProcess(valkey.url, tmp_path / "workers.log", args=("--workers", "2"))
    server.start()
    try:
        api = Api(server, sign_in(server, "boss", "director-secret"))
        api.create("workers-2", 10)
        screen = await Screen.open(server.ws + "/ws/t/workers-2")
        screen.take(await screen.receive())
        api.ok("workers-2", {"type": "bust", "player": "P3"})
        await screen.until(seq_of(api, "workers-2"))
        assert screen.t is not None and screen.t.player("P3").busted
        await screen.close()
        api.client.close()
    finally:
        server.stop()
    lines = [json.loads(x) for x in server.log.read_text().splitlines() if x.startswith("{")]
    serving = {e["pid"] for e in lines if e["msg"] == "floor serving"}
    commands = {e["pid"] for e in lines if e.get("command") == "bust"}
    assert len(serving) == 2, lines
    assert len(commands) == 1 and commands <= serving, lines
