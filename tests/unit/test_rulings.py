"""Floor rulings and penalties (PFP 50, FLOOR-RULES 11): a ruling recorded with its table,
players, rule and note; a warning; a sit-out of hands (the table's reported hands) or of
minutes (from the ruling's time, ended by the clock driver); a disqualification (the chips
leave, the place is a bust-out's); a player's earlier rulings at hand, repeats listed."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from floor import config
from floor.engine import commands as cmd
from floor.engine.errors import BadValue, NotAllowed, UnknownPlayer, UnknownTable
from floor.engine.events import (
    PlayerBusted,
    RulingRecorded,
    SitOutEnded,
    TournamentFinished,
)
from floor.engine.read.derived import staff_facts
from floor.engine.read.views import field_stats
from floor.engine.rulings import SEVERITY, check_rule, repeats, sitting_out
from floor.engine.state import Tournament
from floor.engine.validate import InvalidEvent, replay
from floor.server.clockdriver import next_due
from floor.server.redact import for_public
from floor.server.views import snapshots
from tests.unit.builders import Floor
from tests.unit.test_entries_and_buys import table
from tests.unit.test_error_codes import assert_said

T0 = 1_700_000_000.0


def two_tables() -> Floor:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-9 pos 1/2/3"})
    floor.now = T0
    return floor


def sit_out(player: str, *, hands: int | None = None, minutes: int | None = None) -> cmd.Penalty:
    return cmd.Penalty(player=player, kind="sit_out", hands=hands, minutes=minutes)


def ruling(*penalties: cmd.Penalty, **given: object) -> cmd.RecordRuling:
    return cmd.RecordRuling(penalties=penalties, **given)  # type: ignore[arg-type]


# A ruling ----------------------------------------------------------------------------------


def test_a_ruling_is_recorded_with_its_table_players_rule_and_note() -> None:
    floor = two_tables()
    floor.hand(1)

    (event,) = floor.do(
        cmd.RecordRuling(
            table=1,
            players=("T1S4", "T1S5"),
            rule="action-out-of-turn",
            note="  T1S5 acted out of turn;\n bet returned ",
        )
    )

    assert isinstance(event, RulingRecorded)
    assert (event.number, event.table, event.hand, event.at) == (1, 1, 1, T0)
    assert (event.players, event.rule) == (("T1S4", "T1S5"), "action-out-of-turn")
    assert event.note == "T1S5 acted out of turn; bet returned"
    (kept,) = floor.t.state.rulings.made
    assert msgspec.to_builtins(kept) == {
        k: v for k, v in msgspec.to_builtins(event).items() if k != "type"
    }
    # The next one is the day's second.
    (second,) = floor.do(cmd.RecordRuling(table=2, rule="misdeal"))
    assert isinstance(second, RulingRecorded) and second.number == 2


@pytest.mark.parametrize(
    ("command", "error", "field", "reason"),
    [
        (cmd.RecordRuling(table=1), NotAllowed, "rule", "ruling_empty"),
        (cmd.RecordRuling(table=1, note="   "), NotAllowed, "rule", "ruling_empty"),
        (cmd.RecordRuling(table=7, rule="misdeal"), UnknownTable, "table", "table_unknown"),
        (
            cmd.RecordRuling(players=("T1S1", "X9"), rule="misdeal"),
            UnknownPlayer,
            "players[1]",
            "player_unknown",
        ),
        (
            cmd.RecordRuling(players=("T1S1", "T1S1"), rule="misdeal"),
            NotAllowed,
            "players[1]",
            "player_listed_twice",
        ),
        (ruling(sit_out("T1S1")), NotAllowed, "penalties[0].hands", "sit_out_length"),
        (
            ruling(cmd.Penalty(player="T1S1", kind="sit_out", hands=2, rounds=1)),
            NotAllowed,
            "penalties[0].hands",
            "sit_out_length",
        ),
        (
            ruling(cmd.Penalty(player="T1S1", kind="warning", rounds=1)),
            NotAllowed,
            "penalties[0].rounds",
            "penalty_length",
        ),
        (
            ruling(sit_out("T1S1", hands=2, minutes=5)),
            NotAllowed,
            "penalties[0].hands",
            "sit_out_length",
        ),
        (
            ruling(cmd.Penalty(player="T1S1", kind="warning", minutes=5)),
            NotAllowed,
            "penalties[0].minutes",
            "penalty_length",
        ),
        (
            ruling(cmd.Penalty(player="T1S1", kind="sit_out", hands=1, chips=500)),
            NotAllowed,
            "penalties[0].chips",
            "penalty_chips",
        ),
        (
            ruling(cmd.Penalty(player="T1S1", kind="warning"), sit_out("T1S1", hands=1)),
            NotAllowed,
            "penalties[1].player",
            "player_listed_twice",
        ),
        (ruling(sit_out("X9", hands=1)), UnknownPlayer, "penalties[0].player", "player_unknown"),
        (
            cmd.RecordRuling(rule="misdeal", at=T0 + 120),
            NotAllowed,
            "at",
            "ruling_in_future",
        ),
    ],
)
def test_a_bad_ruling_is_refused_naming_the_field_and_changes_nothing(
    command: cmd.RecordRuling, error: type[NotAllowed], field: str, reason: str
) -> None:
    floor = two_tables()

    refused = floor.refuse(command, error, field)

    assert refused.reason == reason


def test_a_penalty_names_its_player_in_the_ruling_and_a_warning_is_kept() -> None:
    floor = two_tables()

    (event,) = floor.do(
        ruling(cmd.Penalty(player="T1S3", kind="warning"), table=1, rule="etiquette-violations")
    )

    assert isinstance(event, RulingRecorded)
    assert event.players == ("T1S3",)
    assert [(g.player, g.kind) for g in event.penalties] == [("T1S3", "warning")]
    assert floor.t.state.rulings.sit_outs == []
    # A warning may be given to a player already out (abuse after the bust-out).
    floor.bust("T1S9")
    floor.do(ruling(cmd.Penalty(player="T1S9", kind="warning")))


# Sit-outs of minutes -------------------------------------------------------------------------


def test_a_sit_out_of_minutes_runs_from_the_rulings_time_and_the_clock_ends_it() -> None:
    floor = two_tables()
    floor.do(ruling(sit_out("T1S4", minutes=10), table=1, rule="penalties"))

    running = sitting_out(floor.t.state, "T1S4")
    assert running is not None and running.ends_at == T0 + 600
    # The clock driver wakes for it.
    assert next_due(floor.t) == T0 + 600
    assert floor.do(cmd.Tick(), now=T0 + 599) == []

    (ended,) = floor.do(cmd.Tick(), now=T0 + 605)

    assert ended == SitOutEnded(player="T1S4", ruling=1, how="time", at=T0 + 600)
    assert sitting_out(floor.t.state, "T1S4") is None
    assert next_due(floor.t) is None


def test_a_ruling_sent_late_from_the_outbox_ends_ten_minutes_after_it_was_made() -> None:
    floor = two_tables()
    events = floor.do(ruling(sit_out("T1S4", minutes=10), at=T0 - 580))
    assert sitting_out(floor.t.state, "T1S4") is not None
    (ended,) = floor.do(cmd.Tick(), now=T0 + 20)
    assert isinstance(ended, SitOutEnded) and ended.at == T0 + 20

    # Sent after its ten minutes, it is over as soon as it is written.
    events = floor.do(ruling(sit_out("T1S5", minutes=10), at=T0 - 900))
    assert [type(e) for e in events] == [RulingRecorded, SitOutEnded]
    assert sitting_out(floor.t.state, "T1S5") is None


def test_a_phone_a_little_ahead_of_the_server_ruled_now() -> None:
    floor = two_tables()
    (event,) = floor.do(ruling(sit_out("T1S4", minutes=1), at=T0 + 20))
    assert isinstance(event, RulingRecorded) and event.at == T0
    assert event.penalties[0].ends_at == T0 + 60


# Sit-outs of hands ---------------------------------------------------------------------------


def test_a_sit_out_of_hands_counts_the_hands_the_players_table_deals() -> None:
    floor = two_tables()
    floor.hand(1)  # the hand in progress when the ruling is made does not count
    floor.do(ruling(sit_out("T1S4", hands=2), table=1))

    floor.hand(2)  # another table's hand does not count
    floor.hand(1)  # the first hand missed
    running = sitting_out(floor.t.state, "T1S4")
    assert running is not None and running.hands_left == 1
    floor.hand(1)  # the second
    running = sitting_out(floor.t.state, "T1S4")
    assert running is not None and running.hands_left == 0

    events = floor.hand(1)  # dealt in again

    assert SitOutEnded(player="T1S4", ruling=1, how="hands", at=T0) in events
    assert sitting_out(floor.t.state, "T1S4") is None


def test_a_player_moved_while_sitting_out_goes_on_counting_at_the_new_table() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-6 pos 1/2/3"})
    (player, *_), *_ = floor.moves()
    assert player is not None
    floor.do(ruling(sit_out(player, hands=1)))
    floor.confirm(player)

    floor.hand(1)
    table = floor.where(player)
    assert table is not None and table[0] == 2
    floor.hand(2)

    assert sitting_out(floor.t.state, player) is not None
    assert any(isinstance(e, SitOutEnded) for e in floor.hand(2))


def test_one_sit_out_at_a_time_the_floor_ends_one_early_and_a_bust_out_ends_it() -> None:
    floor = two_tables()
    floor.do(ruling(sit_out("T1S4", hands=3)))

    refused = floor.refuse(ruling(sit_out("T1S4", minutes=5)), NotAllowed, "penalties[0].player")
    assert refused.reason == "sit_out_running"
    assert refused.params == {"player": "T1S4", "ruling": 1}

    (ended,) = floor.do(cmd.EndSitOut(player="T1S4"), now=T0 + 30)
    assert ended == SitOutEnded(player="T1S4", ruling=1, how="floor", at=T0 + 30)
    floor.refuse(cmd.EndSitOut(player="T1S4"), NotAllowed, "player")

    floor.do(ruling(sit_out("T1S5", minutes=5)))
    floor.bust("T1S5")
    assert floor.t.state.rulings.sit_outs == []


def test_a_player_out_or_not_seated_is_not_sat_out() -> None:
    floor = two_tables()
    floor.bust("T1S9")
    refused = floor.refuse(ruling(sit_out("T1S9", hands=1)), NotAllowed, "penalties[0].player")
    assert refused.reason == "player_out"


# Missed rounds (TDA 2024 rule 71A) ---------------------------------------------------------


def test_a_missed_round_is_a_hand_per_player_at_the_table_when_the_ruling_is_made() -> None:
    floor = Floor({1: "1-8 pos 1/2/3", 2: "1-9 pos 1/2/3"})
    floor.now = T0
    floor.hand(1)

    (event,) = floor.do(
        ruling(
            cmd.Penalty(player="T1S4", kind="sit_out", rounds=2),
            table=1,
            rule="electronic-devices",
            note="used a solver app with a live hand",
        )
    )

    # Eight players at table 1, the offender included: two rounds are sixteen hands.
    assert isinstance(event, RulingRecorded)
    (given,) = event.penalties
    assert (given.kind, given.rounds, given.hands, given.minutes) == ("sit_out", 2, 16, None)
    running = sitting_out(floor.t.state, "T1S4")
    assert running is not None and running.hands_left == 16
    # Fixed when given: a bust-out at the table later does not shorten it.
    floor.bust("T1S8")
    floor.hand(1)
    running = sitting_out(floor.t.state, "T1S4")
    assert running is not None and running.hands_left == 15


def test_a_logged_missed_round_that_is_not_the_tables_hands_is_refused_on_replay() -> None:
    floor = Floor({1: "1-8 pos 1/2/3", 2: "1-9 pos 1/2/3"})
    floor.now = T0
    (event,) = floor.do(ruling(cmd.Penalty(player="T1S4", kind="sit_out", rounds=1)))
    assert isinstance(event, RulingRecorded) and event.penalties[0].hands == 8
    replay(floor.log)
    doctored = msgspec.structs.replace(
        event, penalties=(msgspec.structs.replace(event.penalties[0], hands=5),)
    )

    with pytest.raises(InvalidEvent, match="hands 5 does not follow the log: it would be 8"):
        replay([*floor.log[:-1], doctored])


# The rule a ruling applies, checked against the book ----------------------------------------


@pytest.mark.parametrize(
    ("book", "rule"),
    [
        ("tda-2024", "player-identity"),  # rule 4
        ("tda-2024", "electronic-devices"),  # rule 5
        ("tda-2024", "penalties"),  # rule 71
        ("tda-2024", "string-bets"),
        ("pfp-2014", "player-identity"),  # the TDA's, which the house does not replace
        ("pfp-2014", "string-bets"),  # replaced by PFP 36, which its id opens
        ("tda-2011", "misdeal"),
    ],
)
def test_a_ruling_may_cite_any_rule_its_book_holds(book: str, rule: str) -> None:
    check_rule(rule, config.load_rulebook(book))
    check_rule(None, config.load_rulebook(book))


def test_a_ruling_citing_a_rule_its_book_does_not_hold_is_refused_naming_the_field() -> None:
    with pytest.raises(BadValue) as refused:
        check_rule("no-such-rule", config.load_rulebook("tda-2024"))

    assert (refused.value.field, refused.value.reason) == ("rule", "rule_unknown")
    assert refused.value.params == {"rule": "no-such-rule", "book": "TDA 2024"}
    assert refused.value.message == "TDA 2024 has no rule “no-such-rule”"
    # The Pardubice rules hold PFP 36 and no TDA rule 56 of its own, but that id opens it;
    # an id that is a slug but of no book is refused there too.
    with pytest.raises(BadValue):
        check_rule("wsop-rule-12", config.load_rulebook("pfp-2014"))


# Disqualification ----------------------------------------------------------------------------


def test_a_disqualification_takes_the_chips_out_and_records_a_bust_outs_place() -> None:
    floor = table()  # four players with 20,000 each, money and re-entries
    floor.now = T0
    before = field_stats(floor.t).chips

    events = floor.do(
        ruling(
            cmd.Penalty(player="T1S2", kind="disqualification"),
            table=1,
            rule="etiquette",
            note="chip dumping",
        )
    )

    assert [type(e) for e in events[:2]] == [RulingRecorded, PlayerBusted]
    given = events[0].penalties[0]  # type: ignore[attr-defined]
    assert (given.kind, given.chips, given.place) == ("disqualification", 20_000, 4)
    busted = events[1]
    assert isinstance(busted, PlayerBusted) and busted.place == 4  # as a bust-out now
    p = floor.t.player("T1S2")
    assert p.busted and p.bust is not None and p.bust.place == 4
    assert field_stats(floor.t).chips == before - 20_000
    assert floor.t.state.rulings.disqualified == {"T1S2": 1}

    # It is not undone as a bust-out, and the player does not re-enter.
    undo = floor.refuse(cmd.UndoBust(player="T1S2", reason="oops"), NotAllowed, "player")
    assert (undo.reason, undo.params) == ("player_disqualified", {"player": "T1S2", "ruling": 1})
    again = floor.refuse(cmd.Register(player="T1S2", name="T1S2"), NotAllowed, "player")
    assert again.reason == "player_disqualified"
    facts = staff_facts(floor.t)
    assert all(u.player != "T1S2" for u in facts.undo)
    assert (facts.bars["T1S2"] or {})["re_entry"].reason == "player_disqualified"


def test_the_chips_counted_when_taken_are_the_chips_that_leave() -> None:
    floor = table()
    before = field_stats(floor.t).chips
    floor.do(ruling(cmd.Penalty(player="T1S2", kind="disqualification", chips=18_500)))
    assert field_stats(floor.t).chips == before - 18_500


def test_two_disqualified_in_one_ruling_take_the_next_places_and_one_is_left_to_win() -> None:
    floor = Floor({1: "1-3 pos 1/2/3"})

    events = floor.do(
        ruling(
            cmd.Penalty(player="T1S1", kind="disqualification"),
            cmd.Penalty(player="T1S2", kind="disqualification"),
            rule="etiquette",
        )
    )

    places = [(e.player, e.place) for e in events if isinstance(e, PlayerBusted)]
    assert places == [("T1S1", 3), ("T1S2", 2)]
    assert any(isinstance(e, TournamentFinished) and e.winner == "T1S3" for e in events)

    last = Floor({1: "1-2 pos 1/2/2"})
    refused = last.refuse(
        ruling(
            cmd.Penalty(player="T1S1", kind="disqualification"),
            cmd.Penalty(player="T1S2", kind="disqualification"),
        ),
        NotAllowed,
        "penalties[1].player",
    )
    assert (refused.reason, refused.params) == ("disqualify_all", {"players": 2, "left": 2})


def test_a_disqualified_player_leaves_a_seat_the_plan_fills() -> None:
    floor = Floor({1: "1-9 pos 1/2/3", 2: "1-8 pos 1/2/3"})
    assert floor.moves() == []
    floor.do(ruling(cmd.Penalty(player="T2S4", kind="disqualification")))
    floor.bust("T2S5")
    # Two fewer at table 2: table 1 balances into it.
    assert [m[3] for m in floor.moves()] == ["balance"]


# A player's record and repeats --------------------------------------------------------------


def test_players_penalised_more_than_once_are_listed_to_escalate() -> None:
    floor = two_tables()
    floor.do(ruling(cmd.Penalty(player="T1S4", kind="warning"), rule="etiquette-violations"))
    floor.do(cmd.RecordRuling(players=("T1S4",), rule="misdeal"))  # named, not penalised
    floor.do(ruling(cmd.Penalty(player="T1S5", kind="warning")))
    assert repeats(floor.t.state) == []

    floor.do(ruling(sit_out("T1S4", hands=2), rule="etiquette-violations"))

    (repeat,) = repeats(floor.t.state)
    assert (repeat.player, repeat.rulings, repeat.heaviest) == ("T1S4", [1, 4], "sit_out")
    assert staff_facts(floor.t).repeats == [repeat]
    # Every ruling naming the player is at hand when the next is decided.
    named = [r.number for r in floor.t.state.rulings.made if "T1S4" in r.players]
    assert named == [1, 2, 4]


# The log ----------------------------------------------------------------------------------


def test_a_log_with_rulings_replays_checked_to_the_same_state() -> None:
    floor = two_tables()
    floor.do(ruling(sit_out("T1S4", minutes=10), table=1, note="phone at the table"))
    floor.do(ruling(sit_out("T2S2", hands=1)))
    floor.hand(2, 2)
    floor.do(cmd.Tick(), now=T0 + 700)
    floor.do(ruling(cmd.Penalty(player="T1S1", kind="disqualification")))

    replayed = replay(floor.log)

    assert msgspec.msgpack.encode(replayed.state) == msgspec.msgpack.encode(floor.t.state)
    assert msgspec.msgpack.encode(Tournament.fold(floor.log).state) == msgspec.msgpack.encode(
        floor.t.state
    )


def test_an_imported_ruling_out_of_order_or_an_unknown_sit_out_end_is_refused() -> None:
    floor = two_tables()
    floor.do(cmd.RecordRuling(rule="misdeal"))
    bad = [
        *floor.log,
        RulingRecorded(
            number=5, table=None, hand=None, players=(), rule=None, note="", penalties=(), at=T0
        ),
    ]
    with pytest.raises(InvalidEvent, match="number 5 does not follow the log"):
        replay(bad)
    with pytest.raises(InvalidEvent, match="not sitting out") as caught:
        replay([*floor.log, SitOutEnded(player="T1S1", ruling=1, how="time", at=T0)])
    assert_said(caught.value.error, "no_sit_out_ruling", {"player": "T1S1", "ruling": 1})


# The screens' texts ------------------------------------------------------------------------

WEB = Path(__file__).resolve().parents[2] / "web" / "js"
KEY = re.compile(r'^\s*"([a-z0-9_]+(?:\.[a-z0-9_-]+)+)":', re.MULTILINE)


def test_every_text_of_the_rulings_screens_is_in_english_and_czech() -> None:
    en = set(KEY.findall((WEB / "lang" / "rulings-en.js").read_text(encoding="utf-8")))
    cs = set(KEY.findall((WEB / "lang" / "rulings-cs.js").read_text(encoding="utf-8")))
    assert en == cs
    everywhere = en | set(KEY.findall((WEB / "lang" / "en.js").read_text(encoding="utf-8")))
    used = set(
        re.findall(
            r'\bt\("((?:ruling|sitout|rules|director)\.[a-z0-9_.]+)"',
            _source("rulings.js") + _source("rulebook.js"),
        )
    )
    kinds = {f"ruling.{k}.{x}" for k in ("kind", "heaviest") for x in SEVERITY} | {
        "ruling.kind.none"
    }
    assert used | kinds <= everywhere, sorted((used | kinds) - everywhere)


def _source(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8")


def test_the_floors_note_is_staff_text_the_public_is_sent_as_null() -> None:
    floor = two_tables()
    floor.do(ruling(sit_out("T1S4", minutes=10), table=1, note="swore at the dealer"))

    views = snapshots("t", floor.t, 9)
    public, staff = (msgspec.json.decode(views[v])["state"]["rulings"] for v in ("public", "staff"))
    assert staff["made"][0]["note"] == "swore at the dealer"
    assert public["made"][0]["note"] is None
    # Who sits out, and until when, is the room's to see.
    assert public["sit_outs"] == staff["sit_outs"]
    batch = msgspec.json.encode({"events": [{"seq": 9, "event": floor.log[-1]}]})
    assert msgspec.json.decode(for_public(batch))["events"][0]["event"]["note"] is None
