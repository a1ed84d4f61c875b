"""The floor tools end to end: a chip race, rebuys and time calls through the command API as
the wall display sees them, the prize pool and results, the pot calculator, the rulebook."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import Api, ServerProcess, sign_in
from tests.e2e.screens import Screen, state_json

STRUCTURE: dict[str, Any] = {
    "name": "tools",
    "starting_stack": 10_000,
    "chips": [25, 100, 500],
    "levels": [
        {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 30},
        {"type": "break", "minutes": 10, "color_up": [25]},
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 30},
    ],
    "late_registration_until": 1,
    "prize": {
        "currency": "EUR",
        "buy_in": 100,
        "fee": 10,
        "guarantee": 1_500,
        "round_to": 10,
        "rebuy": {"price": 100, "chips": 10_000, "until_level": 1},
        "payouts": [
            {"entries": 2, "percents": [100]},
            {"entries": 10, "percents": [50, 30, 20]},
        ],
    },
}


@pytest.fixture(scope="module")
def floor_staff(servers: list[ServerProcess]) -> Iterator[Api]:
    api = Api(servers[0], sign_in(servers[0], "fred", "floor-secret"))
    yield api
    api.client.close()


def occupied(api: Api, tid: str, table: int) -> list[int]:
    state = api.state(tid)["state"]
    return sorted(int(s) for s in state["tables"][str(table)]["occupants"])  # type: ignore[index]


def batch_with(screen: Screen, kind: str) -> dict[str, Any]:
    for batch in screen.batches:
        if any(e["event"]["type"] == kind for e in batch["events"]):
            return batch
    raise AssertionError(f"no batch with {kind}")


async def test_a_chip_race_entered_on_the_floor_updates_the_stacks_the_wall_averages(
    servers: list[ServerProcess], director: Api, floor_staff: Api
) -> None:
    director.create("race", 20, structure=STRUCTURE)
    wall = await Screen.open(servers[1].ws + "/ws/t/race")  # the public wall, the other server
    snapshot = await wall.receive()
    wall.take(snapshot)
    assert snapshot["stats"]["chips"] == 20 * 10_000
    director.ok("race", {"type": "clock_start"})
    director.ok("race", {"type": "clock_level", "to": 1})  # the colour-up break
    a, b = occupied(director, "race", 1)[:2]

    # One odd 25 each: 50 is half a 100, which rounds up to one chip raced - one of them
    # wins it, and the chips in play grow by 50 whoever does.
    floor_staff.ok(
        "race",
        {
            "type": "chip_race",
            "table": 1,
            "seats": [
                {"seat": a, "chips": 1, "stack": 10_025},
                {"seat": b, "chips": 1, "stack": 10_025},
            ],
        },
    )

    raced = await wall.until_event("chips_raced", table=1)
    result = raced["event"]["result"]
    assert result["leaving"] == 25 and result["next_up"] == 100 and result["chips_raced"] == 1
    assert sorted(len(s["cards"]) for s in result["seats"]) == [1, 1]
    assert sorted(s["stack"] for s in result["seats"]) == [10_000, 10_100]
    stats = batch_with(wall, "chips_raced")["stats"]
    assert stats["chips"] == 20 * 10_000 + 50
    assert stats["average_stack"] == round((20 * 10_000 + 50) / 20)
    assert director.state("race")["stats"] == stats
    assert wall.t is not None
    assert state_json(wall.t) == director.state("race")["state"]
    await wall.close()


async def test_a_rebuy_sold_on_the_floor_grows_the_chips_and_the_prize_pool_on_the_wall(
    servers: list[ServerProcess], director: Api, floor_staff: Api
) -> None:
    director.create("rebuys", 12, structure=STRUCTURE)
    wall = await Screen.open(servers[0].ws + "/ws/t/rebuys")
    first = await wall.receive()
    wall.take(first)
    assert (first["stats"]["prize_pool"], first["stats"]["currency"]) == (1_500, "EUR")

    floor_staff.ok("rebuys", {"type": "rebuy", "player": "P3"})

    await wall.until_event("rebuy_made", player="P3")
    stats = batch_with(wall, "rebuy_made")["stats"]
    assert (stats["rebuys"], stats["chips"]) == (1, 13 * 10_000)
    assert stats["prize_pool"] == 1_500  # 1,300 came in: the guarantee still stands
    await wall.close()


async def test_a_time_call_shows_on_the_wall_and_ends_by_itself(
    servers: list[ServerProcess], director: Api, floor_staff: Api
) -> None:
    director.create("timecall", 12, structure=STRUCTURE)
    seat = occupied(director, "timecall", 1)[0]
    wall = await Screen.open(servers[1].ws + "/ws/t/timecall")
    wall.take(await wall.receive())

    floor_staff.ok(
        "timecall", {"type": "call_time", "table": 1, "seat": seat, "seconds": 5, "count": 1}
    )

    called = await wall.until_event("time_called", table=1, seat=seat)
    calls = director.state("timecall")["state"]["time_calls"]  # type: ignore[index]
    assert [(c["table"], c["seat"]) for c in calls] == [(1, seat)]
    assert called["event"]["ends_at"] - called["event"]["at"] == pytest.approx(6.0)
    # Nobody ends it: the clock driver's tick declares the hand dead when the count is over.
    ended = await wall.until_event("time_call_ended", timeout=20, table=1, seat=seat)
    assert ended["event"]["outcome"] == "dead"
    assert ended["event"]["at"] == pytest.approx(called["event"]["ends_at"])
    assert director.state("timecall")["state"]["time_calls"] == []  # type: ignore[index]
    assert wall.t is not None and wall.t.state.time_calls == []
    await wall.close()


def test_the_default_time_of_a_call_is_the_rule_sets(director: Api, floor_staff: Api) -> None:
    director.create("calltime", 10, rules="pfp-2014", structure=STRUCTURE)
    seat = occupied(director, "calltime", 1)[0]

    floor_staff.ok("calltime", {"type": "call_time", "table": 1, "seat": seat})

    (call,) = director.state("calltime")["state"]["time_calls"]  # type: ignore[index,misc]
    assert (call["count_from"] - call["at"], call["ends_at"] - call["at"]) == (60, 70)


# --- the prize pool and results ----------------------------------------------------------------


def test_the_prizes_and_results_show_places_and_prizes_shared_places_split(
    servers: list[ServerProcess], director: Api, floor_staff: Api
) -> None:
    director.create("prizes", 20, structure=STRUCTURE)
    floor_staff.ok("prizes", {"type": "bust", "player": "P7"})
    floor_staff.ok(
        "prizes",
        {
            "type": "bust_same_hand",
            "players": [{"player": "P1", "stack": 4_000}, {"player": "P2", "stack": 4_000}],
        },
    )
    public = httpx.Client(base_url=servers[1].base)

    prizes = public.get("/api/t/prizes/prizes").json()

    assert prizes["pool"]["pool"] == 2_000  # 20 x 100 EUR beats the 1,500 guarantee
    assert prizes["pool"]["fees"] == 200
    assert [(p["place"], p["prize"]) for p in prizes["pool"]["places"]] == [
        (1, 1_000),
        (2, 600),
        (3, 400),
    ]
    # P1 and P2 share 18th (18th and 19th), listed by where they sat; P7 was 20th.
    assert sorted((r["player"], r["place"], r["tied"]) for r in prizes["results"]) == [
        ("P1", 18, 2),
        ("P2", 18, 2),
        ("P7", 20, 1),
    ]
    assert [r["place"] for r in prizes["results"]] == [18, 18, 20]
    assert prizes["rule"] == "prize-pool"

    response = public.get("/api/t/prizes/results.csv")
    assert response.headers["content-type"].startswith("text/csv")
    assert "prizes-results.csv" in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert sorted((r["place"], r["tied"], r["name"], r["prize"], r["currency"]) for r in rows) == [
        ("18", "2", "Player 1", "0", "EUR"),
        ("18", "2", "Player 2", "0", "EUR"),
        ("20", "1", "Player 7", "0", "EUR"),
    ]
    assert public.get("/api/t/nothing-here/prizes").status_code == 404
    public.close()


def test_a_tournament_from_the_pfp_config_carries_its_guarantee(director: Api) -> None:
    r = director.client.post(
        "/api/tournaments", json={"id": "pfp", "config": "pfp-2014-main-event"}
    )
    assert r.status_code == 201, r.text

    prizes = director.client.get("/api/t/pfp/prizes").json()

    assert (prizes["pool"]["currency"], prizes["pool"]["pool"]) == ("CZK", 3_000_000)
    assert prizes["pool"]["guarantee"] == prizes["pool"]["overlay"] == 3_000_000


def test_a_structure_with_a_bad_payout_table_is_refused_naming_the_key(director: Api) -> None:
    bad = {
        **STRUCTURE,
        "prize": {**STRUCTURE["prize"], "payouts": [{"entries": 2, "percents": [60, 30]}]},
    }

    r = director.client.post(
        "/api/tournaments", json={"id": "badprize", "rules": "tda-2024", "structure": bad}
    )

    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["field"].startswith("structure.prize")
    assert error["field"] == "structure.prize.payouts[0].percents"
    assert error["message"] == "add up to 90, not 100"


# --- bad input to the new commands: a clear error, nothing changed ------------------------------


@pytest.mark.parametrize(
    ("command", "status", "field"),
    [
        (
            {"type": "chip_race", "table": 1, "seats": [{"seat": 1, "chips": -2}]},
            422,
            "command.seats[0].chips",
        ),
        (
            {
                "type": "chip_race",
                "table": 1,
                "leaving": 25,
                "seats": [{"seat": 10, "chips": 2, "stack": 500}],
            },
            409,
            "seats[0].seat",
        ),
        ({"type": "chip_race", "table": 1, "seats": [{"seat": 1, "chips": 2}]}, 409, "leaving"),
        ({"type": "rebuy", "player": "nobody"}, 404, "player"),
        ({"type": "bust_same_hand", "players": [{"player": "P1"}]}, 422, "command.players"),
        ({"type": "add_on", "player": "P1"}, 409, "player"),
    ],
    ids=[
        "negative count",
        "no such seat",
        "not at a break",
        "unknown player",
        "one player",
        "no add-on",
    ],
)
def test_bad_floor_tool_commands_get_a_clear_error_and_change_nothing(
    director: Api, floor_staff: Api, command: dict[str, object], status: int, field: str
) -> None:
    tid = "badtools"
    try:
        director.state(tid)
    except AssertionError:
        director.create(tid, 8, structure=STRUCTURE)
    before = director.state(tid)

    r = floor_staff.command(tid, command)

    assert r.status_code == status, r.text
    assert r.json()["error"]["field"] == field
    assert r.json()["error"]["message"]
    assert director.state(tid) == before


# --- the pot calculator -------------------------------------------------------------------------

THREE_WAY = {
    "game": "flop",
    "odd_chip_unit": 25,
    "button": 4,
    "contributions": [
        {"seat": 1, "contributed": 1000},
        {"seat": 3, "contributed": 2525},
        {"seat": 4, "contributed": 4000},
        {"seat": 6, "contributed": 4000},
        {"seat": 8, "contributed": 300, "folded": True},
    ],
    "high": [[1], [3, 6], [4]],
    "total": 11_825,
}


def test_the_pot_calculator_splits_a_three_way_all_in_with_two_side_pots_and_an_odd_chip(
    servers: list[ServerProcess],
) -> None:
    r = httpx.post(servers[0].base + "/api/pots", json=THREE_WAY)

    assert r.status_code == 200, r.text
    answer = r.json()
    assert [(p["name"], p["amount"]) for p in answer["pots"]] == [
        ("side pot 2", 2_950),
        ("side pot 1", 4_575),
        ("main pot", 4_300),
    ]
    assert {a["seat"]: a["amount"] for a in answer["pots"][1]["awards"]} == {3: 2275, 6: 2300}
    assert "odd chip" in answer["pots"][1]["note"]
    assert {t["seat"]: t["amount"] for t in answer["totals"]} == {
        1: 4300,
        3: 2275,
        4: 0,
        6: 5250,
        8: 0,
    }
    assert answer["rules"] == ["side-pots", "odd-chips"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            {"contributions": [{"seat": 1, "contributed": -100}, {"seat": 2, "contributed": 100}]},
            "contributions[0].contributed",
        ),
        ({"total": 12_000}, "total"),
        ({"high": [[1], [3, 6], [4], [8]]}, "high"),
        ({"high": [[1], [3, 6], [4], [2]]}, "high"),
        ({"button": None}, "button"),
        ({"game": "badugi"}, "game"),
    ],
    ids=[
        "negative contribution",
        "does not add up",
        "a folded winner too many",
        "more winners than players",
        "no button",
        "unknown game",
    ],
)
def test_a_bad_pot_gets_a_422_naming_the_field(
    servers: list[ServerProcess], change: dict[str, object], field: str
) -> None:
    r = httpx.post(servers[0].base + "/api/pots", json={**THREE_WAY, **change})

    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == field
    assert r.json()["error"]["message"]


def test_a_pot_that_is_not_json_gets_a_400(servers: list[ServerProcess]) -> None:
    r = httpx.post(
        servers[0].base + "/api/pots", content=b"{", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400


# --- the rulebook --------------------------------------------------------------------------------


def test_the_rulebook_is_searched_in_czech_without_diacritics(servers: list[ServerProcess]) -> None:
    r = httpx.get(
        servers[0].base + "/api/rulebook",
        params={"set": "pfp-2014", "q": "chip race zetony", "lang": "cs"},
    )

    assert r.status_code == 200, r.text
    answer = r.json()
    assert (answer["set"], answer["lang"], answer["based_on"]) == ("pfp-2014", "cs", ["tda-2024"])
    first = answer["rules"][0]
    assert (first["id"], first["cite"], first["house"]) == ("chip-race", "PFP 2014 rule 20", True)
    assert first["title"] == first["title_cs"] == "Chip race"
    assert first["text"].startswith("V okamžiku, kdy se odstraňují žetony")
    assert answer["links"]["balance"] == "balancing"
    assert answer["links"]["chip_race"] == "chip-race"


@pytest.mark.parametrize(
    ("lang", "title"), [("de", "Tische ausgleichen"), ("pl", "Wyrównywanie stołów"),
                        ("es", "Equilibrado de mesas")],
)  # fmt: skip
def test_the_rulebook_names_its_rules_in_every_language_above_the_english_text(
    servers: list[ServerProcess], lang: str, title: str
) -> None:
    """The books keep English and Czech texts; a German, Polish or Spanish reader finds each
    rule by its title in their language (config/rulebook/titles), the text in English."""
    r = httpx.get(servers[0].base + "/api/rulebook", params={"set": "tda-2024", "lang": lang})

    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["lang"] == lang
    balancing = next(rule for rule in answer["rules"] if rule["id"] == "balancing")
    assert balancing["title"] == title
    assert balancing["text"] == balancing["text_en"]
    assert all(rule["title"] != rule["title_en"] for rule in answer["rules"])


def test_why_a_player_is_moving_opens_the_balancing_rule(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("why", 15, structure=STRUCTURE)  # two tables: 8 and 7 players
    tables = director.state("why")["state"]["tables"]  # type: ignore[index]
    short = min(tables.values(), key=lambda t: len(t["occupants"]))  # type: ignore[union-attr]
    for pid in list(short["occupants"].values())[:2]:
        director.ok("why", {"type": "bust", "player": pid})  # 8 against 5
    state = director.state("why")
    moves = [m for m in state["plan"]["moves"] if m["reason"] == "balance"]  # type: ignore[index]
    assert moves, state["plan"]

    rule = httpx.get(
        servers[0].base + f"/api/rulebook/{moves[0]['rule']}", params={"set": "tda-2024"}
    )

    assert rule.status_code == 200
    assert (rule.json()["id"], rule.json()["cite"]) == ("balancing", "TDA 2024 rule 11A")
    assert rule.json()["title"] == "Balancing tables"


def test_a_rule_links_the_official_text_and_says_what_could_not_be_checked(
    servers: list[ServerProcess],
) -> None:
    def rule(rule_id: str, **params: str) -> dict[str, Any]:
        r = httpx.get(servers[0].base + f"/api/rulebook/{rule_id}", params=params)
        assert r.status_code == 200, r.text
        found: dict[str, Any] = r.json()
        return found

    misdeal = rule("misdeal", set="tda-2024")
    assert (misdeal["cite"], misdeal["title"]) == ("TDA 2024 rule 35", "Misdeals and fouled decks")
    assert misdeal["link"].startswith("https://") and misdeal["unchecked"] == ""
    assert misdeal["checked"].startswith("Checked against the TDA 2024 rules, version 1.0")
    draw = rule("button-draw", set="tda-2024", lang="cs")
    assert draw["cite"] == "House procedure" and draw["unchecked"].startswith("Žádné pravidlo")
    # An id a house rule replaces opens the house rule.
    assert rule("string-bets", set="pfp-2014")["id"] == "raising-method"
    # "phone" finds the 2024 rule on devices first.
    r = httpx.get(servers[0].base + "/api/rulebook", params={"q": "phone", "set": "tda-2024"})
    assert r.json()["rules"][0]["id"] == "electronic-devices"


def test_the_whole_book_a_phone_keeps_is_sent_gzipped_to_a_reader_that_takes_it(
    servers: list[ServerProcess],
) -> None:
    url = servers[0].base + "/api/rulebook"
    packed = httpx.get(url, params={"set": "tda-2024"}, headers={"accept-encoding": "gzip"})
    plain = httpx.get(url, params={"set": "tda-2024"}, headers={"accept-encoding": "identity"})

    assert packed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert int(packed.headers["content-length"]) < int(plain.headers["content-length"]) / 3
    assert packed.json() == plain.json()
    assert plain.json()["count"] == len(plain.json()["rules"]) == 102


def test_a_ruling_citing_a_rule_the_tournaments_book_does_not_hold_is_refused(
    servers: list[ServerProcess], director: Api, floor_staff: Api
) -> None:
    director.create("rulings", 12, structure=STRUCTURE)
    seated = director.state("rulings")["state"]["tables"]["1"]["occupants"]  # type: ignore[index]
    player = next(iter(seated.values()))  # type: ignore[union-attr]
    # TDA 2024 rule 5 (devices), with a missed round of rule 71: a hand per player seated.
    given = floor_staff.ok(
        "rulings",
        {
            "type": "record_ruling",
            "table": 1,
            "players": [player],
            "rule": "electronic-devices",
            "note": "phone on the table with a live hand",
            "penalties": [{"player": player, "kind": "sit_out", "rounds": 1}],
        },
    )
    made = director.state("rulings")["state"]["rulings"]["made"]  # type: ignore[index]
    assert given["ok"] is True
    assert made[0]["rule"] == "electronic-devices"  # type: ignore[index]
    assert made[0]["penalties"][0]["hands"] == len(seated)  # type: ignore[index]

    for body in (
        {"id": "x1", "command": {"type": "record_ruling", "table": 1, "rule": "no-such-rule"}},
        # A rule of another book: the Pardubice house's own wording is not in TDA 2024.
        {"id": "x2", "command": {"type": "record_ruling", "rule": "official-terms-pfp"}},
    ):
        r = floor_staff.client.post("/api/t/rulings/commands", json=body)
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert (error["field"], error["reason"]) == ("rule", "rule_unknown")
        assert error["params"]["book"] == "TDA 2024"
    # The same on the command's own path; nothing was recorded.
    r = floor_staff.client.post(
        "/api/t/rulings/commands/record_ruling", json={"rule": "wsop-rule-12", "note": "x"}
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "rule", r.text
    assert len(director.state("rulings")["state"]["rulings"]["made"]) == 1  # type: ignore[index]


@pytest.mark.parametrize(
    ("path", "params", "status", "field"),
    [
        ("/api/rulebook", {"set": "wsop-2030"}, 404, "set"),
        ("/api/rulebook", {"lang": "xx"}, 422, "lang"),
        ("/api/rulebook", {"q": "x" * 81}, 422, "q"),
        ("/api/rulebook/no-such-rule", {"set": "pfp-2014"}, 404, "rule"),
    ],
    ids=["unknown set", "unknown language", "search too long", "unknown rule"],
)
def test_bad_rulebook_requests_name_the_parameter(
    servers: list[ServerProcess], path: str, params: dict[str, str], status: int, field: str
) -> None:
    r = httpx.get(servers[0].base + path, params=params)

    assert r.status_code == status, r.text
    assert r.json()["error"]["field"] == field


def test_a_shipped_structure_takes_a_prize_pool_from_the_request(director: Api) -> None:
    prize = {
        "currency": "CZK",
        "buy_in": 1000,
        "fee": 100,
        "guarantee": 50000,
        "payouts": [
            {"entries": 10, "percents": [60, 40]},
            {"entries": 1000, "percents": [50, 30, 20]},
        ],
    }
    r = director.client.post(
        "/api/tournaments",
        json={
            "id": "prized",
            "name": "Prized",
            "rules": "tda-2024",
            "structure": "demo-fast",
            "prize": prize,
        },
    )
    assert r.status_code == 201, r.text
    pool = director.client.get("/api/t/prized/prizes").json()["pool"]
    assert (pool["currency"], pool["pool"]) == ("CZK", 50000)
    bad = {**prize, "payouts": [{"entries": 10, "percents": [60, 30]}]}
    r = director.client.post(
        "/api/tournaments",
        json={
            "id": "badprize",
            "name": "Bad",
            "rules": "tda-2024",
            "structure": "demo-fast",
            "prize": bad,
        },
    )
    assert r.status_code == 422
    assert "100" in r.json()["error"]["message"]
