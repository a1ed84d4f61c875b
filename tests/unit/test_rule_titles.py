"""The rulebook's titles in every language the screens speak (issue 29.3): the books keep their
texts in English and Czech, and every other shipped language names every rule."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from floor import config as configs
from floor.server.languages import shipped
from floor.server.rule_titles import title_in, titles
from floor.server.tools import _rule_out

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [code for code in shipped(ROOT / "web") if code not in ("en", "cs")]


def english_titles() -> set[str]:
    out: set[str] = set()
    for path in sorted((ROOT / "config" / "rulebook").glob("*.toml")):
        out |= {r["title_en"] for r in tomllib.loads(path.read_text("utf-8"))["rules"]}
    return out


def test_more_languages_than_english_and_czech_name_the_rules() -> None:
    assert {"de", "pl", "es"} <= set(OTHERS)


@pytest.mark.parametrize("code", OTHERS)
def test_every_rule_of_every_book_has_a_title_in_the_language(code: str) -> None:
    mine = titles(code)
    wanted = english_titles()
    assert len(wanted) > 100
    assert sorted(wanted - mine.keys()) == [], f"no {code} title"
    assert sorted(mine.keys() - wanted) == [], f"{code} titles of no rule"
    assert [k for k, v in mine.items() if v == k] == [], f"{code} titles left in English"


def test_a_rule_reads_in_the_readers_language_with_its_english_text() -> None:
    book = configs.load_rulebook("tda-2024")
    rule = book.get("balancing")
    assert rule is not None
    german = _rule_out(rule, "de")
    assert german.title == "Tische ausgleichen" == title_in("de", rule.title_en)
    assert german.text == rule.text_en
    assert _rule_out(rule, "cs").title == rule.title_cs
    assert _rule_out(rule, "en").title == rule.title_en


def test_a_language_without_titles_reads_the_english_ones() -> None:
    assert titles("xx") == {}
    assert title_in("xx", "Balancing tables") == "Balancing tables"
