"""What screens are sent on joining (a snapshot) and what the read endpoints answer."""

from __future__ import annotations

import msgspec

from ..engine.plan import Plan
from ..engine.rulebook import fold as fold_name
from ..engine.state import Tournament, TournamentState
from ..engine.views import FieldStats, TableView, field_stats, table_view


class SnapshotOut(msgspec.Struct, frozen=True, kw_only=True, tag="snapshot", tag_field="type"):
    """Everything a screen needs to start: the state at ``seq``, its plan and numbers."""

    tournament: str
    seq: int
    state: TournamentState
    plan: Plan
    stats: FieldStats
    tables: list[TableView]


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
        )
    )


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
