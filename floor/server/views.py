"""What screens are sent on joining (a snapshot) and what the read endpoints answer.

``RoleViews`` holds each view's snapshot and catch-up of a tournament, built once per
version and view and shared by every screen and read of that view: 500 wall displays
joining at one version cost one encoding, not 500.

A snapshot comes in two forms. The full one (``SnapshotOut``) is the state as the engine
holds it. The packed one (``PackedSnapshotOut``, what ``web/js/conn.js`` asks for) carries
the same state in a third of the bytes: each player without the fields at their default
(``player_defaults`` says what those are), and no table's ``occupants`` (each seated
player's table and seat say it again). At 10,000 players the full public snapshot is 2.6 MB,
222 KB gzipped; the packed one 600 KB, 120 KB gzipped (bench/storm.py).
"""

from __future__ import annotations

import asyncio
import gzip
from typing import Any, Final, NamedTuple

import msgspec

from ..engine.plan import Plan
from ..engine.read.derived import Facts, StaffFacts, public_facts, staff_facts
from ..engine.read.views import FieldStats, TableView, field_stats, table_view
from ..engine.state import Player, Tournament, TournamentState
from .fanout import frame
from .metrics import Metrics
from .player_search import PlayerIndex
from .redact import PUBLIC, VIEWS, TableParts, View, shown, table_of

#: gzip level of snapshots sent over HTTP: 6 makes a 10,000-player packed snapshot 107 KB
#: in 7 ms, 1 makes it 127 KB in 3 ms, 9 saves 1 KB more for three times the time.
GZIP_LEVEL = 6


class SnapshotOut(msgspec.Struct, frozen=True, kw_only=True, tag="snapshot", tag_field="type"):
    """Everything a screen needs to start: the state at ``seq``, its plan and numbers."""

    tournament: str
    seq: int
    state: TournamentState
    plan: Plan
    stats: FieldStats
    tables: list[TableView]
    #: What follows from the rules, for every screen and (``staff``) for the staff only: a
    #: public view sets ``staff`` to null.
    facts: Facts
    staff: StaffFacts | None


def _packed_type(cls: type[msgspec.Struct]) -> Any:
    """``cls`` with its fields at their defaults left out of the encoding."""
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for f in msgspec.structs.fields(cls):
        if f.required:
            fields.append((f.encode_name, f.type))
        elif f.default_factory is not msgspec.NODEFAULT:
            fields.append((f.encode_name, f.type, msgspec.field(default_factory=f.default_factory)))
        else:
            fields.append((f.encode_name, f.type, f.default))
    return msgspec.defstruct(f"Packed{cls.__name__}", fields, kw_only=True, omit_defaults=True)


def _defaults(cls: type[msgspec.Struct]) -> bytes:
    """Every field of ``cls`` with its default (null where it has none), in field order: a
    packed player spread over it is the player whole, its keys in the engine's order."""
    out: dict[str, Any] = {}
    for f in msgspec.structs.fields(cls):
        if f.required:
            out[f.encode_name] = None
        elif f.default_factory is not msgspec.NODEFAULT:
            out[f.encode_name] = f.default_factory()
        else:
            out[f.encode_name] = f.default
    return msgspec.json.encode(out)


_PackedPlayer = _packed_type(Player)
_PLAYER_DEFAULTS = msgspec.Raw(_defaults(Player))
#: The fields the public is shown as false (``redact``): left out of a packed player.
_STAFF_FLAGS = ("special_needs", "locked")


class PackedSnapshotOut(
    msgspec.Struct, frozen=True, kw_only=True, tag="snapshot", tag_field="type"
):
    """A snapshot as ``SnapshotOut`` holds it, packed (see the module's docstring)."""

    tournament: str
    seq: int
    packed: bool = True
    #: The state with ``players`` empty and every table's ``occupants`` empty.
    state: msgspec.Raw
    #: Every player, as a list, without the fields at their ``player_defaults``.
    players: msgspec.Raw
    player_defaults: msgspec.Raw = _PLAYER_DEFAULTS
    plan: msgspec.Raw
    stats: msgspec.Raw
    tables: msgspec.Raw
    facts: msgspec.Raw
    staff: msgspec.Raw


class PlayerFound(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    table: int | None
    seat: int | None
    busted: bool
    place: int | None
    #: A planned move for this player, so a player sees where to go before it happens.
    moving_to: dict[str, int | None] | None = None


class PlayersFound(msgspec.Struct, frozen=True, kw_only=True):
    """A search's answer: how many players match in all, and the first of them, best first
    (a screen says it shows ``len(players)`` of ``total``)."""

    query: str
    total: int
    players: list[PlayerFound]


_encoder = msgspec.json.Encoder()
_packed_players = msgspec.json.Decoder(list[_PackedPlayer])  # type: ignore[valid-type]


def table_views(t: Tournament) -> list[TableView]:
    halted = set(t.plan.halted_tables)
    return [table_view(t, table, halted) for table in t.state.tables.values()]


def _public_state(state: TournamentState) -> TournamentState:
    """``state`` as the public is shown it (``redact``): no player's flags set, and no seat
    drawn for a move (the room learns a move when it is called). Only the players who have
    a flag are copied, so a room with one special-needs player costs a dictionary copy, not
    a decoding of the whole state (60 ms at 10,000 players)."""
    flagged = [
        p
        for p in state.players.values()
        if any(getattr(p, f) for f in _STAFF_FLAGS) or p.note is not None
    ]
    # The floor's notes on rulings are staff text too.
    rulings = state.rulings.without_notes()
    if not flagged and not state.draws and rulings is state.rulings:
        return state
    players = state.players
    if flagged:
        players = dict(state.players)
        for p in flagged:
            players[p.id] = msgspec.structs.replace(
                p, **dict.fromkeys(_STAFF_FLAGS, False), note=None
            )
    return msgspec.structs.replace(state, players=players, draws={}, rulings=rulings)


def snapshots(tid: str, t: Tournament, seq: int) -> dict[View, bytes]:
    """The snapshot at ``seq`` as each view is shown it, built together: ``t`` is the live
    copy, changed by the next command, so nothing of it can wait until a view is asked for."""
    plan, stats, tables = t.plan, field_stats(t), table_views(t)
    facts = public_facts(t)
    staff_state, staff = t.state, staff_facts(t)
    out: dict[View, bytes] = {}
    for view in VIEWS:
        out[view] = _encoder.encode(
            SnapshotOut(
                tournament=tid,
                seq=seq,
                state=staff_state if view == "staff" else _public_state(staff_state),
                plan=plan if view == "staff" else plan.settled(),
                stats=stats,
                tables=tables,
                facts=facts,
                staff=staff if view == "staff" else None,
            )
        )
    return out


def snapshot(tid: str, t: Tournament, seq: int) -> bytes:
    """The staff view of the snapshot at ``seq``."""
    return snapshots(tid, t, seq)["staff"]


def packed_snapshots(tid: str, t: Tournament, seq: int) -> dict[View, bytes]:
    """The packed snapshot at ``seq`` as each view is shown it (see the module docstring)."""
    state = t.state
    players = _packed_players.decode(_encoder.encode(list(state.players.values())))
    lean = msgspec.structs.replace(
        state,
        players={},
        tables={n: msgspec.structs.replace(x, occupants={}) for n, x in state.tables.items()},
    )
    state_raw = msgspec.Raw(_encoder.encode(lean))
    # The room is shown neither the seats drawn for moves nor a move not called yet.
    rulings = state.rulings.without_notes()
    public_state = (
        msgspec.Raw(_encoder.encode(msgspec.structs.replace(lean, draws={}, rulings=rulings)))
        if state.draws or rulings is not state.rulings
        else state_raw
    )
    plan = msgspec.Raw(_encoder.encode(t.plan))
    settled = t.plan.settled()
    public_plan = plan if settled is t.plan else msgspec.Raw(_encoder.encode(settled))
    stats = msgspec.Raw(_encoder.encode(field_stats(t)))
    tables = msgspec.Raw(_encoder.encode(table_views(t)))
    facts = msgspec.Raw(_encoder.encode(public_facts(t)))

    def packed(players_raw: bytes, staff: bytes, public: bool) -> bytes:
        return _encoder.encode(
            PackedSnapshotOut(
                tournament=tid,
                seq=seq,
                state=public_state if public else state_raw,
                players=msgspec.Raw(players_raw),
                plan=public_plan if public else plan,
                stats=stats,
                tables=tables,
                facts=facts,
                staff=msgspec.Raw(staff),
            )
        )

    staff_players = _encoder.encode(players)
    flagged = False
    for p in players:
        for name in _STAFF_FLAGS:
            if getattr(p, name):
                setattr(p, name, False)  # a packed player is our own copy
                flagged = True
        if getattr(p, "note", None) is not None:  # the staff's note on the entry (``redact``)
            p.note = None  # type: ignore[attr-defined]
            flagged = True
    public_players = _encoder.encode(players) if flagged else staff_players
    return {
        "staff": packed(staff_players, _encoder.encode(staff_facts(t)), public=False),
        "public": packed(public_players, b"null", public=True),
    }


class Message:
    """One message as a view shows it, its websocket frame and its gzipped bytes, each built
    when first needed (a read over HTTP never frames it) and then shared by every screen and
    read of the view."""

    __slots__ = ("_framed", "_gzipped", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._framed: bytes | None = None
        self._gzipped: asyncio.Future[bytes] | None = None

    @property
    def framed(self) -> bytes:
        if self._framed is None:
            self._framed = frame(self.data)
        return self._framed

    async def gzipped(self) -> bytes:
        """``data`` gzipped, compressed once, in a thread: zlib lets go of the interpreter
        while it works, so the loop goes on serving (7 ms for a packed 10,000-player room,
        29 ms for the full one)."""
        if self._gzipped is None:
            self._gzipped = asyncio.ensure_future(
                asyncio.to_thread(gzip.compress, self.data, GZIP_LEVEL, mtime=0)
            )
        # Shielded: one reader going away must not cancel it for the others.
        return await asyncio.shield(self._gzipped)


#: The key of the view shared by every table a message says nothing about.
_ANY_TABLE: Final = "table:*"


class Views:
    """One message as each view is shown it: the staff view as built, every other view made
    from it on first use, once, and shared by all the screens of that view (or, for a
    snapshot, every view built at once: see ``snapshots``).

    A table screen's view is made from the public one: the tables the message holds
    nothing about beyond the public's (most of them, most of the time) share one, so a
    room of a thousand table screens costs a few views per message, not a thousand."""

    __slots__ = ("_by_view", "_tables", "kind", "metrics")

    def __init__(self, data: bytes, kind: str, metrics: Metrics) -> None:
        self.kind = kind
        self.metrics = metrics
        self._by_view: dict[View, Message] = {"staff": Message(data)}
        self._tables: TableParts | None = None

    @classmethod
    def built(cls, by_view: dict[View, bytes], kind: str, metrics: Metrics) -> Views:
        """Every view built already (``by_view`` holds each)."""
        views = cls(by_view["staff"], kind, metrics)
        for view, data in by_view.items():
            metrics.view_built(kind, view)
            if view != "staff":
                views._by_view[view] = Message(data)
        return views

    @property
    def size(self) -> int:
        """The staff view's bytes (what this message holds in memory, about)."""
        return len(self._by_view["staff"].data)

    def view(self, view: View) -> Message:
        message = self._by_view.get(view)
        if message is not None:
            return message
        table = table_of(view)
        if table is not None:
            return self._table(view, table)
        self.metrics.view_built(self.kind, view)
        staff = self._by_view["staff"]
        data = shown(view, staff.data)
        # Nothing to hide: the very same message, frame included, for both views.
        message = self._by_view[view] = staff if data is staff.data else Message(data)
        return message

    def _table(self, view: View, table: int) -> Message:
        if self._tables is None:
            self._tables = TableParts(self._by_view["staff"].data)
        key = view if self._tables.own(table) else _ANY_TABLE
        message = self._by_view.get(key)
        if message is None:
            self.metrics.view_built(self.kind, "table")
            public = self.view(PUBLIC)
            data = self._tables.shown(table if key == view else None, public.data)
            message = self._by_view[key] = public if data is public.data else Message(data)
        return message


class Held(NamedTuple):
    #: The version the message is for, and (a catch-up) the ``since`` it starts after.
    version: int
    since: int
    #: The copy it was built from: a copy loaded afresh (after a failover, say) may hold
    #: other events under the same numbers, so its messages are built afresh too.
    source: Tournament
    views: Views


class RoleViews:
    """The latest snapshot (in each form) and catch-up of each tournament, in every view.

    Only the newest is kept: older versions are no longer asked for, and a catch-up is
    shared only by screens reconnecting together from the same number.
    """

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._snapshots: dict[tuple[str, bool], Held] = {}
        self._catch_ups: dict[str, Held] = {}

    def snapshot(self, tid: str, t: Tournament, version: int, packed: bool = False) -> Views:
        """The snapshot at ``version``, full or ``packed``."""
        held = self._snapshots.get((tid, packed))
        if held is None or held.version != version or held.source is not t:
            if packed:
                views = Views.built(packed_snapshots(tid, t, version), "packed", self.metrics)
            else:
                views = Views.built(snapshots(tid, t, version), "snapshot", self.metrics)
            held = self._snapshots[(tid, packed)] = Held(version, version, t, views)
        return held.views

    def held_snapshot(self, tid: str, packed: bool = False) -> Held | None:
        """The snapshot last built (at whatever version), if any."""
        return self._snapshots.get((tid, packed))

    def catch_up(self, tid: str, t: Tournament, since: int, version: int) -> Views | None:
        """The events after ``since`` up to ``version``, if kept."""
        held = self._catch_ups.get(tid)
        if held is None or (held.since, held.version) != (since, version) or held.source is not t:
            return None
        return held.views

    def keep_catch_up(
        self, tid: str, t: Tournament, since: int, version: int, data: bytes
    ) -> Views:
        """Keep ``data``, the events after ``since`` up to ``version`` (the staff view),
        for the next screens asking the same."""
        self.metrics.view_built("catch_up", "staff")
        views = Views(data, "catch_up", self.metrics)
        self._catch_ups[tid] = Held(version, since, t, views)
        return views

    def forget(self, tid: str) -> None:
        for packed in (False, True):
            self._snapshots.pop((tid, packed), None)
        self._catch_ups.pop(tid, None)


def find_players(
    t: Tournament, query: str, limit: int = 20, index: PlayerIndex | None = None
) -> list[PlayerFound]:
    """Players whose name (or id) contains every word of the query, best matches first
    (``index``: the field's, kept from an earlier search; see ``player_search``)."""
    if index is None or not index.fits(t):
        index = PlayerIndex(t)
    found = index.search(t, query, limit)
    if not found:
        return []
    # Anyone may search, so where a player goes is told only once the floor called it.
    moves = index.moves(t.plan.settled())
    out = []
    for p in found:
        move = moves.get(p.id)
        out.append(
            PlayerFound(
                id=p.id,
                name=p.name,
                table=p.table,
                seat=p.seat,
                busted=p.busted,
                place=p.bust.place if p.bust else None,
                moving_to=None if move is None else {"table": move.to.table, "seat": move.to.seat},
            )
        )
    return out


def search_players(
    t: Tournament, query: str, limit: int = 20, index: PlayerIndex | None = None
) -> PlayersFound:
    """``find_players`` with the number of players the query matches in all."""
    if index is None or not index.fits(t):
        index = PlayerIndex(t)
    found = find_players(t, query, limit, index)
    return PlayersFound(query=query, total=index.count(query), players=found)
