"""The ticket ledger across processes (issue 27, part 2): one ticket sent with two
registrations at once to two server processes on one Valkey registers one player and
refuses the other; a registration the tournament refuses gives its ticket back; a satellite's
seats enter the ledger and one of them registers in the target event."""

from __future__ import annotations

import asyncio

import httpx

from floor.redisdb.embedded import EmbeddedServer

from .conftest import Api, ServerProcess, sign_in

ROUNDS = 8


def sell(director: Api, target: str, **kw: object) -> str:
    body = {"command": {"type": "sell_ticket", "target": target, "value": 1100, **kw}}
    r = director.client.post("/api/tickets/commands", json=body)
    assert r.status_code == 200, r.text
    ticket: str = r.json()["ticket"]
    return ticket


def ledger(director: Api, **params: str) -> dict[str, dict[str, object]]:
    r = director.client.get("/api/tickets", params=params)
    assert r.status_code == 200, r.text
    return {t["id"]: t for t in r.json()["tickets"]}


async def race(
    servers: list[ServerProcess], headers: dict[str, str], tid: str, ticket: str, n: int
) -> list[httpx.Response]:
    """Two registrations with ``ticket``, one to each process, let go at once."""
    clients = [httpx.AsyncClient(base_url=s.base, headers=headers, timeout=30.0) for s in servers]
    try:
        start = asyncio.Event()

        async def register(i: int) -> httpx.Response:
            await start.wait()
            body = {
                "id": f"{tid}-{ticket}-{i}",
                "command": {"type": "register", "name": f"Racer {n}-{i}", "player": f"R{n}-{i}",
                            "ticket": ticket},
            }  # fmt: skip
            return await clients[i].post(f"/api/t/{tid}/commands", json=body)

        tasks = [asyncio.create_task(register(i)) for i in range(2)]
        await asyncio.sleep(0.05)
        start.set()
        return await asyncio.gather(*tasks)
    finally:
        for c in clients:
            await c.aclose()


def test_a_ticket_used_twice_at_once_on_two_processes_registers_once(
    servers: list[ServerProcess], director: Api, valkey: EmbeddedServer
) -> None:
    tid = "ticketed"
    director.create(tid, 10)
    headers = sign_in(servers[1], "boss", "director-secret")
    won: dict[str, str] = {}
    for n in range(ROUNDS):
        ticket = sell(director, tid, transferable=True)
        answers = asyncio.run(race(servers, headers, tid, ticket, n))
        ok = [r for r in answers if r.status_code == 200]
        refused = [r for r in answers if r.status_code != 200]
        assert len(ok) == 1 and len(refused) == 1, [r.text for r in answers]
        error = refused[0].json()["error"]
        assert (refused[0].status_code, error["field"]) == (409, "ticket")
        assert error["reason"] in ("ticket_held", "ticket_not_issued")
        won[ticket] = f"R{n}-{answers.index(ok[0])}"

    rows = ledger(director, target=tid)
    for ticket, player in won.items():
        assert (rows[ticket]["status"], rows[ticket]["used_in"]) == ("used", tid)
        assert rows[ticket]["used_by"] == player and not rows[ticket]["held"]
    state = director.state(tid)["state"]
    assert isinstance(state, dict)
    # Each ticket counted as one entry, the buy-in it replaces; the losers never entered.
    assert state["entries"] == 10 + ROUNDS
    assert set(won.values()) <= set(state["players"])
    assert len([p for p in state["players"] if p.startswith("R")]) == ROUNDS


def test_a_registration_refused_gives_its_ticket_back_and_a_bound_one_serves_its_holder(
    servers: list[ServerProcess], director: Api
) -> None:
    tid = "ticketed-2"
    director.create(tid, 4)
    ticket = sell(director, tid, holder="P0", name="Player 0")
    # P0 is in already: the tournament refuses the entry, the house releases the ticket.
    r = director.command(
        tid, {"type": "register", "name": "Player 0", "player": "P0", "ticket": ticket}
    )
    assert r.status_code == 409 and r.json()["error"]["reason"] == "player_exists", r.text
    assert ledger(director)[ticket]["status"] == "issued"
    assert not ledger(director)[ticket]["held"]
    r = director.command(
        tid, {"type": "register", "name": "Someone", "player": "Q1", "ticket": ticket}
    )
    assert r.status_code == 409 and r.json()["error"]["reason"] == "ticket_bound", r.text
    other = director.command(
        "ticketed", {"type": "register", "name": "X", "player": "Q2", "ticket": ticket}
    )
    assert other.status_code == 409 and other.json()["error"]["reason"] == "ticket_other_event"
    # Handed on? Bound: refused. Refunded: no longer used.
    r = director.client.post(
        "/api/tickets/commands",
        json={"command": {"type": "transfer_ticket", "ticket": ticket, "holder": "Q1"}},
    )
    assert r.status_code == 409 and r.json()["error"]["field"] == "ticket"
    r = director.client.post(
        "/api/tickets/commands", json={"command": {"type": "refund_ticket", "ticket": ticket}}
    )
    assert r.status_code == 200, r.text
    r = director.command(tid, {"type": "register", "name": "New", "player": "P9", "ticket": ticket})
    assert r.status_code == 409 and r.json()["error"]["reason"] == "ticket_not_issued"
