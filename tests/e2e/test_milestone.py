"""A milestone satellite through the HTTP API of real server processes on a real Valkey
(issue 27.2): a bad milestone refused naming the field; the floor awards a seat to a counted
stack at the milestone (refused below it, named), its ticket in the house's ledger at once;
the other process serves the same state; an undo gives the seat back and withdraws the
ticket; played down to the seats left, the milestone's winner holds a seat and the others'
tickets enter the ledger beside theirs."""

from __future__ import annotations

from typing import Any

from .conftest import Api, ServerProcess, settled, sign_in

STRUCTURE: dict[str, Any] = {
    "name": "e2e-milestone",
    "starting_stack": 10_000,
    "chips": [25, 100, 500],
    "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 30}],
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "fee": 10,
        "payouts": [{"entries": 1, "percents": [100]}],
        # 20 entries of 100: four seats of 500.
        "satellite": {"target": "main-ms", "seat": 500, "milestone": 40_000},
    },
}


def state(api: Api, tid: str) -> Any:
    return api.state(tid)["state"]


def seated(api: Api, tid: str) -> list[str]:
    s = state(api, tid)
    return [
        pid
        for n in sorted(s["tables"], key=int)
        for _, pid in sorted(s["tables"][n]["occupants"].items(), key=lambda x: int(x[0]))
    ]


def ledger(api: Api, tid: str) -> dict[str, Any]:
    r = api.client.get("/api/tickets", params={"origin": tid})
    assert r.status_code == 200, r.text
    return {t["id"]: t for t in r.json()["tickets"]}


def test_a_milestone_seat_is_awarded_undone_and_its_ticket_issued_at_the_end(
    servers: list[ServerProcess], director: Api
) -> None:
    bad = {**STRUCTURE, "prize": {**STRUCTURE["prize"], "satellite": {
        "target": "main-ms", "seat": 500, "milestone": 0}}}  # fmt: skip
    r = director.client.post(
        "/api/tournaments",
        json={"id": "ms-bad", "name": "bad", "rules": "tda-2024", "structure": bad},
    )
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["error"]["field"] == "structure.prize.satellite.milestone", r.text
    assert director.client.get("/api/t/ms-bad").status_code == 404

    tid = "ms20"
    director.create(tid, 20, structure=STRUCTURE)
    director.ok(tid, {"type": "clock_start"})
    floor = Api(servers[1], sign_in(servers[1], "fred", "floor-secret"))
    try:
        big = seated(director, tid)[0]
        table = state(director, tid)["players"][big]["table"]
        count = {
            "type": "count_table",
            "table": table,
            "stacks": [{"player": big, "stack": 39_000}],
        }
        floor.ok(tid, count)
        r = floor.command(tid, {"type": "award_seat", "player": big})
        assert r.status_code == 409, r.text
        error = r.json()["error"]
        assert (error["field"], error["reason"]) == ("player", "milestone_not_reached")
        assert error["params"] == {"player": big, "stack": 39_000, "milestone": 40_000}

        floor.ok(tid, {**count, "stacks": [{"player": big, "stack": 41_000}]})
        done = floor.ok(tid, {"type": "award_seat", "player": big})
        settled(servers[0], tid, int(str(done["last"])))
        s = state(director, tid)
        p = s["players"][big]
        assert p["table"] is None and p["bust"]["seat_won"] and p["bust"]["by"] == "fred"
        assert (s["seats_won"], s["chips_out"]) == (1, 41_000)
        assert big not in seated(director, tid)
        # Its ticket is in the house's ledger with the award, bound to the winner.
        first = ledger(director, tid)[f"{tid}-milestone-1"]
        assert (first["holder"], first["target"], first["value"]) == (big, "main-ms", 500)
        assert (first["status"], first["source"]) == ("issued", "satellite")

        floor.ok(tid, {"type": "undo_bust", "player": big, "reason": "counted at the wrong seat"})
        s = state(director, tid)
        assert (s["seats_won"], s["chips_out"], s["players"][big]["table"]) == (0, 0, table)
        assert ledger(director, tid)[f"{tid}-milestone-1"]["status"] == "withdrawn"
        floor.ok(tid, {"type": "award_seat", "player": big})
        assert ledger(director, tid)[f"{tid}-milestone-2"]["status"] == "issued"

        # Four seats, one won: the satellite stops at three left.
        while len(seated(director, tid)) > 3:
            director.ok(tid, {"type": "bust", "player": seated(director, tid)[-1]})
            for move in state(director, tid).get("plan", {}).get("moves", []):
                director.command(tid, {"type": "confirm", "player": move["player"]})
        s = state(director, tid)
        assert s["satellite_end"]["seats"][0] == big and len(s["satellite_end"]["seats"]) == 4
        r = floor.command(tid, {"type": "award_seat", "player": seated(director, tid)[0]})
        assert r.status_code == 409 and r.json()["error"]["reason"] == "satellite_ended"

        director.ok(tid, {"type": "issue_seats"})
        issued = [t for t in ledger(director, tid).values() if t["status"] == "issued"]
        assert sorted(t["holder"] for t in issued) == sorted(s["satellite_end"]["seats"])
        assert {(t["target"], t["value"]) for t in issued} == {("main-ms", 500)}
        assert len(ledger(director, tid)) == 5  # and the one withdrawn
    finally:
        floor.client.close()
