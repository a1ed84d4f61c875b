"""The words a rule is found by: what a floorperson types on a phone, in English or Czech.

Text is folded first (``rulebook.fold``: no case, no diacritics) and cut into words of
letters and digits; a hyphenated word is also found written together ("sit-out", "sitout").

Czech bends its nouns and adjectives: "stůl", "stolu", "stolem"; "žeton", "žetony", "žetonů".
``stems`` strips the common case and number endings of a folded word, the way the light Czech
stemmer of Dolamic and Savoy does (never to fewer than three letters), and gives the word with
the "ů" of its last syllable read as the "o" of its other forms ("stul" and "stol"): typed
without diacritics "ů" is a plain "u", so every "u" before a final consonant is read both ways.

A phone makes typos: ``one_edit`` gives every string one edit away (a letter missing, one too
many, one changed, two swapped) over the letters a rulebook uses, for words of five letters or
more (``TYPO_LENGTH``); the search takes those that begin a word of the book.

``SYNONYMS`` join words of the two languages and the floor's slang: a rule that says "telefon"
is found by "phone", "mobile" and "cell". web/js/rulebook.js does the same to the words typed
(the rules' words come from the server with each rule, already stemmed and joined).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Final

#: A word of folded text.
_WORD = re.compile(r"[a-z0-9]+")
#: Words joined by hyphens ("sit-out", "re-entry", "6-max").
_HYPHENED = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
_VOWELS = frozenset("aeiouy")

#: Endings stripped, longest first, each only from a word longer than ``more_than`` letters
#: (so that three letters are left at least). Folded: "ého" is "eho", "ům" is "um".
_ENDINGS: Final[tuple[tuple[int, tuple[str, ...]], ...]] = (
    (7, ("atech",)),
    (6, ("etem", "atum")),
    (5, ("ech", "ich", "eho", "emi", "emu", "ete", "eti", "iho", "imi", "imu")),
    (5, ("ach", "ata", "aty", "ych", "ama", "ami", "ove", "ovi", "ymi")),
    (4, ("em", "es", "im", "um", "at", "am", "os", "us", "ym", "mi", "ou")),
    (3, ("a", "e", "i", "o", "u", "y")),
)

#: Words this long or longer are also found with one typo.
TYPO_LENGTH: Final = 5


def words(folded: str) -> list[str]:
    """The words of folded text, in order, and each hyphenated word written together."""
    out = _WORD.findall(folded)
    out.extend(m.group().replace("-", "") for m in _HYPHENED.finditer(folded))
    return out


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """``word`` (folded) without its Czech case or number ending; a number stays as it is.
    Remembered: a book says the same words over and over (bounded, so a query cannot grow it)."""
    if not word.isalpha():
        return word
    for more_than, endings in _ENDINGS:
        if len(word) > more_than:
            for ending in endings:
                if word.endswith(ending):
                    return word[: -len(ending)]
    return word


def stems(word: str) -> tuple[str, ...]:
    """The stem of ``word`` and, when its last syllable has a "u" before a final consonant,
    the stem with "o" there ("stul" for "stůl" and "stol" for "stolu" meet at "stol")."""
    s = stem(word)
    if len(s) >= 3 and s[-2] == "u" and s[-1].isalpha() and s[-1] not in _VOWELS:
        return (s, f"{s[:-2]}o{s[-1]}")
    return (s,)


def one_edit(word: str, letters: str) -> Iterator[str]:
    """Every string one edit from ``word``: a letter left out, added or changed (from
    ``letters``), or two neighbours swapped; duplicates included, ``word`` itself not."""
    n = len(word)
    for i in range(n):
        yield word[:i] + word[i + 1 :]
    for i in range(n - 1):
        if word[i] != word[i + 1]:
            yield word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    for i in range(n):
        for c in letters:
            if c != word[i]:
                yield word[:i] + c + word[i + 1 :]
    for i in range(n + 1):
        for c in letters:
            yield word[:i] + c + word[i:]


# Synonyms --------------------------------------------------------------------------------------

#: Groups of words (folded) that mean the same to the floor, English and Czech: a rule with a
#: word of a group is also found by the group's other words.
SYNONYMS: Final[tuple[tuple[str, ...], ...]] = (
    ("phone", "telephone", "cellphone", "cell", "mobile", "mobil", "smartphone", "telefon"),
    ("electronic", "device", "devices", "elektronicky", "pristroj", "zarizeni"),
    ("misdeal", "redeal"),
    ("penalty", "penalties", "penalise", "penalize", "penalizace", "penalizovan", "trest"),
    ("warning", "varovani", "napomenuti", "caution"),
    ("disqualification", "disqualify", "disqualified", "diskvalifikace", "diskvalifikovan"),
    ("chip", "chips", "zeton", "zetony"),
    ("table", "stul", "stol"),
    ("card", "cards", "karta", "karty", "karet"),
    ("deck", "balicek"),
    ("bet", "sazka", "sazet", "vsadit"),
    ("raise", "raising", "navyseni", "navysit", "raisovani"),
    ("fold", "zahodit", "zahozeni"),
    ("dealer", "krupier"),
    ("floor", "floorman", "floorperson", "director", "reditel", "rozhodci"),
    ("cheat", "cheating", "podvadeni", "podvod"),
    ("collusion", "colluding", "soft", "spoluprace", "pratelska"),
    ("swearing", "profanity", "abuse", "abusive", "nadavky", "urazky"),
    ("exposed", "expose", "exposing", "odkryti", "odkryje", "otoceni", "otoci"),
    ("clock", "hodiny"),
    ("showdown", "ukazani"),
    ("language", "jazyk"),
    ("etiquette", "etiketa", "behaviour", "behavior", "chovani"),
)


#: Each group's words (a phrase's words one by one) with their stems.
_GROUPS: Final = tuple(
    tuple((w, stem(w)) for phrase in group for w in words(phrase)) for group in SYNONYMS
)


def _index(pairs: Iterable[tuple[str, int]]) -> dict[str, frozenset[int]]:
    out: dict[str, set[int]] = {}
    for key, group in pairs:
        out.setdefault(key, set()).add(group)
    return {k: frozenset(v) for k, v in out.items()}


# A word belongs to a group when it is one of its words, shares a word's stem, or begins with
# one of its long words ("telefon", "telefonovat"): looked up by the word, its stem and its
# prefixes, not by comparing it with every group (a book's words times the groups' words).
_BY_WORD: Final = _index((e, g) for g, group in enumerate(_GROUPS) for e, _ in group)
_BY_STEM: Final = _index((s, g) for g, group in enumerate(_GROUPS) for _, s in group)
_BY_PREFIX: Final = _index(
    (e, g) for g, group in enumerate(_GROUPS) for e, _ in group if len(e) >= TYPO_LENGTH
)
_GROUP_WORDS: Final = tuple(frozenset(w for pair in group for w in pair) for group in _GROUPS)


@lru_cache(maxsize=1 << 16)
def groups_of(word: str) -> frozenset[int]:
    """The synonym groups ``word`` (folded) belongs to, by their order in ``SYNONYMS``."""
    found = _BY_WORD.get(word, frozenset()) | _BY_STEM.get(stem(word), frozenset())
    for n in range(TYPO_LENGTH, len(word) + 1):
        found |= _BY_PREFIX.get(word[:n], frozenset())
    return found


def synonyms(found: Iterable[str]) -> set[str]:
    """The words of every group that one of ``found`` (folded words) belongs to, with their
    stems, less the words themselves."""
    seen = set(found)
    groups: set[int] = set()
    for word in seen:
        groups |= groups_of(word)
    out: set[str] = set()
    for g in groups:
        out |= _GROUP_WORDS[g]
    return out - seen
