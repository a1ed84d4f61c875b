"""``floor scenario FILE``: a floor situation in JSON, played through the engine.

The format is ``../shared/scenarios/FORMAT.md``: the rules, the tables as they stand, the
events; the output is the state and the plan after the events. A bad scenario raises
``ScenarioError`` naming the place in the file (``events[2].confirm: ...``).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import msgspec

from .engine import commands as cmd
from .engine.decide import decide
from .engine.errors import FloorError
from .engine.events import GameChanged, SeatLockSet, TableSetUp, TournamentCreated
from .engine.model import DealtGame, MoveReason, Positions
from .engine.planner import housekeep
from .engine.read.views import next_big_blind, shown_status, waiting
from .engine.rules import ReservedSeat, Rules
from .engine.state import Tournament
from .errortext import explain, field_names


class ScenarioError(Exception):
    """A scenario that cannot be played, with the place in the file it is about."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)


class _Strict(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class ScenarioTable(_Strict):
    table: int
    seats: dict[str, str]
    button: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    opened: list[int] = []


class ScenarioState(_Strict):
    tables: list[ScenarioTable]
    current_game: DealtGame | None = None
    locked: list[str] = []


class ButtonAt(_Strict):
    table: int
    seat: int


class ScenarioEvent(_Strict):
    bust: str | None = None
    hand: int | None = None
    button: ButtonAt | None = None
    confirm: str | None = None
    confirm_all: MoveReason | None = None
    register: str | None = None


class Scenario(_Strict):
    rules: Rules
    state: ScenarioState
    name: str = ""
    events: list[ScenarioEvent] = []
    expect: Any = None


_KEYS = field_names(
    Scenario,
    ScenarioState,
    ScenarioTable,
    ScenarioEvent,
    ButtonAt,
    Rules,
    ReservedSeat,
    *(c for c in cmd.Command.__args__),
)


def load(data: bytes) -> Scenario:
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError as e:
        raise ScenarioError("", f"not valid JSON: {e}") from None
    _no_key_twice(data)
    try:
        return msgspec.json.decode(data, type=Scenario)
    except msgspec.ValidationError as e:
        raise ScenarioError(*explain(str(e), raw, _KEYS)) from None


class _Object(dict[str, Any]):
    """A JSON object as written: ``twice`` holds the keys it gives more than once."""

    twice: list[str]


def _read_object(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object(pairs)
    seen: set[str] = set()
    obj.twice = []
    for key, _ in pairs:
        if key in seen and key not in obj.twice:
            obj.twice.append(key)
        seen.add(key)
    return obj


def _no_key_twice(data: bytes) -> None:
    """A key given twice in one object is refused: a JSON reader keeps the last and drops the
    rest without a word, so a seat listed twice would lose a player."""
    found = _key_twice(json.loads(data, object_pairs_hook=_read_object), "")
    if found is not None:
        raise ScenarioError(*found)


def _key_twice(node: Any, where: str, table: Any = None) -> tuple[str, str] | None:
    """The first key given twice, as (place, problem); ``table`` is the number of the table
    whose part of ``state`` is being read, to name the seat."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            found = _key_twice(item, f"{where}[{i}]", table)
            if found is not None:
                return found
        return None
    if not isinstance(node, _Object):
        return None
    if node.twice:
        key = node.twice[0]
        place = f"{where}.{key}" if where else key
        if table is not None and where.endswith("].seats"):
            return place, f"table {table} seat {key} is listed twice"
        return place, f'"{key}" is given twice'
    if re.fullmatch(r"state\.tables\[\d+\]", where):
        table = node.get("table")
    for key, value in node.items():
        found = _key_twice(value, f"{where}.{key}" if where else key, table)
        if found is not None:
            return found
    return None


def build(sc: Scenario, rng: random.Random) -> Tournament:
    """The tournament as the scenario's state describes it, plan housekeeping done."""
    rules = sc.rules
    t = Tournament.create(TournamentCreated(id="scenario", name=sc.name, rules=rules))
    numbers = [tb.table for tb in sc.state.tables]
    for key in ("break_order", "balance_order"):
        order = getattr(rules, key)
        if order is not None and sorted(order) != sorted(numbers):
            raise ScenarioError(f"rules.{key}", "must list every table exactly once")
    where_seated: dict[str, str] = {}
    for i, tb in enumerate(sc.state.tables):
        where = f"state.tables[{i}]"
        if tb.table in t.state.tables:
            raise ScenarioError(f"{where}.table", f"table {tb.table} is listed twice")
        occupants: dict[int, str] = {}
        spelled: dict[int, str] = {}
        for key, pid in tb.seats.items():
            place = f"{where}.seats.{key}"
            # isdecimal, not isdigit: "²" is a digit that int() cannot read.
            if not key.isdecimal() or not 1 <= int(key) <= rules.seats:
                raise ScenarioError(place, f"table {tb.table} has no seat {key}")
            seat = int(key)
            if seat in spelled:
                # "4", "04" and "٤" all name seat 4: a second one would unseat the first.
                raise ScenarioError(
                    place,
                    f'table {tb.table} seat {seat} is listed twice (also as "{spelled[seat]}")',
                )
            if pid in where_seated:
                raise ScenarioError(place, f"{pid} is seated twice (also {where_seated[pid]})")
            where_seated[pid] = place
            spelled[seat] = key
            occupants[seat] = pid
        positions = _positions(tb, where, rules.seats)
        for j, seat in enumerate(tb.opened):
            if not 1 <= seat <= rules.seats:
                raise ScenarioError(f"{where}.opened[{j}]", f"table {tb.table} has no seat {seat}")
        t.apply(
            TableSetUp(
                table=tb.table,
                seats=rules.seats,
                occupants=occupants,
                positions=positions,
                opened=tuple(tb.opened),
            )
        )
    for i, pid in enumerate(sc.state.locked):
        if pid not in where_seated:
            raise ScenarioError(f"state.locked[{i}]", f"{pid} is not seated")
        t.apply(SeatLockSet(player=pid, locked=True))
    game = sc.state.current_game
    if game is not None:
        if rules.game == "mixed":
            t.apply(GameChanged(game=game))
        elif game != rules.game:
            raise ScenarioError("state.current_game", f"a {rules.game} tournament deals {game}")
    housekeep(t, rng)
    return t


def _positions(tb: ScenarioTable, where: str, seats: int) -> Positions | None:
    given = {"button": tb.button, "small_blind": tb.small_blind, "big_blind": tb.big_blind}
    if all(v is None for v in given.values()):
        return None
    for key, v in given.items():
        if v is None:
            raise ScenarioError(f"{where}.{key}", "button, small_blind and big_blind go together")
        if not 1 <= v <= seats:
            raise ScenarioError(f"{where}.{key}", f"table {tb.table} has no seat {v}")
    assert tb.button is not None and tb.small_blind is not None and tb.big_blind is not None
    return Positions(button=tb.button, small_blind=tb.small_blind, big_blind=tb.big_blind)


def _command(ev: ScenarioEvent, where: str) -> tuple[str, cmd.Command]:
    given = [k for k in ScenarioEvent.__struct_fields__ if getattr(ev, k) is not None]
    if len(given) != 1:
        raise ScenarioError(
            where, "each event has exactly one of " + ", ".join(ScenarioEvent.__struct_fields__)
        )
    key = given[0]
    if ev.bust is not None:
        return key, cmd.Bust(player=ev.bust)
    if ev.hand is not None:
        return key, cmd.Hand(table=ev.hand)
    if ev.button is not None:
        return key, cmd.Button(table=ev.button.table, seat=ev.button.seat)
    if ev.confirm is not None:
        return key, cmd.Confirm(player=ev.confirm)
    if ev.confirm_all is not None:
        return key, cmd.ConfirmAll(reason=ev.confirm_all)
    assert ev.register is not None
    return key, cmd.Register(player=ev.register, name=ev.register)


def play(sc: Scenario, rng: random.Random) -> Tournament:
    t = build(sc, rng)
    for i, ev in enumerate(sc.events):
        key, command = _command(ev, f"events[{i}]")
        try:
            msgspec.convert(msgspec.to_builtins(command), type=cmd.Command)
            decide(t, command, 0.0, rng)
        except msgspec.ValidationError as e:
            raise ScenarioError(f"events[{i}].{key}", explain(str(e), None, _KEYS)[1]) from None
        except FloorError as e:
            raise ScenarioError(f"events[{i}].{key}", e.message) from None
    return t


def report(t: Tournament) -> dict[str, Any]:
    """The output of ``floor scenario``: tables in input order, the plan, halts, the final."""
    tables = []
    for table in t.state.tables.values():
        pos = table.positions
        tables.append(
            {
                "table": table.number,
                "status": shown_status(t, table),
                "players": table.count,
                "button": None if pos is None else pos.button,
                "small_blind": None if pos is None else pos.small_blind,
                "big_blind": None if pos is None else pos.big_blind,
                "next_big_blind": next_big_blind(t, table),
                "waiting": waiting(t, table),
                "seats": {str(s): table.occupants[s] for s in sorted(table.occupants)},
            }
        )
    plan = t.plan
    moves = [
        {
            "player": m.player,
            "from": {"table": m.from_.table, "seat": m.from_.seat},
            "to": {"table": m.to.table, "seat": m.to.seat},
            "reason": m.reason,
        }
        for m in plan.moves
    ]
    return {
        "tables": tables,
        "moves": moves,
        "halted": list(plan.halted_tables),
        "final_table": None if plan.final_table is None else {"table": plan.final_table},
    }


def run(data: bytes, seed: int | None) -> dict[str, Any]:
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    return report(play(load(data), rng))
