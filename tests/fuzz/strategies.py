"""Hypothesis strategies for hostile input to the floor server.

Valid values are built from the msgspec types the server itself decodes (``msgspec.inspect``,
the same source as ``GET /api/schema``), so the fuzz follows the protocol as it changes; then
``mutated`` breaks them: wrong types, numbers out of range or beyond 64 bits, NaN and
infinities, huge and odd unicode strings, deep nesting, unknown, missing and duplicated keys,
unknown command types. ``encode`` writes the JSON, including what ``json.dumps`` cannot say
(duplicated keys, raw fragments).
"""

from __future__ import annotations

import copy
import json
import math
import os
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import msgspec.inspect as mi
from hypothesis import strategies as st


def scaled(examples: int) -> int:
    """``FLOOR_FUZZ_SCALE=10`` runs ten times the examples (a long run before a release)."""
    return max(1, round(examples * float(os.environ.get("FLOOR_FUZZ_SCALE", "1") or 1)))


def url_quote(text: str, safe: str = "") -> str:
    """Percent-encoded UTF-8, lone surrogates included (as a hostile client sends them)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe=safe)


# Encoding -----------------------------------------------------------------------------------


class Raw:
    """A JSON fragment written as is (deep nesting, broken literals)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __repr__(self) -> str:
        shown = self.data if len(self.data) <= 60 else self.data[:57] + b"..."
        return f"Raw({shown!r}, {len(self.data)} bytes)"


class Dup:
    """A JSON object written from its pairs, so that a key may come twice."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs

    def __repr__(self) -> str:
        return f"Dup({self.pairs!r})"


def encode(value: Any) -> bytes:
    """JSON text for ``value``; NaN and infinities come out as the (invalid) bare words."""
    out: list[bytes] = []
    _encode(value, out)
    return b"".join(out)


def _encode(value: Any, out: list[bytes]) -> None:
    if isinstance(value, Raw):
        out.append(value.data)
    elif isinstance(value, dict | Dup):
        pairs = value.pairs if isinstance(value, Dup) else list(value.items())
        out.append(b"{")
        for i, (k, v) in enumerate(pairs):
            if i:
                out.append(b",")
            out.append(json.dumps(k).encode())
            out.append(b":")
            _encode(v, out)
        out.append(b"}")
    elif isinstance(value, list | tuple):
        out.append(b"[")
        for i, v in enumerate(value):
            if i:
                out.append(b",")
            _encode(v, out)
        out.append(b"]")
    else:
        # ensure_ascii: a lone surrogate becomes the escape "\ud800", as a hostile client sends.
        out.append(json.dumps(value).encode())


# Plain hostile values ---------------------------------------------------------------------

#: Numbers at and beyond every boundary a field could have (64-bit, JavaScript, zero).
EDGE_NUMBERS: tuple[Any, ...] = (
    0,
    -1,
    1,
    2,
    12,
    13,
    100_000,
    100_001,
    2**31,
    2**53,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**63),
    -(2**63) - 1,
    10**30,
    -(10**30),
    0.5,
    -0.0,
    1.0,
    1e308,
    -1e308,
    5e-324,
    math.nan,
    math.inf,
    -math.inf,
)

#: Strings a parser or a key builder might trip on.
EDGE_STRINGS: tuple[str, ...] = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "\udfff",
    "\u202e",
    "\ufeff",
    "é",
    "👾" * 3,
    "../../etc/passwd",
    "/dev/zero",
    "a/b",
    "%00",
    "{id}",
    "*",
    "-1",
    "1e9",
    "NaN",
    "null",
    "true",
    "<script>",
    "=cmd|' /C calc'!A0",
    "DROP TABLE",
    "\r\nX-Injected: 1",
    # Names and ids that print as nothing or hide a mark (issue 15).
    "\u2800",
    "\u3164",
    "A\U000e0041",
    "\u061cJan",
    "Jan\u180e",
    "Jan\u200d",
)

#: Characters a name or an id may not show as it is (issue 15): blank letters and symbols,
#: format characters (tags, bidi marks, zero-width ones, the joiners where they join
#: nothing), combining marks with nothing to mark, private use, unassigned.
INVISIBLE: tuple[str, ...] = (
    "\u2800",  # braille blank
    "\u3164",  # Hangul filler
    "\u115f",
    "\u1160",
    "\uffa0",
    "\U0001d159",  # musical null notehead
    "\u3000",  # ideographic space
    "\u00a0",
    "\u061c",  # Arabic letter mark
    "\u180e",  # Mongolian vowel separator
    "\u200b",
    "\u200c",
    "\u200d",
    "\u200e",
    "\u2060",
    "\u2064",
    "\u00ad",
    "\ufeff",
    "\u202e",
    "\u2066",
    "\U000e0001",
    "\U000e0041",  # tag latin capital A
    "\U000e007f",
    "\u0301",  # a combining mark
    "\ufe0f",  # a variation selector
    "\ue000",  # private use
    "\u0378",  # unassigned
)

_invisible_runs = st.text(alphabet=st.sampled_from(INVISIBLE), min_size=1, max_size=6)

#: Names and ids made of those characters, alone or around visible letters.
invisible_names: st.SearchStrategy[str] = st.one_of(
    _invisible_runs,
    st.builds(
        lambda before, hidden, after: before + hidden + after,
        st.sampled_from(["", "Jan", "A1", "👩"]),
        _invisible_runs,
        st.sampled_from(["", "Novák", "7", " ", "👦"]),
    ),
)

json_scalars: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(EDGE_NUMBERS),
    st.floats(),
    st.text(max_size=20),
    st.sampled_from(EDGE_STRINGS),
)

json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.text(max_size=10), st.sampled_from(EDGE_STRINGS)), inner, max_size=4
        ),
    ),
    max_leaves=12,
)


def _repeat(chars: st.SearchStrategy[str], low: int, high: int) -> st.SearchStrategy[str]:
    return st.builds(lambda c, n: c * n, chars, st.integers(low, high))


#: Long strings: past every field's limit, and past the body limit (64 KiB) now and then.
huge_strings: st.SearchStrategy[str] = st.one_of(
    _repeat(st.sampled_from(["a", "é", "👾", "\x00", "\\", '"']), 65, 5_000),
    _repeat(st.just("x"), 60_000, 70_000),
)


def deep(depth: int, opener: bytes = b"[") -> Raw:
    closer = b"]" if opener == b"[" else b"}"
    if opener == b"{":
        return Raw(b'{"a":' * depth + b"1" + closer * depth)
    return Raw(opener * depth + closer * depth)


nested: st.SearchStrategy[Raw] = st.builds(
    deep, st.one_of(st.integers(2, 400), st.integers(1_500, 3_000)), st.sampled_from([b"[", b"{"])
)

#: Anything a hostile client may put where a value is expected.
hostile_values: st.SearchStrategy[Any] = st.one_of(
    json_values,
    st.sampled_from(EDGE_NUMBERS),
    st.sampled_from(EDGE_STRINGS),
    huge_strings,
    nested,
    st.sampled_from(
        [
            Raw(b"NaN"),
            Raw(b"-Infinity"),
            Raw(b"01"),
            Raw(b"1."),
            Raw(b"+1"),
            Raw(b"0x10"),
            Raw(b"1e99999"),
            Raw(b'"\\u12"'),
            Raw(b"'single'"),
            Raw(b"undefined"),
            Raw(b""),
        ]
    ),
)

#: Bodies that are not one JSON object: bytes, broken JSON, other JSON values.
raw_bodies: st.SearchStrategy[bytes] = st.one_of(
    st.binary(max_size=200),
    st.builds(encode, json_values),
    st.builds(lambda v: encode(v)[: max(0, len(encode(v)) - 1)], json_values),  # truncated
    st.sampled_from(
        [
            b"",
            b"{",
            b"}",
            b"[]",
            b"null",
            b"{}",
            b'{"":""}',
            b"\xff\xfe{\x00}",
            b"\xef\xbb\xbf{}",  # a BOM
            b'{"a":1}garbage',
            b'{"a":1}{"b":2}',
            b"  \n\t ",
            b'"\\ud800"',
        ]
    ),
    st.builds(lambda r: r.data, nested),
)


# Valid values from msgspec types ------------------------------------------------------------

#: Picks the strategy for a field by its name (``player``, ``table``...), or None.
Refs = Callable[[str], st.SearchStrategy[Any] | None]


def no_refs(name: str) -> st.SearchStrategy[Any] | None:
    return None


def from_type(t: Any, refs: Refs = no_refs, name: str = "") -> st.SearchStrategy[Any]:
    """JSON-ready values that decode as ``t`` (bounds and literals respected; ``__post_init__``
    checks are not known here, so some are still refused)."""
    if not isinstance(t, mi.Type):
        t = mi.type_info(t)
    custom = refs(name) if name else None
    if custom is not None:
        return custom
    if isinstance(t, mi.Metadata):
        return from_type(t.type, refs, name)
    if isinstance(t, mi.NoneType):
        return st.none()
    if isinstance(t, mi.BoolType):
        return st.booleans()
    if isinstance(t, mi.IntType):
        low = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else -1_000)
        high = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else low + 100_000)
        return st.integers(low, high)
    if isinstance(t, mi.FloatType):
        return st.floats(
            min_value=t.ge if t.ge is not None else t.gt,
            max_value=t.le if t.le is not None else t.lt,
            exclude_min=t.gt is not None,
            exclude_max=t.lt is not None,
            allow_nan=False,
            allow_infinity=False,
        )
    if isinstance(t, mi.StrType):
        if t.pattern is not None:
            return st.from_regex(t.pattern, fullmatch=True)
        low = t.min_length or 0
        return st.text(min_size=low, max_size=min(t.max_length or 12, max(low, 12)))
    if isinstance(t, mi.LiteralType):
        return st.sampled_from(t.values)
    if isinstance(t, mi.UnionType):
        return st.one_of([from_type(x, refs, name) for x in t.types])
    if isinstance(t, mi.VarTupleType | mi.ListType | mi.SetType | mi.FrozenSetType):
        low = t.min_length or 0
        high = min(t.max_length if t.max_length is not None else 4, max(low, 4))
        return st.lists(from_type(t.item_type, refs, name), min_size=low, max_size=high)
    if isinstance(t, mi.TupleType):
        return st.tuples(*(from_type(x, refs, name) for x in t.item_types)).map(list)
    if isinstance(t, mi.DictType):
        keys = from_type(t.key_type, refs, name).map(str)
        return st.dictionaries(keys, from_type(t.value_type, refs, name), max_size=3)
    if isinstance(t, mi.StructType):
        return _struct(t, refs)
    if isinstance(t, mi.AnyType):
        return json_values
    raise NotImplementedError(f"no strategy for {t!r}")


def _struct(t: mi.StructType, refs: Refs) -> st.SearchStrategy[dict[str, Any]]:
    required = {f.encode_name: from_type(f.type, refs, f.name) for f in t.fields if f.required}
    optional = {f.encode_name: from_type(f.type, refs, f.name) for f in t.fields if not f.required}
    base = st.fixed_dictionaries(required, optional=optional)
    if t.tag_field is not None:
        tag_field, tag = t.tag_field, t.tag
        return base.map(lambda d: {tag_field: tag, **d})
    return base


# Mutations ----------------------------------------------------------------------------------

_MUTATIONS = ("replace", "drop", "add", "duplicate", "nest", "retag")


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node's path (dict keys and list indexes), the root first."""
    found = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, (*path, i))
    return found


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def _copy(value: Any) -> Any:
    return copy.deepcopy(value)


@st.composite
def mutated(draw: st.DrawFn, valid: st.SearchStrategy[Any], tags: tuple[str, ...] = ()) -> Any:
    """A value of ``valid`` broken in one to three places."""
    value = _copy(draw(valid))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(value)))
        node = _get(value, path)
        how = draw(st.sampled_from(_MUTATIONS))
        if isinstance(node, Raw | Dup):
            how = "replace"
        if how == "replace" or (
            how in ("add", "duplicate", "retag") and not isinstance(node, dict)
        ):
            value = _set(value, path, draw(hostile_values))
        elif how == "drop":
            parent = _get(value, path[:-1]) if path else None
            if isinstance(parent, dict):
                del parent[path[-1]]
            elif isinstance(parent, list):
                parent.pop(path[-1])
            else:
                value = draw(hostile_values)
        elif how == "add":
            key = draw(
                st.one_of(
                    st.text(max_size=12),
                    st.sampled_from(["type", "id", "__proto__", "constructor", ""]),
                )
            )
            node[key] = draw(hostile_values)
        elif how == "duplicate":
            if not node:
                node["type"] = draw(hostile_values)
                continue
            key = draw(st.sampled_from(sorted(node)))
            pairs = list(node.items())
            extra = (key, draw(hostile_values))
            pairs.insert(draw(st.integers(0, len(pairs))), extra)
            value = _set(value, path, Dup(pairs))
        elif how == "nest":
            # Shallow, or well past msgspec's limit (about 1,000 levels less the caller's
            # stack): in between, whether it decodes depends on who decodes it.
            depth = draw(st.one_of(st.integers(1, 400), st.integers(1_500, 2_500)))
            value = _set(value, path, Raw(b"[" * depth + encode(node) + b"]" * depth))
        else:  # retag: an unknown, misspelt or other command type
            tag = draw(st.sampled_from(tags or ("bust",)))
            node["type"] = draw(
                st.one_of(
                    st.text(max_size=15),
                    st.sampled_from(EDGE_STRINGS),
                    st.sampled_from([tag, tag.upper(), f" {tag}", f"{tag}\x00", tag + "s"]),
                    hostile_values,
                )
            )
    return value
