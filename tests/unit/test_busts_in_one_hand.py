"""Players out in the same hand: the bigger starting stack places higher, equal stacks share
the place and split its prizes; the results with places and prizes, shared places split."""

from __future__ import annotations

import msgspec

from floor.engine import commands as cmd
from floor.engine.errors import NotAllowed, UnknownPlayer
from floor.engine.events import PlayerBusted
from floor.engine.prize import PayoutRow, Prize
from floor.engine.read.views import results
from floor.engine.rules import Level, Structure
from floor.engine.state import Tournament
from tests.unit.builders import Floor

PRIZE = Prize(
    currency="CZK",
    buy_in=1000,
    payouts=(PayoutRow(entries=3, percents=(50, 30, 20)),),
)
STRUCTURE = Structure(
    name="t",
    starting_stack=10_000,
    chips=(25,),
    levels=(Level(small_blind=25, big_blind=50, minutes=20),),
    prize=PRIZE,
)


def ten_left() -> Floor:
    """Two tables of five: 10 players left, 10,000 CZK in the pool (50/30/20 %)."""
    return Floor({1: "1-5 pos 1/2/3", 2: "1-5 pos 1/2/3"}, structure=STRUCTURE)


def same_hand(*players: tuple[str, int | None]) -> cmd.BustSameHand:
    return cmd.BustSameHand(players=tuple(cmd.Busted(player=p, stack=s) for p, s in players))


def places(floor: Floor) -> dict[str, tuple[int, int]]:
    return {
        p.id: (p.bust.place, p.bust.shares)
        for p in floor.t.state.players.values()
        if p.bust is not None
    }


def test_of_two_players_out_in_one_hand_the_bigger_starting_stack_places_higher() -> None:
    floor = ten_left()

    events = floor.do(same_hand(("T1S1", 4_000), ("T1S2", 9_500)))

    busted = [e for e in events if isinstance(e, PlayerBusted)]
    assert [(e.player, e.place, e.shares, e.stack) for e in busted] == [
        ("T1S1", 10, 1, 4_000),  # the worse place is called first
        ("T1S2", 9, 1, 9_500),
    ]


def test_three_out_in_one_hand_two_with_equal_stacks_share_the_lower_places() -> None:
    # 10 left; A started the hand with 5,000, B and C with 3,000 each: A is 8th, B and C
    # share 9th (places 9 and 10).
    floor = ten_left()

    floor.do(same_hand(("T1S3", 3_000), ("T1S1", 5_000), ("T2S4", 3_000)))

    assert places(floor) == {"T1S1": (8, 1), "T1S3": (9, 2), "T2S4": (9, 2)}
    assert floor.t.active == 7


def test_players_out_at_two_tables_in_one_hand_for_hand_hand_are_placed_together() -> None:
    floor = ten_left()

    floor.do(same_hand(("T1S5", 2_000), ("T2S5", 7_000)))

    assert places(floor) == {"T2S5": (9, 1), "T1S5": (10, 1)}


def test_the_stacks_on_record_are_used_when_none_are_given() -> None:
    floor = ten_left()
    floor.do(cmd.SetStack(player="T1S1", stack=800), cmd.SetStack(player="T1S2", stack=1_200))

    floor.do(same_hand(("T1S1", None), ("T1S2", None)))

    assert places(floor) == {"T1S2": (9, 1), "T1S1": (10, 1)}


def test_sharing_players_split_the_prizes_of_the_places_they_cover() -> None:
    # Four entries: the pool is 4,000 CZK, paying 2,000 / 1,200 / 800.
    floor = Floor({1: "1-4 pos 1/2/3"}, structure=STRUCTURE)
    floor.do(cmd.SetStack(player="T1S1", stack=10_000))
    floor.bust("T1S4")  # 4th: not paid
    floor.do(same_hand(("T1S2", 6_000), ("T1S3", 6_000)))  # share 2nd and 3rd

    finish = {(f.player, f.place, f.tied, f.prize) for f in results(floor.t)}

    assert finish == {
        ("T1S1", 1, 1, 2_000),  # the winner, once one is left
        ("T1S2", 2, 2, 1_000),  # (1,200 + 800) / 2
        ("T1S3", 2, 2, 1_000),
        ("T1S4", 4, 1, 0),
    }
    assert [f.place for f in results(floor.t)] == [1, 2, 2, 4]


def test_results_list_only_the_busted_players_while_several_are_left() -> None:
    floor = ten_left()
    floor.bust("T2S1")

    (only,) = results(floor.t)

    assert (only.player, only.place, only.prize, only.entries) == ("T2S1", 10, 0, 1)


def test_undoing_one_of_a_shared_place_leaves_the_other_alone_in_the_lower_place() -> None:
    floor = Floor(dict.fromkeys((1, 2, 3), "1-6 pos 1/2/3"), structure=STRUCTURE)  # 18 left
    floor.do(same_hand(("T1S3", 3_000), ("T1S1", 5_000), ("T2S4", 3_000)))
    assert places(floor) == {"T1S1": (16, 1), "T1S3": (17, 2), "T2S4": (17, 2)}

    floor.do(cmd.UndoBust(player="T1S3", reason="the pot was split, not lost"))

    assert places(floor) == {"T1S1": (17, 1), "T2S4": (18, 1)}
    assert msgspec.msgpack.encode(Tournament.fold(floor.log).state) == floor.snapshot()


# --- refusals ---------------------------------------------------------------------------------


def test_a_starting_stack_that_is_not_known_is_asked_for_by_name() -> None:
    floor = ten_left()

    refused = floor.refuse(same_hand(("T1S1", 100), ("T1S2", None)), NotAllowed, "players[1].stack")

    assert refused.message == "the stack T1S2 started the hand with is needed to place them"


def test_a_player_listed_twice_is_refused() -> None:
    floor = ten_left()

    floor.refuse(same_hand(("T1S1", 100), ("T1S1", 200)), NotAllowed, "players[1].player")


def test_an_unknown_or_busted_player_is_refused_by_position_in_the_list() -> None:
    floor = ten_left()
    floor.bust("T2S2")

    floor.refuse(same_hand(("T1S1", 100), ("NOBODY", 200)), UnknownPlayer, "players[1].player")
    floor.refuse(same_hand(("T2S2", 100), ("T1S1", 200)), NotAllowed, "players[0].player")


def test_everybody_left_cannot_bust_in_one_hand() -> None:
    floor = Floor({1: "1-2 pos 1/1/2"}, structure=STRUCTURE)

    refused = floor.refuse(same_hand(("T1S1", 100), ("T1S2", 100)), NotAllowed, "players")

    assert "somebody wins the hand" in refused.message


# --- places with entries after the first bust-outs --------------------------------------------


def full_room() -> Floor:
    """Three full tables of nine: 27 entries, late registration open."""
    return Floor(dict.fromkeys((1, 2, 3), "1-9 pos 1/2/3"), structure=STRUCTURE)


def test_a_late_entry_moves_everyone_already_out_one_place_down() -> None:
    floor = full_room()
    floor.bust("T1S1")  # 27th of 27
    floor.register("L1")  # a 28th entry: T1S1 is now 28th

    floor.bust("T1S2")

    assert places(floor) == {"T1S1": (28, 1), "T1S2": (27, 1)}
    assert [(f.player, f.place, f.tied) for f in results(floor.t)] == [
        ("T1S2", 27, 1),
        ("T1S1", 28, 1),
    ]


def test_players_out_in_different_hands_never_share_a_place_whatever_entered_between() -> None:
    floor = full_room()
    floor.bust("T1S1")
    floor.bust("T1S2")
    floor.register("L1")
    floor.register("L2")
    floor.bust("T1S3")
    floor.bust("T1S4")

    assert places(floor) == {
        "T1S1": (29, 1),
        "T1S2": (28, 1),
        "T1S3": (27, 1),
        "T1S4": (26, 1),
    }
    assert msgspec.msgpack.encode(Tournament.fold(floor.log).state) == floor.snapshot()


def test_undoing_a_bust_after_a_late_entry_moves_only_those_out_after_it() -> None:
    floor = full_room()
    floor.bust("T1S1")
    floor.register("L1")
    floor.bust("T2S1")
    floor.bust("T3S1")  # T1S1 28th, T2S1 27th, T3S1 26th

    floor.do(cmd.UndoBust(player="T2S1", reason="wrong player"))

    assert places(floor) == {"T1S1": (28, 1), "T3S1": (27, 1)}


def test_the_bust_records_keep_the_stacks_the_floor_gave_and_an_undo_gives_them_back() -> None:
    # Fourteen at two tables: two out leave twelve, short of the final table.
    floor = Floor({1: "1-7 pos 1/2/3", 2: "1-7 pos 1/2/3"}, structure=STRUCTURE)
    # Counted before the hand at 12,000; the floor gives 4,000 for the start of the hand.
    floor.do(cmd.CountTable(table=1, stacks=(cmd.Count(player="T1S1", stack=12_000),)))

    floor.do(same_hand(("T1S1", 4_000), ("T1S2", 9_500)))

    players = floor.t.state.players
    assert players["T1S1"].bust is not None and players["T1S1"].bust.stack == 4_000
    assert players["T1S2"].bust is not None and players["T1S2"].bust.stack == 9_500
    floor.do(cmd.UndoBust(player="T1S2", reason="a mistake"))
    assert floor.t.state.players["T1S2"].stack == 9_500


def test_a_bust_out_records_who_reported_it() -> None:
    floor = ten_left()

    floor.do(cmd.Bust(player="T1S1", by="fred"))
    two = (cmd.Busted(player="T2S1", stack=1), cmd.Busted(player="T2S2", stack=2))
    floor.do(cmd.BustSameHand(players=two, by="boss"))

    bust = {p.id: p.bust.by for p in floor.t.state.players.values() if p.bust is not None}
    assert bust == {"T1S1": "fred", "T2S1": "boss", "T2S2": "boss"}
