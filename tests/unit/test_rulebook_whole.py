"""The whole rulebook: every Pardubice 2014 house rule (1-54) in the festival's own Czech, the
TDA 2011 rules of the sources (5-9, 15-19) as the articles quote them, and every TDA 2024
rule the shipped rule sets and the engine's "why" notes cite, each in English and Czech."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from floor import config
from floor.engine.reasons import RULE_IDS, why
from floor.engine.rulebook import Book

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT.parent / "shared" / "rules"
#: A citation: "TDA 2024 rule 11D", "PFP 2014 rule 8", "TDA 2024 RP-9".
CITATION = re.compile(r"\b(TDA|PFP) (\d{4}),? (?:rule |pravidlo )?(RP-\d+|\d+[A-Z]?)\b")


def plain(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces."""
    return " ".join(text.split())


def source(name: str) -> str:
    path = SOURCES / name
    if not path.exists():
        pytest.skip(f"the source {path} is not here")
    return plain(path.read_text(encoding="utf-8"))


def numbers(book: Book, source_name: str) -> set[str]:
    return {r.number for r in book.rules if r.source == source_name and r.number}


def test_every_pardubice_house_rule_is_in_the_book_in_the_festivals_own_czech() -> None:
    text = source("pfp-2014-house-rules.cs.txt")
    book = config.load_rulebook("pfp-2014")
    house = [r for r in book.rules if r.source == "PFP 2014" and r.number]

    assert {int(r.number) for r in house} == set(range(1, 55))
    for rule in house:
        # The Czech is the festival's word for word, under the festival's own title.
        assert plain(rule.text_cs) in text, rule.id
        title = rule.title_cs.split(":")[0]
        assert f"{rule.number}. {title} – " in text or f"{rule.number}. {title} - " in text
        assert rule.text_en and rule.title_en, rule.id
    # The house's own rules first, in its own order.
    assert [r.number for r in book.rules[:5]] == ["1", "2", "3", "4", "5"]


def test_the_tda_2011_rules_of_the_sources_are_quoted_in_both_languages() -> None:
    text = (
        source("tda-2011-seating-breaking-balancing.cs.txt")
        + " "
        + source("tda-2011-pots-showdown.cs.txt")
    )
    book = config.load_rulebook("tda-2011")
    quoted = [r for r in book.rules if r.source == "TDA 2011" and r.number != "20"]

    assert numbers(book, "TDA 2011") >= {"5", "6", "7", "8A", "8B", "9", "15", "16", "17", "18"}
    assert "19" in numbers(book, "TDA 2011")
    for rule in quoted:
        # The English is the TDA's original, the Czech the article's translation.
        for sentence in re.split(r"(?<=\.) ", plain(rule.text_en)):
            assert sentence in text, (rule.id, sentence)
        for sentence in re.split(r"(?<=\.) ", plain(rule.text_cs)):
            assert sentence in text, (rule.id, sentence)


def cited_in_rule_sets() -> set[str]:
    """The TDA 2024 rule numbers the shipped rule sets cite ("Rule 11D", "RP-9")."""
    found: set[str] = set()
    for path in (ROOT / "config" / "rules").glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        found.update(re.findall(r"\bRP-\d+\b", text))
        found.update(re.findall(r"TDA 2024 rule (\d+[A-Z]?)", text))
        if 'rulebook = "tda-2024"' in text:
            found.update(re.findall(r"\bRule (\d+[A-Z]?)\b", text))
    return found


def test_every_tda_2024_rule_the_shipped_rule_sets_cite_is_in_the_book() -> None:
    book = config.load_rulebook("tda-2024")
    have = numbers(book, "TDA 2024")
    cited = cited_in_rule_sets()

    assert {"RP-9", "11D", "10B", "30"} <= cited
    for number in cited:
        # "Rule 11" is the rule with its parts: 11A, 11B, 11D.
        assert any(n == number or re.fullmatch(f"{number}[A-Z]", n) for n in have), number
    for rule in book.rules:
        assert rule.title_cs and rule.text_cs, rule.id


@pytest.mark.parametrize("name", sorted(config.rulebooks()))
def test_every_rule_a_why_note_cites_is_in_its_rule_set_or_the_one_it_is_built_on(
    name: str,
) -> None:
    book = config.load_rulebook(name)
    books = [book, *(config.load_rulebook(base) for base in book.based_on)]
    cites = {f"{r.source} {r.number}" for b in books for r in b.rules if r.number}

    for decision, rule_id in RULE_IDS.items():
        note = why(name, decision)  # type: ignore[arg-type]
        assert book.get(rule_id) is not None, decision
        for body, year, number in CITATION.findall(note):
            assert f"{body} {year} {number}" in cites, (decision, note)


def test_a_rule_says_how_the_floor_applies_it_apart_from_the_sources_words() -> None:
    halting = config.load_rulebook("tda-2011").get("halting")
    assert halting is not None
    # The article's Czech says "3 players or fewer"; the floor applies the original.
    assert halting.text_cs == "Hra se zastaví na stole, kde je 3 a méně hráčů."
    assert "3 or more players short" in halting.text_en
    assert "originál" in halting.note_cs and "original" in halting.note_en
