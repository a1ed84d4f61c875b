"""The front desk on two real servers and a real Valkey: two desks take players at once (the
exclusion check, the registry, the seat drawn, the sale), a retried command changes nothing,
no seat is given twice, a person on the list is refused and so is everyone while the check
cannot answer, until the director overrides with a reason; a void, a refund and the shift
reports that balance; identity in no event, export, public view or log line, shown to the
floor as the document's type and last digits; the registry's access and erasure; a buy-in paid
with a ticket of the house's ledger, counted apart in the shift; the cashier pays the money
finishers in order, and the bounties owed with the prize (a check whose buy-in the engine
refuses is logged all the same). Bad input is refused, naming the field, and changes
nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from floor.engine.house.registry import registry_id
from floor.redisdb.embedded import EmbeddedServer
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in

TID = "desk-day"
PRIZE = {
    "currency": "CZK",
    "buy_in": 1000,
    "fee": 100,
    "payouts": [{"entries": 3, "percents": [50, 30, 20]}],
}
LIST = (
    "surname,given_names,birth_date,document_number\n"
    "Excluded,Eva,1970-03-04,\n"
    "Other,Person,1960-01-01,ZZ999999\n"
)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("desk-logs")


@pytest.fixture(scope="module")
def servers(valkey: EmbeddedServer, logs: Path) -> Iterator[list[ServerProcess]]:
    add_user(valkey.url, "boss", "director-secret", "director")
    add_user(valkey.url, "fred", "floor-secret", "floor")
    add_user(valkey.url, "dora", "desk-secret-1", "desk")
    add_user(valkey.url, "dirk", "desk-secret-2", "desk")
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


@pytest.fixture(scope="module")
def boss(servers: list[ServerProcess]) -> Iterator[Api]:
    api = Api(servers[0], sign_in(servers[0], "boss", "director-secret"))
    r = api.client.post(
        "/api/tournaments",
        json={"id": TID, "name": "Desk Day", "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert r.status_code == 201, r.text
    api.ok(TID, {"type": "set_prize", "prize": PRIZE})
    for i in range(4):
        api.ok(TID, {"type": "register", "name": f"Early {i}", "player": f"E{i}"})
    api.ok(TID, {"type": "draw_seats"})
    r = api.client.post(
        "/api/desk/exclusions", content=LIST.encode(), headers={"Content-Type": "text/csv"}
    )
    assert r.status_code == 200, r.text
    assert r.json()["rows"] == 2
    yield api
    api.client.close()


@pytest.fixture(scope="module")
def desks(servers: list[ServerProcess], boss: Api) -> Iterator[list[Api]]:
    apis = [
        Api(servers[0], sign_in(servers[0], "dora", "desk-secret-1")),
        Api(servers[1], sign_in(servers[1], "dirk", "desk-secret-2")),
    ]
    yield apis
    for a in apis:
        a.client.close()


def person(i: int, **over: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "given_names": f"Guest{i}",
        "surname": f"Desk{i}",
        "language": "cs" if i % 2 else "en",
        "consent": True,
        "identity": {
            "doc_type": "id_card",
            "doc_number": f"CZ{900000 + i}",
            "birth_date": "1985-06-07",
            "country": "CZ",
        },
        "method": "cash" if i % 3 else "card",
        "amount": 1100,
    }
    body.update(over)
    return body


def open_shift(api: Api, desk: str, float_: int = 5000) -> str:
    r = api.client.post("/api/desk/shifts", json={"desk": desk, "float": float_})
    assert r.status_code == 201, r.text
    sid: str = r.json()["id"]
    return sid


def take(api: Api, shift: str, cid: str, body: dict[str, Any]) -> httpx.Response:
    return api.client.post(
        "/api/desk/take", json={"id": cid, "shift": shift, "tournament": TID, **body}
    )


def seats(api: Api) -> list[tuple[int, int]]:
    players = api.state(TID)["state"]["players"].values()  # type: ignore[index]
    return [(p["table"], p["seat"]) for p in players if p["table"] is not None]


def test_two_desks_take_players_at_once_and_no_seat_is_given_twice(
    boss: Api, desks: list[Api], logs: Path
) -> None:
    shifts = [open_shift(desks[0], "A"), open_shift(desks[1], "B")]

    def one(i: int) -> httpx.Response:
        return take(desks[i % 2], shifts[i % 2], f"desk-t-{i}", person(i))

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(one, range(24)))
    assert [r.status_code for r in answers] == [201] * 24, [
        r.text for r in answers if r.status_code != 201
    ]
    cards = [r.json()["card"] for r in answers]
    assert all(c["table"] and c["seat"] and len(c["code"]) == 4 for c in cards)
    taken = seats(boss)
    assert len(taken) == len(set(taken)) == 28
    assert len({c["player"] for c in cards}) == 24
    # A retry of one command (its answer lost on the way) is the same seat, and nothing more.
    again = take(desks[0], shifts[0], "desk-t-0", person(0))
    assert again.status_code == 200 and again.json()["card"] == cards[0]
    assert len(seats(boss)) == 28
    # The player's language is the registry's; the card says it.
    assert [c["language"] for c in cards[:2]] == ["en", "cs"]

    # A void at desk A (the mistake undone: unregistered, the seat free) and a refund at B.
    void = desks[0].client.post(
        "/api/desk/undo",
        json={"id": "desk-v-1", "shift": shifts[0], "sale": "desk-t-2", "kind": "void"},
    )
    assert void.status_code == 201, void.text
    other_shift = desks[0].client.post(
        "/api/desk/undo",
        json={"id": "desk-v-2", "shift": shifts[0], "sale": "desk-t-1", "kind": "void"},
    )
    assert (
        other_shift.status_code == 409
        and other_shift.json()["error"]["reason"] == "desk_void_other_shift"
    )
    refund = desks[1].client.post(
        "/api/desk/undo",
        json={
            "id": "desk-r-1",
            "shift": shifts[1],
            "sale": "desk-t-1",
            "kind": "refund",
            "reason": "ill",
        },
    )
    assert refund.status_code == 201, refund.text
    twice = desks[1].client.post(
        "/api/desk/undo",
        json={"id": "desk-r-2", "shift": shifts[1], "sale": "desk-t-1", "kind": "refund"},
    )
    assert twice.status_code == 409, twice.text
    assert len(seats(boss)) == 26

    # Each shift's report: sales by method, the void and refund, the cash expected.
    for api, sid, mine in (
        (desks[0], shifts[0], range(0, 24, 2)),
        (desks[1], shifts[1], range(1, 24, 2)),
    ):
        rep = api.client.get(f"/api/desk/shifts/{sid}").json()
        cash_sold = sum(1100 for i in mine if i % 3)
        card_sold = sum(1100 for i in mine if not i % 3)
        totals = {t["method"]: t for t in rep["totals"]}
        assert (totals["cash"]["sold"], totals["card"]["sold"], rep["sales"]) == (
            cash_sold,
            card_sold,
            12,
        )
        undone = 1100  # desk-t-2 (cash, voided at A) and desk-t-1 (cash, refunded at B)
        assert rep["expected_cash"] == 5000 + cash_sold - undone
        wrong = api.client.post(f"/api/desk/shifts/{sid}/close", json={"counted": -1})
        assert wrong.status_code == 422 and wrong.json()["error"]["field"] == "counted"
        closed = api.client.post(
            f"/api/desk/shifts/{sid}/close", json={"counted": rep["expected_cash"]}
        )
        assert closed.status_code == 200 and closed.json()["balances"] is True
        late = take(api, sid, f"desk-late-{sid}", person(90))
        assert late.status_code == 409 and late.json()["error"]["reason"] == "desk_shift_closed"


def test_the_list_refuses_an_excluded_person_and_a_check_that_cannot_answer_refuses_everyone(
    boss: Api, desks: list[Api]
) -> None:
    desk = desks[0]
    sid = open_shift(desk, "A")
    before = len(seats(boss))
    eva = person(
        40,
        given_names="Éva",
        surname="EXCLUDED",
        identity={**person(40)["identity"], "birth_date": "1970-03-04"},
    )
    r = take(desk, sid, "desk-x-1", eva)
    assert r.status_code == 409 and r.json()["error"]["reason"] == "desk_excluded"
    # Not even the director lets an excluded person through.
    r = take(boss, sid, "desk-x-2", {**eva, "override": "regular customer"})
    assert r.status_code == 409 and r.json()["error"]["reason"] == "desk_excluded"
    # A list older than the venue allows: the desk refuses; the director overrides with a reason.
    settings = {"retention_days": 30, "list_max_age_hours": 0.0002, "min_age": 18, "buy_in": 0}
    assert boss.client.put("/api/desk/settings", json=settings).status_code == 200
    time.sleep(1.0)
    r = take(desk, sid, "desk-x-3", person(41))
    assert r.status_code == 409 and r.json()["error"]["reason"] == "desk_list_stale"
    r = take(desk, sid, "desk-x-4", {**person(41), "override": "the register is down"})
    assert r.status_code == 409 and r.json()["error"]["reason"] == "desk_override_director"
    r = take(boss, sid, "desk-x-5", {**person(41), "override": "the register is down"})
    assert r.status_code == 201, r.text
    assert r.json()["check"] == "overridden"
    assert len(seats(boss)) == before + 1
    settings["list_max_age_hours"] = 24
    assert boss.client.put("/api/desk/settings", json=settings).status_code == 200
    # The checks' log: who, when, the answer, never the name asked about.
    log = boss.client.get("/api/desk/checks").json()
    assert [c["result"] for c in log[:4]] == ["overridden", "stale", "excluded", "excluded"]
    assert log[0]["by"] == "boss" and log[0]["reason"] == "the register is down"
    assert "Desk41" not in str(log) and "EXCLUDED" not in str(log)
    assert desk.client.get("/api/desk/checks").status_code == 403


def test_identity_is_in_no_event_export_public_view_or_log_line(
    boss: Api, desks: list[Api], servers: list[ServerProcess], logs: Path
) -> None:
    desk = desks[1]
    sid = open_shift(desk, "B")
    body = person(
        50,
        identity={
            "doc_type": "passport",
            "doc_number": "PZ7766554",
            "birth_date": "1979-11-30",
            "country": "DE",
        },
    )
    r = take(desk, sid, "desk-i-1", body)
    assert r.status_code == 201, r.text
    pid = r.json()["card"]["player"]
    exported = boss.client.get(f"/api/t/{TID}/export/log").content
    public = httpx.get(f"{servers[0].base}/api/t/{TID}").content
    events = httpx.get(f"{servers[0].base}/api/t/{TID}/events?since=0").content
    lines = b"".join(p.read_bytes() for p in logs.glob("*.log"))
    for where in (exported, public, events, lines):
        assert b"PZ7766554" not in where and b"1979-11-30" not in where
    # The floor sees the type and the last digits; the public nothing.
    shown = httpx.get(
        f"{servers[0].base}/api/desk/shown/{TID}/{pid}",
        headers=sign_in(servers[0], "fred", "floor-secret"),
    )
    assert shown.json() == {"name": "Guest50 Desk50", "doc_type": "passport", "last": "554"}
    assert httpx.get(f"{servers[0].base}/api/desk/shown/{TID}/{pid}").status_code == 403
    # The player's access: their record and identity; then erasure leaves nothing.
    seen = desk.client.get(f"/api/desk/registry/{pid}").json()
    assert (
        seen["record"]["name"] == "Guest50 Desk50" and seen["identity"]["doc_number"] == "PZ7766554"
    )
    assert [
        p["id"] for p in desk.client.get("/api/desk/registry", params={"q": "guest50"}).json()
    ] == [pid]
    assert desk.client.delete(f"/api/desk/registry/{pid}").json() == {"erased": True}
    assert desk.client.get(f"/api/desk/registry/{pid}").status_code == 404
    assert desk.client.get("/api/desk/registry", params={"q": "guest50"}).json() == []


def test_a_returning_player_is_found_and_taken_by_their_registry_id(
    boss: Api, desks: list[Api]
) -> None:
    desk = desks[0]
    sid = open_shift(desk, "A")
    r = take(desk, sid, "desk-ret-1", person(60, consent=True, language="cs"))
    assert r.status_code == 201
    pid = r.json()["card"]["player"]
    found = desk.client.get("/api/desk/registry", params={"q": "desk60"}).json()
    assert [(p["id"], p["language"]) for p in found] == [(pid, "cs")]
    # Already in: the engine refuses a second entry while they play.
    again = take(desk, sid, "desk-ret-2", person(60, player=pid))
    assert again.status_code == 409 and again.json()["error"]["reason"] == "player_exists"
    # Its check was made before the engine refused: logged all the same, once.
    log = boss.client.get("/api/desk/checks").json()
    assert [c["result"] for c in log if c["command"] == "desk-ret-2"] == ["clear"]
    # Without consent nothing is kept in the registry.
    r = take(desk, sid, "desk-ret-3", person(61, consent=False))
    assert r.status_code == 201
    assert desk.client.get("/api/desk/registry", params={"q": "desk61"}).json() == []
    # A registry id nobody holds: said as the registry's, not the tournament's.
    gone = take(desk, sid, "desk-ret-4", person(62, player="R0123456789"))
    error = gone.json()["error"]
    assert gone.status_code == 404 and (error["reason"], error["field"]) == (
        "registry_player_unknown",
        "player",
    )
    assert error["message"] == "R0123456789 is not in the player registry"


def test_bad_input_is_refused_naming_the_field_and_changes_nothing(
    boss: Api, desks: list[Api], servers: list[ServerProcess]
) -> None:
    desk = desks[0]
    sid = open_shift(desk, "A")
    before = len(seats(boss))
    bad = [
        (
            {**person(70), "identity": {**person(70)["identity"], "doc_type": "library_card"}},
            "identity.doc_type",
        ),
        (
            {**person(70), "identity": {**person(70)["identity"], "birth_date": "2015-01-01"}},
            "identity.birth_date",
        ),
        (
            {**person(70), "identity": {**person(70)["identity"], "country": "czech"}},
            "identity.country",
        ),
        ({**person(70), "method": "ticket"}, "ticket"),
        ({**person(70), "amount": -5}, "amount"),
        ({**person(70), "given_names": ""}, "given_names"),
        ({**person(70), "player": "P1"}, "player"),
        ({**person(70), "player": "R0000000000"}, "player"),
    ]
    for body, field in bad:
        r = take(desk, sid, f"desk-bad-{field}", body)
        assert 400 <= r.status_code < 500 and r.json()["error"]["field"] == field, (field, r.text)
    r = desk.client.post(
        "/api/desk/take", json={"id": "x y", "shift": sid, "tournament": TID, **person(70)}
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "command_id"
    r = take(desk, "s-000000000000", "desk-bad-shift", person(70))
    assert r.status_code == 404 and r.json()["error"]["field"] == "shift"
    assert len(seats(boss)) == before
    floor = httpx.post(
        f"{servers[0].base}/api/desk/take",
        json={"id": "desk-f", "shift": sid, "tournament": TID, **person(71)},
        headers=sign_in(servers[0], "fred", "floor-secret"),
    )
    assert floor.status_code == 403
    # The desk's account sends no command of the tournament's bare: a registration there
    # would skip the exclusion check.
    for command in ({"type": "draw_seats"}, {"type": "register", "name": "Bare Player"}):
        r = desk.command(TID, command)
        assert r.status_code == 403, r.text
    assert len(seats(boss)) == before


def sell(boss: Api, ticket: str, **over: Any) -> None:
    command = {"type": "sell_ticket", "target": TID, "value": 1100, "id": ticket, **over}
    r = boss.client.post("/api/tickets/commands", json={"command": command})
    assert r.status_code == 200, r.text


def test_a_ticket_of_the_ledger_pays_the_buy_in_and_the_shift_counts_it_apart(
    boss: Api, desks: list[Api]
) -> None:
    desk = desks[1]
    sid = open_shift(desk, "T", float_=300)
    # A ticket for anyone, one bound to the player the next take adds (a returning player's
    # id, as a satellite won at the desk leaves it), one for another event.
    bound_to = registry_id("desk-tk-2")
    sell(boss, "TK-ANY", name="Open Seat")
    sell(boss, "TK-BOUND", holder=bound_to, name="Won It")
    other = boss.client.post(
        "/api/tournaments",
        json={"id": "desk-other", "name": "Other", "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert other.status_code == 201, other.text
    sell(boss, "TK-OTHER", target="desk-other")
    # The desk finds the tickets for this event: a new player's, then the bound player's own.
    listed = desk.client.get(f"/api/desk/tickets/{TID}")
    assert [r["id"] for r in listed.json()] == ["TK-ANY"]
    mine = desk.client.get(f"/api/desk/tickets/{TID}", params={"player": bound_to}).json()
    assert [(r["id"], r["value"]) for r in mine] == [("TK-BOUND", 1100), ("TK-ANY", 1100)]
    bad = desk.client.get(f"/api/desk/tickets/{TID}", params={"player": "P1"})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "player"
    before = len(seats(boss))

    # Refused before anything: a ticket named without its method and the reverse, a wrong
    # amount, someone else's ticket, another event's, an unknown one.
    def ticketed(cid: str, i: int, ticket: str | None, **over: Any) -> httpx.Response:
        body = person(i, **{"method": "ticket", "amount": 0, **over})
        if ticket is not None:
            body["ticket"] = ticket
        return take(desk, sid, cid, body)

    for r, field, reason in (
        (ticketed("desk-tk-b1", 80, None), "ticket", "desk_ticket_method"),
        (ticketed("desk-tk-b2", 80, "TK-ANY", method="cash"), "ticket", "desk_ticket_method"),
        (ticketed("desk-tk-b3", 80, "TK-ANY", amount=500), "amount", "desk_ticket_value"),
        (ticketed("desk-tk-b4", 80, "TK-BOUND"), "ticket", "ticket_bound"),
        (ticketed("desk-tk-b5", 80, "TK-OTHER"), "ticket", "ticket_other_event"),
        (ticketed("desk-tk-b6", 80, "TK-NONE"), "ticket", "ticket_unknown"),
    ):
        assert 400 <= r.status_code < 500, r.text
        assert (r.json()["error"]["field"], r.json()["error"]["reason"]) == (field, reason)
    assert len(seats(boss)) == before

    # Taken with tickets: seated, each ticket used in the ledger by its player.
    first = ticketed("desk-tk-1", 81, "TK-ANY")
    assert first.status_code == 201, first.text
    assert first.json()["entry"]["method"] == "ticket"
    assert first.json()["entry"]["amount"] == 1100
    second = ticketed("desk-tk-2", 82, "TK-BOUND", amount=1100)
    assert second.status_code == 201, second.text
    assert second.json()["card"]["player"] == bound_to and second.json()["card"]["seat"]
    # A retry is the same seat; the ticket is not used twice.
    again = ticketed("desk-tk-1", 81, "TK-ANY")
    assert again.status_code == 200 and again.json()["card"] == first.json()["card"]
    used = {
        r["id"]: (r["status"], r["used_by"])
        for r in boss.client.get("/api/tickets", params={"target": TID}).json()["tickets"]
    }
    assert used["TK-ANY"] == ("used", first.json()["card"]["player"])
    assert used["TK-BOUND"] == ("used", bound_to)
    # Used, it pays no one else.
    r = ticketed("desk-tk-3", 83, "TK-ANY")
    assert r.status_code == 409 and r.json()["error"]["reason"] == "ticket_not_issued"
    assert desk.client.get(f"/api/desk/tickets/{TID}").json() == []
    assert len(seats(boss)) == before + 2

    # The shift counts the tickets apart: no cash in the drawer for them.
    cash = take(desk, sid, "desk-tk-4", person(84, method="cash"))
    assert cash.status_code == 201, cash.text
    rep = desk.client.get(f"/api/desk/shifts/{sid}").json()
    totals = {t["method"]: (t["sales"], t["sold"]) for t in rep["totals"]}
    assert totals == {"cash": (1, 1100), "card": (0, 0), "ticket": (2, 2200)}
    assert rep["expected_cash"] == 300 + 1100
    # A ticket's sale is undone on the ledger by the director, not at the desk.
    undo = desk.client.post(
        "/api/desk/undo",
        json={"id": "desk-tk-v", "shift": sid, "sale": "desk-tk-1", "kind": "void"},
    )
    assert undo.status_code == 409 and undo.json()["error"]["reason"] == "desk_ticket_undo"
    closed = desk.client.post(f"/api/desk/shifts/{sid}/close", json={"counted": 1400})
    assert closed.status_code == 200 and closed.json()["balances"] is True


def test_the_cashier_pays_the_money_finishers_in_order(boss: Api, desks: list[Api]) -> None:
    state = boss.state(TID)["state"]
    left = [p["id"] for p in state["players"].values() if p["table"] is not None]  # type: ignore[index,union-attr]
    for pid in left[:-1]:
        boss.ok(TID, {"type": "bust", "player": pid})
    desk = desks[1]
    sheet = desk.client.get(f"/api/desk/cashier/{TID}").json()
    rows = sheet["sheet"]["rows"]
    assert [r["place"] for r in rows] == [3, 2, 1]
    assert all(not r["paid"] for r in rows) and sheet["sheet"]["paid"] == 0
    total = sheet["sheet"]["owed"]
    for row in rows:
        r = desk.client.post(f"/api/desk/cashier/{TID}/pay", json={"player": row["player"]})
        assert r.status_code == 200, r.text
    done = desk.client.get(f"/api/desk/cashier/{TID}").json()["sheet"]
    assert (done["paid"], done["owed"]) == (total, 0)
    assert all(r["paid"] and r["paid_by"] == "dirk" for r in done["rows"])
    nobody = desk.client.post(f"/api/desk/cashier/{TID}/pay", json={"player": "E0"})
    assert nobody.status_code == 409 and nobody.json()["error"]["reason"] == "desk_nothing_owed"


def test_the_cashier_pays_the_bounties_owed_with_the_prize(boss: Api, desks: list[Api]) -> None:
    tid = "desk-bounty"
    r = boss.client.post(
        "/api/tournaments",
        json={"id": tid, "name": "Bounty Night", "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert r.status_code == 201, r.text
    bounty = {"kind": "knockout", "part": 200, "paid_at": "cashier"}
    boss.ok(tid, {"type": "set_prize", "prize": {**PRIZE, "bounty": bounty}})
    for i in range(1, 6):
        boss.ok(tid, {"type": "register", "name": f"Hunter {i}", "player": f"H{i}"})
    boss.ok(tid, {"type": "draw_seats"})
    for out in ("H5", "H4", "H3", "H2"):
        boss.ok(tid, {"type": "bust", "player": out, "eliminators": ["H1"]})
    desk = desks[0]
    sheet = desk.client.get(f"/api/desk/cashier/{tid}").json()["sheet"]
    rows = {r["player"]: r for r in sheet["rows"]}
    assert [r["player"] for r in sheet["rows"]] == ["H3", "H2", "H1"]
    # Four heads won, and the winner's own.
    assert (rows["H1"]["bounty"], rows["H1"]["bounty_owed"]) == (1000, 1000)
    assert sheet["bounties_owed"] == 1000
    paid = desk.client.post(f"/api/desk/cashier/{tid}/pay", json={"player": "H1"})
    assert paid.status_code == 200, paid.text
    row = next(r for r in paid.json()["sheet"]["rows"] if r["player"] == "H1")
    assert (row["paid"], row["bounty"], row["bounty_owed"]) == (True, 1000, 0)
    # The tournament's bounty book says it: paid once, whatever the retries.
    again = desk.client.post(f"/api/desk/cashier/{tid}/pay", json={"player": "H1"})
    assert again.status_code == 200, again.text
    hunter = boss.state(tid)["state"]["players"]["H1"]  # type: ignore[index]
    assert (hunter["bounty"]["won"], hunter["bounty"]["paid"]) == (1000, 1000)


def test_a_take_whose_registration_landed_before_its_sale_answers_the_seat_it_drew(
    boss: Api, desks: list[Api]
) -> None:
    """The first attempt registered the player and lost its answer before the sale was
    written: the retry's registration is answered with the first outcome (its events written
    by the first call), so the card comes from the log, with the seat the registration drew;
    the sale is written once, and a retry after it answers the same card."""
    tid = "desk-retry"
    r = boss.client.post(
        "/api/tournaments",
        json={"id": tid, "name": "Retry Night", "rules": "tda-2024", "structure": "demo-fast"},
    )
    assert r.status_code == 201, r.text
    boss.ok(tid, {"type": "set_prize", "prize": PRIZE})
    for i in range(3):
        boss.ok(tid, {"type": "register", "name": f"Early {i}", "player": f"E{i}"})
    boss.ok(tid, {"type": "draw_seats"})
    cid = "desk-pre-1"
    pid = registry_id(cid)
    # The registration exactly as the desk sends it under the take's id, landed on its own.
    register = {"type": "register", "name": "Guest90 Desk90", "player": pid, "lang": "en"}
    landed = boss.client.post(f"/api/t/{tid}/commands", json={"id": cid, "command": register})
    assert landed.status_code == 200 and landed.json()["ok"], landed.text
    drew = boss.state(tid)["state"]["players"][pid]  # type: ignore[index]
    assert drew["table"] is not None and drew["seat"] is not None
    desk = desks[0]
    sid = open_shift(desk, "R", 0)
    body = {"id": cid, "shift": sid, "tournament": tid, **person(90, method="cash")}
    retried = desk.client.post("/api/desk/take", json=body)
    assert retried.status_code == 200, retried.text
    card = retried.json()["card"]
    assert (card["player"], card["table"], card["seat"]) == (pid, drew["table"], drew["seat"])
    assert len(card["code"]) == 4 and card["name"] == "Guest90 Desk90"
    entry = retried.json()["entry"]
    assert (entry["table"], entry["seat"], entry["code"]) == (
        card["table"],
        card["seat"],
        card["code"],
    )
    again = desk.client.post("/api/desk/take", json=body)
    assert again.status_code == 200 and again.json()["card"] == card
    rep = desk.client.get(f"/api/desk/shifts/{sid}").json()
    totals = {t["method"]: (t["sales"], t["sold"]) for t in rep["totals"]}
    assert totals["cash"] == (1, 1100)
    players = boss.state(tid)["state"]["players"]  # type: ignore[index]
    assert len(players) == 4
