"""Turning msgspec's validation messages into ``key: problem`` that a person can act on.

msgspec says ``Expected `int` >= 2 - at `$.seats` ``; ``__post_init__`` checks say
``levels[2].color_up: 5 is not in play then``. Config files, scenarios and HTTP bodies all
report a bad value the same way: the key path, the problem, and the value found there.
"""

from __future__ import annotations

import re
from typing import Any, Final

import msgspec

#: msgspec ends a validation message with the path of the bad value: "... - at `$.a[1].b`".
_AT = re.compile(r"(?P<problem>.*) - at `\$(?P<path>[^`]*)`", re.DOTALL)
#: A ``__post_init__`` message that starts with the key it is about: "levels[2].color_up: ..."
#: or "break_fill cannot exceed seats".
_LEADING_KEY = re.compile(
    r"(?P<key>(?P<first>[a-z_]+)(?:\[\d+\])*(?:\.[a-z_]+(?:\[\d+\])*)*)(?::\s*|\s+)(?P<rest>.+)",
    re.DOTALL,
)
_PATH_PART = re.compile(r"[^.\[\]]+|\[(\d+)\]")
_NOT_FOUND: Final = object()


def field_names(*types: type[msgspec.Struct]) -> frozenset[str]:
    return frozenset(name for t in types for name in t.__struct_fields__)


def explain(message: str, raw: Any, keys: frozenset[str]) -> tuple[str, str]:
    """The key path and the problem in a msgspec ``ValidationError`` message.

    ``raw`` is the document as plain data, to quote the value found at the key.
    """
    at = _AT.fullmatch(message)
    problem, key = (at["problem"], at["path"].lstrip(".")) if at else (message, "")
    lead = _LEADING_KEY.fullmatch(problem)
    if lead and lead["first"] in keys:
        key = f"{key}.{lead['key']}" if key else lead["key"]
        problem = lead["rest"]
    if problem.startswith("Expected"):
        problem = problem.replace("`", "")
        value = _value_at(raw, key)
        if ", got " not in problem and value is not _NOT_FOUND:
            problem += f", got {_quote(value)}"
    return key, problem


def _value_at(raw: Any, key: str) -> Any:
    node = raw
    for part in _PATH_PART.finditer(key):
        index = part.group(1)
        if index is not None and isinstance(node, list) and int(index) < len(node):
            node = node[int(index)]
        elif index is None and isinstance(node, dict) and part.group(0) in node:
            node = node[part.group(0)]
        else:
            return _NOT_FOUND
    return node


def _quote(value: Any, limit: int = 60) -> str:
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= limit else text[: limit - 3] + "..."
