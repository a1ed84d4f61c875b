"""The authorization matrix, generated from the application's route tables: every route, HTTP
and websocket, asked by each kind of client (anonymous, a player's phone, a table screen, a
dealer signed in on one, the floor, the director) about each of two tournaments, on real
servers, over real websockets. Every route has a rule here; a route added without one fails
``test_every_route_has_a_rule``.

A request is *refused* when it is answered ``forbidden`` or ``signed_out`` (403, 401), or a
socket closed for it (1008, 4001); anything else (a 404 for a name that is not there, a 422
for a body the route reads after it has let the client in, a wrong password) means the route
let the client in. The table screen and the dealer belong to table 1 of tournament A.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import httpx
import pytest
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from floor.redisdb.embedded import EmbeddedServer
from floor.server.wiring import routes
from tests.e2e.conftest import Api, ServerProcess, add_user, dealer_on, paired, sign_in

A, B = "authz-a", "authz-b"
WHO = (
    "anonymous",
    "player",
    "tablet",
    "dealer",
    "floor",
    "director",
    "coordinator",
    "phone",
    "desk",
)
#: A table screen's id that names no screen.
NO_DEVICE = "0123456789ab"

Allowed = Callable[[str, str], bool]


def everyone(who: str, tid: str) -> bool:
    return True


def accounts(who: str, tid: str) -> bool:
    """Whoever signed in with an account of their own (a dealer on a screen too; not a
    dealer's phone, which never tries a PIN)."""
    return who in ("dealer", "floor", "director", "coordinator", "desk")


def floor(who: str, tid: str) -> bool:
    return who in ("floor", "director")


def director(who: str, tid: str) -> bool:
    return who == "director"


def screens(who: str, tid: str) -> bool:
    return who in ("tablet", "dealer")


def signed_in(who: str, tid: str) -> bool:
    """Any session at all (what nginx asks the edge before it sends a request to the staff)."""
    return who not in ("anonymous", "player")


def room(who: str, tid: str) -> bool:
    """The dealer room: its coordinator and the director."""
    return who in ("director", "coordinator")


def table_dealers(who: str, tid: str) -> bool:
    """Who deals at a table: a table screen (its own table), the staff (any, named)."""
    return who in ("tablet", "dealer", "floor", "director", "coordinator")


def desk(who: str, tid: str) -> bool:
    """The front desk and the cashier: the desk's staff and the director."""
    return who in ("director", "desk")


def desk_and_floor(who: str, tid: str) -> bool:
    """A player's document as the dealer is shown it: the staff."""
    return who in ("director", "floor", "desk")


def dealer_on_screen(who: str, tid: str) -> bool:
    return who == "dealer"


def own_dealer(who: str, tid: str) -> bool:
    """A dealer's own rotation: their phone, or the dealer on a table screen."""
    return who in ("dealer", "phone")


def at_table(who: str, tid: str) -> bool:
    """The floor anywhere; a table screen (and its dealer) in its own tournament only."""
    return floor(who, tid) or (screens(who, tid) and tid == A)


class Rule(NamedTuple):
    allowed: Allowed
    #: The request's query string, and its body (JSON, or bytes as they are).
    query: str = ""
    body: Any = None
    #: The request ends the client's session (a sign-out): it gets one of its own.
    fresh: bool = False
    #: The tournament it names is one that is not there (a director's write, else undone).
    missing: bool = False


COMMAND = {"command": {"type": "hand", "table": 1}}

RULES: dict[tuple[str, str], Rule] = {
    ("GET", "/healthz"): Rule(everyone),
    ("GET", "/metrics"): Rule(floor),
    ("GET", "/api/schema"): Rule(everyone),
    ("POST", "/api/signin"): Rule(everyone, body={"username": "nobody", "secret": "not it"}),
    ("POST", "/api/signout"): Rule(everyone, fresh=True),
    ("GET", "/api/me"): Rule(everyone),
    ("GET", "/api/session/check"): Rule(signed_in),
    ("PUT", "/api/me/secret"): Rule(accounts, body={}),
    ("GET", "/api/staff"): Rule(director),
    ("POST", "/api/staff"): Rule(director, body={}),
    ("DELETE", "/api/staff/{username}"): Rule(director),
    ("PUT", "/api/staff/{username}/secret"): Rule(director, body={"secret": "long enough"}),
    ("POST", "/api/staff/{username}/unlock"): Rule(director),
    ("POST", "/api/pairing"): Rule(floor, body={"tournament": "{tid}", "table": 1}),
    ("POST", "/api/signin/pair"): Rule(everyone, body={"code": "000000000"}),
    ("POST", "/api/table/signin"): Rule(screens, body={"username": "nobody", "secret": "0000"}),
    ("POST", "/api/table/signout"): Rule(screens, fresh=True),
    ("GET", "/api/tablets"): Rule(director),
    ("PUT", "/api/tablets/{device}"): Rule(director, body={"tournament": "{tid}", "table": 2}),
    ("DELETE", "/api/tablets/{device}"): Rule(director),
    ("GET", "/api/config"): Rule(everyone),
    ("GET", "/api/tournaments"): Rule(everyone),
    ("POST", "/api/tournaments"): Rule(director, body={}),
    ("GET", "/api/t/{tid}"): Rule(everyone),
    ("GET", "/api/t/{tid}/snapshot"): Rule(everyone),
    ("GET", "/api/t/{tid}/players"): Rule(everyone, query="q=Player"),
    ("GET", "/api/t/{tid}/events"): Rule(everyone, query="since=0"),
    ("POST", "/api/t/{tid}/archive"): Rule(director, missing=True),
    ("POST", "/api/t/{tid}/commands"): Rule(at_table, body=COMMAND),
    ("POST", "/api/t/{tid}/commands/{kind}"): Rule(at_table, body={"table": 1}),
    ("POST", "/api/t/{tid}/preview"): Rule(
        at_table, body={"command": {"type": "bust", "table": 1, "seat": 1}}
    ),
    ("POST", "/api/t/{tid}/import"): Rule(floor, body=b"name\nAnn Example\n"),
    ("GET", "/api/t/{tid}/export/results.csv"): Rule(everyone),
    ("GET", "/api/t/{tid}/export/hendon.csv"): Rule(everyone),
    ("GET", "/api/t/{tid}/export/payouts.csv"): Rule(everyone),
    ("GET", "/api/t/{tid}/export/log"): Rule(director),
    ("GET", "/api/t/{tid}/paper"): Rule(floor),
    ("GET", "/api/t/{tid}/paper/check"): Rule(floor, query="table=1&seat=1&code=ABCD"),
    ("GET", "/api/payouts/standard"): Rule(everyone, query="entries=100&paid=10"),
    ("POST", "/api/structures/parse"): Rule(director, body=b""),
    ("POST", "/api/structures/toml"): Rule(director, body={}),
    ("GET", "/print/{tid}"): Rule(everyone),
    ("GET", "/api/t/{tid}/bags"): Rule(floor),
    ("GET", "/api/t/{tid}/forecast"): Rule(floor),
    ("POST", "/api/t/{tid}/forecast"): Rule(director, body={"runs": 10}),
    ("GET", "/api/t/{tid}/forecast/jobs/{job}"): Rule(floor),
    ("PUT", "/api/t/{tid}/forecast/settings"): Rule(director, body={}),
    ("GET", "/api/t/{tid}/forecast/wall"): Rule(everyone),
    ("GET", "/api/t/{tid}/export/forecasts.csv"): Rule(floor),
    ("GET", "/api/t/{tid}/counts"): Rule(everyone),
    ("GET", "/api/t/{tid}/counts.csv"): Rule(everyone),
    ("POST", "/api/day2"): Rule(director, body={}),
    ("GET", "/api/t/{tid}/follow/{player}"): Rule(everyone),
    ("GET", "/api/t/{tid}/board"): Rule(everyone),
    ("WS", "/ws/t/{tid}/follow/{player}"): Rule(everyone),
    ("WS", "/ws/t/{tid}"): Rule(everyone),
    ("GET", "/api/open/v1/openapi.json"): Rule(everyone),
    ("GET", "/api/open/v1/tournaments"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/clock"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/field"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/seats"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/counts"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/results"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/payouts"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/changes"): Rule(everyone, query="since=0"),
    ("GET", "/api/open/v1/t/{tid}/ots.json"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/chain"): Rule(everyone),
    ("GET", "/api/open/v1/t/{tid}/draws"): Rule(everyone),
    # 404 where the server has no signing key (as here): the same for everyone.
    ("GET", "/api/open/v1/t/{tid}/results/signed"): Rule(everyone),
    ("GET", "/.well-known/floor-keys.json"): Rule(everyone),
    ("GET", "/api/t/{tid}/prizes"): Rule(everyone),
    ("GET", "/api/t/{tid}/results.csv"): Rule(everyone),
    ("POST", "/api/pots"): Rule(everyone, body={}),
    ("GET", "/api/rulebook"): Rule(everyone),
    ("GET", "/api/rulebook/{rule}"): Rule(everyone),
    ("GET", "/"): Rule(everyone),
    ("GET", "/wall/{tid}"): Rule(everyone),
    ("GET", "/final/{tid}"): Rule(everyone),
    ("GET", "/widget/{tid}"): Rule(everyone),
    ("GET", "/check/{tid}"): Rule(everyone),
    ("GET", "/floor/{tid}"): Rule(everyone),
    ("GET", "/player/{tid}"): Rule(everyone),
    ("GET", "/line/{tid}"): Rule(everyone),
    ("GET", "/table/{tid}/{table:int}"): Rule(everyone),
    ("GET", "/director"): Rule(everyone),
    ("GET", "/director/{tid}"): Rule(everyone),
    ("GET", "/static"): Rule(everyone),
    ("GET", "/sw.js"): Rule(everyone),
    ("GET", "/app/player/{tid}/manifest.webmanifest"): Rule(everyone),
    ("GET", "/app/floor/{tid}/manifest.webmanifest"): Rule(everyone),
    ("GET", "/app/table/{tid}/{table:int}/manifest.webmanifest"): Rule(everyone),
    ("GET", "/api/push/key"): Rule(everyone),
    ("PUT", "/api/t/{tid}/push/{player}"): Rule(everyone, body={}),
    ("DELETE", "/api/t/{tid}/push/{player}"): Rule(everyone, body={}),
    # The alternates' line from the code on the wall: anybody (a blank name is refused).
    ("POST", "/api/t/{tid}/alternates"): Rule(everyone, body={"name": ""}),
    ("PUT", "/api/push/staff"): Rule(floor, body={}),
    ("DELETE", "/api/push/staff"): Rule(floor, body={}),
    ("GET", "/api/t/{tid}/sections"): Rule(floor),
    ("PUT", "/api/t/{tid}/sections/{username}"): Rule(director, body={"tables": [1]}),
    ("GET", "/dealers"): Rule(everyone),
    ("GET", "/dealer"): Rule(everyone),
    ("GET", "/api/dealers"): Rule(room),
    ("POST", "/api/dealers/commands"): Rule(
        room, body={"command": {"type": "clock_in", "dealer": "nobody"}}
    ),
    ("POST", "/api/dealers/people"): Rule(room, body={}),
    ("PUT", "/api/dealers/people/{username}/pin"): Rule(room, body={"pin": "1234"}),
    ("GET", "/api/dealers/downs"): Rule(room),
    ("GET", "/api/dealers/downs.csv"): Rule(room),
    ("GET", "/api/dealers/table"): Rule(table_dealers, query=f"tournament={A}&table=1"),
    ("POST", "/api/dealers/phone/code"): Rule(dealer_on_screen, body={}),
    ("POST", "/api/dealers/phone"): Rule(everyone, body={"code": "000000000"}),
    ("GET", "/api/dealers/me"): Rule(own_dealer),
    ("GET", "/desk"): Rule(everyone),
    ("GET", "/api/desk"): Rule(desk),
    ("PUT", "/api/desk/settings"): Rule(director, body={}),
    ("POST", "/api/desk/shifts"): Rule(desk, body={}),
    ("GET", "/api/desk/shifts/{sid}"): Rule(desk),
    ("POST", "/api/desk/shifts/{sid}/close"): Rule(desk, body={"counted": 0}),
    ("POST", "/api/desk/take"): Rule(desk, body={}),
    ("POST", "/api/desk/undo"): Rule(desk, body={}),
    ("GET", "/api/desk/registry"): Rule(desk, query="q=Player"),
    ("GET", "/api/desk/registry/{pid}"): Rule(desk),
    ("DELETE", "/api/desk/registry/{pid}"): Rule(desk),
    ("POST", "/api/desk/exclusions"): Rule(director, body=b"surname,given_names,birth_date\n"),
    ("GET", "/api/desk/checks"): Rule(director),
    ("GET", "/api/desk/shown/{tid}/{player}"): Rule(desk_and_floor),
    ("GET", "/api/desk/cashier/{tid}"): Rule(desk),
    # The digital seat card (``routes_seat_pass``): a player's phone shows it (public), a
    # table screen (its own tournament) or the floor scans it.
    ("GET", "/api/t/{tid}/seatcard/{player}"): Rule(everyone),
    ("POST", "/api/t/{tid}/seatcard/scan"): Rule(at_table, body={"code": "FS1.x.y"}),
    ("POST", "/api/desk/cashier/{tid}/pay"): Rule(desk, body={"player": "P1"}),
    ("GET", "/api/desk/tickets/{tid}"): Rule(desk),
    # The walls' images (``routes_walls``): the director uploads, everyone reads.
    ("GET", "/api/t/{tid}/wall"): Rule(everyone),
    ("GET", "/api/wall/images/{name}"): Rule(everyone),
    ("PUT", "/api/wall/logo"): Rule(director, body=b"not an image"),
    ("DELETE", "/api/wall/logo"): Rule(director),
    ("PUT", "/api/t/{tid}/wall/sponsor"): Rule(director, body=b"not an image"),
    ("DELETE", "/api/t/{tid}/wall/sponsor"): Rule(director),
    ("GET", "/api/wall/screens"): Rule(floor),
    ("PUT", "/api/wall/screens/{name}"): Rule(director, body={"pages": [{"page": "tables"}]}),
    ("DELETE", "/api/wall/screens/{name}"): Rule(director),
    ("GET", "/api/tickets"): Rule(floor),
    ("POST", "/api/tickets/commands"): Rule(
        director, body={"command": {"type": "refund_ticket", "ticket": "none-such"}}
    ),
}

#: The path parameters' values (``tid`` is the tournament asked about).
PARAMS = {
    "username": "ghost",
    "device": NO_DEVICE,
    "kind": "hand",
    "player": "P1",
    "rule": "1",
    "table:int": "1",
    "job": "0" * 32,
    "sid": "s-000000000000",
    "pid": "R0000000000",
    "name": "0" * 32 + ".png",
}


def endpoints(table: list[BaseRoute]) -> Iterator[tuple[str, str]]:
    """Every (method, path) the application answers, from its route table."""
    for route in table:
        if isinstance(route, Route):
            for method in sorted((route.methods or set()) - {"HEAD"}):
                yield method, route.path
        elif isinstance(route, WebSocketRoute):
            yield "WS", route.path
        elif isinstance(route, Mount):
            yield "GET", route.path
        else:
            raise AssertionError(f"a route of an unknown kind: {route!r}")


def test_every_route_has_a_rule() -> None:
    found = set(endpoints(routes()))
    assert found - set(RULES) == set(), "routes without a rule: add one to RULES"
    assert set(RULES) - found == set(), "rules of routes that are no more"


# The clients -----------------------------------------------------------------------------------


class Clients:
    """Each kind of client, as the headers its requests carry."""

    def __init__(self, server: ServerProcess, boss: Api) -> None:
        self.server = server
        self.boss = boss
        self.origin = {"Origin": server.base}
        self._made: dict[str, dict[str, str]] = {}

    def headers(self, who: str, fresh: bool = False) -> dict[str, str]:
        if fresh:
            return self._make(who)
        if who not in self._made:
            self._made[who] = self._make(who)
        return self._made[who]

    def _make(self, who: str) -> dict[str, str]:
        if who == "anonymous":
            return {}
        if who == "player":
            return dict(self.origin)  # a phone's browser: the page's origin, no session
        if who in ("tablet", "dealer"):
            # A table screen as the browser holds it: the session cookie, same-site.
            screen = paired(self.server, self.boss, A, 1)
            if who == "dealer":
                dealer_on(self.server, screen)
            token = screen["Authorization"].removeprefix("Bearer ")
            return {**self.origin, "Cookie": f"floor_session={token}"}
        if who == "floor":
            return sign_in(self.server, "fred", "floor-secret")
        if who == "coordinator":
            return sign_in(self.server, "cora", "coordinator-secret")
        if who == "desk":
            return sign_in(self.server, "dora", "desk-secret")
        if who == "phone":
            # A dealer's phone: signed in with the code from the screen the dealer is on.
            screen = dealer_on(self.server, paired(self.server, self.boss, A, 1))
            r = httpx.post(self.server.base + "/api/dealers/phone/code", headers=screen)
            assert r.status_code == 201, r.text
            r = httpx.post(self.server.base + "/api/dealers/phone", json={"code": r.json()["code"]})
            assert r.status_code == 200, r.text
            return {**self.origin, "Cookie": f"floor_session={r.json()['token']}"}
        return sign_in(self.server, "boss", "director-secret")


@pytest.fixture(scope="module")
def clients(servers: list[ServerProcess], director: Api, valkey: EmbeddedServer) -> Clients:
    add_user(valkey.url, "cora", "coordinator-secret", "coordinator")
    add_user(valkey.url, "dora", "desk-secret", "desk")
    for tid in (A, B):
        director.create(tid, 20)
    # Special needs at table 1 and at table 2 of A: the floor's business, at every table.
    state = director.state(A)["state"]
    for table in (1, 2):
        pid = next(p["id"] for p in state["players"].values() if p["table"] == table)  # type: ignore[index,union-attr]
        director.ok(A, {"type": "set_special_needs", "player": pid})
    return Clients(servers[0], director)


def refused(r: httpx.Response) -> bool:
    assert r.status_code < 500, f"{r.request.method} {r.request.url}: {r.status_code} {r.text}"
    if r.headers.get("content-type", "").startswith("application/json"):
        try:
            error = r.json().get("error")
        except (ValueError, AttributeError):
            return False
        if isinstance(error, dict):
            return error.get("code") in ("forbidden", "signed_out")
    return r.status_code in (401, 403)


def fill(path: str, tid: str) -> str:
    out = path.replace("{tid}", tid)
    for name, value in PARAMS.items():
        out = out.replace("{" + name + "}", value)
    return "/static/js/table.js" if out == "/static" else out


def http(clients: Clients, method: str, path: str, rule: Rule, who: str, tid: str) -> bool:
    """Whether the route let ``who`` in, asking about tournament ``tid``."""
    url = clients.server.base + fill(path, tid) + (f"?{rule.query}" if rule.query else "")
    headers = dict(clients.headers(who, rule.fresh))
    if isinstance(rule.body, bytes):
        content = rule.body
    elif rule.body is not None:
        content = json.dumps(rule.body).replace("{tid}", tid).encode()
        headers["Content-Type"] = "application/json"
    else:
        content = None
    r = httpx.request(method, url, headers=headers, content=content, timeout=20)
    return not refused(r)


async def socket(clients: Clients, path: str, who: str, tid: str) -> bool:
    url = clients.server.ws + fill(path, tid)
    code = None
    try:
        async with connect(url, additional_headers=clients.headers(who), compression=None) as ws:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return bool(hello["type"] == "hello")
    except ConnectionClosed as e:
        code = None if e.rcvd is None else e.rcvd.code
    assert code in (1008, 4001), code
    return False


@pytest.mark.parametrize("endpoint", sorted(RULES), ids=lambda e: f"{e[0]} {e[1]}")
def test_the_matrix(clients: Clients, endpoint: tuple[str, str]) -> None:
    method, path = endpoint
    rule = RULES[endpoint]
    wrong = []
    for tid in (A, B):
        asked = f"{tid}-missing" if rule.missing else tid
        for who in WHO:
            if method == "WS":
                let_in = asyncio.run(socket(clients, path, who, asked))
            else:
                let_in = http(clients, method, path, rule, who, asked)
            if let_in != rule.allowed(who, tid):
                wrong.append(f"{who} about {tid}: {'let in' if let_in else 'refused'}")
    assert wrong == []


# What each is shown, and may send, on the tournament's websocket -------------------------------


async def shown(clients: Clients, who: str, tid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The hello and the snapshot ``who`` is sent on ``tid``'s websocket, and the result
    of a ``hand`` at table 1 sent on it."""
    url = f"{clients.server.ws}/ws/t/{tid}"
    async with connect(url, additional_headers=clients.headers(who), compression=None) as ws:
        hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
        snapshot = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert snapshot["type"] == "snapshot"
        await ws.send(json.dumps({"type": "command", "id": f"m-{who}-{tid}", **COMMAND}))
        while (result := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "result":
            pass
    return {**hello, "result": result["outcome"]}, snapshot


@pytest.mark.parametrize("who", WHO)
def test_what_the_websocket_shows_each_and_takes_from_each(clients: Clients, who: str) -> None:
    for tid in (A, B):
        hello, snapshot = asyncio.run(shown(clients, who, tid))
        players = snapshot["state"]["players"].values()
        needs = sum(p["special_needs"] for p in players)
        staff = snapshot["staff"]
        sent = hello["result"]
        refusal = None if sent["ok"] else sent["error"]["code"]
        if floor(who, tid):
            assert (hello["role"], needs, staff is not None) == (who, 2 if tid == A else 0, True)
            assert "sales" in staff and staff["sales"] != {}
            assert refusal != "forbidden"
        elif screens(who, tid) and tid == A:
            # Its own table's part of the staff's, nothing else: no special needs anywhere.
            assert (hello["role"], hello["table"], hello["device"] is not None) == (
                "table" if who == "tablet" else "dealer",
                1,
                True,
            )
            assert needs == 0
            assert staff is not None and staff["sales"] == {} and staff["bars"] == {}
            assert all(u["table"] == 1 for u in staff["undo"])
            assert refusal != "forbidden"
        else:
            # The public, a table screen of A on B, the dealer room's coordinator and a
            # dealer's phone: the room's view, read-only.
            assert (needs, staff) == (0, None)
            assert hello["role"] in ("public", "coordinator", "dealer_phone", "desk")
            assert refusal == "forbidden", sent
