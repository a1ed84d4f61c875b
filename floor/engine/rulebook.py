"""The rulebook at hand: the house rule set in force, in English and Czech, searchable.

A rule set is a file in ``config/rulebook/`` (loaded by ``floor.config.load_rulebook``): the
rules with a stable ``id`` each, the number the source gives it, a title and a text in both
languages. A house's file ``extends`` a base (Pardubice 2014 extends TDA 2024): a rule with an
id the base has replaces it, new ids are added. Every decision the engine explains links to a
rule by id (``reasons.RULE_IDS``), so the same link opens each house's own wording.

Search is pure and forgiving the way floor staff type on a phone: every word of the query must
start a word of the rule (either language, the number, the keywords), case and diacritics
ignored ("rozpadani" finds "Rozpadání", "ante" does not find "guarantee"); titles and keywords
rank above the body text. Czech bends its words ("žetony", "žetonů", "žeton"), so a longer
word also matches by its stem (all but its last two letters, at least four), ranked below a
whole-word match. The floor phone searches a copy offline the same way (web/js/rulebook.js).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .errors import ConfigValueError

RuleId = Annotated[str, Meta(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=40)]
Text = Annotated[str, Meta(min_length=1)]
Language = Literal["en", "cs"]


class RuleText(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One rule as a rulebook file writes it."""

    id: RuleId
    #: Whose rule it is: "TDA 2024", "PFP 2014", "House".
    source: Text
    #: The number the source gives it ("11A", "RP-9", "20"); empty for a house procedure.
    number: str = ""
    title_en: Text
    title_cs: Text
    text_en: Text
    text_cs: Text
    #: Further words to find it by, in either language.
    keywords: tuple[str, ...] = ()


class RulebookFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A rulebook file: its rules, or a house's changes to the rule set it extends."""

    name: Text
    title: Text
    #: The rule set this one changes (a file name in the same folder); None for a base.
    extends: str | None = None
    rules: Annotated[tuple[RuleText, ...], Meta(min_length=1)]

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for i, rule in enumerate(self.rules):
            if rule.id in seen:
                raise ConfigValueError(
                    f"rules[{i}].id: {rule.id!r} is listed twice",
                    reason="rule_id_twice",
                    params={"id": rule.id},
                )
            seen.add(rule.id)


class Rule(msgspec.Struct, frozen=True, kw_only=True):
    """A rule of the set in force, as the screens get it."""

    id: str
    source: str
    number: str
    #: "TDA 2024 rule 11A", "PFP 2014 rule 8", "House rule".
    cite: str
    title_en: str
    title_cs: str
    text_en: str
    text_cs: str
    keywords: tuple[str, ...]
    #: Set by the house (its own file), not taken from the rule set it extends.
    house: bool


class Book(msgspec.Struct, frozen=True, kw_only=True):
    """A rulebook in force: a rule set with the rules it inherits resolved."""

    name: str
    title: str
    #: The rule sets this one is built on, nearest first.
    based_on: tuple[str, ...]
    rules: tuple[Rule, ...]

    def get(self, rule_id: str) -> Rule | None:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        return None


# Letters Unicode does not decompose into a base and a mark: a player types them plainly
# (``Lukasz`` for ``Łukasz``, ``Soren`` for ``Søren``). web/js/ui.js folds the same way.
_PLAIN = str.maketrans(
    {
        "ł": "l",
        "Ł": "L",
        "ø": "o",
        "Ø": "O",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "þ": "th",
        "Þ": "TH",
        "ı": "i",
        "ħ": "h",
        "Ħ": "H",
        "ŧ": "t",
        "Ŧ": "T",
    }
)


def fold(text: str) -> str:
    """Text as compared in search: no diacritics, no case (``Rozpadání`` finds ``rozpadani``,
    ``Novák`` finds ``novak``, ``Łukasz`` finds ``lukasz``); player search folds names the
    same way."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def cite(rule: RuleText) -> str:
    if not rule.number:
        return f"{rule.source} procedure" if rule.source == "House" else rule.source
    word = "" if rule.number.startswith("RP-") else "rule "
    return f"{rule.source} {word}{rule.number}"


def build(file: RulebookFile, base: Book | None = None) -> Book:
    """The rule set ``file`` describes, on top of ``base`` when it extends one.

    Rules keep the base's order; a house's new rules follow at the end.
    """
    own = {r.id: r for r in file.rules}
    rules: list[Rule] = []
    if base is not None:
        for inherited in base.rules:
            replaced = own.pop(inherited.id, None)
            rules.append(inherited if replaced is None else _rule(replaced, house=True))
    rules.extend(_rule(r, house=base is not None) for r in own.values())
    based_on = () if base is None else (base.name, *base.based_on)
    return Book(name=file.name, title=file.title, based_on=based_on, rules=tuple(rules))


def _rule(r: RuleText, *, house: bool) -> Rule:
    return Rule(
        id=r.id,
        source=r.source,
        number=r.number,
        cite=cite(r),
        title_en=r.title_en,
        title_cs=r.title_cs,
        text_en=r.text_en,
        text_cs=r.text_cs,
        keywords=r.keywords,
        house=house,
    )


def search(book: Book, query: str, limit: int = 50) -> list[Rule]:
    """The rules that hold every word of ``query``, best first; all of them for no words."""
    words = _QUERY_SPLIT.split(fold(query).strip())
    if words == [""]:
        return list(book.rules[:limit])
    scored: list[tuple[int, int, Rule]] = []
    for order, rule in enumerate(book.rules):
        title = fold(f"{rule.title_en} {rule.title_cs}")
        tags = fold(" ".join((*rule.keywords, rule.id, rule.number, rule.cite)))
        body = fold(f"{rule.text_en} {rule.text_cs}")
        score = 0
        for w in words:
            hit = _score(w, title, tags, body)
            if len(w) >= 5:
                # By its stem in the title ("vyvazovanim" in "Vyvažování") beats the whole
                # word in the body.
                hit = max(hit, _score(w[: max(4, len(w) - 2)], title, tags, body) // 2)
            if not hit:
                break
            score += hit
        else:
            scored.append((-score, order, rule))
    scored.sort(key=lambda s: s[:2])
    return [rule for *_, rule in scored[:limit]]


#: Between the words of a query: spaces and the punctuation typed with them ("11A, halt").
_QUERY_SPLIT = re.compile(r"[\s,.;:!?]+")


def _score(word: str, title: str, tags: str, body: str) -> int:
    if _starts_a_word(title, word):
        return 6
    if _starts_a_word(tags, word):
        return 4
    return 2 if _starts_a_word(body, word) else 0


def _starts_a_word(text: str, prefix: str) -> bool:
    """Whether a word of ``text`` starts with ``prefix`` (after anything but a letter or digit)."""
    i = text.find(prefix)
    while i != -1:
        if i == 0 or not text[i - 1].isalnum():
            return True
        i = text.find(prefix, i + 1)
    return False
