"""The preview of players out in the same hand (floor/engine/read/preview.py): the places by the
stacks they started the hand with, shared when equal, with the shared prizes, exactly what
the command then records; a command the engine would refuse is refused; nothing changes."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed
from floor.engine.prize import PayoutRow, Prize
from floor.engine.read.preview import PreviewFinish, preview
from floor.engine.read.views import results
from floor.engine.rules import Level, Structure
from tests.unit.builders import Floor

STRUCTURE = Structure(
    name="t",
    starting_stack=10_000,
    chips=(25,),
    levels=(Level(small_blind=25, big_blind=50, minutes=20),),
    # Six entries: 6,000 CZK, paying 3,000 / 1,800 / 1,200.
    prize=Prize(
        currency="CZK", buy_in=1000, payouts=(PayoutRow(entries=3, percents=(50, 30, 20)),)
    ),
)


def same_hand(*players: tuple[str, int | None]) -> cmd.BustSameHand:
    return cmd.BustSameHand(players=tuple(cmd.Busted(player=p, stack=s) for p, s in players))


def six() -> Floor:
    return Floor({1: "1-6 pos 1/2/3"}, structure=STRUCTURE)


def test_the_preview_places_by_starting_stack_and_shares_a_tie_with_its_prizes() -> None:
    # Six left; three out in one hand: 9,000 places 4th, the two 3,000s share 5th-6th. Then
    # two out with equal stacks share 2nd-3rd: (1,800 + 1,200) / 2 each.
    floor = six()
    floor.do(same_hand(("T1S1", 3_000), ("T1S2", 9_000), ("T1S3", 3_000)))
    tie = same_hand(("T1S4", 5_000), ("T1S5", 5_000))
    before = floor.snapshot()

    shown = preview(floor.t, tie, floor.now)

    assert floor.snapshot() == before  # nothing changed
    assert shown.left == 1
    assert shown.currency == "CZK"
    assert shown.finishes == [
        PreviewFinish(player="T1S4", place=2, tied=2, prize=1_500, stack=5_000),
        PreviewFinish(player="T1S5", place=2, tied=2, prize=1_500, stack=5_000),
    ]
    floor.do(tie)
    recorded = {f.player: (f.place, f.tied, f.prize) for f in results(floor.t)}
    assert {f.player: (f.place, f.tied, f.prize) for f in shown.finishes} == {
        p: recorded[p] for p in ("T1S4", "T1S5")
    }


def test_the_preview_lists_the_worst_place_first_as_the_command_calls_them() -> None:
    floor = six()

    shown = preview(floor.t, same_hand(("T1S6", 2_000), ("T1S1", 7_000)), floor.now)

    assert [(f.player, f.place, f.tied, f.prize) for f in shown.finishes] == [
        ("T1S6", 6, 1, 0),
        ("T1S1", 5, 1, 0),
    ]
    assert shown.left == 4


def test_a_preview_the_engine_would_refuse_is_refused_with_its_field() -> None:
    floor = six()
    before = floor.snapshot()

    with pytest.raises(NotAllowed) as refused:
        preview(floor.t, same_hand(("T1S1", 100), ("T1S2", None)), floor.now)

    assert (refused.value.field, refused.value.reason) == ("players[1].stack", "start_stack_needed")
    assert floor.snapshot() == before
    assert msgspec.msgpack.encode(floor.t.state) == before
