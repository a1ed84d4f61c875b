"""Every text of the screens exists in English and in Czech (web/js/lang)."""

from __future__ import annotations

import re
from pathlib import Path

LANG = Path(__file__).resolve().parents[2] / "web" / "js" / "lang"
#: The dotted keys of the dictionaries ("clock.level": ...), not the `why` citations.
KEY = re.compile(r'^\s*"([a-z0-9_]+(?:\.[a-z0-9_]+)+)":', re.MULTILINE)


def keys(name: str) -> set[str]:
    return set(KEY.findall((LANG / name).read_text(encoding="utf-8")))


def test_english_and_czech_have_the_same_texts() -> None:
    en, cs = keys("en.js"), keys("cs.js")

    assert len(en) > 300
    assert sorted(en - cs) == [], "in English only"
    assert sorted(cs - en) == [], "in Czech only"


def test_every_file_of_texts_has_its_czech_twin_with_the_same_texts() -> None:
    """The screens' texts kept in files of their own (lang/table-en.js, ...): a key in one
    language only failed nowhere before."""
    pairs = sorted(p.name for p in LANG.glob("*-en.js"))
    assert "table-en.js" in pairs
    for english in pairs:
        czech = english.replace("-en.js", "-cs.js")
        en, cs = keys(english), keys(czech)
        assert sorted(en - cs) == [], f"in {english} only"
        assert sorted(cs - en) == [], f"in {czech} only"
