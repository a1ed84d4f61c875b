"""A tournament's tables as the dealer room follows them: which play now, at which game,
whether hand-for-hand holds their pushes, which is the final.

The consumer of the tournaments' batches (``floor.server.dealer_driver``) reads these from its
copy of each tournament after a batch that may change them, and sends the house a
``SyncTables`` when they differ from the room's (each tournament version once).
"""

from __future__ import annotations

from ..state import TournamentState
from .dealers import Room
from .dealers_commands import PlayingTable, SyncTables

#: Event types after which a tournament's playing tables may have changed; any other batch
#: leaves them as they were (a bust-out that empties a table breaks it: ``table_broken``).
TABLE_EVENTS = frozenset(
    {
        "tournament_created",
        "table_opened",
        "table_set_up",
        "seats_drawn",
        "player_seated",
        "player_unregistered",
        "players_moved",
        "table_breaking",
        "table_broken",
        "final_table_formed",
        "seats_assigned",
        "hand_for_hand_started",
        "hand_for_hand_ended",
        "tournament_finished",
        "tournament_closed",
        "bust_undone",
        "day_ended",
        "field_carried",
        "flight_set",
    }
)


def playing(t: TournamentState) -> tuple[PlayingTable, ...]:
    """The tables that play now: seated players at a table not broken, after the draw,
    before the winner, the day's end or the close."""
    if not t.drawn or t.winner is not None or t.closed_at is not None or t.day_ended is not None:
        return ()
    game = t.rules.game
    return tuple(
        PlayingTable(table=n, game=game)
        for n, table in sorted(t.tables.items())
        if table.status != "broken" and table.occupants
    )


def sync_of(t: TournamentState, version: int) -> SyncTables:
    tables = playing(t)
    final = t.final_table if tables and t.final_table is not None else None
    return SyncTables(
        tournament=t.id,
        version=version,
        tables=tables,
        held=bool(tables) and t.hand_for_hand is not None,
        final=final,
    )


def differs(room: Room, sync: SyncTables) -> bool:
    """Whether ``sync`` would change the room (else nothing need be sent)."""
    tid = sync.tournament
    have = {t.table: t for t in room.tables.values() if t.tournament == tid}
    if set(have) != {p.table for p in sync.tables}:
        return True
    for p in sync.tables:
        table = have[p.table]
        final = sync.final is not None and p.table == sync.final
        if (table.game, table.held, table.final) != (p.game, sync.held, final):
            return True
    return False
