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

    assert {"RP-9", "11D", "10B", "29"} <= cited
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


# The whole TDA 2024 book ---------------------------------------------------------------------

#: The lettered parts of each 2024 rule and procedure that has them, as the 2024 text (v1.0,
#: 9 October 2024) letters them; rule 20's part D was deleted in 2022.
PARTS_2024: dict[str, str] = {
    "5": "ABCD",
    "8": "AB",
    "10": "AB",
    "11": "ABCD",
    "13": "ABC",
    "15": "AB",
    "17": "AB",
    "18": "AB",
    "20": "ABC",
    "24": "ABC",
    "25": "ABC",
    "34": "AB",
    "35": "ABCDE",
    "36": "AB",
    "39": "ABCD",
    "40": "ABC",
    "41": "ABCD",
    "42": "AB",
    "43": "AB",
    "45": "AB",
    "46": "ABC",
    "47": "AB",
    "50": "AB",
    "51": "ABC",
    "52": "AB",
    "53": "AB",
    "54": "ABCD",
    "55": "AB",
    "59": "AB",
    "65": "AB",
    "71": "ABCD",
    "RP-5": "ABCD",
    "RP-8": "ABCDEF",
    "RP-10": "ABCDEFGH",
    "RP-15": "AB",
}


def tda_2024() -> list[object]:
    return [r for r in config.load_rulebook("tda-2024").rules if r.source == "TDA 2024"]


def base_number(number: str) -> str:
    """ "11A" is rule 11; "RP-9" is RP-9."""
    return number if number.startswith("RP-") else re.sub(r"[A-Z]$", "", number)


def test_the_tda_2024_book_holds_every_rule_and_recommended_procedure() -> None:
    have = {base_number(r.number) for r in tda_2024()}  # type: ignore[attr-defined]

    assert {str(n) for n in range(1, 72)} <= have
    assert {f"RP-{n}" for n in range(1, 23)} <= have
    assert have <= {str(n) for n in range(1, 72)} | {f"RP-{n}" for n in range(1, 23)}


@pytest.mark.parametrize("number", sorted(PARTS_2024))
def test_every_lettered_part_of_a_2024_rule_is_summarised_in_both_languages(number: str) -> None:
    entries = [r for r in tda_2024() if base_number(r.number) == number]  # type: ignore[attr-defined]
    en = " ".join(r.text_en for r in entries)  # type: ignore[attr-defined]
    cs = " ".join(r.text_cs for r in entries)  # type: ignore[attr-defined]

    for letter in PARTS_2024[number]:
        assert f"({letter})" in en, (number, letter)
        assert f"({letter})" in cs, (number, letter)


def test_every_tda_2024_entry_links_the_official_text_and_says_what_it_was_checked_against() -> (
    None
):
    book = config.load_rulebook("tda-2024")
    for rule in book.rules:
        # A house procedure has no official text to open.
        assert rule.link.startswith("https://") == (rule.source != "House"), rule.id
        assert rule.checked_en and rule.checked_cs, rule.id
        assert bool(rule.unchecked_en) == bool(rule.unchecked_cs), rule.id
        # What the TDA does not say is marked as not checked: a house procedure has no 2024 text.
        assert bool(rule.unchecked_en) == (rule.source == "House"), rule.id
    # The 2011 set and the house's set keep the TDA's link for the TDA rules they take.
    pfp = config.load_rulebook("pfp-2014")
    assert pfp.get("player-identity") is not None
    assert (pfp.get("player-identity") or _none()).link == book.rules[0].link
    assert (pfp.get("misdeal") or _none()).link == ""


def _none() -> object:
    raise AssertionError("missing rule")


def test_the_book_names_the_sources_it_was_read_from_in_its_header() -> None:
    text = (ROOT / "config" / "rulebook" / "tda-2024.toml").read_text(encoding="utf-8")
    header = text[: text.index("\nname = ")]

    addresses = re.findall(r"https?://\S+", header)
    assert len(addresses) >= 5
    assert any("poker-tda-2024-v1.0-longform.txt" in a for a in addresses)


def test_the_summaries_are_the_projects_words_not_the_tdas() -> None:
    """No summary repeats a run of twelve words of the TDA's 2024 text (quoted in tests only
    by its most distinctive phrases, which a copy would repeat)."""
    tda_phrases = [
        "the best interest of the game and fairness are top priorities in decision-making",
        "players may not talk on a phone at the table",
        "string bets and raises are not allowed. such wagers involve multiple movements",
        "players must be clearly identifiable at all times",
        "if a single-payer ante is used, the big blind ante format",
        "enforcement options include but are not limited to verbal warnings",
        "poker is an individual game. soft play will result in penalties",
    ]
    for rule in tda_2024():
        text = plain(rule.text_en).casefold()  # type: ignore[attr-defined]
        for phrase in tda_phrases:
            assert phrase not in text, (rule.id, phrase)  # type: ignore[attr-defined]
