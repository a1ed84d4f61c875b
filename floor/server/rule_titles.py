"""The rulebook's titles in the languages beyond English and Czech.

The rulebook keeps its texts in English and Czech (``config/rulebook/*.toml``); every other
language the screens speak has the rules' titles (``config/rulebook/titles/<code>.toml``, keyed
by the English title, which the three books share where their rules agree), so that a German
reader finds the rule by its German name above the English text. A test holds every title of
every book to every shipped language (``tests/unit/test_rule_titles.py``).
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

from .. import config as configs
from ..engine.errors import ConfigError


def titles_dir() -> Path:
    return configs.config_dir() / "rulebook" / "titles"


@functools.lru_cache(maxsize=16)
def _read(path: Path, stamp: int) -> dict[str, str]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"the rule titles cannot be read: {e}", field=str(path.name)) from None
    bad = [k for k, v in data.items() if not isinstance(v, str) or not v.strip()]
    if bad:
        raise ConfigError(f"a title must be a text: {bad[0]!r}", field=str(path.name))
    return {k: str(v) for k, v in data.items()}


def titles(lang: str) -> dict[str, str]:
    """English title -> title in ``lang`` (empty for a language without a file)."""
    path = titles_dir() / f"{lang}.toml"
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    return _read(path, stamp)


def title_in(lang: str, english: str) -> str:
    """The rule titled ``english`` in ``lang``; the English title where it has none."""
    return titles(lang).get(english, english)
