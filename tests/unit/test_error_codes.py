"""Refusals and pot notes as codes with parameters, which each language renders.

The catalogues are ``floor.engine.errors.PARAMS`` (every refusal's reason and the names of its
parameters) and ``floor.engine.calc.pots.NOTE_PARAMS`` (the clauses of a pot's note); the screens'
templates are ``web/js/lang/errors-en.js`` and ``errors-cs.js``. These tests hold the three
together: every reason raised anywhere in ``floor/`` is in the catalogue with the parameters it
is raised with, every code has an English and a Czech template naming only its parameters,
and the English template said with a refusal's parameters is the refusal's own message.
"""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from floor import refusals
from floor.engine import commands as cmd
from floor.engine.calc import pots as pots_module
from floor.engine.calc.chiprace import ChipRaceInput, RaceSeat, chip_race
from floor.engine.calc.pots import NOTE_PARAMS, Contribution, PotInput, split_pot
from floor.engine.errors import PARAMS, ConfigValueError, FloorError, NotAllowed, RuleError
from floor.engine.rules import Rules, Structure
from floor.server.languages import shipped
from tests.unit.builders import Floor
from tests.unit.test_entries_and_buys import at_step, table

ROOT = Path(__file__).resolve().parents[2]
#: Every language the screens ship (floor/server/languages.py): English and Czech, and more.
LANGS = shipped(ROOT / "web")
PLURAL_KEYS = {"count", "zero", "one", "two", "few", "many", "other"}
FORMATS = {"seats", "list"}
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
#: The engine's error classes: every one built in floor/engine says its reason.
ENGINE_ERRORS = {
    "RuleError",
    "UnknownPlayer",
    "UnknownTable",
    "BadSeat",
    "NotAllowed",
    "BadValue",
    "NoPlannedMove",
    "ConfigError",
    "ConfigValueError",
}
#: The ValueErrors left in the engine: programming errors and a parse its callers name.
PLAIN_VALUE_ERRORS = {
    ("chiprace.py", "card_strength"),
    ("pots.py", "__post_init__"),
    ("state.py", "fold"),
    ("state.py", "_created"),
    # A seed chain or a draw's source asked for what no decision asks (engine.fair).
    ("fair.py", "make_chain"),
    ("fair.py", "seed"),
    ("fair.py", "block"),
    ("fair_rng.py", "__init__"),
    ("fair_rng.py", "getrandbits"),
    ("fair_rng.py", "below"),
    ("fair_rng.py", "randrange"),
    ("fair_rng.py", "sample"),
}


templates = refusals.templates


CATALOGUE: dict[str, tuple[str, ...]] = {**PARAMS, **NOTE_PARAMS}


def forms(template: str | dict[str, str]) -> list[str]:
    if isinstance(template, str):
        return [template]
    return [v for k, v in template.items() if k != "count"]


# --- the catalogue against the source ---------------------------------------------------------


def calls_in_floor() -> list[tuple[Path, str, ast.Call]]:
    """Every call in floor/, with its file and the function it is in."""
    out: list[tuple[Path, str, ast.Call]] = []
    for path in sorted((ROOT / "floor").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in [
            n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]:
            out.extend(
                (path, func.name, node) for node in ast.walk(func) if isinstance(node, ast.Call)
            )
    return out


def callee(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in node.keywords if k.arg == name), None)


def literal_keys(node: ast.expr | None, where: str) -> set[str]:
    if node is None:
        return set()
    assert isinstance(node, ast.Dict), f"{where}: params must be a dict literal"
    keys = set()
    for k in node.keys:
        assert isinstance(k, ast.Constant) and isinstance(k.value, str), where
        keys.add(k.value)
    return keys


def error_classes() -> set[str]:
    """The names of FloorError and every class in floor/ that derives from it."""
    bases: dict[str, set[str]] = {}
    for path in (ROOT / "floor").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else b.attr
                    for b in node.bases
                    if isinstance(b, ast.Name | ast.Attribute)
                )
    found = {"FloorError"}
    while grown := {name for name, of in bases.items() if of & found} - found:
        found |= grown
    return found


def test_every_reason_raised_is_in_the_catalogue_with_the_params_it_is_raised_with() -> None:
    errors = error_classes()
    assert errors > ENGINE_ERRORS
    raised: set[str] = set()
    for path, _, node in calls_in_floor():
        reason = keyword(node, "reason")
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        if callee(node) == "refused" and isinstance(node.args[1], ast.Constant | ast.IfExp):
            # ``refused(kind, "reason", {params}, field=...)``: the same literals, by position
            # (or two reasons picked between, ``"a" if seat is None else "b"``).
            picked = node.args[1]
            named = [picked] if isinstance(picked, ast.Constant) else [picked.body, picked.orelse]
            keys = literal_keys(node.args[2], where)
            for reason in named:
                assert isinstance(reason, ast.Constant) and isinstance(reason.value, str), where
                assert reason.value in PARAMS, f"{where}: {reason.value!r} is not in PARAMS"
                assert keys == set(PARAMS[reason.value]), f"{where}: {reason.value} with {keys}"
                raised.add(reason.value)
            continue
        if reason is None or callee(node) not in errors:
            continue
        assert isinstance(reason, ast.Constant) and isinstance(reason.value, str), (
            f"{where}: a reason is a string literal, so that this test can check it"
        )
        assert reason.value in PARAMS, f"{where}: {reason.value!r} is not in errors.PARAMS"
        keys = literal_keys(keyword(node, "params"), where)
        assert keys == set(PARAMS[reason.value]), f"{where}: {reason.value} raised with {keys}"
        raised.add(reason.value)
    data = reasons_as_data()
    assert data <= set(PARAMS), f"not in errors.PARAMS: {sorted(data - set(PARAMS))}"
    raised |= data
    assert not set(PARAMS) - raised, f"never raised: {sorted(set(PARAMS) - raised)}"


def reasons_as_data() -> set[str]:
    """The reasons a check returns as data, which ``errors.refused`` raises in the words of
    the reason's template: a ``Why`` (its parameters among the reason's), or a code of a
    ``...Bar`` literal type (``undo.UndoBar``)."""
    found: set[str] = set()
    for path, _, node in calls_in_floor():
        if callee(node) != "Why" or not node.args:
            continue
        # A literal, or literals picked between (``"a" if at_break else "b"``).
        named = {
            c.value
            for c in ast.walk(node.args[0])
            if isinstance(c, ast.Constant) and isinstance(c.value, str)
        }
        # (A ``Why`` made from another refusal's reason, as ``amendments._fits`` does, names
        # none: that reason is raised where it is made.)
        found |= named
        if len(named) == 1 and len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
            (reason,) = named
            keys = literal_keys(node.args[1], f"{path.relative_to(ROOT)}:{node.lineno}")
            assert keys <= set(PARAMS.get(reason, ())), f"{path}:{node.lineno}: {reason} {keys}"
    for path in (ROOT / "floor").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id.endswith("Bar")
            ):
                found |= {
                    c.value
                    for c in ast.walk(node.value)
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                }
    return found


def test_every_error_the_engine_builds_says_its_reason() -> None:
    for path, func, node in calls_in_floor():
        if "engine" not in path.parts:
            continue
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        name = callee(node)
        if name in ENGINE_ERRORS:
            assert keyword(node, "reason") is not None, f"{where}: {name} without a reason"
        if name == "ValueError":
            assert (path.name, func) in PLAIN_VALUE_ERRORS, f"{where}: a ValueError, no reason"


def test_the_engine_states_each_refusal_once_by_its_code() -> None:
    """A refusal is ``refused(kind, reason, params, field)``: its English is the template's
    (``web/js/lang/errors-en.js``), never a sentence written again beside its code."""
    worded = set()
    for path, _, node in calls_in_floor():
        reason = keyword(node, "reason")
        if "engine" in path.parts and callee(node) in ENGINE_ERRORS and reason is not None:
            assert isinstance(reason, ast.Constant), f"{path}:{node.lineno}"
            worded.add((path.name, reason.value))
    assert worded == set()


def test_every_pot_note_clause_is_in_the_catalogue_with_its_params() -> None:
    made: set[str] = set()
    for path, _, node in calls_in_floor():
        if callee(node) != "Note":
            continue
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        code = keyword(node, "code")
        if isinstance(code, ast.IfExp):
            assert isinstance(code.body, ast.Constant) and isinstance(code.orelse, ast.Constant)
            codes = [code.body.value, code.orelse.value]
        elif isinstance(code, ast.Constant):
            codes = [code.value]
        else:
            # A code picked from a table of codes (the high half, the low half, the whole).
            assert isinstance(code, ast.Subscript) and isinstance(code.value, ast.Name), where
            codes = list(getattr(pots_module, code.value.id).values())
        keys = literal_keys(keyword(node, "params"), where)
        for c in codes:
            assert c in NOTE_PARAMS, f"{where}: {c!r} is not in pots.NOTE_PARAMS"
            assert keys == set(NOTE_PARAMS[c]), f"{where}: {c} made with {keys}"
        made.update(codes)
    assert made == set(NOTE_PARAMS)
    assert not set(PARAMS) & set(NOTE_PARAMS), "a code means one thing"


# --- the catalogue against the screens' templates ---------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_a_template_naming_only_its_params(lang: str) -> None:
    reasons = templates(lang)["reasons"]
    assert set(reasons) - set(CATALOGUE) == set(), "templates for codes the server never sends"
    assert set(CATALOGUE) - set(reasons) == set(), f"codes without a {lang} template"
    for code, template in reasons.items():
        if isinstance(template, dict):
            assert set(template) <= PLURAL_KEYS and "other" in template, code
            assert template["count"] in CATALOGUE[code], f"{code}: counts {template['count']}"
        for text in forms(template):
            assert text.strip(), code
            for name, fmt in PLACEHOLDER.findall(text):
                assert name in CATALOGUE[code], f"{lang} {code}: {{{name}}} is not a parameter"
                assert not fmt or fmt in FORMATS, f"{lang} {code}: no format {fmt!r}"
            assert "{" not in PLACEHOLDER.sub("", text), f"{lang} {code}: a stray brace"


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_language_names_the_same_words(lang: str) -> None:
    en, cs = templates("en"), templates(lang)
    params = {p for names in CATALOGUE.values() for p in names}
    assert set(en["values"]) == set(cs["values"])
    for name, words in en["values"].items():
        assert name in params, f"values for {name}, which no code has"
        assert set(words) == set(cs["values"][name]), name
    assert set(en["formats"]) == set(cs["formats"]) == {"main_pot", "side_pot", "seats"}


def test_the_czech_templates_are_not_the_english_ones() -> None:
    en, cs = templates("en")["reasons"], templates("cs")["reasons"]
    # Names of fields and msgspec's own words may stay as they are; sentences may not.
    same = {c for c in en if en[c] == cs[c]}
    assert same <= {"out_of_limits"}, sorted(same)


# --- the English template said with a refusal's parameters is its message -----------------


def say_en(code: str, params: dict[str, Any]) -> str:
    """What errors.js renders in English, as Python writes it (ids stay ids)."""
    return refusals.say(code, params)


def plain(text: str) -> str:
    """Quotes aside: the message quotes a value with repr(), the template with “”."""
    return re.sub("['\"\u201c\u201d\u201e]", "", text)


def assert_said(e: FloorError, reason: str, params: dict[str, Any]) -> None:
    assert (e.reason, e.params) == (reason, params), str(e)
    said = plain(say_en(reason, e.params))
    # A config check's message leads with the key it is about; the field says that apart.
    assert plain(e.message) == said or plain(e.message).endswith(": " + said), (e.message, said)


def refusal(floor: Floor, command: cmd.Command) -> RuleError:
    with pytest.raises(RuleError) as caught:
        floor.do(command)
    return caught.value


TWO_TABLES = {1: "1-9 pos 4/5/6", 2: "1-5,7,9 pos 2/3/4"}

ON_THE_FLOOR: list[tuple[cmd.Command, str, dict[str, Any]]] = [
    (cmd.Bust(player="NOBODY"), "player_unknown", {"player": "NOBODY"}),
    (cmd.Bust(table=3, seat=1), "table_unknown", {"table": 3}),
    (cmd.Bust(table=1, seat=10), "seat_unknown", {"table": 1, "seat": 10}),
    (cmd.Bust(table=2, seat=6), "seat_empty", {"table": 2, "seat": 6}),
    (
        cmd.Bust(player="T1S1", table=2, seat=1),
        "bust_wrong_seat",
        {"player": "T1S1", "table": 2, "seat": 1, "at_table": 1, "at_seat": 1},
    ),
    (cmd.Bust(), "bust_who", {}),
    (cmd.Register(player="T1S1", name="T1S1"), "player_exists", {"player": "T1S1"}),
    (cmd.Register(name="  "), "name_blank", {}),
    (cmd.Register(name="Jan\u202e"), "name_hidden_marks", {}),
    (cmd.Register(player=" A", name="A"), "player_id_unshown", {"player": " A"}),
    (cmd.DrawSeats(), "seats_drawn", {}),
    (cmd.OpenTable(table=1), "table_exists", {"table": 1}),
    (cmd.Confirm(player="T1S1"), "no_planned_move", {"player": "T1S1"}),
    (cmd.ConfirmAll(reason="break"), "no_planned_moves", {"reason": "break"}),
    (
        cmd.CorrectSeat(player="T1S1", table=1, seat=1),
        "already_there",
        {"player": "T1S1", "table": 1, "seat": 1},
    ),
    (
        cmd.CorrectSeat(player="T1S1", table=2, seat=1),
        "seat_taken_floor",
        {"table": 2, "seat": 1, "holder": "T2S1"},
    ),
    (cmd.WaiveHalt(table=1, waived=False), "halt_not_waived", {"table": 1}),
    (cmd.BreakTable(table=1), "break_no_room", {"room": 1, "players": 9}),
    (cmd.StartFinal(), "final_too_many", {"players": 16, "size": 9}),
    (cmd.SetGame(game="stud"), "not_mixed", {"game": "holdem"}),
    (cmd.Rebuy(player="T1S1"), "no_rebuys", {}),
    (cmd.AddOn(player="T1S1"), "no_add_on", {}),
    (cmd.ChipRace(table=1, seats=()), "no_chip_set", {}),
    (cmd.ClockStart(), "no_structure", {}),
    (cmd.ClockLevel(), "step_or_to", {}),
    (cmd.EndTimeCall(table=1, seat=1), "no_time_call", {"table": 1, "seat": 1}),
    (cmd.UndoBust(player="T1S1", reason="mistake"), "player_not_out", {"player": "T1S1"}),
]


@pytest.mark.parametrize(
    ("command", "reason", "params"), ON_THE_FLOOR, ids=[r for _, r, _ in ON_THE_FLOOR]
)
def test_a_refusal_on_the_floor_says_its_reason_and_params(
    command: cmd.Command, reason: str, params: dict[str, Any]
) -> None:
    assert_said(refusal(Floor(TWO_TABLES), command), reason, params)


def test_a_refusal_about_a_busted_player_names_them() -> None:
    floor = Floor(TWO_TABLES)
    floor.bust("T1S1")
    assert_said(refusal(floor, cmd.Bust(player="T1S1")), "player_out", {"player": "T1S1"})
    assert_said(refusal(floor, cmd.LockSeat(player="T1S1")), "player_is_out", {"player": "T1S1"})
    assert_said(refusal(floor, cmd.Rebuy(player="T1S1")), "rebuy_busted", {"player": "T1S1"})


def test_a_refusal_by_the_clock_says_the_levels() -> None:
    floor = at_step(table(), 3)
    assert_said(refusal(floor, cmd.Rebuy(player="T1S1")), "rebuys_closed", {"until": 2, "level": 3})
    assert_said(refusal(floor, cmd.Register(name="Late")), "late_registration_closed", {"until": 2})
    assert_said(refusal(floor, cmd.ClockLevel(to=99)), "no_step", {"step": 99, "last": 4})
    assert_said(refusal(floor, cmd.ClockStart()), "clock_started", {})
    assert_said(refusal(floor, cmd.ClockResume()), "clock_running", {})
    assert_said(
        refusal(at_step(table(), 0), cmd.AddOn(player="T1S1")),
        "add_on_at_break_only",
        {"offered": 2, "level": 1, "at_break": False},
    )


def test_a_refusal_of_the_chip_race_names_the_chips() -> None:
    floor = at_step(table(), 2)
    assert_said(
        refusal(floor, cmd.ChipRace(table=1, seats=(), leaving=7)),
        "chip_not_in_play",
        {"chip": 7, "chips": [25, 100, 500]},
    )
    race = ChipRaceInput(leaving=25, next_up=100, seats=[RaceSeat(seat=1, chips=9, stack=100)])
    with pytest.raises(RuleError) as caught:
        chip_race(race, random_source())
    assert_said(
        caught.value, "stack_below_chips", {"stack": 100, "chips": 9, "chip": 25, "value": 225}
    )


def random_source() -> random.Random:
    return random.Random(0)


def pot(**changes: Any) -> PotInput:
    base = PotInput(
        game="flop",
        odd_chip_unit=25,
        contributions=[
            Contribution(seat=2, contributed=1000),
            Contribution(seat=4, contributed=1000),
        ],
        high=[[2, 4]],
        button=1,
    )
    return msgspec.structs.replace(base, **changes)


POT_REFUSALS: list[tuple[PotInput, str, dict[str, Any]]] = [
    (pot(odd_chip_unit=0), "pot_unit_not_positive", {"unit": 0}),
    (pot(contributions=[]), "pot_nobody", {}),
    (pot(contributions=[Contribution(seat=0, contributed=0)]), "seat_not_exist", {"seat": 0}),
    (
        pot(contributions=[Contribution(seat=2, contributed=0)] * 2),
        "seat_listed_twice",
        {"seat": 2},
    ),
    (pot(total=999), "contributions_total", {"sum": 2000, "total": 999}),
    (pot(high=[[2]]), "not_ranked", {"seats": [4]}),
    (
        pot(
            game="stud",
            button=None,
            contributions=[Contribution(seat=s, contributed=25) for s in (2, 4, 6)],
            high=[[2, 4], [6]],
            high_cards={2: "As"},
        ),
        "high_card_needed",
        {"seats": [2, 4], "missing": [4]},
    ),
    (pot(game="stud", button=None, high_cards={2: "Xx"}), "not_a_card", {"card": "Xx"}),
    (pot(low=[[2]]), "no_low", {"game": "flop"}),
]


@pytest.mark.parametrize(
    ("given", "reason", "params"), POT_REFUSALS, ids=[r for _, r, _ in POT_REFUSALS]
)
def test_a_refusal_of_the_pot_calculator_says_its_reason(
    given: PotInput, reason: str, params: dict[str, Any]
) -> None:
    with pytest.raises(RuleError) as caught:
        split_pot(given)
    assert_said(caught.value, reason, params)


def test_a_config_check_keeps_its_reason_through_msgspec() -> None:
    with pytest.raises(msgspec.ValidationError) as caught:
        msgspec.convert({"game": "holdem", "seats": 6, "final_table": 6, "break_fill": 7}, Rules)
    cause = caught.value.__cause__
    assert isinstance(cause, ConfigValueError) and isinstance(cause, ValueError)
    assert_said(cause, "break_fill_too_big", {})
    assert str(caught.value).startswith("break_fill cannot exceed seats")

    with pytest.raises(msgspec.ValidationError) as caught:
        msgspec.convert(
            {"name": "x", "starting_stack": 1010, "chips": [25], "levels": []}, Structure
        )
    assert isinstance(caught.value.__cause__, ConfigValueError)
    assert caught.value.__cause__.reason in ("no_levels", "not_made_of")


def test_a_refusal_recast_for_the_whole_request_keeps_its_reason() -> None:
    inner = RuleError(
        "seat 3 is listed twice",
        field="seats[1].seat",
        reason="seat_listed_twice",
        params={"seat": 3},
    )
    outer = inner.recast(NotAllowed, "seats")
    assert (type(outer), outer.field, outer.reason, outer.params, outer.message) == (
        NotAllowed,
        "seats",
        "seat_listed_twice",
        {"seat": 3},
        "seat 3 is listed twice",
    )


def test_an_error_without_a_reason_is_known_by_its_kind() -> None:
    e = NotAllowed("no")
    assert (e.code, e.reason, e.params) == ("not_allowed", "not_allowed", {})


# --- pot notes ---------------------------------------------------------------------------------


def say_note(p: pots_module.Pot) -> str:
    text = "; ".join(say_en(c.code, dict(c.params)) for c in p.why)
    if p.kind == "uncalled":
        return text
    name = templates("en")["formats"]
    prefix = (
        name["side_pot"].replace("{n}", str(p.number)) if p.kind == "side" else name["main_pot"]
    )
    return f"{prefix}: {text}"


NOTES = [
    pot(),
    pot(
        contributions=[
            Contribution(seat=2, contributed=1025),
            Contribution(seat=4, contributed=1000),
        ]
    ),
    pot(
        game="flop_hilo",
        contributions=[Contribution(seat=s, contributed=1025) for s in (2, 4, 6)],
        high=[[2], [4, 6]],
        low=[[4, 6]],
    ),
    pot(
        game="flop_hilo",
        contributions=[Contribution(seat=s, contributed=1000) for s in (2, 4, 6)],
        high=[[2, 4, 6]],
    ),
    pot(
        game="stud",
        button=None,
        contributions=[Contribution(seat=s, contributed=1025) for s in (2, 4, 6)],
        high=[[2, 4, 6]],
        high_cards={2: "As", 4: "Kd", 6: "Ah"},
    ),
    pot(
        contributions=[
            Contribution(seat=2, contributed=300),
            Contribution(seat=4, contributed=1000),
            Contribution(seat=6, contributed=1000, folded=True),
        ],
        high=[[2], [4]],
    ),
]


@pytest.mark.parametrize("given", NOTES)
def test_a_pot_note_said_from_its_clauses_is_the_english_note(given: PotInput) -> None:
    result = split_pot(given)
    for p in result.pots:
        assert p.why, p
        assert say_note(p) == p.note


# --- the error body ------------------------------------------------------------------------------


def test_the_error_body_carries_the_reason_and_its_params() -> None:
    from floor.server.edges import for_error
    from floor.store.outcome import Kept, Outcome, error_info

    e = NotAllowed(
        "late registration closed after level 6",
        field="player",
        reason="late_registration_closed",
        params={"until": 6},
    )
    body = {
        "code": "not_allowed",
        "message": "late registration closed after level 6",
        "field": "player",
        "reason": "late_registration_closed",
        "params": {"until": 6},
    }
    response = for_error(e)
    assert response.status_code == 409
    assert json.loads(response.body) == {"error": body}
    kept = msgspec.json.encode(Kept(ok=False, error=error_info(e), digest="d"))
    assert msgspec.json.decode(kept)["error"] == body
    # An outcome kept before reasons were is read back without one.
    old = b'{"ok":false,"error":{"code":"not_allowed","message":"no","field":null}}'
    error = msgspec.json.decode(old, type=Outcome).error
    assert error is not None and (error.reason, error.params) == (None, {})


def test_a_body_refused_by_a_config_check_or_a_missing_field_says_why() -> None:
    from floor.errortext import field_names
    from floor.server.edges import BadRequest, decode

    with pytest.raises(BadRequest) as caught:
        decode(
            b'{"game": "holdem", "seats": 6, "final_table": 6, "break_fill": 7}',
            Rules,
            field_names(Rules),
        )
    assert (caught.value.reason, caught.value.field) == ("break_fill_too_big", "break_fill")
    with pytest.raises(BadRequest) as caught:
        decode(b"{}", cmd.Register)
    e = caught.value
    assert (e.code, e.field, e.message) == ("invalid", "name", "name is required")
    assert_said(e, "required", {"name": "name"})


def test_python_says_a_refusal_in_each_language_from_the_screens_file() -> None:
    params = {"table": 1, "seat": 7, "holder": "P0002"}

    assert refusals.say("seat_now_taken", params) == "table 1 seat 7 is now taken by P0002"
    assert refusals.say("seat_now_taken", params, "cs") == "stůl 1 místo 7 teď obsadil hráč P0002"
    assert refusals.say("table_not_open", {"table": 3, "status": "broken"}) == ("table 3 is broken")


def test_a_language_that_is_not_a_language_code_reads_no_file() -> None:
    with pytest.raises(ValueError, match="no language"):
        refusals.templates("../../etc/passwd")
