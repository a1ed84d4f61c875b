"""Write the screens' protocol types, ``web/js/protocol.d.ts``, from the server's JSON Schema.

The schema is the one ``/api/schema`` serves (``floor.server.routes_health.api_schema``, built
by msgspec from the Structs), so the screens' types cannot drift from the server's messages:
``tests/unit/test_protocol_types.py`` fails when the committed file is not what this script
writes now. Run it after changing a message, an event, a command or the state:

    .venv/bin/python scripts/protocol_types.py          # rewrite web/js/protocol.d.ts
    .venv/bin/python scripts/protocol_types.py --check  # exit 1 when it is stale

What the server sends has every field, but where a Struct omits its defaults (``omit_defaults``:
a board line, a patch's op; and the packed snapshot's players, which ``unpack`` makes whole):
every other field is required in the types of what screens read. What screens write (commands,
client messages) may leave a field with a default out: there it is optional. A type both read
and written is typed as written.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "web" / "js" / "protocol.d.ts"

Schema = dict[str, Any]


def type_name(ref_or_name: str) -> str:
    """A $defs name as a TypeScript identifier: msgspec qualifies clashing names with their
    module (``floor.engine.prize.AddOn``), which becomes ``PrizeAddOn``."""
    name = ref_or_name.rsplit("/", 1)[-1]
    if "." not in name:
        return name
    parts = name.split(".")
    return parts[-2].capitalize() + parts[-1]


def _refs(node: object) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.add(ref.rsplit("/", 1)[-1])
        for value in node.values():
            found |= _refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value)
    return found


def _reachable(roots: list[object], defs: dict[str, Schema]) -> set[str]:
    seen: set[str] = set()
    todo = [name for root in roots for name in _refs(root)]
    while todo:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        todo.extend(_refs(defs[name]))
    return seen


# Keys of a schema that describe a value without constraining it.
_ANNOTATIONS = frozenset({"default", "title", "description", "examples"})


def _literal(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name) else _literal(name)


def _comment(text: str, indent: str) -> list[str]:
    lines = [line.rstrip() for line in text.strip().splitlines()]
    body = [f"{indent} * {line}".rstrip() for line in lines]
    return [f"{indent}/**", *body, f"{indent} */"]


def omitting(roots: tuple[Any, ...]) -> set[str]:
    """The $defs names of the Structs under ``roots`` that leave their defaults out on the
    wire: msgspec's schema does not say so, the Structs' config does."""
    import msgspec

    found: set[str] = set()
    seen: set[int] = set()

    def walk(node: object) -> None:
        if isinstance(node, (list, tuple)):
            for item in node:
                walk(item)
            return
        if isinstance(node, msgspec.inspect.Field):
            walk(node.type)
            return
        if not isinstance(node, msgspec.inspect.Type) or id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, msgspec.inspect.StructType):
            cls = node.cls
            if cls.__struct_config__.omit_defaults:
                found.update({cls.__name__, f"{cls.__module__}.{cls.__qualname__}"})
        for name in node.__struct_fields__:
            walk(getattr(node, name))

    for info in msgspec.inspect.multi_type_info(roots):
        walk(info)
    return found


class Writer:
    def __init__(self, defs: dict[str, Schema], written: set[str], omit: set[str]) -> None:
        self.defs = defs
        self.written = written
        self.omit = omit

    def ts(self, node: Schema, indent: str = "") -> str:
        if "$ref" in node:
            return type_name(node["$ref"])
        if "anyOf" in node:
            return self._union([self.ts(option, indent) for option in node["anyOf"]])
        if "enum" in node:
            return self._union([_literal(value) for value in node["enum"]])
        if "const" in node:
            return _literal(node["const"])
        kind = node.get("type")
        if isinstance(kind, list):
            return self._union([self.ts({**node, "type": one}, indent) for one in kind])
        if kind in ("integer", "number"):
            return "number"
        if kind == "string":
            return "string"
        if kind == "boolean":
            return "boolean"
        if kind == "null":
            return "null"
        if kind == "array":
            return self._array(node, indent)
        if kind == "object" or "properties" in node:
            return self._object(node, indent)
        if not node.keys() - _ANNOTATIONS:
            return "unknown"  # Any: a schema that says nothing of the value (a patch's value)
        raise ValueError(f"a schema this script does not know: {node}")

    @staticmethod
    def _union(options: list[str]) -> str:
        unique = list(dict.fromkeys(options))
        return " | ".join(unique)

    def _array(self, node: Schema, indent: str) -> str:
        if "prefixItems" in node:
            items = [self.ts(item, indent) for item in node["prefixItems"]]
            rest = node.get("items")
            if isinstance(rest, dict):
                items.append(f"...{self._wrap(self.ts(rest, indent))}[]")
            return f"[{', '.join(items)}]"
        items_node = node.get("items")
        item = self.ts(items_node, indent) if isinstance(items_node, dict) else "unknown"
        return f"{self._wrap(item)}[]"

    @staticmethod
    def _wrap(text: str) -> str:
        return f"({text})" if " " in text and not text.startswith("{") else text

    def _object(self, node: Schema, indent: str, optional_defaults: bool = False) -> str:
        properties: dict[str, Schema] = node.get("properties", {})
        extra = node.get("additionalProperties")
        if not properties:
            value = self.ts(extra, indent) if isinstance(extra, dict) else "unknown"
            names = node.get("propertyNames")
            if isinstance(names, dict):
                return f"Partial<Record<{self.ts(names, indent)}, {value}>>"
            return f"{{ [key: string]: {value} }}"
        return self._fields(properties, node.get("required", []), indent, optional_defaults)

    def _fields(
        self, properties: dict[str, Schema], required: list[str], indent: str, optional: bool
    ) -> str:
        inner = indent + "  "
        lines = ["{"]
        for name, field in properties.items():
            # The server writes every field (none of its Structs omits a default), those
            # with a default factory too (the schema says no default for them).
            needed = name in required or not optional
            mark = "" if needed else "?"
            lines.append(f"{inner}{_key(name)}{mark}: {self.ts(field, inner)};")
        lines.append(f"{indent}}}")
        return "\n".join(lines)

    def declaration(self, name: str) -> str:
        node = self.defs[name]
        lines: list[str] = []
        if node.get("description"):
            lines += _comment(node["description"], "")
        ident = type_name(name)
        if "properties" in node:
            optional = name in self.written or name in self.omit
            body = self._object(node, "", optional_defaults=optional)
            lines.append(f"export interface {ident} {body}")
        else:
            lines.append(f"export type {ident} = {self.ts(node)};")
        return "\n".join(lines)


HEADER = """\
// The protocol's types, as the server's schema (/api/schema) says them: generated by
// scripts/protocol_types.py from floor.server.routes_health.api_schema. Do not edit: change
// the Structs and run the script again (a unit test fails while this file is stale).
//
// The version the server sends in `hello`: a screen built for another one reloads itself
// (web/js/version.js holds the screens' own, which tsc holds equal to this one).
"""


def render() -> str:
    sys.path.insert(0, str(ROOT))
    from floor.protocol import PROTOCOL_VERSION
    from floor.server.routes_health import SCHEMA_TYPES, api_schema

    schema = api_schema()
    defs: dict[str, Schema] = schema["$defs"]  # type: ignore[assignment]
    requests: dict[str, Schema] = schema["requests"]  # type: ignore[assignment]
    websocket: dict[str, Schema] = schema["websocket"]  # type: ignore[assignment]
    written = _reachable([*requests.values(), websocket["client_to_server"]], defs)
    writer = Writer(defs, written, omitting(SCHEMA_TYPES))
    out = [HEADER, f"export type ProtocolVersion = {PROTOCOL_VERSION};", ""]
    aliases = {
        "ServerMessage": websocket["server_to_client"],
        "ClientMessage": websocket["client_to_server"],
        "Command": requests["command"],
        "Event": defs["Sequenced"]["properties"]["event"],
    }
    for alias, node in aliases.items():
        options = writer.ts(node).split(" | ")
        out += [f"export type {alias} =", *(f"  | {option}" for option in options), ""]
        out[-2] += ";"
    for name in sorted(defs, key=type_name):
        out += [writer.declaration(name), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv[1:] == ["--check"]:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is stale: run scripts/protocol_types.py")
            return 1
        return 0
    if argv[1:]:
        print("usage: protocol_types.py [--check]", file=sys.stderr)
        return 2
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
