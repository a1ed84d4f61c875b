"""The open read API (``/api/open/v1``) on real ``floor serve`` processes and a public edge,
on the embedded Valkey: every route answers 304 to its own ETag, carries no staff field of a
tournament full of them (special-needs seats, notes, seat locks, a break's seats drawn and
not called yet), is gzipped when asked, refuses a bad query parameter with 400 naming it,
and is described by the OpenAPI document the server serves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from openapi_spec_validator import validate

from floor.engine.read import staff_fields
from floor.redisdb.embedded import EmbeddedServer
from floor.server import routes_open
from tests.e2e.conftest import Api, EdgeProcess, ServerProcess, settled

TID = "open-a"
NOTE = "pays at the cage"
PRIZE = {
    "currency": "EUR",
    "buy_in": 100,
    "fee": 10,
    "payouts": [{"entries": 2, "percents": [60, 40]}, {"entries": 20, "percents": [50, 30, 20]}],
}
#: Every open route of a tournament, with a query it takes.
READS = (
    "clock",
    "field",
    "seats",
    "counts",
    "results",
    "payouts",
    "changes?since=0",
    "ots.json",
    "chain",
)


@pytest.fixture(scope="module")
def room(servers: list[ServerProcess], director: Api) -> int:
    """A tournament with everything the staff keep to themselves: 30 players on 3 tables,
    special-needs seats, notes on entries, a seat lock, counts, bust-outs until a table
    breaks (its seats drawn, not called yet). The sequence number it ends at."""
    r = director.client.post(
        "/api/tournaments",
        json={"id": TID, "rules": "tda-2024", "structure": "demo-fast", "prize": PRIZE},
    )
    assert r.status_code == 201, r.text
    for i in range(27):
        director.ok(TID, {"type": "register", "name": f"Player {i}", "player": f"P{i}"})
    director.ok(
        TID,
        {
            "type": "register",
            "name": "Ana Wheel",
            "player": "W1",
            "special_needs": True,
            "note": NOTE,
        },
    )
    director.ok(TID, {"type": "draw_seats"})
    director.ok(TID, {"type": "register", "name": "Late Lou", "player": "L1", "note": NOTE})
    director.ok(
        TID, {"type": "register", "name": "Late Liv", "player": "L2", "special_needs": True}
    )
    director.ok(TID, {"type": "lock_seat", "player": "P1"})
    director.ok(TID, {"type": "clock_start"})
    state = director.state(TID)["state"]
    assert isinstance(state, dict)
    at_one = [p for p in state["players"].values() if p["table"] == 1]
    stacks = [{"player": p["id"], "stack": 20_000 + 100 * i} for i, p in enumerate(at_one)]
    director.ok(TID, {"type": "count_table", "table": 1, "stacks": stacks})
    last = 0
    for p in [p for p in state["players"].values() if p["table"] == 3][:5]:
        last = int(director.ok(TID, {"type": "bust", "player": p["id"]})["last"])  # type: ignore[call-overload]
    settled(servers[0], TID, last)
    settled(servers[1], TID, last)
    return last


def staff_marks(text: str) -> list[str]:
    """What of the staff's a public answer holds: a staff field's name, the note's text."""
    names = sorted(staff_fields.FLAGS | staff_fields.TEXTS)
    return [n for n in names if f'"{n}"' in text] + ([NOTE] if NOTE in text else [])


def test_every_open_read_answers_304_to_its_etag_and_holds_nothing_of_the_staff(
    servers: list[ServerProcess], room: int
) -> None:
    with httpx.Client(base_url=servers[1].base) as http:
        for read in READS:
            url = f"/api/open/v1/t/{TID}/{read}"
            r = http.get(url)
            assert r.status_code == 200, (url, r.text)
            assert r.headers["content-type"] == "application/json"
            assert int(r.headers["floor-seq"]) == room
            assert staff_marks(r.text) == [], url
            tag = r.headers["etag"]
            again = http.get(url, headers={"If-None-Match": tag})
            assert (again.status_code, again.content) == (304, b""), url
            assert again.headers["etag"] == tag
            weak = http.get(url, headers={"If-None-Match": f'"other", W/{tag}'})
            assert weak.status_code == 304, url
            assert http.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
        for path in ("/api/open/v1/tournaments", "/api/open/v1/openapi.json"):
            r = http.get(path)
            assert r.status_code == 200
            assert http.get(path, headers={"If-None-Match": r.headers["etag"]}).status_code == 304


def test_the_seats_are_where_the_public_sees_them_never_a_draw_not_called(
    servers: list[ServerProcess], director: Api, room: int
) -> None:
    staff = director.state(TID)["state"]
    assert isinstance(staff, dict)
    assert staff["draws"], "a table broke: its seats are drawn and not called yet"
    public = json.loads(httpx.get(f"{servers[0].base}/api/t/{TID}").content)["state"]
    doc = httpx.get(f"{servers[0].base}/api/open/v1/t/{TID}/seats").json()
    seated = {s["player"]: (t["table"], s["seat"]) for t in doc["tables"] for s in t["seats"]}
    shown = {
        p["id"]: (p["table"], p["seat"])
        for p in public["players"].values()
        if not p["busted"] and p["table"] is not None
    }
    assert seated == shown
    assert len(seated) == 30 - 5
    for player, draw in staff["draws"].items():
        assert seated[player] != (draw["table"], draw["seat"])
    one = httpx.get(f"{servers[0].base}/api/open/v1/t/{TID}/seats", params={"table": 2}).json()
    assert [t["table"] for t in one["tables"]] == [2]


def test_counts_results_payouts_and_the_feed_say_what_happened(
    servers: list[ServerProcess], room: int
) -> None:
    base = f"{servers[0].base}/api/open/v1/t/{TID}"
    counts = httpx.get(f"{base}/counts").json()
    assert counts["counted"] == len(counts["counts"]) > 0
    stacks = [c["stack"] for c in counts["counts"]]
    assert stacks == sorted(stacks, reverse=True)
    assert all(c["counted_at"] is not None and c["table"] == 1 for c in counts["counts"])
    results = httpx.get(f"{base}/results").json()
    assert [r["place"] for r in results["results"]] == [26, 27, 28, 29, 30]
    assert results["currency"] == "EUR"
    payouts = httpx.get(f"{base}/payouts").json()
    assert payouts["pool"] == 30 * 100
    assert [p["prize"] for p in payouts["places"]] == [1500, 900, 600]
    feed = httpx.get(f"{base}/changes", params={"since": 0, "limit": 500}).json()
    assert (feed["since"], feed["to"], feed["more"]) == (0, room, False)
    kinds = [c["kind"] for c in feed["changes"]]
    assert kinds.count("bust") == 5
    assert {"seats_drawn", "seated", "clock_started"} <= set(kinds)
    busts = [c for c in feed["changes"] if c["kind"] == "bust"]
    assert sorted(c["place"] for c in busts) == [26, 27, 28, 29, 30]
    assert all(c["name"].startswith(("Player", "Ana", "Late")) for c in busts)
    # A page at a time: each answer says where the next begins.
    seen, since = [], 0
    while True:
        page = httpx.get(f"{base}/changes", params={"since": since, "limit": 7}).json()
        assert page["to"] - since <= 7
        seen += page["changes"]
        since = page["to"]
        if not page["more"]:
            break
    assert seen == feed["changes"]
    ots = httpx.get(f"{base}/ots.json").json()["ots"]
    assert ots["tournament_number"] == TID and ots["player_count"] == 30
    finishes = ots["tournament_finishes_and_winnings"]
    assert len(finishes) == 30
    assert sum(1 for f in finishes if f["still_playing"]) == 25


def test_a_large_answer_is_gzipped_when_asked(servers: list[ServerProcess], room: int) -> None:
    url = f"{servers[0].base}/api/open/v1/t/{TID}/seats"
    raw = httpx.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers
    with httpx.Client() as http:
        packed = http.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(raw.content)
    assert packed.json() == raw.json()
    assert packed.headers["etag"] == raw.headers["etag"]


@pytest.mark.parametrize(
    ("read", "params", "field"),
    [
        ("seats", {"table": "0"}, "table"),
        ("seats", {"table": "x"}, "table"),
        ("seats", {"tabel": "1"}, "tabel"),
        ("counts", {"table": "10001"}, "table"),
        ("clock", {"at": "now"}, "at"),
        ("changes", {}, "since"),
        ("changes", {"since": "-1"}, "since"),
        ("changes", {"since": "²"}, "since"),
        ("changes", {"since": "99999"}, "since"),
        ("changes", {"since": "9" * 5000}, "since"),
        ("changes", {"since": "0", "limit": "501"}, "limit"),
        ("changes", {"since": "0", "limit": "0"}, "limit"),
        ("results", {"page": "2"}, "page"),
    ],
)
def test_a_bad_query_parameter_is_answered_400_naming_it(
    servers: list[ServerProcess], room: int, read: str, params: dict[str, str], field: str
) -> None:
    r = httpx.get(f"{servers[0].base}/api/open/v1/t/{TID}/{read}", params=params)
    assert r.status_code == 400, r.text
    assert r.json()["error"]["field"] == field


def test_an_unknown_tournament_is_404(servers: list[ServerProcess]) -> None:
    r = httpx.get(f"{servers[0].base}/api/open/v1/t/no-such-one/clock")
    assert r.status_code == 404


def test_the_served_openapi_document_validates_and_lists_every_open_route(
    servers: list[ServerProcess],
) -> None:
    doc = httpx.get(f"{servers[0].base}/api/open/v1/openapi.json").json()
    validate(doc)
    assert set(doc["paths"]) == {r.path for r in routes_open.routes}  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def edge(valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EdgeProcess]:
    proc = EdgeProcess(valkey.url, Path(tmp_path_factory.mktemp("edge")) / "edge.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_the_public_edge_serves_every_open_read(edge: EdgeProcess, room: int) -> None:
    with httpx.Client(base_url=edge.base) as http:
        settled(edge, TID, room)
        for read in READS:
            r = http.get(f"/api/open/v1/t/{TID}/{read}")
            assert r.status_code == 200, (read, r.text)
            assert staff_marks(r.text) == []
            assert (
                http.get(
                    f"/api/open/v1/t/{TID}/{read}", headers={"If-None-Match": r.headers["etag"]}
                ).status_code
                == 304
            )


@pytest.fixture(scope="module")
def strict(
    valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server that limits every address (loopback too): ten requests at once, then two a
    second."""
    proc = ServerProcess(
        valkey.url,
        Path(tmp_path_factory.mktemp("strict")) / "server.log",
        FLOOR_LIMITS_EXEMPT="none",
        FLOOR_RATE_LIMIT="2",
        FLOOR_RATE_BURST="10",
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_the_per_address_rate_limits_apply_to_the_open_reads(
    strict: ServerProcess, room: int
) -> None:
    with httpx.Client(base_url=strict.base) as http:
        answers = [http.get(f"/api/open/v1/t/{TID}/clock").status_code for _ in range(20)]
    assert answers[0] == 200
    assert 429 in answers
