"""What a player's name or id may hold: something every screen shows, and nothing hidden.

A name is read off the wall display, a move card and a dealer's phone; an id is typed at the
bust card and names the player in every refusal. Both must show what they are: a name that
prints as nothing leaves a move card without a name, and a hidden mark makes "Jan" on one
screen a different player from "Jan" on the next.

Refused anywhere in a name or an id:

- control characters (Cc), and the line and paragraph separators (Zl, Zp);
- format characters (Cf): the right-to-left override that turns "Jan" into anything, the
  zero-width space, the tag characters that smuggle text no screen shows (U+E0000-U+E007F),
  the Arabic letter mark (U+061C), the Mongolian vowel separator (U+180E), the soft hyphen...
  Only the joiners U+200C and U+200D stay, where they join (see ``_JOINERS``);
- surrogates, private-use and unassigned code points (Cs, Co, Cn): no font shows them the
  same way on every phone. Unassigned means in the Unicode version of this Python (3.11:
  Unicode 14), so an emoji newer than that is refused until the server's Python is;
- the characters that are letters or symbols to Unicode yet print as nothing (``_BLANK``).

And a name or an id needs a visible character: a letter, digit, punctuation mark or symbol
(``_VISIBLE``). Combining marks and spaces alone show nothing.

Pure functions over ``str``; the engine calls them when a player registers and when an
imported log is checked.
"""

from __future__ import annotations

import unicodedata

from .errors import BadValue, refused

#: Zero-width non-joiner and joiner. Persian and Indic names need them (the ZWNJ in
#: "می‌خواهم", the ZWJ after a virama), and emoji sequences are joined by the ZWJ (a family,
#: a rainbow flag after its variation selector, a skin tone then a symbol). They join only
#: what stands on both sides of them; at either end, next to a space or doubled they join
#: nothing and only hide a difference ("Jan" and "Jan" + ZWJ are two ids that look one).
_JOINERS = frozenset("\u200c\u200d")
#: What a joiner may stand between: letters, marks (a virama, a variation selector), digits
#: and symbols (emoji, skin tones). Categories by their first letter.
_JOINABLE = frozenset("LMNS")
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Letters and symbols that print as blank: the Hangul fillers (U+115F, U+1160, U+3164,
#: U+FFA0), the braille blank (U+2800) and the musical null notehead (U+1D159). Favourites
#: for a nickname that shows as nothing; no name needs one.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")
#: A visible character is one of these categories (by first letter) and not ``_BLANK``.
_VISIBLE = frozenset("LNPS")


def hidden_mark(text: str) -> int | None:
    """The index of the first character of ``text`` no screen shows as it is, or None."""
    last = len(text) - 1
    for i, c in enumerate(text):
        if c in _JOINERS:
            if not (
                0 < i < last
                and unicodedata.category(text[i - 1])[0] in _JOINABLE
                and unicodedata.category(text[i + 1])[0] in _JOINABLE
            ):
                return i
        elif c in _BLANK or unicodedata.category(c) in _REFUSED:
            return i
    return None


def has_visible(text: str) -> bool:
    """At least one character shows: not only spaces, marks or blanks."""
    return any(unicodedata.category(c)[0] in _VISIBLE and c not in _BLANK for c in text)


def shown_name(name: str) -> str:
    """The name as screens show it: runs of spaces and tabs (a list pasted from two columns)
    made one space; nothing blank, nothing hidden (``BadValue`` otherwise)."""
    plain = " ".join(name.split())
    if hidden_mark(plain) is not None:
        raise refused(BadValue, "name_hidden_marks", {}, field="name")
    if not has_visible(plain):
        raise refused(BadValue, "name_blank", {}, field="name")
    return plain


def check_player_id(pid: str) -> str:
    """``pid`` if it is an id every screen shows as it is, or ``BadValue``.

    Ids are the house's own (card numbers, the scenario format's "A1"), in any script: only
    what no board can print is refused, and the spaces that would make two ids look one (at
    either end, two in a row, or any space but the plain one).
    """
    if pid != " ".join(pid.split()) or hidden_mark(pid) is not None or not has_visible(pid):
        raise refused(BadValue, "player_id_unshown", {"player": pid}, field="player")
    return pid
