"""The rulebook at hand: every decision links to a rule of every shipped rule set, the house's
rules replace the TDA's, search in English and Czech without diacritics, and bad files are
refused with the key named."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from floor import config
from floor.engine import commands as cmd
from floor.engine.errors import ConfigError
from floor.engine.reasons import RULE_IDS, rule_id, why
from floor.engine.rulebook import search
from floor.server.views import find_players
from tests.unit.builders import Floor


def ids(rules: list[object]) -> list[str]:
    return [r.id for r in rules]  # type: ignore[attr-defined]


def test_the_shipped_rulebooks_are_the_ones_the_rule_sets_cite() -> None:
    cited = {config.resolve_rules(name).rulebook for name in config.rule_sets()}

    assert set(config.rulebooks()) == cited == {"tda-2011", "tda-2024", "pfp-2014"}


@pytest.mark.parametrize("name", sorted(config.rulebooks()))
def test_every_decision_the_engine_explains_links_to_a_rule_of_every_set(name: str) -> None:
    book = config.load_rulebook(name)

    missing = {decision for decision, rid in RULE_IDS.items() if book.get(rid) is None}

    assert not missing
    assert book.get("penalties") is not None  # what every ruling with a penalty applies


@pytest.mark.parametrize("name", sorted(config.rulebooks()))
def test_every_why_note_cites_the_rule_it_links_to(name: str) -> None:
    """A floorperson reads "TDA 2024 RP-9: ..." and taps it: the rule that opens is RP-9."""
    book = config.load_rulebook(name)
    wrong = {}
    for decision, rid in RULE_IDS.items():
        cited = re.match(r"^(TDA 20\d\d|PFP 2014)(?: rule)? ([0-9A-Z-]+):", why(name, decision))
        rule = book.get(rid)
        assert rule is not None, rid
        if cited is not None and rule.cite.replace(" rule", "") != " ".join(cited.groups()):
            wrong[decision] = (why(name, decision), rule.cite)
    assert not wrong


@pytest.mark.parametrize("name", sorted(config.rulebooks()))
def test_every_rule_has_both_languages_and_cites_its_source(name: str) -> None:
    for rule in config.load_rulebook(name).rules:
        assert rule.title_en and rule.title_cs and rule.text_en and rule.text_cs, rule.id
        assert rule.cite.startswith(("TDA", "PFP", "House")), rule.id


def test_the_house_rule_replaces_the_tda_rule_with_its_own_number_and_words() -> None:
    book = config.load_rulebook("pfp-2014")

    balancing = book.get("balancing")
    tda = config.load_rulebook("tda-2024").get("balancing")

    assert balancing is not None and tda is not None
    assert (balancing.cite, balancing.house) == ("PFP 2014 rule 8", True)
    assert "Nejhorší pozice není nikdy small blind" in balancing.text_cs
    assert (tda.cite, tda.house) == ("TDA 2024 rule 11A", False)
    # What the house does not cover stays the TDA's.
    stud = book.get("balancing-stud")
    assert stud is not None and (stud.cite, stud.house) == ("TDA 2024 rule 11A", False)
    assert book.based_on == ("tda-2024",)


def test_the_time_call_rule_gives_the_minute_of_each_house() -> None:
    tda = config.load_rulebook("tda-2024").get("time-call") or _no()
    # TDA 2024 rule 29: 25 seconds and a 5-second count; the floor's clock says its own.
    assert (tda.cite, "25 seconds" in tda.text_en) == ("TDA 2024 rule 29", True)
    assert "time_call_seconds" in tda.note_en
    assert "one minute" in (config.load_rulebook("pfp-2014").get("time-call") or _no()).text_en
    assert "one minute" in (config.load_rulebook("tda-2011").get("time-call") or _no()).text_en


def _no() -> object:
    raise AssertionError("missing rule")


# --- search -----------------------------------------------------------------------------------


def test_czech_typed_without_diacritics_finds_the_rule() -> None:
    book = config.load_rulebook("pfp-2014")

    assert set(ids(search(book, "rozpadani stolu"))) == {"breaking-tables", "new-player-waits"}
    assert ids(search(book, "lichý žeton"))[:1] == ["odd-chips"]
    assert ids(search(book, "liche zetony"))[:1] == ["odd-chips"]  # another case of the words


def test_english_words_find_the_rule_and_titles_rank_first() -> None:
    book = config.load_rulebook("tda-2024")

    assert ids(search(book, "chip race"))[:1] == ["chip-race"]
    assert ids(search(book, "Dead Button"))[:1] == ["dead-button"]
    assert ids(search(book, "balancing"))[:3] == ["balancing", "balancing-stud", "balancing-mixed"]


def test_a_rule_number_finds_its_rule() -> None:
    assert ids(search(config.load_rulebook("tda-2024"), "11D")) == ["halting"]
    assert ids(search(config.load_rulebook("pfp-2014"), "PFP 2014 rule 24"))[:1] == ["time-call"]


def test_every_word_must_match_and_an_empty_search_lists_the_whole_book() -> None:
    book = config.load_rulebook("tda-2024")

    assert search(book, "button zebra") == []
    assert len(search(book, "   ")) == len(book.rules)


# --- the screens' links -----------------------------------------------------------------------


def test_a_planned_balance_move_and_a_halt_link_to_their_rules() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-6 pos 1/2/3"})

    (move,) = floor.t.plan.moves
    (halt,) = floor.t.plan.halted

    assert (move.rule, halt.rule) == ("balancing", "halting")
    assert move.rule == rule_id("balance")


def test_a_final_table_draw_links_to_the_final_table_rule() -> None:
    floor = Floor({1: "1-4 pos 1/2/3", 2: "1-4 pos 1/2/3"})

    assert {m.rule for m in floor.t.plan.moves} == {"final-table"}


# --- bad files --------------------------------------------------------------------------------

RULE = """
[[rules]]
id = "{id}"
source = "House"
title_en = "T"
title_cs = "T"
text_en = "T"
text_cs = "T"
"""


def write_books(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **books: str) -> None:
    folder = tmp_path / "rulebook"
    folder.mkdir()
    for name, text in books.items():
        (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("FLOOR_CONFIG_DIR", str(tmp_path))


def test_a_rule_listed_twice_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = 'name = "house"\ntitle = "House"\n'
    write_books(tmp_path, monkeypatch, house=head + RULE.format(id="a") + RULE.format(id="a"))

    with pytest.raises(ConfigError) as refused:
        config.load_rulebook("house")

    assert refused.value.field is not None and refused.value.field.endswith(": rules[1].id")
    assert refused.value.message == "“a” is listed twice"


def test_a_rule_id_that_is_not_a_slug_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_books(tmp_path, monkeypatch, house='name = "h"\ntitle = "H"\n' + RULE.format(id="Bad Id"))

    with pytest.raises(ConfigError) as refused:
        config.load_rulebook("house")

    assert refused.value.field is not None and refused.value.field.endswith(": rules[0].id")


def test_a_house_extending_an_unknown_set_is_refused_with_the_known_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = 'name = "house"\ntitle = "H"\nextends = "tda-2099"\n' + RULE.format(id="a")
    write_books(tmp_path, monkeypatch, house=text)

    with pytest.raises(ConfigError, match=r"unknown rulebook 'tda-2099' \(known: house\)"):
        config.load_rulebook("house")


def test_a_loop_of_rule_sets_extending_each_other_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_books(
        tmp_path,
        monkeypatch,
        a='name = "a"\ntitle = "A"\nextends = "b"\n' + RULE.format(id="x"),
        b='name = "b"\ntitle = "B"\nextends = "a"\n' + RULE.format(id="y"),
    )

    with pytest.raises(ConfigError, match="in a loop"):
        config.load_rulebook("a")


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("novak", "Jan Novák"),
        ("lukasz", "Zoë Łukasz"),
        ("zoe", "Zoë Łukasz"),
        ("soren", "Søren Kierkegaard"),
        ("aeroskobing", "Ærøskøbing"),
        ("dordevic", "Đorđević"),
        ("strasse", "Straße"),
    ],
)
def test_a_name_typed_in_plain_letters_finds_the_player(typed: str, name: str) -> None:
    floor = Floor({1: "1-2 pos 1/2/2"})
    floor.do(cmd.Register(player="X1", name=name))

    assert [p.id for p in find_players(floor.t, typed)] == ["X1"]


# --- a house rule standing for rules of the base --------------------------------------------


def test_a_house_rule_replaces_the_base_rules_it_names_and_their_ids_open_it() -> None:
    pfp = config.load_rulebook("pfp-2014")
    tda = config.load_rulebook("tda-2024")

    # PFP 36 is the TDA's rule 42 (same id) and its rule 56 on string bets (named).
    assert tda.get("string-bets") is not None
    assert "string-bets" not in ids(list(pfp.rules))
    house = pfp.get("string-bets")
    assert house is not None and (house.id, house.cite) == ("raising-method", "PFP 2014 rule 36")
    # The 2011 set is built on the 2024 one and keeps every TDA 2024 rule it does not replace.
    assert config.load_rulebook("tda-2011").get("string-bets") == tda.get("string-bets")


def test_a_rule_text_in_one_language_only_is_refused_naming_the_missing_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = RULE.format(id="a") + 'unchecked_en = "not read"\n'
    write_books(tmp_path, monkeypatch, house='name = "house"\ntitle = "H"\n' + rule)

    with pytest.raises(ConfigError) as refused:
        config.load_rulebook("house")

    assert refused.value.field is not None
    assert refused.value.field.endswith(": rules[0].unchecked_cs")
    assert refused.value.message == "must be given too: a screen shows it in both languages"
    assert reason_of(refused.value) == ("rule_text_one_language", {"name": "unchecked_cs"})


def reason_of(e: ConfigError) -> tuple[str, object]:
    """The reason of a refusal, also of a check msgspec ran (its cause's cause)."""
    cause = e.__cause__.__cause__ if isinstance(e.__cause__, msgspec.ValidationError) else e
    assert isinstance(cause, ConfigError)
    return cause.reason, cause.params


@pytest.mark.parametrize(
    ("replaces", "reason", "field"),
    [
        ('["nothing-like-it"]', "rule_replaces_unknown", "rules[0].replaces[0]"),
        ('["a"]', "rule_replaces_own", "rules[0].replaces"),
        ('["x", "b"]', "rule_replaces_own", "rules[0].replaces[1]"),
    ],
)
def test_a_house_replacing_what_its_base_does_not_hold_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replaces: str, reason: str, field: str
) -> None:
    base = 'name = "base"\ntitle = "B"\n' + RULE.format(id="x") + RULE.format(id="y")
    house = (
        'name = "house"\ntitle = "H"\nextends = "base"\n'
        + RULE.format(id="a")
        + f"replaces = {replaces}\n"
        + RULE.format(id="b")
    )
    write_books(tmp_path, monkeypatch, base=base, house=house)

    with pytest.raises(ConfigError) as refused:
        config.load_rulebook("house")

    assert reason_of(refused.value)[0] == reason
    assert refused.value.field is not None and refused.value.field.endswith(f": {field}")


def test_two_house_rules_replacing_one_base_rule_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = 'name = "base"\ntitle = "B"\n' + RULE.format(id="x")
    house = (
        'name = "house"\ntitle = "H"\nextends = "base"\n'
        + RULE.format(id="a")
        + 'replaces = ["x"]\n'
        + RULE.format(id="b")
        + 'replaces = ["x"]\n'
    )
    write_books(tmp_path, monkeypatch, base=base, house=house)

    with pytest.raises(ConfigError) as refused:
        config.load_rulebook("house")

    assert reason_of(refused.value) == ("rule_replaced_twice", {"id": "x"})
    assert refused.value.field is not None and refused.value.field.endswith(
        ": rules[1].replaces[0]"
    )
