"""Logs and snapshots written before the floor tools still load: every new field has a default."""

from __future__ import annotations

import msgspec

from floor.engine import commands as cmd
from floor.engine.events import Event, PlayerBusted, TournamentCreated
from floor.engine.plan import Plan
from floor.engine.read.views import field_stats
from floor.engine.state import Tournament, TournamentState

OLD_CREATED = b"""{"type": "tournament_created", "id": "old", "name": "Old",
  "rules": {"game": "holdem", "seats": 9, "final_table": 9},
  "structure": {"name": "s", "starting_stack": 10000, "chips": [25, 100],
    "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 20}]}}"""
OLD_TABLE = b"""{"type": "table_set_up", "table": 1, "seats": 9,
  "occupants": {"1": "A", "2": "B", "3": "C"}, "positions": {"button": 1, "small_blind": 2,
  "big_blind": 3}}"""
OLD_BUST = b"""{"type": "player_busted", "player": "C", "table": 1, "seat": 3, "hand": 0,
  "place": 3, "at": 5.0}"""


def test_an_event_log_from_before_the_floor_tools_folds_with_the_defaults() -> None:
    events = [msgspec.json.decode(raw, type=Event) for raw in (OLD_CREATED, OLD_TABLE, OLD_BUST)]

    t = Tournament.fold(events)

    created, _, bust = events
    assert isinstance(created, TournamentCreated) and created.structure is not None
    assert created.structure.prize is None
    assert created.rules.time_call_seconds == 60
    assert isinstance(bust, PlayerBusted) and (bust.shares, bust.stack) == (1, None)
    stats = field_stats(t)
    assert (stats.chips, stats.prize_pool, stats.rebuys) == (30_000, None, 0)


def test_a_snapshot_from_before_the_floor_tools_loads_with_the_defaults() -> None:
    t = Tournament.fold(
        [msgspec.json.decode(raw, type=Event) for raw in (OLD_CREATED, OLD_TABLE, OLD_BUST)]
    )
    old = msgspec.to_builtins(t.state)
    for key in ("rebuys", "add_ons", "chips_added", "chip_races"):
        del old[key]
    for p in old["players"].values():
        del p["rebuys"], p["add_ons"]
        if p["bust"] is not None:
            del p["bust"]["shares"], p["bust"]["at"]

    state = msgspec.convert(old, TournamentState)

    assert (state.chips_added, state.chip_races, state.players["C"].bust.shares) == (0, [], 1)  # type: ignore[union-attr]


def test_a_plan_and_a_time_call_from_an_older_client_decode() -> None:
    plan = msgspec.json.decode(
        b'{"moves": [{"player": "A", "from": {"table": 1, "seat": 1}, "to": {"table": 2, '
        b'"seat": 4}, "reason": "balance", "why": "TDA"}], "halted": [{"table": 2, "short": 3, '
        b'"why": "TDA"}]}',
        type=Plan,
    )
    call = msgspec.json.decode(b'{"type": "call_time", "table": 1, "seat": 2}', type=cmd.Command)

    assert (plan.moves[0].rule, plan.halted[0].rule) == ("", "")
    assert isinstance(call, cmd.CallTime) and (call.seconds, call.count) == (None, None)


def test_an_entry_written_before_entries_moved_places_leaves_the_places_as_they_were() -> None:
    late = b'{"type": "player_registered", "player": "D", "name": "D", "entry": 1}'
    events = [msgspec.json.decode(raw, type=Event) for raw in (OLD_CREATED, OLD_TABLE, OLD_BUST)]
    events.append(msgspec.json.decode(late, type=Event))

    t = Tournament.fold(events)

    # As it folded when it was written (an export's check compares exactly this).
    bust = t.player("C").bust
    assert bust is not None and bust.place == 3
