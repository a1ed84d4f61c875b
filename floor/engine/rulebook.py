"""The rulebook at hand: the house rule set in force, in English and Czech, searchable.

A rule set is a file in ``config/rulebook/`` (loaded by ``floor.config.load_rulebook``): the
rules with a stable ``id`` each, the number the source gives it, a title and a text in both
languages. A house's file ``extends`` a base (Pardubice 2014 extends TDA 2024): a rule with an
id the base has replaces it, as does a rule naming base ids in ``replaces`` (one house rule
standing for two of the base: PFP 36 is TDA 42 and 56), and new ids are added. Every decision
the engine explains links to a rule by id (``reasons.RULE_IDS``), so the same link opens each
house's own wording; an id a house rule replaces opens that house rule.

A summary is the project's own words, never the source's text: a file names where its source
publishes the official wording (``official_url``, linked from every rule of the file), what its
rules were checked against (``checked_*``), and each rule says what of its wording could not be
checked (``unchecked_*``), so that the screen can say so beside the rule.

Search is pure and forgiving the way floor staff type on a phone: every word of the query must
start a word of the rule (either language, the number, the keywords), case and diacritics
ignored ("rozpadani" finds "Rozpadání", "ante" does not find "guarantee"). A word also matches
by its Czech stem ("stůl" finds "stolu", ``search_terms.stems``), with one typo when it is five
letters or longer ("misdael" finds "misdeal"), and by a synonym the rule's words have ("cell"
finds the rule that says "telefon"); each of those ranks below the word as typed, and titles
rank above keywords above the text above synonyms. The words of every rule are worked out
once, when its book is built (``Rule.terms``, an index over the book); the floor phone gets
them with each rule and searches a copy offline the same way (web/js/rulebook.js).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from .errors import ConfigValueError, refused
from .search_terms import TYPO_LENGTH, one_edit, stems, synonyms, words

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
    #: How the floor applies the rule where the source leaves room (the source's own words
    #: stay in ``text_*``).
    note_en: str = ""
    note_cs: str = ""
    #: What of the source's current wording this entry could not be checked against a source
    #: read (empty: checked, as the file's ``checked_*`` says). Both languages or neither.
    unchecked_en: str = ""
    unchecked_cs: str = ""
    #: Rules of the base that this house rule stands for besides its own id (a house file
    #: only): they leave the book, and their ids open this rule.
    replaces: tuple[RuleId, ...] = ()

    def __post_init__(self) -> None:
        for name in ("note", "unchecked"):
            if bool(getattr(self, f"{name}_en")) != bool(getattr(self, f"{name}_cs")):
                missing = "cs" if getattr(self, f"{name}_en") else "en"
                raise refused(
                    ConfigValueError, "rule_text_one_language", {"name": f"{name}_{missing}"}
                )
        if self.id in self.replaces:
            raise refused(ConfigValueError, "rule_replaces_own", {"id": self.id}, field="replaces")


class RulebookFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A rulebook file: its rules, or a house's changes to the rule set it extends."""

    name: Text
    title: Text
    #: The rule set this one changes (a file name in the same folder); None for a base.
    extends: str | None = None
    #: Where the source publishes its official text, linked from each of this file's rules
    #: (not from its house procedures).
    official_url: Annotated[str, Meta(pattern=r"^https://\S+$")] | None = None
    #: What this file's rules were checked against, shown beside each rule that does not say
    #: what of it could not be checked. Both languages or neither.
    checked_en: str = ""
    checked_cs: str = ""
    rules: Annotated[tuple[RuleText, ...], Meta(min_length=1)]

    def __post_init__(self) -> None:
        if bool(self.checked_en) != bool(self.checked_cs):
            missing = "checked_cs" if self.checked_en else "checked_en"
            raise refused(ConfigValueError, "rule_text_one_language", {"name": missing})
        seen: set[str] = set()
        for i, rule in enumerate(self.rules):
            if rule.id in seen:
                raise refused(
                    ConfigValueError, "rule_id_twice", {"id": rule.id}, field=f"rules[{i}].id"
                )
            seen.add(rule.id)
        taken: dict[str, str] = {}
        for i, rule in enumerate(self.rules):
            for j, rid in enumerate(rule.replaces):
                if rid in seen:
                    raise refused(
                        ConfigValueError,
                        "rule_replaces_own",
                        {"id": rid},
                        field=f"rules[{i}].replaces[{j}]",
                    )
                if rid in taken:
                    raise refused(
                        ConfigValueError,
                        "rule_replaced_twice",
                        {"id": rid},
                        field=f"rules[{i}].replaces[{j}]",
                    )
                taken[rid] = rule.id


class Terms(msgspec.Struct, frozen=True, kw_only=True):
    """The words a rule is found by (folded, with their stems), by where they stand; the
    phone searches its offline copy by these."""

    #: The titles and the number.
    title: tuple[str, ...]
    #: The keywords, the id and the citation.
    tags: tuple[str, ...]
    #: The text and the note.
    body: tuple[str, ...]
    #: Words of the groups of ``search_terms.SYNONYMS`` the rule's words belong to.
    synonyms: tuple[str, ...]


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
    note_en: str
    note_cs: str
    #: Where the source publishes the official text ("": nowhere known).
    link: str
    #: What the rule was checked against (its file's word), and what of it could not be.
    checked_en: str
    checked_cs: str
    unchecked_en: str
    unchecked_cs: str
    terms: Terms


class Book(msgspec.Struct, frozen=True, kw_only=True):
    """A rulebook in force: a rule set with the rules it inherits resolved."""

    name: str
    title: str
    #: The rule sets this one is built on, nearest first.
    based_on: tuple[str, ...]
    rules: tuple[Rule, ...]
    #: The search index over ``rules``, built with the book (never sent anywhere).
    index: Index
    #: Ids of the base a house rule replaces, with the id of that house rule.
    aliases: dict[str, str] = msgspec.field(default_factory=dict)

    def get(self, rule_id: str) -> Rule | None:
        """The rule ``rule_id`` names here: its own, or the house rule that replaces it."""
        wanted = self.aliases.get(rule_id, rule_id)
        for rule in self.rules:
            if rule.id == wanted:
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

    A house's own rules come first, in its own order (the numbers its players know), then
    the rules it takes from the base as they are, in the base's order, less those a house
    rule replaces. ``ConfigValueError`` names a replaced id the base does not hold.
    """
    own = [_rule(r, file, house=base is not None) for r in file.rules]
    ids = {r.id for r in own}
    if base is None:
        for i, r in enumerate(file.rules):
            for j, rid in enumerate(r.replaces):
                raise refused(
                    ConfigValueError,
                    "rule_replaces_unknown",
                    {"id": rid, "base": file.name},
                    field=f"rules[{i}].replaces[{j}]",
                )
    aliases: dict[str, str] = {}
    if base is not None:
        # What the base's ids stood for stays, unless this house has a rule of that id.
        aliases = {old: new for old, new in base.aliases.items() if old not in ids}
        base_ids = {b.id for b in base.rules}
        for i, r in enumerate(file.rules):
            for j, rid in enumerate(r.replaces):
                if rid not in base_ids:
                    raise refused(
                        ConfigValueError,
                        "rule_replaces_unknown",
                        {"id": rid, "base": base.name},
                        field=f"rules[{i}].replaces[{j}]",
                    )
                aliases = {old: r.id if new == rid else new for old, new in aliases.items()}
                aliases[rid] = r.id
    gone = ids | set(aliases)
    inherited = [] if base is None else [r for r in base.rules if r.id not in gone]
    rules = own + inherited
    based_on = () if base is None else (base.name, *base.based_on)
    return Book(
        name=file.name,
        title=file.title,
        based_on=based_on,
        rules=tuple(rules),
        index=Index(rules),
        aliases=aliases,
    )


def _rule(r: RuleText, file: RulebookFile, *, house: bool) -> Rule:
    citation = cite(r)
    return Rule(
        id=r.id,
        source=r.source,
        number=r.number,
        cite=citation,
        title_en=r.title_en,
        title_cs=r.title_cs,
        text_en=r.text_en,
        text_cs=r.text_cs,
        keywords=r.keywords,
        house=house,
        note_en=r.note_en,
        note_cs=r.note_cs,
        # A house's procedure in the file is not the source's text: nothing official to open.
        link=(file.official_url or "") if r.source != "House" else "",
        checked_en=file.checked_en,
        checked_cs=file.checked_cs,
        unchecked_en=r.unchecked_en,
        unchecked_cs=r.unchecked_cs,
        terms=terms(r, citation),
    )


def terms(r: RuleText, citation: str) -> Terms:
    """The words ``r`` is found by: each word with its stems, by where it stands."""
    # The number is a rule's name as much as its title ("24", "11D").
    title = _terms(f"{r.title_en} {r.title_cs} {r.number}")
    # Cited the Czech way too: "PFP 2014, pravidlo 50".
    czech = f"pravidlo {r.number}" if r.number else ""
    tags = _terms(" ".join((*r.keywords, r.id, r.number, citation, czech)))
    body = _terms(" ".join((r.text_en, r.text_cs, r.note_en, r.note_cs)))
    found = title | tags | body
    return Terms(
        title=tuple(sorted(title)),
        tags=tuple(sorted(tags)),
        body=tuple(sorted(body)),
        synonyms=tuple(sorted(synonyms(found))),
    )


def _terms(text: str) -> set[str]:
    out: set[str] = set()
    for word in words(fold(text)):
        out.add(word)
        out.update(stems(word))
    return out


# Search ----------------------------------------------------------------------------------------

#: How much a word found in each part of a rule counts...
_TITLE, _TAGS, _BODY, _SYNONYM = 6, 4, 2, 1
#: ...times how it was found: as typed, by its stem, with a typo.
_TYPED, _STEM, _TYPO = 4, 2, 1


class Index:
    """The words of a book's rules, sorted, each with the rules it is in and how much it
    counts there: a word of a query is looked up by the words it begins, not rule by rule."""

    __slots__ = ("_letters", "_postings", "_words")

    def __init__(self, rules: list[Rule]) -> None:
        best: dict[str, dict[int, int]] = {}
        for order, rule in enumerate(rules):
            t = rule.terms
            for part, weight in (
                (t.synonyms, _SYNONYM),
                (t.body, _BODY),
                (t.tags, _TAGS),
                (t.title, _TITLE),
            ):
                for word in part:
                    best.setdefault(word, {})[order] = weight
        self._words = sorted(best)
        self._postings = [best[w] for w in self._words]
        #: The letters a typo is corrected to: those the book's words use.
        self._letters = "".join(sorted({c for w in self._words for c in w}))

    def hits(self, word: str) -> dict[int, int]:
        """The rules ``word`` (folded) matches, by their order in the book, with its score."""
        found: dict[int, int] = {}
        self._add(found, word, _TYPED)
        for s in stems(word):
            if s != word:
                self._add(found, s, _STEM)
        if len(word) >= TYPO_LENGTH:
            for typo in set(one_edit(word, self._letters)):
                self._add(found, typo, _TYPO)
        return found

    def _add(self, found: dict[int, int], prefix: str, kind: int) -> None:
        i = bisect_left(self._words, prefix)
        while i < len(self._words) and self._words[i].startswith(prefix):
            for order, weight in self._postings[i].items():
                score = weight * kind
                if score > found.get(order, 0):
                    found[order] = score
            i += 1


def search(book: Book, query: str, limit: int = 50) -> list[Rule]:
    """The rules that hold every word of ``query``, best first; all of them for no words."""
    typed = query_words(query)
    if not typed:
        # The whole book: the phone keeps it as its offline copy.
        return list(book.rules)
    totals: dict[int, int] | None = None
    for word in typed:
        hits = book.index.hits(word)
        totals = (
            hits if totals is None else {o: s + hits[o] for o, s in totals.items() if o in hits}
        )
        if not totals:
            return []
    assert totals is not None
    ranked = sorted(totals.items(), key=lambda hit: (-hit[1], hit[0]))
    return [book.rules[order] for order, _ in ranked[:limit]]


#: The most words of a query looked up: a phone's search box, not a page of text.
MOST_WORDS: Final = 12


def query_words(query: str) -> list[str]:
    """The words of a query as the search reads them (folded; hyphens and punctuation apart)."""
    return _WORD_OF_QUERY.findall(fold(query))[:MOST_WORDS]


_WORD_OF_QUERY = re.compile(r"[a-z0-9]+")
