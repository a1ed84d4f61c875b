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

from ..board import BoardLog
from ..ruling_log import RulingLog
from ..state import Tournament, TournamentState
from ..touches import Touched
from .staff_fields import public as publicly

OpKind = Literal["add", "remove"]


class Op(msgspec.Struct, frozen=True, omit_defaults=True):
    """One JSON Patch operation; ``value`` is already JSON."""

    op: OpKind
    path: str
    value: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET


#: The state's parts with ops of their own below; every other field of ``TournamentState`` is
#: compared whole (a field added to the state is patched without a word here).
_KEYED: Final = ("players", "tables", "draws", "calls", "bags")
#: Lists the fold only appends to.
_APPENDED: Final = ("field_history", "level_history", "chip_races")
_OWN: Final = frozenset((*_KEYED, *_APPENDED, "rulings", "board"))
_WHOLE: Final = tuple(f.name for f in msgspec.structs.fields(TournamentState) if f.name not in _OWN)
_PLAIN = (int, float, str, bool, type(None))

_encode = msgspec.json.Encoder().encode


class Marks(msgspec.Struct, frozen=True):
    """What ``build`` compares with: the state's parts outside its keyed records, before."""

    #: Each of ``_WHOLE``: a plain value or a frozen record as it is, anything else encoded.
    whole: tuple[object, ...]
    lengths: tuple[int, ...]
    #: The rulings: how many were made, and the sit-outs and disqualified as they were.
    rulings_made: int
    rulings_rest: bytes
    #: The board: its lines ever and kept, and its calls as they were.
    board_count: int
    board_len: int
    board_calls: bytes


def marks(s: TournamentState) -> Marks:
    return Marks(
        whole=tuple(_mark(getattr(s, f)) for f in _WHOLE),
        lengths=tuple(len(getattr(s, f)) for f in _APPENDED),
        rulings_made=len(s.rulings.made),
        rulings_rest=_rulings_rest(s.rulings),
        board_count=s.board.count,
        board_len=len(s.board.lines),
        board_calls=_encode(s.board.calls),
    )


def _mark(value: object) -> object:
    """What tells ``value`` changed: itself when plain or frozen (the fold replaces those,
    never changes them in place), else its encoding."""
    if isinstance(value, _PLAIN):
        return value
    config = getattr(type(value), "__struct_config__", None)
    if config is not None and config.frozen:
        return value
    return _encode(value)


def _rulings_rest(log: RulingLog) -> bytes:
    return _encode((log.sit_outs, log.disqualified))


def pointer(*parts: object) -> str:
    """A JSON Pointer (RFC 6901) to ``parts``: ``~`` and ``/`` in a key escaped."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Patches(msgspec.Struct, frozen=True):
    """A batch's ops for the staff and for the public, each a JSON array, encoded."""

    staff: bytes
    public: bytes


class _Ops:
    """The staff's ops and the public's, built side by side."""

    __slots__ = ("public", "staff")

    def __init__(self) -> None:
        self.staff: list[Op] = []
        self.public: list[Op] = []

    def both(self, op: Op, shown: Op | None = None) -> None:
        self.staff.append(op)
        self.public.append(op if shown is None else shown)

    def encoded(self) -> Patches:
        return Patches(staff=_encode(self.staff), public=_encode(self.public))


def build(t: Tournament, before: Marks, touched: Touched) -> Patches:
    """The ops that turn the state as ``before`` marked it into ``t``'s, for each role."""
    s = t.state
    ops = _Ops()
    both = ops.both
    _records(s, touched, ops)

    now = marks(s)
    for name, old, new in zip(_WHOLE, before.whole, now.whole, strict=True):
        if old is new or (isinstance(new, (*_PLAIN, bytes)) and old == new):
            continue
        encoded = new if isinstance(new, bytes) else _encode(new)
        both(Op("add", pointer(name), msgspec.Raw(encoded)))
    for name, old_n in zip(_APPENDED, before.lengths, strict=True):
        items: list[Any] = getattr(s, name)
        for item in items[old_n:]:
            both(Op("add", pointer(name, "-"), msgspec.Raw(_encode(item))))
    log = s.rulings
    made = log.made[before.rulings_made :]
    for r in made:
        path = pointer("rulings", "made", "-")
        shown = publicly(r)
        both(Op("add", path, msgspec.Raw(_encode(r))), Op("add", path, msgspec.Raw(_encode(shown))))
    if now.rulings_rest != before.rulings_rest:
        both(Op("add", pointer("rulings", "sit_outs"), msgspec.Raw(_encode(log.sit_outs))))
        both(Op("add", pointer("rulings", "disqualified"), msgspec.Raw(_encode(log.disqualified))))
    for op in _board(s.board, before, now):
        both(op)
    return ops.encoded()


def catch_up(t: Tournament, touched: Touched) -> Patches:
    """The ops that bring a copy of the state from any version before a run of events to
    ``t``'s, the run's classification being ``touched``: its records, and every other part
    of the state whole (a screen that missed batches this process no longer holds)."""
    s = t.state
    ops = _Ops()
    _records(s, touched, ops)
    for name in (*_WHOLE, *_APPENDED, "board"):
        ops.both(Op("add", pointer(name), msgspec.Raw(_encode(getattr(s, name)))))
    shown = msgspec.structs.replace(s.rulings, made=[publicly(r) for r in s.rulings.made])
    ops.both(
        Op("add", pointer("rulings"), msgspec.Raw(_encode(s.rulings))),
        Op("add", pointer("rulings"), msgspec.Raw(_encode(shown))),
    )
    return ops.encoded()


def _records(s: TournamentState, touched: Touched, ops: _Ops) -> None:
    """The keyed records ``touched`` names, each whole as it stands (or removed)."""
    both = ops.both
    for pid in sorted(_players(s, touched)):
        path = pointer("players", pid)
        p = s.players.get(pid)
        if p is None:
            both(Op("remove", path))
            continue
        value = msgspec.Raw(_encode(p))
        hidden = publicly(p)
        both(
            Op("add", path, value),
            None if hidden is p else Op("add", path, msgspec.Raw(_encode(hidden))),
        )
    for n in sorted(s.tables if touched.all_tables else touched.tables & s.tables.keys()):
        both(Op("add", pointer("tables", n), msgspec.Raw(_encode(s.tables[n]))))
    if touched.draws or touched.all_draws:
        ops.staff.append(Op("add", pointer("draws"), msgspec.Raw(_encode(s.draws))))
    if touched.calls:
        both(Op("add", pointer("calls"), msgspec.Raw(_encode(s.calls))))
    for n in sorted(touched.bags & s.bags.keys()):
        both(Op("add", pointer("bags", n), msgspec.Raw(_encode(s.bags[n]))))


def _board(board: BoardLog, before: Marks, now: Marks) -> list[Op]:
    """The board's new lines at its end and the oldest gone from its start (it keeps the
    last ``LIMIT``), its calls when they changed."""
    ops: list[Op] = []
    added = now.board_count - before.board_count
    if added:
        gone = before.board_len + added - now.board_len
        if gone > before.board_len:  # more new lines than it keeps: all of them anew
            ops.append(Op("add", pointer("board", "lines"), msgspec.Raw(_encode(board.lines))))
        else:
            ops += [Op("remove", pointer("board", "lines", 0))] * gone
            path = pointer("board", "lines", "-")
            ops += [Op("add", path, msgspec.Raw(_encode(x))) for x in board.lines[-added:]]
        ops.append(Op("add", pointer("board", "count"), msgspec.Raw(_encode(board.count))))
    if now.board_calls != before.board_calls:
        ops.append(Op("add", pointer("board", "calls"), msgspec.Raw(now.board_calls)))
    return ops


def _players(s: TournamentState, touched: Touched) -> set[str]:
    out = set(touched.players)
    if touched.all_busted:
        out.update(pid for pid, p in s.players.items() if p.busted)
    for n in touched.seated_at:
        table = s.tables.get(n)
        if table is not None:
            out.update(table.occupants.values())
    return out


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
