"""Whether a list's first row is its header: judged by how it differs from the rows below.

A header is unlike the players under it, whatever its language. Each column of the first
row is set against the same column below:

- a column of one kind of value (yes/no marks, numbers, country codes, e-mails) under a cell
  of words: "Buy-in zaplaceno" above "ano", "Karta" above card numbers. A strong sign;
  the same kind of value above them ("1001" above card numbers) is a sign against;
- a column of short values (no longer than five characters) under a longer cell: "Fizetett"
  above "igen", in a language no word list here holds;
- a cell made of words headers are written with ("Příjmení a jméno", "Verein", "Nom et
  prénom": ``words``), words the players' cells below do not hold ("Klub" above "Klub
  Praha" is no sign): a sign, a strong one when it holds two;
- in a column of names (each word capitalised), a cell that has no name's shape ("Surname,
  first name"), is all capitals above names that are not, carries a colon, a slash or a
  bracket none of them does, or is one word above names of two or more: each a weak sign.

A first row with strong signs is a header; with weak ones only, the director is asked
("ask": the preview shows the question, nothing is registered before the answer); with
none, it is a player. A list of one row cannot be judged by its shape: its words decide.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final, Literal

from .words import HEADER_WORDS, NO, YES, fold, tokens, words_of

Verdict = Literal["yes", "no", "ask"]
Kind = Literal["empty", "mark", "number", "code", "email", "text"]

#: Rows below the first that are weighed: enough to know a column, whatever the list's length.
SAMPLE: Final = 200
#: A column's kind is the kind at least this share of its cells have.
_TYPED: Final = 0.8
#: The score from which the first row is a header, and from which the director is asked.
_HEADER: Final = 3
_ASK: Final = 2

_NUMBER = re.compile(r"^[+#]?[0-9][0-9 ./:,()-]*$")
_CODE = re.compile(r"^[A-Z]{2,3}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
#: Lower-case words a name holds: "Jan van Dijk", "Luis de la Cruz", "Ana da Silva".
_PARTICLES: Final = words_of(
    "de da do dos das del della degli di du la le les lo van von der den ten ter zu af al el "
    "bin ben y e et i"
)
_MARKS: Final = frozenset(":/()[]#%?=")


def kind(cell: str) -> Kind:
    c = cell.strip()
    if not c:
        return "empty"
    if fold(c) in YES or fold(c) in NO:
        return "mark"
    if _NUMBER.match(c):
        return "number"
    if _CODE.match(c):
        return "code"
    if _EMAIL.match(c):
        return "email"
    return "text"


def name_shaped(cell: str) -> bool:
    """Words of letters, each capitalised ("Jiří Dvořák", "O'Brien, Seán", "Jan van Dijk")."""
    found = False
    for word in re.split(r"[\s,]+", cell.strip()):
        core = word.strip(".'’-")
        if not core:
            continue
        if not all(c.isalpha() or c in ".'’-" for c in core):
            return False
        found = True
        if core[0].isupper() or core.casefold() in _PARTICLES:
            continue
        if any(q in core for q in "'’") and any(c.isupper() for c in core):
            continue  # d'Artagnan
        return False
    return found


def _capitals(cell: str) -> bool:
    letters = [c for c in cell if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _share(cells: Sequence[str], test: Callable[[str], bool]) -> float:
    return sum(bool(test(c)) for c in cells) / len(cells)


def _words_sign(first: str, cells: Sequence[str]) -> int:
    """3: the cell is two header words or more, 2: one, 1: some of its words are; those
    the cells below hold too left out."""
    words = tokens(first)
    if not words:
        return 0
    held = Counter(w for c in cells for w in set(tokens(c)))
    hits = [w for w in words if w in HEADER_WORDS and held[w] <= 0.1 * len(cells)]
    if len(hits) == len(words):
        return 3 if len(set(hits)) >= 2 else 2
    return 1 if hits else 0


def column_sign(first: str, cells: Sequence[str]) -> int:
    """How much ``first`` reads as the header of the column ``cells`` (its filled cells
    below): positive a header, negative a player, 0 no sign either way."""
    c = first.strip()
    if not c or len(cells) < 2:
        return 0
    counted = Counter(kind(x) for x in cells)
    top, n = counted.most_common(1)[0]
    said = _words_sign(c, cells)
    mine = kind(c)
    if top != "text" and n >= _TYPED * len(cells):
        if mine == top:
            return -2
        letters = sum(ch.isalpha() for ch in c)
        # A cell of words above a column of values; "n/a" or "?" is a missing value.
        return 3 if mine == "text" and (said or letters >= 3) else 0
    longest = max(len(x.strip()) for x in cells)
    if longest <= 5 and len(c) >= longest + 3 and fold(c) not in {fold(x) for x in cells}:
        return 3
    score = said
    names = _share(cells, name_shaped) >= _TYPED
    if names and not name_shaped(c):
        score += 1
    if _capitals(c) and _share(cells, _capitals) <= 0.2:
        score += 1
    if any(m in c for m in _MARKS) and _share(cells, lambda x: any(m in x for m in _MARKS)) < 0.05:
        score += 1
    if names and len(c.split()) == 1 and _share(cells, lambda x: len(x.split()) >= 2) >= 0.9:
        score += 1
    return min(score, 3)


def judge(rows: Sequence[Sequence[str]]) -> Verdict:
    """Whether ``rows[0]`` is a header: "yes", "no", or "ask" the director."""
    if not rows:
        return "no"
    first, body = rows[0], rows[1 : 1 + SAMPLE]
    if len(body) < 2:
        said = max((_words_sign(c, []) for c in first), default=0)
        return "yes" if said >= 2 else "ask" if said else "no"
    score = 0
    for i, cell in enumerate(first):
        below = [r[i] for r in body if i < len(r) and r[i].strip()]
        score += column_sign(cell, below)
    return "yes" if score >= _HEADER else "ask" if score >= _ASK else "no"
