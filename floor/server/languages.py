"""The languages the screens speak: those whose texts are shipped in ``web/js/lang``.

A language is offered once its base file (``web/js/lang/<code>.js``) is there; a test
(``tests/unit/test_translations.py``) holds every offered language to every part file, so a
language is shipped whole or not at all. The pages carry the list (``<html data-langs>``), the
service worker reads the notifications of each (``push-<code>.js``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

#: Every language the screens may speak, in the order the picker shows them.
LANGUAGES: Final = ("en", "cs", "de", "pl", "es", "pt-br", "fr", "it")


@functools.lru_cache(maxsize=4)
def shipped(web: Path) -> tuple[str, ...]:
    """The languages of ``LANGUAGES`` whose texts are in ``web`` (read once a process)."""
    lang = web / "js" / "lang"
    return tuple(code for code in LANGUAGES if (lang / f"{code}.js").is_file())


def language_of(tag: str, web: Path) -> str:
    """The shipped language nearest a BCP 47 tag (``de-AT`` is ``de``, ``pt-BR`` is ``pt-br``,
    ``pt-PT`` is ``pt-br`` too: the one Portuguese shipped); English where none is."""
    tag = tag.strip().lower().replace("_", "-")
    have = shipped(web)
    if tag in have:
        return tag
    base = tag.split("-")[0]
    for code in have:
        if code.split("-")[0] == base:
            return code
    return "en"


def player_language(lang: str | None, venue_locale: str, web: Path) -> str:
    """The language a player is spoken to in: theirs, as the desk, an import or their phone
    gave it (``Player.lang``), where the screens speak it; else the venue's locale's."""
    if lang is not None and lang in shipped(web):
        return lang
    return language_of(venue_locale, web)
