"""What screens are sent on joining (a snapshot) and what the read endpoints answer.

``RoleViews`` holds each view's snapshot and catch-up of a tournament, built once per
version and view and shared by every screen and read of that view: 500 wall displays
joining at one version cost one encoding, not 500.
"""

from __future__ import annotations

from typing import NamedTuple

import msgspec

from ..engine.derived import Facts, StaffFacts, public_facts, staff_facts
from ..engine.plan import Plan
from ..engine.rulebook import fold as fold_name
from ..engine.state import Tournament, TournamentState
from ..engine.views import FieldStats, TableView, field_stats, table_view
from .fanout import frame
from .metrics import Metrics
from .redact import View, shown


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


class PlayerFound(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    table: int | None
    seat: int | None
    busted: bool
    place: int | None
    #: A planned move for this player, so a player sees where to go before it happens.
    moving_to: dict[str, int | None] | None = None


_encoder = msgspec.json.Encoder()


def table_views(t: Tournament) -> list[TableView]:
    return [table_view(t, table) for table in t.state.tables.values()]


def snapshot(tid: str, t: Tournament, seq: int) -> bytes:
    return _encoder.encode(
        SnapshotOut(
            tournament=tid,
            seq=seq,
            state=t.state,
            plan=t.plan,
            stats=field_stats(t),
            tables=table_views(t),
            facts=public_facts(t),
            staff=staff_facts(t),
        )
    )


class Message:
    """One message as a view shows it, and its websocket frame, built when first needed
    (a read over HTTP never frames it) and then shared by every screen of the view."""

    __slots__ = ("_framed", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._framed: bytes | None = None

    @property
    def framed(self) -> bytes:
        if self._framed is None:
            self._framed = frame(self.data)
        return self._framed


class Views:
    """One message as each view is shown it: the staff view as built, every other view made
    from it on first use, once, and shared by all the screens of that view."""

    __slots__ = ("_by_view", "kind", "metrics")

    def __init__(self, data: bytes, kind: str, metrics: Metrics) -> None:
        self.kind = kind
        self.metrics = metrics
        self._by_view: dict[View, Message] = {"staff": Message(data)}

    def view(self, view: View) -> Message:
        message = self._by_view.get(view)
        if message is None:
            self.metrics.view_built(self.kind, view)
            staff = self._by_view["staff"]
            data = shown(view, staff.data)
            # Nothing to hide: the very same message, frame included, for both views.
            message = self._by_view[view] = staff if data is staff.data else Message(data)
        return message


class _Held(NamedTuple):
    #: The version (and, for a catch-up, the ``since``) the message is for.
    key: tuple[int, ...]
    #: The copy it was built from: a copy loaded afresh (after a failover, say) may hold
    #: other events under the same numbers, so its messages are built afresh too.
    source: Tournament
    views: Views


class RoleViews:
    """The latest snapshot and catch-up of each tournament, in every view.

    Only the newest is kept: older versions are no longer asked for, and a catch-up is
    shared only by screens reconnecting together from the same number.
    """

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._snapshots: dict[str, _Held] = {}
        self._catch_ups: dict[str, _Held] = {}

    def snapshot(self, tid: str, t: Tournament, version: int) -> Views:
        held = self._snapshots.get(tid)
        if held is None or held.key != (version,) or held.source is not t:
            self.metrics.view_built("snapshot", "staff")
            views = Views(snapshot(tid, t, version), "snapshot", self.metrics)
            held = self._snapshots[tid] = _Held((version,), t, views)
        return held.views

    def catch_up(self, tid: str, t: Tournament, since: int, version: int) -> Views | None:
        """The events after ``since`` up to ``version``, if kept."""
        held = self._catch_ups.get(tid)
        if held is None or held.key != (since, version) or held.source is not t:
            return None
        return held.views

    def keep_catch_up(
        self, tid: str, t: Tournament, since: int, version: int, data: bytes
    ) -> Views:
        """Keep ``data``, the events after ``since`` up to ``version`` (the staff view),
        for the next screens asking the same."""
        self.metrics.view_built("catch_up", "staff")
        views = Views(data, "catch_up", self.metrics)
        self._catch_ups[tid] = _Held((since, version), t, views)
        return views

    def forget(self, tid: str) -> None:
        self._snapshots.pop(tid, None)
        self._catch_ups.pop(tid, None)


def find_players(t: Tournament, query: str, limit: int = 20) -> list[PlayerFound]:
    """Players whose name (or id) contains every word of the query, best matches first."""
    words = fold_name(query).split()
    if not words:
        return []
    hits = []
    for p in t.state.players.values():
        name = fold_name(p.name)
        if all(w in name or w == p.id.casefold() for w in words):
            starts = any(part.startswith(words[0]) for part in name.split())
            hits.append((not starts, p.busted, name, p))
    hits.sort(key=lambda h: h[:3])
    plan = t.plan
    out = []
    for *_, p in hits[:limit]:
        move = plan.move_of(p.id)
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
