"""The screens' protocol types (web/js/protocol.d.ts) are what the server's schema says now."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from floor.protocol import PROTOCOL_VERSION
from floor.server.websocket import Hello

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "protocol_types", ROOT / "scripts" / "protocol_types.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_protocol_types_are_what_the_schema_writes_now() -> None:
    script = _script()
    committed = (ROOT / "web" / "js" / "protocol.d.ts").read_text(encoding="utf-8")
    assert committed == script.render(), "web/js/protocol.d.ts is stale: run the script"


def test_the_types_name_the_servers_protocol_version() -> None:
    text = (ROOT / "web" / "js" / "protocol.d.ts").read_text(encoding="utf-8")
    assert f"export type ProtocolVersion = {PROTOCOL_VERSION};" in text


def test_hello_must_carry_the_version() -> None:
    hello = msgspec.json.decode(
        b'{"type": "hello", "tournament": "t", "server_time": 1, "role": "public", "version": 7}',
        type=Hello,
    )
    assert hello.version == 7
    with pytest.raises(msgspec.ValidationError, match="version"):
        msgspec.json.decode(
            b'{"type": "hello", "tournament": "t", "server_time": 1, "role": "public"}',
            type=Hello,
        )


def test_a_written_type_may_leave_out_a_field_with_a_default_and_a_read_one_may_not() -> None:
    script = _script()
    defs = {
        "Sent": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "string", "default": "x"}},
            "required": ["a"],
        },
    }
    written = script.Writer(defs, {"Sent"}, set()).declaration("Sent")
    read = script.Writer(defs, set(), set()).declaration("Sent")
    omitted = script.Writer(defs, set(), {"Sent"}).declaration("Sent")
    assert "b?: string;" in written
    assert "b: string;" in read
    assert "b?: string;" in omitted and "a: number;" in omitted


def test_the_structs_that_leave_their_defaults_out_are_found_in_the_servers_types() -> None:
    """A board line and a patch's op are sent without their defaults (``omit_defaults``): a
    screen reading ``line.from`` of a sit-out must be told it may be absent."""
    from floor.server.routes_health import SCHEMA_TYPES

    found = _script().omitting(SCHEMA_TYPES)
    assert {"BoardEntry", "PatchOp"} <= found
    text = (ROOT / "web" / "js" / "protocol.d.ts").read_text(encoding="utf-8")
    assert "  from?: Spot | null;" in text
    assert "  value?: unknown;" in text


def test_a_value_of_any_type_is_unknown() -> None:
    script = _script()
    assert script.Writer({}, set(), set()).ts({"default": None}) == "unknown"
    with pytest.raises(ValueError, match="does not know"):
        script.Writer({}, set(), set()).ts({"not": {}})


def test_a_follow_messages_parts_are_typed_from_the_server() -> None:
    text = (ROOT / "web" / "js" / "protocol.d.ts").read_text(encoding="utf-8")
    for part in ("FollowStatic", "FollowRoom", "FollowMe"):
        assert f"export interface {part} {{" in text
