"""A structure as a TOML file, in the layout of the shipped ones (``config/structures``).

What the console's structure editor saves: read back by ``floor.config`` like any shipped
file (a test holds the two together), so a structure made in the console can be kept with
the house's files, given to ``floor`` on the command line, or loaded into the editor again.
Values are written by msgspec's own types: strings quoted as TOML quotes them (JSON's string
escapes are TOML's basic strings), numbers as numbers.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from ..engine.rules import Break, Structure


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"no TOML value for {v!r}")


def _table(values: dict[str, Any]) -> list[str]:
    return [f"{k} = {_value(v)}" for k, v in values.items() if not isinstance(v, dict)]


def toml(structure: Structure) -> str:
    data = msgspec.to_builtins(structure)
    prize = data.pop("prize", None)
    levels = data.pop("levels")
    lines = [f"# {structure.name}: written by the floor console's structure editor.", ""]
    lines += _table({k: v for k, v in data.items() if v is not None})
    number = 0
    for step, raw in zip(structure.levels, levels, strict=True):
        lines.append("")
        if isinstance(step, Break):
            lines.append(f"[[levels]]  # break after level {number}")
        else:
            number += 1
            lines.append(f"[[levels]]  # level {number}")
        lines += _table({k: v for k, v in raw.items() if v is not None})
    if prize is not None:
        payouts = prize.pop("payouts")
        lines += ["", "[prize]", *_table({k: v for k, v in prize.items() if v is not None})]
        for key in ("rebuy", "add_on", "re_entry"):
            part = prize.get(key)
            if part is not None:
                lines += [
                    "",
                    f"[prize.{key}]",
                    *_table({k: v for k, v in part.items() if v is not None}),
                ]
        for row in payouts:
            lines += ["", "[[prize.payouts]]", *_table(row)]
    return "\n".join(lines) + "\n"
