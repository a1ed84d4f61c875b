"""Names and ids show what they are: nothing hidden, something visible (floor/engine/names.py).

Each refused string is one a screen would show as nothing, or as another name: the blank
letters and symbols nicknames are made of, the format characters that hide or reorder text,
a joiner that joins nothing. Each accepted one is a real name that needs what it holds.
"""

from __future__ import annotations

import unicodedata

import pytest

from floor.engine.errors import BadValue
from floor.engine.names import check_player_id, has_visible, hidden_mark, shown_name

#: Strings no screen shows as they are: (text, why).
HIDDEN = [
    ("\u2800", "braille blank"),
    ("\u3164", "Hangul filler"),
    ("\u115f\u1160", "Hangul choseong and jungseong fillers"),
    ("Jan\uffa0", "halfwidth Hangul filler"),
    ("\U0001d159", "musical null notehead"),
    ("Jan\U000e0041\U000e0042", "tag characters"),
    ("\U000e0001Jan", "language tag"),
    ("\u061cJan", "Arabic letter mark"),
    ("Jan\u180e", "Mongolian vowel separator"),
    ("Jan\u200bNovák", "zero-width space"),
    ("Jan\u2060", "word joiner"),
    ("Jan\u2064", "invisible plus"),
    ("\u202eJan", "right-to-left override"),
    ("\u2066Jan\u2069", "isolates"),
    ("J\u00adan", "soft hyphen"),
    ("\ufeffJan", "byte order mark"),
    ("Jan\u0000", "a control character"),
    ("Jan\u0090", "a C1 control"),
    ("\ue000Jan", "private use"),
    ("Jan\U000f0000", "supplementary private use"),
    ("Jan\U0010fffe", "a noncharacter"),
    ("Jan\u0378", "unassigned"),
    ("\ud800Jan", "a lone surrogate"),
    ("\u200d", "a joiner alone"),
    ("\u200dJan", "a joiner at the start"),
    ("Jan\u200c", "a joiner at the end"),
    ("Jan\u200d\u200dNovák", "two joiners"),
    ("Jan \u200dNovák", "a joiner after a space"),
]

#: Names that need what they hold.
SHOWN = [
    "Jan Novák",
    "李小龍",
    "Ali\u200cReza",  # a ZWNJ between letters
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: ZWNJ inside a word
    "\u0915\u094d\u200d\u0937",  # Devanagari: ZWJ after the virama
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: ZWJ between emoji
    "\U0001f3f3\ufe0f\u200d\U0001f308",  # the rainbow flag: ZWJ after a variation selector
    "\U0001f469\U0001f3fd\u200d\U0001f4bb",  # ZWJ after a skin tone
    "\u2764\ufe0f Jana",
    "Zoë",
    "O'Brien-Smith",
    "№ 7",
]


@pytest.mark.parametrize(("text", "why"), HIDDEN, ids=[why for _, why in HIDDEN])
def test_a_name_with_a_hidden_or_blank_character_is_refused(text: str, why: str) -> None:
    assert hidden_mark(text) is not None, why
    with pytest.raises(BadValue) as caught:
        shown_name(text)

    assert (caught.value.field, caught.value.reason) == ("name", "name_hidden_marks")


@pytest.mark.parametrize(("text", "why"), HIDDEN, ids=[why for _, why in HIDDEN])
def test_an_id_with_a_hidden_or_blank_character_is_refused(text: str, why: str) -> None:
    with pytest.raises(BadValue) as caught:
        check_player_id(text)

    assert (caught.value.field, caught.value.reason) == ("player", "player_id_unshown")
    assert caught.value.params == {"player": text}
    assert "\n" not in caught.value.message


@pytest.mark.parametrize(
    "text",
    ["", "   ", "\u3000", "\u0301", "\u0301\u0302 \u20dd", "\ufe0f", "\u00a0\u2007"],
    ids=["empty", "spaces", "ideographic space", "a mark", "marks", "a selector", "nbsp"],
)
def test_a_name_without_a_visible_character_is_blank(text: str) -> None:
    assert not has_visible(text)
    with pytest.raises(BadValue) as caught:
        shown_name(text)

    assert caught.value.reason == "name_blank"


@pytest.mark.parametrize("text", SHOWN)
def test_a_name_that_needs_its_joiners_marks_and_symbols_is_kept(text: str) -> None:
    assert shown_name(text) == text
    assert check_player_id(text) == text


def test_runs_of_whitespace_in_a_name_become_one_space() -> None:
    """Tabs, newlines and the other spaces (a list pasted from two columns) show as a space."""
    assert shown_name(" Jan\t\u3000Novák\n") == "Jan Novák"
    assert shown_name("Jan\u2028\u0085Novák") == "Jan Novák"


@pytest.mark.parametrize(
    "pid",
    [" A1", "A1 ", "A  1", "A\u00a01", "A\t1", "A\u30001", "A\u20281"],
    ids=["leading", "trailing", "two spaces", "nbsp", "tab", "ideographic", "separator"],
)
def test_an_id_with_a_space_that_would_make_two_ids_look_one_is_refused(pid: str) -> None:
    with pytest.raises(BadValue) as caught:
        check_player_id(pid)

    assert caught.value.reason == "player_id_unshown"


def test_an_id_in_any_script_with_single_inner_spaces_is_kept() -> None:
    assert check_player_id("Nováková 7") == "Nováková 7"
    assert check_player_id("٤٢") == "٤٢"


def test_every_format_character_but_the_joiners_is_refused() -> None:
    """All of Unicode category Cf in this Python's database, not only the ones listed."""
    formats = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]
    assert len(formats) > 150
    for c in formats:
        text = f"a{c}b"
        if c in "\u200c\u200d":
            assert hidden_mark(text) is None
        else:
            assert hidden_mark(text) == 1, f"U+{ord(c):04X} {unicodedata.name(c, '')}"
