"""Who may send which command, and which origins may change state: no Redis needed.

A table screen (role ``table``) and a dealer signed in on one may send the same: what a table
screen sends, at its own table of its own tournament."""

from __future__ import annotations

import typing

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.events import PlayerBusted, TableSetUp, TournamentCreated
from floor.engine.rules import Rules, Structure
from floor.engine.state import Tournament
from floor.server.edges import STATUS
from floor.server.origins import origin_allowed
from floor.server.permissions import authorize, sender
from floor.server.principal import PUBLIC, Forbidden, Principal

DIRECTOR = Principal(username="dana", role="director", table=None)
FLOOR = Principal(username="floyd", role="floor", table=None)
DEALER = Principal(username="dee", role="dealer", table=3, tournament="t", device="a1b2c3d4e5f6")
TABLET = Principal(username=None, role="table", table=3, tournament="t", device="a1b2c3d4e5f6")

#: One of every command, at table 3 where a table is named.
EXAMPLES: dict[type[typing.Any], cmd.Command] = {
    cmd.Register: cmd.Register(name="Ann"),
    cmd.DrawSeats: cmd.DrawSeats(),
    cmd.OpenTable: cmd.OpenTable(table=9),
    cmd.Bust: cmd.Bust(table=3, seat=2),
    cmd.BustSameHand: cmd.BustSameHand(
        players=(cmd.Busted(player="T3S1"), cmd.Busted(player="T3S2"))
    ),
    cmd.UndoBust: cmd.UndoBust(player="T3S2", reason="wrong player"),
    cmd.Hand: cmd.Hand(table=3),
    cmd.HandDone: cmd.HandDone(table=3, out=(cmd.SeatOut(seat=1, stack=500),)),
    cmd.StartHandForHand: cmd.StartHandForHand(),
    cmd.EndHandForHand: cmd.EndHandForHand(),
    cmd.Button: cmd.Button(table=3, seat=1),
    cmd.Confirm: cmd.Confirm(player="T3S1"),
    cmd.ConfirmAll: cmd.ConfirmAll(reason="balance"),
    cmd.Cancel: cmd.Cancel(player="T3S1"),
    cmd.CallMove: cmd.CallMove(player="T3S1"),
    cmd.CallAll: cmd.CallAll(reason="break"),
    cmd.WaiveHalt: cmd.WaiveHalt(table=3),
    cmd.BreakTable: cmd.BreakTable(table=3),
    cmd.StartFinal: cmd.StartFinal(),
    cmd.LockSeat: cmd.LockSeat(player="T3S1"),
    cmd.CorrectSeat: cmd.CorrectSeat(player="T3S1", table=3, seat=5),
    cmd.RenamePlayer: cmd.RenamePlayer(player="T3S1", name="Ann Other"),
    cmd.SetSpecialNeeds: cmd.SetSpecialNeeds(player="T3S1"),
    cmd.Unregister: cmd.Unregister(player="T3S1"),
    cmd.SetGame: cmd.SetGame(game="holdem"),
    cmd.SetStack: cmd.SetStack(player="T3S1", stack=1000),
    cmd.CountTable: cmd.CountTable(table=3, stacks=(cmd.Count(player="T3S1", stack=1000),)),
    cmd.Rebuy: cmd.Rebuy(player="T3S1"),
    cmd.AddOn: cmd.AddOn(player="T3S1"),
    cmd.ChipRace: cmd.ChipRace(table=3, seats=(cmd.RaceCount(seat=1, chips=3),)),
    cmd.ClockStart: cmd.ClockStart(),
    cmd.ClockPause: cmd.ClockPause(),
    cmd.ClockResume: cmd.ClockResume(),
    cmd.ClockAdjust: cmd.ClockAdjust(seconds=60),
    cmd.ClockLevel: cmd.ClockLevel(step=1),
    cmd.Tick: cmd.Tick(),
    cmd.CallTime: cmd.CallTime(table=3, seat=1),
    cmd.EndTimeCall: cmd.EndTimeCall(table=3, seat=1),
    cmd.CloseTournament: cmd.CloseTournament(),
    cmd.RegisterMany: cmd.RegisterMany(entries=(cmd.NewEntry(name="Ann"),)),
    cmd.SetPrize: cmd.SetPrize(prize=None),
    cmd.RecordRuling: cmd.RecordRuling(
        table=3, penalties=(cmd.Penalty(player="T3S1", kind="sit_out", minutes=10),)
    ),
    cmd.EndSitOut: cmd.EndSitOut(player="T3S1"),
    cmd.SetFlight: cmd.SetFlight(event="main", order=1),
    cmd.BagTable: cmd.BagTable(table=3, bags=(cmd.Bag(player="T3S1", stack=1000),)),
    cmd.EndDay: cmd.EndDay(now=True),
    cmd.ProposeDeal: cmd.ProposeDeal(method="icm"),
    cmd.MakeDeal: cmd.MakeDeal(agreed=("T3S1",)),
    cmd.PayBounty: cmd.PayBounty(player="T3S1"),
    cmd.SetCapacity: cmd.SetCapacity(capacity=None),
    cmd.QueueAlternate: cmd.QueueAlternate(name="Ann"),
    cmd.JoinAlternates: cmd.JoinAlternates(name="Ann"),
    cmd.SeatAlternate: cmd.SeatAlternate(alternate="A1"),
    cmd.DropAlternate: cmd.DropAlternate(alternate="A1"),
    cmd.Announce: cmd.Announce(text="Dinner break after this level"),
    cmd.ClearAnnouncement: cmd.ClearAnnouncement(),
    cmd.IssueSeats: cmd.IssueSeats(),
    cmd.UndoDeal: cmd.UndoDeal(reason="a share typed wrong"),
    cmd.SetWitness: cmd.SetWitness(value="271828"),
    cmd.AwardSeat: cmd.AwardSeat(player="T3S1"),
    cmd.SetStructure: cmd.SetStructure(
        structure=msgspec.convert(
            {
                "name": "s",
                "starting_stack": 100,
                "chips": [25],
                "levels": [{"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 20}],
            },
            Structure,
        )
    ),
}

FLOOR_MAY = {
    cmd.BagTable,
    cmd.PayBounty,
    cmd.RecordRuling,
    cmd.EndSitOut,
    cmd.Bust,
    cmd.BustSameHand,
    cmd.UndoBust,
    cmd.Hand,
    cmd.HandDone,
    cmd.Button,
    cmd.Confirm,
    cmd.ConfirmAll,
    cmd.Cancel,
    cmd.CallMove,
    cmd.CallAll,
    cmd.CallTime,
    cmd.EndTimeCall,
    cmd.CorrectSeat,
    cmd.LockSeat,
    cmd.RenamePlayer,
    cmd.SetSpecialNeeds,
    cmd.Unregister,
    cmd.Register,
    cmd.RegisterMany,
    cmd.SetStack,
    cmd.CountTable,
    cmd.Rebuy,
    cmd.AddOn,
    cmd.ChipRace,
    cmd.QueueAlternate,
    cmd.SeatAlternate,
    cmd.DropAlternate,
    cmd.AwardSeat,
}
DEALER_MAY = {cmd.Hand, cmd.HandDone, cmd.Button, cmd.Bust, cmd.BustSameHand}


def tournament(tid: str = "t") -> Tournament:
    """Table 3 with players in seats 1-4 (T3S1...), table 4 with seats 1-4 (T4S1...)."""
    rules = msgspec.convert({"game": "holdem", "seats": 9, "final_table": 9}, Rules)
    t = Tournament.create(TournamentCreated(id=tid, name="test", rules=rules))
    for n in (3, 4):
        t.apply(TableSetUp(table=n, seats=9, occupants={s: f"T{n}S{s}" for s in range(1, 5)}))
    return t


def test_every_command_has_an_example() -> None:
    assert set(EXAMPLES) == set(typing.get_args(cmd.Command))


def test_every_command_names_the_least_role_that_may_send_it() -> None:
    """The commands' own declarations (``may_send``), read as a table."""
    least = {kind: sender(example) for kind, example in EXAMPLES.items()}
    assert {k for k, s in least.items() if s == "dealer"} == DEALER_MAY
    assert {k for k, s in least.items() if s in ("dealer", "floor")} == FLOOR_MAY
    # The public's join to the alternates' line is sent by its own route, limited per address.
    assert {k for k, s in least.items() if s == "server"} == {cmd.Tick, cmd.JoinAlternates}


def test_every_command_declares_the_least_role_that_may_send_it() -> None:
    """Each command's own class says it (none inherits it), as one of the roles."""
    roles = set(typing.get_args(cmd.Sender))
    undeclared = [
        k.__name__ for k in typing.get_args(cmd.Command) if vars(k).get("may_send") not in roles
    ]
    assert not undeclared


def test_a_command_declared_without_its_sender_fails_at_its_declaration() -> None:
    with pytest.raises(TypeError, match="command Nobodys declares no may_send"):

        class Nobodys(cmd._Command, frozen=True, tag="nobodys"):
            pass


def test_who_may_send_a_command_is_neither_encoded_nor_decoded() -> None:
    """A class variable, not a field: the wire and the schema do not know it, and a command
    sent with one is refused as an unknown field."""
    assert b"may_send" not in msgspec.json.encode(cmd.Tick())
    assert "may_send" not in str(msgspec.json.schema(cmd.Command))
    with pytest.raises(msgspec.ValidationError, match="unknown field `may_send`"):
        msgspec.json.decode(b'{"type": "tick", "may_send": "dealer"}', type=cmd.Command)


def expected(principal: Principal, kind: type[typing.Any]) -> bool:
    if kind in (cmd.Tick, cmd.JoinAlternates):
        return False
    return {
        "director": True,
        "floor": kind in FLOOR_MAY,
        "dealer": kind in DEALER_MAY,
        "table": kind in DEALER_MAY,
        "public": False,
    }[principal.role]


@pytest.mark.parametrize(
    "principal", [DIRECTOR, FLOOR, DEALER, TABLET, PUBLIC], ids=lambda p: p.role
)
@pytest.mark.parametrize("kind", list(EXAMPLES), ids=lambda k: k.__name__)
def test_the_permission_matrix(principal: Principal, kind: type[typing.Any]) -> None:
    command = EXAMPLES[kind]
    if expected(principal, kind):
        authorize(principal, command, tournament())
    else:
        with pytest.raises(Forbidden) as caught:
            authorize(principal, command, tournament())
        assert STATUS[caught.value.code] == 403
        assert caught.value.code == "forbidden"


def test_nobody_sends_the_clock_tick_not_even_the_director() -> None:
    for principal in (DIRECTOR, FLOOR, DEALER, TABLET, PUBLIC):
        with pytest.raises(Forbidden, match="tick"):
            authorize(principal, cmd.Tick(), None)


def test_the_refusal_says_what_the_role_may_do() -> None:
    with pytest.raises(Forbidden, match=r"floor staff may bust players.*break_table"):
        authorize(FLOOR, cmd.BreakTable(table=3), None)
    with pytest.raises(Forbidden, match=r"own table \(3\)"):
        authorize(DEALER, cmd.Confirm(player="T3S1"), tournament())
    with pytest.raises(Forbidden, match="read-only"):
        authorize(PUBLIC, cmd.Hand(table=3), None)


@pytest.mark.parametrize(
    "command",
    [cmd.Hand(table=4), cmd.Button(table=4, seat=1), cmd.Bust(table=4, seat=1)],
    ids=["hand", "button", "bust"],
)
def test_a_dealer_is_refused_at_another_table(command: cmd.Command) -> None:
    with pytest.raises(Forbidden, match="table 4 is not yours") as caught:
        authorize(DEALER, command, tournament())
    assert caught.value.field == "table"
    authorize(FLOOR, command, tournament())


def test_a_dealer_busts_a_named_player_at_their_own_table_only() -> None:
    t = tournament()
    authorize(DEALER, cmd.Bust(player="T3S2"), t)
    with pytest.raises(Forbidden, match="T4S2 is not at your table 3") as caught:
        authorize(DEALER, cmd.Bust(player="T4S2"), t)
    assert caught.value.field == "player"


def test_a_dealer_reports_players_out_in_one_hand_at_their_own_table_only() -> None:
    t = tournament()
    mine = (cmd.Busted(player="T3S1", stack=1), cmd.Busted(player="T3S2", stack=2))
    authorize(DEALER, cmd.BustSameHand(players=mine), t)
    theirs = (cmd.Busted(player="T3S1", stack=1), cmd.Busted(player="T4S2", stack=2))
    with pytest.raises(Forbidden, match="T4S2 is not at your table 3") as caught:
        authorize(DEALER, cmd.BustSameHand(players=theirs), t)
    assert caught.value.field == "players[1].player"
    with pytest.raises(Forbidden, match="table 4 is not yours"):
        authorize(DEALER, cmd.HandDone(table=4), t)


def test_a_dealer_naming_an_unknown_player_is_refused_as_not_their_business() -> None:
    with pytest.raises(Forbidden, match="ghost is not at your table 3"):
        authorize(DEALER, cmd.Bust(player="ghost"), tournament())


def test_a_dealer_naming_a_player_without_the_tournament_is_refused() -> None:
    with pytest.raises(Forbidden):
        authorize(DEALER, cmd.Bust(player="T3S2"), None)


def test_a_dealer_naming_a_player_and_another_table_is_refused() -> None:
    with pytest.raises(Forbidden, match="table 4"):
        authorize(DEALER, cmd.Bust(player="T3S2", table=4, seat=2), tournament())


def test_a_dealer_must_name_a_seat_or_a_player() -> None:
    with pytest.raises(Forbidden, match="name the seat"):
        authorize(DEALER, cmd.Bust(), tournament())


def test_a_second_tap_on_a_bust_at_the_dealers_table_reaches_the_engine() -> None:
    t = tournament()
    t.apply(PlayerBusted(player="T3S2", table=3, seat=2, hand=0, place=8))
    authorize(DEALER, cmd.Bust(player="T3S2"), t)  # the engine answers "already out"
    t.apply(PlayerBusted(player="T4S2", table=4, seat=2, hand=0, place=7))
    with pytest.raises(Forbidden):
        authorize(DEALER, cmd.Bust(player="T4S2"), t)


def test_a_dealer_off_a_table_screen_may_do_nothing() -> None:
    """A dealer's session from before table screens was for table 3 of every tournament."""
    for bound in (
        Principal(username="dee", role="dealer", table=3),
        Principal(username="dee", role="dealer", table=None),
        Principal(username="dee", role="dealer", table=3, tournament="t"),
    ):
        with pytest.raises(Forbidden, match="paired table screen"):
            authorize(bound, cmd.Hand(table=3), tournament())


@pytest.mark.parametrize("principal", [TABLET, DEALER], ids=["table", "dealer"])
@pytest.mark.parametrize("kind", sorted(DEALER_MAY, key=lambda k: k.__name__), ids=str)
def test_a_table_screen_sends_nothing_to_another_tournament(
    principal: Principal, kind: type[typing.Any]
) -> None:
    """The finding: the table-3 tablet busted a player at table 3 of another tournament."""
    other = tournament("u")
    with pytest.raises(Forbidden, match="belongs to table 3 of 't'") as caught:
        authorize(principal, EXAMPLES[kind], other)
    assert caught.value.field == "tournament"
    with pytest.raises(Forbidden):
        authorize(principal, EXAMPLES[kind], None)
    authorize(principal, EXAMPLES[kind], tournament("t"))


# Origins -------------------------------------------------------------------------------------

ALLOWED = ("https://display.example.org", "http://localhost:5173/")


@pytest.mark.parametrize(
    ("origin", "host", "ok"),
    [
        # Non-browser clients send no Origin.
        (None, "floor.example.org", True),
        (None, None, True),
        # The page's own origin: same host and port.
        ("https://floor.example.org", "floor.example.org", True),
        ("http://floor.example.org", "floor.example.org", True),
        ("HTTPS://Floor.Example.ORG", "floor.example.org", True),
        ("https://floor.example.org:443", "floor.example.org", True),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("https://floor.example.org:8443", "floor.example.org:8443", True),
        # Another host, another port.
        ("https://evil.example.com", "floor.example.org", False),
        ("https://floor.example.org.evil.com", "floor.example.org", False),
        ("http://127.0.0.1:9000", "127.0.0.1:8000", False),
        ("https://floor.example.org:8443", "floor.example.org", False),
        ("https://floor.example.org", "floor.example.org:8443", False),
        ("https://floor.example.org", None, False),
        # Not an origin at all.
        ("null", "floor.example.org", False),
        ("", "floor.example.org", False),
        ("file://", "floor.example.org", False),
        ("chrome-extension://abc", "abc", False),
        ("https://floor.example.org/path", "floor.example.org", False),
        ("https://user@floor.example.org", "floor.example.org", False),
        ("https://floor.example.org:99999", "floor.example.org", False),
        ("https://floor.example.org", "floor.example.org:bad", False),
        # Configured origins, compared whole (scheme included).
        ("https://display.example.org", "floor.example.org", True),
        ("https://display.example.org:443", "floor.example.org", True),
        ("http://display.example.org", "floor.example.org", False),
        ("http://localhost:5173", "127.0.0.1:8000", True),
        ("https://localhost:5173", "127.0.0.1:8000", False),
    ],
)
def test_origin_allowed(origin: str | None, host: str | None, ok: bool) -> None:
    assert origin_allowed(origin, host, ALLOWED) is ok


def test_no_origin_is_allowed_without_configuration() -> None:
    assert origin_allowed("https://display.example.org", "floor.example.org", ()) is False


def test_every_auth_error_names_its_code_and_http_status() -> None:
    from floor.engine.errors import FloorError
    from floor.server import principal as auth

    statuses = {
        auth.BadCredentials: ("bad_credentials", 401),
        auth.SignedOut: ("signed_out", 401),
        auth.TooManyAttempts: ("too_many_attempts", 429),
        auth.Forbidden: ("forbidden", 403),
        auth.AccountExists: ("account_exists", 409),
        auth.NoSuchAccount: ("no_such_account", 404),
        auth.BadAccount: ("bad_account", 422),
    }
    assert set(statuses) == set(auth.AuthError.__subclasses__())
    for error, (code, status) in statuses.items():
        assert issubclass(error, FloorError)
        assert (error.code, STATUS[error.code]) == (code, status)
    assert auth.TooManyAttempts(42).retry_after == 42
