"""The refusal templates, read from the file the screens read: one per language.

A refusal is a code with parameters (``floor.engine.errors.PARAMS``); each language's words
for it are in ``web/js/lang/errors-<lang>.js``, a module whose object is plain JSON, so that
the screens import it (and keep it offline) and Python reads the same file here. ``say``
renders a refusal as ``web/js/errors.js`` does, player ids left as ids (Python has no names).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, Final

#: The screens' language files (``routes_pages.WEB``).
LANG_DIR: Final = Path(__file__).resolve().parents[1] / "web" / "js" / "lang"
#: ``{name}`` or ``{name:format}`` in a template.
PLACEHOLDER: Final = re.compile(r"\{(\w+)(?::(\w+))?\}")


@cache
def templates(lang: str) -> dict[str, Any]:
    """The JSON object ``errors-<lang>.js`` exports: ``reasons``, ``values``, ``formats``."""
    if not re.fullmatch(r"[a-z]{2}(-[a-zA-Z]{2})?", lang):
        raise ValueError(f"no language {lang!r}")
    text = (LANG_DIR / f"errors-{lang}.js").read_text(encoding="utf-8")
    start = text.index("= {") + 2
    end = text.rindex("};") + 1
    loaded: dict[str, Any] = json.loads(text[start:end])
    return loaded


def say(code: str, params: dict[str, Any], lang: str = "en") -> str:
    """Refusal ``code`` with ``params`` in ``lang``, as the screens render it."""
    words = templates(lang)
    template = words["reasons"][code]
    if isinstance(template, dict):
        value = params[template["count"]]
        n = len(value) if isinstance(value, list) else value
        template = template["one"] if n == 1 else template["other"]

    def one(match: re.Match[str]) -> str:
        name, fmt = match.group(1), match.group(2)
        value = params[name]
        named = words["values"].get(name, {})
        if isinstance(value, list):
            items = [f"{x:,}" if isinstance(x, int) else str(x) for x in value]
            if fmt != "seats":
                return ", ".join(items)
            listed = items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
            noun = words["formats"]["seats"]["one" if len(items) == 1 else "other"]
            return str(noun).replace("{list}", listed)
        key = json.dumps(value).strip('"')
        if key in named:
            return str(named[key])
        if value is None:
            return "–"
        if isinstance(value, float) and value.is_integer():
            # As the screens' locale formatting writes it: 99, not 99.0.
            value = int(value)
        return f"{value:,}" if isinstance(value, int | float) else str(value)

    return PLACEHOLDER.sub(one, str(template))
