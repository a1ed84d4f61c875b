"""Which fields only the staff are shown, read off the declarations (``model.STAFF``).

Every record of the state and every event is walked once: a field annotated with ``STAFF``
is the staff's. The public is shown it at its default: a flag False, a text None
(``public``); ``floor.server.redact`` clears the same names in the messages it passes on.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar, get_args

import msgspec
import msgspec.inspect as mi

from ..events import Event
from ..state import TournamentState

S = TypeVar("S", bound=msgspec.Struct)


_flags: set[str] = set()
_texts: set[str] = set()


def _staff(t: mi.Type) -> bool:
    return isinstance(t, mi.Metadata) and bool((t.extra or {}).get("staff"))


def _walk(t: mi.Type, seen: dict[type, tuple[str, ...]]) -> None:
    if isinstance(t, mi.Metadata):
        _walk(t.type, seen)
    elif isinstance(t, mi.StructType):
        if t.cls in seen:
            return
        seen[t.cls] = tuple(f.name for f in t.fields if _staff(f.type))
        for f in t.fields:
            if _staff(f.type):
                assert isinstance(f.type, mi.Metadata)
                (_flags if isinstance(f.type.type, mi.BoolType) else _texts).add(f.name)
        for f in t.fields:
            _walk(f.type, seen)
    elif isinstance(t, mi.UnionType):
        for member in t.types:
            _walk(member, seen)
    elif isinstance(t, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
        _walk(t.item_type, seen)
    elif isinstance(t, mi.TupleType):
        for item in t.item_types:
            _walk(item, seen)
    elif isinstance(t, mi.DictType):
        _walk(t.value_type, seen)


def _declared() -> dict[type, tuple[str, ...]]:
    seen: dict[type, tuple[str, ...]] = {}
    for root in (TournamentState, *get_args(Event)):
        _walk(mi.type_info(root), seen)
    return {cls: names for cls, names in seen.items() if names}


#: The staff's fields of each record or event that has any.
BY_TYPE: Final = _declared()
#: Their names, whatever record holds them: what a message is cleared of for the public,
#: the flags (shown False) and the texts (shown None).
FLAGS: Final = frozenset(_flags)
TEXTS: Final = frozenset(_texts)


def public(record: S) -> S:
    """``record`` as the public is shown it (itself when nothing of it is the staff's)."""
    names = BY_TYPE.get(type(record), ())
    cleared: dict[str, Any] = {}
    for name in names:
        value = getattr(record, name)
        default = False if isinstance(value, bool) else None
        if value != default:
            cleared[name] = default
    return msgspec.structs.replace(record, **cleared) if cleared else record
