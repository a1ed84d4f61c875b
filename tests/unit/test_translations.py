"""Every text of the screens exists in every language they speak (web/js/lang), whole.

The files are read by node as the browser imports them (``lang_dump.mjs``). For every language
shipped (``floor.server.languages``: its base file is there) and every part file of English
(``<part>-en.js`` and ``en.js``), the language's twin must have:

- the same keys (a key in one language only failed nowhere before);
- the same ``{placeholders}`` in each text (a lost ``{table}`` tells a player nothing);
- every plural form the language's Intl.PluralRules gives a whole number (Polish ``many`` is
  "5 graczy"), and ``other`` as the fallback; no form the language has not (a misspelt
  ``few`` is never read);
- no value left in English, outside the glossary's list of words the language says as English
  does (``docs/glossary/<code>.toml``: "OK", "Stud", "Button" in German);
- the poker terms as its glossary renders them ("big blind" is "Big Blind" in every German
  text that speaks of one);
- the rule citations (``why``) Czech has a text for, and no others.

The refusals' file (``errors-<code>.js``) is read by Python too, so it stays plain JSON:
``tests/unit/test_error_codes.py`` reads every shipped language's. The rulebook's titles are
held to every language by ``tests/unit/test_rule_titles.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from floor.server.languages import LANGUAGES, shipped

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
LANG = WEB / "js" / "lang"
GLOSSARY = ROOT / "docs" / "glossary"
PLACEHOLDER = re.compile(r"\{(\w+)(?::\w+)?\}")
#: Czech was written before the glossaries; its equal words are listed in cs.toml all the same.
OTHERS = [code for code in shipped(WEB) if code != "en"]


@cache
def dump() -> dict[str, Any]:
    out = subprocess.run(
        ["node", str(Path(__file__).with_name("lang_dump.mjs")), str(LANG), *LANGUAGES],
        capture_output=True,
        check=True,
        text=True,
        timeout=60,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def plural(value: object) -> bool:
    return isinstance(value, dict) and "other" in value


def flat(texts: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted keys to texts (a plural text is one value); ``why``, the citations keyed by
    their English wording, is held apart (``test_the_rule_citations_in_every_language``)."""
    out: dict[str, Any] = {}
    for key, value in texts.items():
        if not prefix and key == "why":
            continue
        if isinstance(value, dict) and not plural(value):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def forms(value: object) -> list[str]:
    if isinstance(value, dict):
        return [str(v) for k, v in value.items() if k != "count"]
    return [str(value)]


def parts() -> list[str]:
    names = [*sorted(p.name for p in LANG.glob("*-en.js")), "en.js"]
    assert "table-en.js" in names
    return names


def twin(english: str, code: str) -> str:
    return english[: -len("en.js")] + f"{code}.js"


def pairs(code: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    files = dump()["files"]
    out = []
    for english in parts():
        name = twin(english, code)
        assert name in files, f"{name} is missing: {code} is shipped, so every part must be"
        out.append((name, flat(files[english]), flat(files[name])))
    return out


@cache
def glossary(code: str) -> dict[str, Any]:
    path = GLOSSARY / f"{code}.toml"
    assert path.is_file(), f"{path.relative_to(ROOT)}: every shipped language has a glossary"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_english_and_czech_are_shipped_first() -> None:
    assert shipped(WEB)[:2] == ("en", "cs")


def test_the_plural_forms_come_from_the_languages_rules() -> None:
    plurals = dump()["plurals"]
    assert plurals["pl"] == ["few", "many", "one", "other"]
    assert plurals["cs"] == ["few", "one", "other"]
    assert plurals["de"] == ["one", "other"]


def key_problems(name: str, en: dict[str, Any], other: dict[str, Any]) -> list[str]:
    return [f"{name} {k}: missing" for k in sorted(en.keys() - other.keys())] + [
        f"{name} {k}: not in English" for k in sorted(other.keys() - en.keys())
    ]


def placeholder_problems(name: str, en: dict[str, Any], other: dict[str, Any]) -> list[str]:
    out = []
    for key, value in other.items():
        if key not in en:
            continue
        wanted = {p for f in forms(en[key]) for p in PLACEHOLDER.findall(f)}
        found = [set(PLACEHOLDER.findall(f)) for f in forms(value)]
        extra = set().union(*found) - wanted
        if extra:
            out.append(f"{name} {key}: {sorted(extra)} is not in English")
        # A plural form may leave the number out ("one": "a player"), never another name.
        lost = wanted - set().union(*found) - ({"n"} if plural(value) else set())
        if lost:
            out.append(f"{name} {key}: lost {sorted(lost)}")
    return out


def plural_problems(
    name: str,
    en: dict[str, Any],
    other: dict[str, Any],
    need: set[str],
    one: frozenset[str] = frozenset(),
    known: frozenset[str] | None = None,
) -> list[str]:
    """``one``: keys the language says in one form where English has two ("Čekající: {n}"),
    listed in its glossary; ``known``: every plural category the language has (a form named
    otherwise is never shown)."""
    out = []
    for key, value in other.items():
        if not (plural(en.get(key)) or plural(value)) or (key in one and isinstance(value, str)):
            continue
        if not plural(value):
            out.append(f"{name} {key}: plural in English, one text here")
            continue
        if missing := need - value.keys():
            out.append(f"{name} {key}: no {sorted(missing)} form")
        if known is not None and (unknown := value.keys() - known - {"count"}):
            out.append(f"{name} {key}: {sorted(unknown)} is no plural form of the language")
        if isinstance(en.get(key), dict) and en[key].get("count") != value.get("count"):
            out.append(f"{name} {key}: counts {value.get('count')!r}, not {en[key]['count']!r}")
    return out


def english_left(
    name: str, en: dict[str, Any], other: dict[str, Any], allowed: set[str]
) -> list[str]:
    out = []
    for key, value in other.items():
        english = forms(en.get(key, ""))
        for mine in forms(value):
            # Texts without a word (a range "{from} – {to}", "10 %") need no translating.
            words = re.sub(r"\{[^}]*\}", "", mine)
            if mine in english and re.search(r"[A-Za-z]{2,}", words) and mine not in allowed:
                out.append(f"{name} {key}: {mine!r}")
    return out


def loose(text: str) -> str:
    """Text as a term is looked for in it: any case, hyphens as spaces ("Big-Blind-Ante")."""
    return text.lower().replace("-", " ")


def term_pattern(term: str) -> str:
    """A glossary's term as a word, or its plural ("table", "tables", not "tablet"); a term
    ending in ``*`` as the start of a word ("re-entr*": "re-entry", "re-entries")."""
    if term.endswith("*"):
        return rf"\b{re.escape(term[:-1])}"
    return rf"\b{re.escape(term)}(?:s|es)?\b"


def term_problems(
    name: str, en: dict[str, Any], other: dict[str, Any], terms: dict[str, str | list[str]]
) -> list[str]:
    out = []
    for key, value in other.items():
        # Every form of the language against English's forms together (Polish has four forms
        # where English has two); a placeholder's name ("{table}") is no word of the text.
        english = PLACEHOLDER.sub(" ", " / ".join(forms(en.get(key, ""))))
        for mine in forms(value):
            for term, rendering in terms.items():
                if not re.search(term_pattern(term), english, re.IGNORECASE):
                    continue
                ok = [rendering] if isinstance(rendering, str) else rendering
                if not any(loose(r) in loose(mine) for r in ok):
                    out.append(f"{name} {key}: {term!r} not as {ok}: {mine!r}")
    return out


@pytest.mark.parametrize("code", OTHERS)
def test_same_keys_as_english(code: str) -> None:
    assert [p for name, en, other in pairs(code) for p in key_problems(name, en, other)] == []


@pytest.mark.parametrize("code", OTHERS)
def test_placeholders_kept(code: str) -> None:
    found = [p for name, en, other in pairs(code) for p in placeholder_problems(name, en, other)]
    assert found == []


@pytest.mark.parametrize("code", OTHERS)
def test_every_plural_form_the_language_has(code: str) -> None:
    need = set(dump()["plurals"][code])
    known = frozenset(dump()["categories"][code])
    one = frozenset(glossary(code).get("plural", {}).get("uninflected", []))
    found = [
        p for n, en, other in pairs(code) for p in plural_problems(n, en, other, need, one, known)
    ]
    assert found == []


@pytest.mark.parametrize("code", OTHERS)
def test_nothing_left_in_english_outside_the_glossarys_list(code: str) -> None:
    allowed = set(glossary(code).get("same_as_english", {}).get("values", []))
    found = [p for n, en, other in pairs(code) for p in english_left(n, en, other, allowed)]
    assert found == [], "left in English"


@pytest.mark.parametrize("code", OTHERS)
def test_poker_terms_as_the_glossary_renders_them(code: str) -> None:
    if code == "cs":
        pytest.skip("Czech was written before the glossaries: its terms are not listed yet")
    terms: dict[str, str | list[str]] = glossary(code)["terms"]
    assert len(terms) >= 15
    found = [p for n, en, other in pairs(code) for p in term_problems(n, en, other, terms)]
    assert found == []


def test_each_check_finds_what_it_is_for() -> None:
    """A key gone, a placeholder lost or added, a plural form missing, a text left in English
    and a term rendered otherwise: each is reported, and a sound text is not."""
    en = {
        "a.seat": "Table {table}, seat {seat}",
        "a.players": {"one": "{n} player", "other": "{n} players"},
        "a.ok": "OK",
        "a.bb": "Post the big blind",
    }
    good = {
        "a.seat": "Stół {table}, miejsce {seat}",
        "a.players": {
            "one": "jeden gracz",
            "few": "{n} graczy",
            "many": "{n} graczy",
            "other": "{n} gracza",
        },
        "a.ok": "OK",
        "a.bb": "Wpłać big blinda",
    }
    need = {"one", "few", "many", "other"}
    terms: dict[str, str | list[str]] = {"big blind": "big blind", "table": "stół"}
    assert key_problems("x", en, good) == []
    assert placeholder_problems("x", en, good) == []
    assert plural_problems("x", en, good, need) == []
    assert english_left("x", en, good, {"OK"}) == []
    assert term_problems("x", en, good, terms) == []

    gone = {k: v for k, v in good.items() if k != "a.ok"}
    assert key_problems("x", en, gone) == ["x a.ok: missing"]
    lost = {**good, "a.seat": "Stół {table}, miejsce"}
    assert placeholder_problems("x", en, lost) == ["x a.seat: lost ['seat']"]
    extra = {**good, "a.seat": "Stół {table}, miejsce {seat} {name}"}
    assert placeholder_problems("x", en, extra) == ["x a.seat: ['name'] is not in English"]
    no_many = {**good, "a.players": {"one": "{n} gracz", "few": "{n} gracze", "other": "{n}"}}
    assert plural_problems("x", en, no_many, need) == ["x a.players: no ['many'] form"]
    flat_text = {**good, "a.players": "{n} graczy"}
    assert plural_problems("x", en, flat_text, need) == [
        "x a.players: plural in English, one text here"
    ]
    assert plural_problems("x", en, flat_text, need, frozenset({"a.players"})) == []
    misspelt = {**good, "a.players": {**good["a.players"], "fwe": "{n} graczy"}}
    assert plural_problems("x", en, misspelt, need, known=frozenset(need)) == [
        "x a.players: ['fwe'] is no plural form of the language"
    ]
    assert plural_problems("x", en, good, need, known=frozenset(need)) == []
    assert english_left("x", en, good, set()) == ["x a.ok: 'OK'"]
    other_term = {**good, "a.bb": "Wpłać duży blind"}
    assert len(term_problems("x", en, other_term, terms)) == 1
    # "table" is not in "tablet", nor in the field name "table_id".
    assert term_problems("x", {"a": "the tablet's table_id"}, {"a": "tablet"}, terms) == []


@pytest.mark.parametrize("code", OTHERS)
def test_the_rule_citations_in_every_language(code: str) -> None:
    """The engine's reasons (floor/engine/reasons.py) in English, shown in the reader's."""
    files = dump()["files"]
    czech = set(files["cs.js"]["why"])
    mine = files[f"{code}.js"].get("why", {})
    assert sorted(czech - mine.keys()) == []
    assert sorted(mine.keys() - czech) == [], "citations no rule of the engine gives"
    assert all(isinstance(v, str) and v.strip() and v != k for k, v in mine.items())
