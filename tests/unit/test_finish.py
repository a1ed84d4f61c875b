"""The end of a tournament (issue 16, "The end"): the last bust-out makes the winner and stops
the clock; a finished tournament takes only an undo or the director's close; a closed one
takes nothing; the screens are told by the derived facts, and the average stack is no longer
a figure once one player holds every chip (defect 1)."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine import clock, finish
from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed
from floor.engine.events import (
    BustUndone,
    LevelChanged,
    PlayerBusted,
    TournamentClosed,
    TournamentFinished,
)
from floor.engine.read.derived import public_facts, staff_facts
from floor.engine.read.views import field_stats, results
from floor.engine.rules import Level, Structure
from floor.engine.validate import InvalidEvent, replay
from floor.server.clockdriver import next_due
from floor.server.permissions import sender
from tests.unit.builders import Floor
from tests.unit.test_error_codes import assert_said

MIN = 60.0
STRUCTURE = Structure(
    name="test",
    starting_stack=20_000,
    chips=(25, 100),
    levels=(
        Level(small_blind=25, big_blind=50, minutes=20),
        Level(small_blind=50, big_blind=100, minutes=20),
        Level(small_blind=100, big_blind=200, minutes=20),
    ),
)


def three_left(**settings: object) -> Floor:
    """One table of three, the clock running from 0."""
    floor = Floor({1: "1-3 pos 1/2/3"}, structure=STRUCTURE, **settings)
    floor.do(cmd.ClockStart(), now=0.0)
    return floor


def to_the_winner(floor: Floor, now: float = 100.0) -> list[object]:
    """Third place out, a hand heads-up, second place out at ``now``."""
    floor.do(cmd.Bust(player="T1S1"), cmd.Hand(table=1), now=now - 10)
    return list(floor.do(cmd.Bust(player="T1S2"), now=now))


# The winner -------------------------------------------------------------------------------


def test_the_last_bust_out_makes_the_winner_first_place() -> None:
    floor = three_left()

    events = to_the_winner(floor)

    assert isinstance(events[0], PlayerBusted) and events[0].place == 2
    assert events[-1] == TournamentFinished(winner="T1S3", at=100.0, remaining=20 * MIN - 100)
    s = floor.t.state
    assert (s.winner, s.finished_at, s.closed_at) == ("T1S3", 100.0, None)
    assert finish.status(s) == "finished"
    assert [(r.place, r.player) for r in results(floor.t)] == [
        (1, "T1S3"),
        (2, "T1S2"),
        (3, "T1S1"),
    ]


def test_the_bust_out_before_the_last_does_not_finish() -> None:
    floor = three_left()

    events = floor.do(cmd.Bust(player="T1S1"), now=10.0)

    assert not any(isinstance(e, TournamentFinished) for e in events)
    assert finish.status(floor.t.state) == "live"
    assert public_facts(floor.t).status == "live"
    assert public_facts(floor.t).winner is None


def test_players_out_in_one_hand_leaving_one_finish_it_too() -> None:
    floor = three_left()

    events = floor.do(
        cmd.BustSameHand(
            players=(cmd.Busted(player="T1S1", stack=500), cmd.Busted(player="T1S2", stack=900))
        ),
        now=50.0,
    )

    assert [type(e) for e in events] == [PlayerBusted, PlayerBusted, TournamentFinished]
    assert floor.t.state.winner == "T1S3"


def test_every_screen_is_told_the_status_and_the_winner_by_name() -> None:
    floor = three_left()
    to_the_winner(floor)

    facts = public_facts(floor.t)

    assert facts.status == "finished"
    assert facts.winner == finish.Winner(player="T1S3", name="T1S3", at=100.0)
    # A batch names only some players: the status and the winner come whole all the same.
    batch = public_facts(floor.t, [floor.log[-1]])  # type: ignore[list-item]
    assert (batch.status, batch.winner) == (facts.status, facts.winner)


def test_the_average_stack_is_no_figure_once_one_player_holds_every_chip() -> None:
    """Defect 1: the wall showed an average of 599,975 (1,000 BB) with the winner alone."""
    floor = three_left()
    floor.do(cmd.Bust(player="T1S1"), now=10.0)
    assert field_stats(floor.t).average_stack == 30_000

    floor.do(cmd.Bust(player="T1S2"), now=20.0)

    stats = field_stats(floor.t)
    assert (stats.players_left, stats.average_stack) == (1, None)
    assert stats.chips == 60_000


# The clock stops ----------------------------------------------------------------------------


def test_the_clock_stops_with_the_finish_and_runs_through_no_more_levels() -> None:
    floor = three_left()
    to_the_winner(floor, now=100.0)

    c = floor.t.state.clock
    assert (c.running, c.ends_at, c.level, c.remaining) == (False, None, 0, 20 * MIN - 100)
    # Hours later nothing has come due: no level change, no break, no tick to send.
    assert clock.due(floor.t.state, 10 * 3600.0) == []
    assert next_due(floor.t) is None
    assert floor.do(cmd.Tick(), now=10 * 3600.0) == []


def test_level_changes_due_when_the_last_bust_comes_are_written_before_the_finish() -> None:
    floor = three_left()
    floor.do(cmd.Bust(player="T1S1"), now=60.0)

    events = floor.do(cmd.Bust(player="T1S2"), now=25 * MIN)

    kinds = [type(e) for e in events]
    assert kinds == [PlayerBusted, LevelChanged, TournamentFinished]
    c = floor.t.state.clock
    assert (c.level, c.running, c.remaining) == (1, False, 15 * MIN)


def test_a_finish_on_a_stopped_clock_leaves_it_as_it_stood() -> None:
    floor = three_left()
    floor.do(cmd.ClockPause(), now=30.0)

    events = to_the_winner(floor, now=500.0)

    assert events[-1] == TournamentFinished(winner="T1S3", at=500.0, remaining=None)
    assert floor.t.state.clock.remaining == 20 * MIN - 30


def test_a_time_call_running_at_the_finish_ends_with_it() -> None:
    floor = three_left()
    floor.do(cmd.Bust(player="T1S1"), now=10.0)
    floor.do(cmd.CallTime(table=1, seat=3), now=20.0)

    floor.do(cmd.Bust(player="T1S2"), now=30.0)

    assert floor.t.state.time_calls == []
    assert next_due(floor.t) is None


# A finished tournament: the undo and the close only -------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        cmd.Register(name="Late Larry"),
        cmd.ClockResume(),
        cmd.ClockLevel(step=1),
        cmd.SetStack(player="T1S3", stack=60_000),
        cmd.OpenTable(),
    ],
    ids=lambda c: type(c).__name__,
)
def test_a_finished_tournament_refuses_what_would_play_on(command: cmd.Command) -> None:
    floor = three_left()
    to_the_winner(floor)

    refused = floor.refuse(command, NotAllowed, None)

    assert_said(refused, "tournament_finished", {"player": "T1S3"})


def test_the_last_bust_out_reported_again_says_who_is_left() -> None:
    floor = three_left()
    to_the_winner(floor)

    refused = floor.refuse(cmd.Bust(player="T1S3"), NotAllowed, "player")

    assert_said(refused, "last_player", {"player": "T1S3"})


def test_the_last_bust_out_can_be_undone_back_to_live_with_the_clock_still_paused() -> None:
    floor = three_left()
    to_the_winner(floor, now=100.0)

    events = floor.do(cmd.UndoBust(player="T1S2", reason="the river was misread"), now=400.0)

    assert events == [
        BustUndone(player="T1S2", table=1, seat=2, reason="the river was misread", at=400.0)
    ]
    s = floor.t.state
    assert (s.winner, s.finished_at) == (None, None)
    assert public_facts(floor.t).status == "live"
    assert floor.where("T1S2") == (1, 2)
    # Still stopped where the finish stopped it: the director resumes it.
    assert (s.clock.running, s.clock.remaining) == (False, 20 * MIN - 100)
    assert next_due(floor.t) is None
    floor.do(cmd.ClockResume(), now=500.0)
    assert s.clock.running and s.clock.ends_at == 500.0 + 20 * MIN - 100
    # The hand is replayed and the bust-out comes again: finished again.
    floor.do(cmd.Hand(table=1), now=600.0)
    floor.do(cmd.Bust(player="T1S3"), now=700.0)
    assert s.winner == "T1S2"


def test_the_staff_are_offered_the_undo_of_the_last_bust_out_while_finished() -> None:
    floor = three_left()
    to_the_winner(floor)

    assert [u.player for u in staff_facts(floor.t).undo] == ["T1S2"]


def test_the_last_bust_out_at_the_final_table_can_be_undone() -> None:
    floor = Floor({1: "1-5 pos 1/2/3", 2: "1-5 pos 1/2/3"}, seed=3)
    floor.bust("T1S1")  # 9 left: the final table forms
    final = floor.t.state.final_table
    assert final is not None
    floor.do(cmd.ConfirmAll(reason="final"))
    early = floor.t.player("T1S1")
    at_final = sorted(floor.seats(final).values())
    for pid in at_final[:-1]:
        floor.do(cmd.Bust(player=pid))
    last = at_final[-2]
    assert floor.t.state.winner == at_final[-1]

    floor.do(cmd.UndoBust(player=last, reason="chips were hidden"))

    assert floor.t.state.winner is None
    assert floor.t.active == 2
    # A bust-out from before the final draw still has no final seat to return to.
    assert early.bust is not None and not early.bust.at_final
    refused = floor.refuse(cmd.UndoBust(player="T1S1", reason="x"), NotAllowed, "player")
    assert refused.reason in ("final_drawn", "no_seat_to_return")


# The close ------------------------------------------------------------------------------------


def test_a_name_misspelt_on_the_results_is_corrected_until_the_close() -> None:
    floor = three_left()
    to_the_winner(floor, now=100.0)

    floor.do(cmd.RenamePlayer(player="T1S3", name="Kateřina Marková"), now=200.0)

    assert public_facts(floor.t).winner.name == "Kateřina Marková"  # type: ignore[union-attr]
    floor.do(cmd.CloseTournament(), now=900.0)
    refused = floor.refuse(cmd.RenamePlayer(player="T1S2", name="Jan Novák"), NotAllowed, None)
    assert_said(refused, "tournament_closed", {})


def test_a_tournament_is_closed_only_once_it_has_its_winner() -> None:
    floor = three_left()

    refused = floor.refuse(cmd.CloseTournament(), NotAllowed, "type")

    assert_said(refused, "tournament_not_finished", {"left": 3})


def test_a_closed_tournament_refuses_everything_even_the_undo() -> None:
    floor = three_left()
    to_the_winner(floor, now=100.0)

    assert floor.do(cmd.CloseTournament(), now=900.0) == [TournamentClosed(at=900.0)]

    s = floor.t.state
    assert finish.status(s) == "closed"
    assert public_facts(floor.t).winner == finish.Winner(
        player="T1S3", name="T1S3", at=100.0, closed_at=900.0
    )
    assert staff_facts(floor.t).undo == []
    for command in (
        cmd.UndoBust(player="T1S2", reason="too late"),
        cmd.CloseTournament(),
        cmd.Tick(),
        cmd.ClockResume(),
    ):
        refused = floor.refuse(command, NotAllowed, None)
        assert_said(refused, "tournament_closed", {})


def test_closing_is_the_directors_alone() -> None:
    assert sender(cmd.CloseTournament()) == "director"


# Logs -----------------------------------------------------------------------------------------


def test_a_log_to_the_winner_undone_won_again_and_closed_replays_through_the_checks() -> None:
    floor = three_left()
    to_the_winner(floor)
    floor.do(cmd.UndoBust(player="T1S2", reason="misread"), now=200.0)
    floor.do(cmd.Bust(player="T1S2"), now=300.0)
    floor.do(cmd.CloseTournament(), now=400.0)

    replayed = replay(floor.log)

    assert msgspec.msgpack.encode(replayed.state) == floor.snapshot()


def _forged(floor: Floor, *events: object) -> InvalidEvent:
    with pytest.raises(InvalidEvent) as caught:
        replay([*floor.log, *events])  # type: ignore[list-item]
    return caught.value


def test_a_forged_finish_with_players_still_in_is_refused() -> None:
    floor = three_left()
    floor.do(cmd.Bust(player="T1S1"), now=10.0)

    refused = _forged(floor, TournamentFinished(winner="T1S3", at=20.0))

    assert refused.error.reason == "tournament_not_finished"


def test_a_forged_winner_who_is_out_is_refused() -> None:
    floor = three_left()
    floor.do(cmd.Bust(player="T1S1"), now=10.0)
    floor.do(cmd.Bust(player="T1S2"), now=20.0)
    log = floor.log[:-1]  # without the finish the floor wrote

    with pytest.raises(InvalidEvent) as caught:
        replay([*log, TournamentFinished(winner="T1S1", at=20.0)])

    assert caught.value.error.reason == "last_player"


def test_an_event_after_the_close_is_refused() -> None:
    floor = three_left()
    to_the_winner(floor)
    floor.do(cmd.CloseTournament(), now=900.0)

    refused = _forged(
        floor, BustUndone(player="T1S2", table=1, seat=2, reason="after the close", at=950.0)
    )

    assert refused.error.reason == "tournament_closed"
