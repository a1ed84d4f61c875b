"""What a batch changed in the state, as a JSON Patch (RFC 6902) a screen applies as it is.

A screen holds a role's view of the state (its snapshot) and applies each batch's patch to it:
``add`` (set an object's member, whole; append to an array with the ``-`` index) and
``remove`` (an object's member). No screen folds an event: the server says what changed.

What changed is found two ways. The keyed records (``players``, ``tables``, ``draws``,
``calls``, ``bags``) are named by the events' classification (``touches``): each touched
record is sent whole, as it stands after the batch. The rest of the state is compared with
``Marks`` taken before the batch: the counts and small structs are sent when they differ, the
append-only histories (the field, the levels, the chip races, the rulings made) with the
items added. ``tests/unit/test_patches.py`` holds it: a snapshot and the patches of every batch
after it make the state, for every role, over tournaments with every event type.

Each op is encoded once for every screen of a role: ``build`` gives the staff's ops and the
public's (``public``: a player's special needs, seat lock and note are the floor's, the draws
are not shown, the rulings' notes neither: ``views.public_state``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Literal

import msgspec

from .ruling_log import RulingLog
from .state import Player, Tournament, TournamentState
from .touches import Touched

OpKind = Literal["add", "remove"]


class Op(msgspec.Struct, frozen=True, omit_defaults=True):
    """One JSON Patch operation; ``value`` is already JSON."""

    op: OpKind
    path: str
    value: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET


#: Fields compared by identity: frozen values the fold replaces, never changes in place.
_FROZEN: Final = ("rules", "structure", "flight", "day_ended", "name", "id", "created_at")
#: Plain values compared by value.
_SCALARS: Final = (
    "final_table",
    "final_seats",
    "final_drawn",
    "current_game",
    "drawn",
    "busted",
    "entries",
    "rebuys",
    "add_ons",
    "chips_added",
    "unregistered",
    "renamed",
    "winner",
    "finished_at",
    "closed_at",
)
#: Small mutable parts, compared by their encoding.
_ENCODED: Final = ("clock", "time_calls", "hand_for_hand")
#: Lists the fold only appends to.
_APPENDED: Final = ("field_history", "level_history", "chip_races")

_encode = msgspec.json.Encoder().encode


class Marks(msgspec.Struct, frozen=True):
    """What ``build`` compares with: the state's parts outside its keyed records, before."""

    frozen: tuple[object, ...]
    scalars: tuple[object, ...]
    encoded: tuple[bytes, ...]
    lengths: tuple[int, ...]
    #: The rulings: how many were made, and the sit-outs and disqualified as they were.
    rulings_made: int
    rulings_rest: bytes


def marks(s: TournamentState) -> Marks:
    return Marks(
        frozen=tuple(getattr(s, f) for f in _FROZEN),
        scalars=tuple(getattr(s, f) for f in _SCALARS),
        encoded=tuple(_encode(getattr(s, f)) for f in _ENCODED),
        lengths=tuple(len(getattr(s, f)) for f in _APPENDED),
        rulings_made=len(s.rulings.made),
        rulings_rest=_rulings_rest(s.rulings),
    )


def _rulings_rest(log: RulingLog) -> bytes:
    return _encode((log.sit_outs, log.disqualified))


def pointer(*parts: object) -> str:
    """A JSON Pointer (RFC 6901) to ``parts``: ``~`` and ``/`` in a key escaped."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Patches(msgspec.Struct, frozen=True):
    """A batch's ops for the staff and for the public, each a JSON array, encoded."""

    staff: bytes
    public: bytes


def build(t: Tournament, before: Marks, touched: Touched) -> Patches:
    """The ops that turn the state as ``before`` marked it into ``t``'s, for each role."""
    s = t.state
    staff: list[Op] = []
    public: list[Op] = []

    def both(op: Op, shown: Op | None = None) -> None:
        staff.append(op)
        public.append(op if shown is None else shown)

    for pid in sorted(_players(s, touched)):
        path = pointer("players", pid)
        p = s.players.get(pid)
        if p is None:
            both(Op("remove", path))
            continue
        value = msgspec.Raw(_encode(p))
        hidden = public_player(p)
        both(
            Op("add", path, value),
            None if hidden is p else Op("add", path, msgspec.Raw(_encode(hidden))),
        )
    for n in sorted(s.tables if touched.all_tables else touched.tables & s.tables.keys()):
        both(Op("add", pointer("tables", n), msgspec.Raw(_encode(s.tables[n]))))
    if touched.draws or touched.all_draws:
        staff.append(Op("add", pointer("draws"), msgspec.Raw(_encode(s.draws))))
    if touched.calls:
        both(Op("add", pointer("calls"), msgspec.Raw(_encode(s.calls))))
    for n in sorted(touched.bags & s.bags.keys()):
        both(Op("add", pointer("bags", n), msgspec.Raw(_encode(s.bags[n]))))

    now = marks(s)
    for name, old, new in zip(_FROZEN, before.frozen, now.frozen, strict=True):
        if old is not new:
            both(Op("add", pointer(name), msgspec.Raw(_encode(new))))
    for name, old, new in zip(_SCALARS, before.scalars, now.scalars, strict=True):
        if old != new:
            both(Op("add", pointer(name), msgspec.Raw(_encode(new))))
    for name, old_b, new_b in zip(_ENCODED, before.encoded, now.encoded, strict=True):
        if old_b != new_b:
            both(Op("add", pointer(name), msgspec.Raw(new_b)))
    for name, old_n in zip(_APPENDED, before.lengths, strict=True):
        items: list[Any] = getattr(s, name)
        for item in items[old_n:]:
            both(Op("add", pointer(name, "-"), msgspec.Raw(_encode(item))))
    log = s.rulings
    made = log.made[before.rulings_made :]
    for r in made:
        path = pointer("rulings", "made", "-")
        shown = r if r.note is None else msgspec.structs.replace(r, note=None)
        both(Op("add", path, msgspec.Raw(_encode(r))), Op("add", path, msgspec.Raw(_encode(shown))))
    if now.rulings_rest != before.rulings_rest:
        both(Op("add", pointer("rulings", "sit_outs"), msgspec.Raw(_encode(log.sit_outs))))
        both(Op("add", pointer("rulings", "disqualified"), msgspec.Raw(_encode(log.disqualified))))
    return Patches(staff=_encode(staff), public=_encode(public))


def _players(s: TournamentState, touched: Touched) -> set[str]:
    out = set(touched.players)
    if touched.all_busted:
        out.update(pid for pid, p in s.players.items() if p.busted)
    for n in touched.seated_at:
        table = s.tables.get(n)
        if table is not None:
            out.update(table.occupants.values())
    return out


def public_player(p: Player) -> Player:
    """The player as the room is shown them: no special needs, seat lock or note."""
    if not (p.special_needs or p.locked or p.note is not None):
        return p
    return msgspec.structs.replace(p, special_needs=False, locked=False, note=None)


# Applying (what a screen does; the tests do it the same way) -------------------------------


def apply(doc: dict[str, Any], ops: Iterable[dict[str, Any]]) -> None:
    """Apply decoded JSON Patch ``add``/``remove`` ops to ``doc`` in place."""
    for op in ops:
        *parents, last = [_unescape(p) for p in op["path"].split("/")[1:]]
        target: Any = doc
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if op["op"] == "add":
            if isinstance(target, list):
                if last == "-":
                    target.append(op["value"])
                else:
                    target.insert(int(last), op["value"])
            else:
                target[last] = op["value"]
        elif isinstance(target, list):
            del target[int(last)]
        else:
            target.pop(last, None)


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")
