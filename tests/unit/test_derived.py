"""The derived facts screens show (``floor.engine.read.derived``) say what ``decide`` does.

Both ask the same checks (``windows``, ``undo``, ``room``, ``moves``, ``final``,
``colour_up``); what these tests hold is what each side makes of them: which sales a standing
is offered, which seats and tables are asked, at which step of the clock. Random tournaments
(reserved seats among them) are replayed batch by batch; at checkpoints every offer, undo,
break, redirect and the final table's start the facts predict is tried on a copy through
``decide``: accepted exactly when the facts say so, refused with the reason they give. The
facts a batch carries for the players it named, merged the way a screen merges them, equal
the whole facts after every batch.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.clock import seconds_to_break
from floor.engine.decide import decide
from floor.engine.errors import PARAMS, RuleError
from floor.engine.events import Event, HandStarted, LevelChanged, TournamentCreated
from floor.engine.read.derived import Facts, StaffFacts, public_facts, staff_facts
from floor.engine.read.views import TableView, table_view, touched_tables
from floor.engine.rulebook import fold
from floor.engine.rules import Break, Structure
from floor.engine.state import Tournament
from floor.engine.why import Why
from floor.engine.windows import standing
from tests.browser.tournaments import MONEY, Game, games, play
from tests.unit.builders import Floor

#: The maps a batch sends for the players it named (None removes an entry).
PARTIAL = ("search", "search_ids", "bars", "moves")


@pytest.fixture(scope="module")
def played() -> list[Game]:
    return games()


def replay(g: Game, every: int) -> Any:
    """The tournament after each batch; yields (tournament, batch index, batch) at each
    ``every``-th batch and after the last."""
    first = g.batches[0][0]
    assert isinstance(first, TournamentCreated)
    t = Tournament.create(first)
    last = len(g.batches) - 1
    for i, batch in enumerate(g.batches):
        for e in batch[1:] if i == 0 else batch:
            t.apply(e)
        yield t, i, batch, i % every == 0 or i == last


def now_at(t: Tournament) -> float:
    """An instant at which ``decide`` sees the clock's step as written."""
    c = t.state.clock
    if c.running and c.ends_at is not None:
        return c.ends_at - 0.5
    return t.state.created_at


def attempt(t: Tournament, command: cmd.Command) -> RuleError | None:
    try:
        decide(t.copy(), command, now_at(t), random.Random(0))
    except RuleError as e:
        return e
    return None


def assert_refused_as(error: RuleError | None, why: Why, player: str | None = None) -> None:
    assert error is not None, f"accepted, though the facts say {why}"
    params = dict(why.params)
    if player is not None and "player" in PARAMS[why.reason]:
        params.setdefault("player", player)
    assert (error.reason, error.params) == (why.reason, params), error.message


SALE_COMMANDS = {
    "re_entry": lambda p: cmd.Register(name=p.name, player=p.id),
    "rebuy": lambda p: cmd.Rebuy(player=p.id),
    "add_on": lambda p: cmd.AddOn(player=p.id),
}


def test_offers_are_what_decide_sells(played: list[Game]) -> None:
    checked = {"sold": 0, "closed": 0, "barred": 0, "not offered": 0}
    for g in played:
        for t, _, _, check in replay(g, 60):
            if not check:
                continue
            staff = staff_facts(t)
            for p in t.state.players.values():
                where = standing(p)
                for kind, make in SALE_COMMANDS.items():
                    error = attempt(t, make(p))
                    sale = staff.sales[where].get(kind) if where is not None else None
                    if sale is None:
                        assert error is not None, f"{kind} sold to {p.id}, not offered"
                        checked["not offered"] += 1
                    elif sale.closed is not None:
                        assert_refused_as(error, sale.closed, p.id)
                        checked["closed"] += 1
                    elif (bar := (staff.bars.get(p.id) or {}).get(kind)) is not None:
                        assert_refused_as(error, bar)
                        checked["barred"] += 1
                    else:
                        assert error is None, f"{kind} for {p.id} refused: {error}"
                        checked["sold"] += 1
    assert all(checked.values()), checked


def test_undoable_bust_outs_are_what_decide_undoes(played: list[Game]) -> None:
    seen = [0, 0]
    for g in played:
        for t, _, _, check in replay(g, 15):
            if not check:
                continue
            undo = {u.player: u for u in staff_facts(t).undo}
            for p in t.state.players.values():
                if not p.busted:
                    continue
                error = attempt(t, cmd.UndoBust(player=p.id, reason="test"))
                # The facts say until when (the house's minutes); a screen drops it then.
                until = undo[p.id].until if p.id in undo else None
                shown = p.id in undo and (until is None or now_at(t) < until)
                assert (error is None) == shown, (p.id, error)
                if p.id in undo:
                    u = undo[p.id]
                    assert p.bust is not None
                    assert (u.table, u.seat, u.hand) == (p.bust.table, p.bust.seat, p.bust.hand)
                    assert t.state.tables[u.table].hand == u.hand
                seen[error is None] += 1
    assert all(seen), seen


def test_unbreakable_tables_are_what_decide_will_not_break(played: list[Game]) -> None:
    seen = [0, 0]
    for g in played:
        for t, _, _, check in replay(g, 20):
            if not check:
                continue
            unbreakable = staff_facts(t).unbreakable
            over = public_facts(t).status != "live"
            for n, table in t.state.tables.items():
                error = attempt(t, cmd.BreakTable(table=n))
                if over:
                    # Finished or closed: the status the facts give says no table breaks.
                    assert error is not None
                    assert error.reason in ("tournament_finished", "tournament_closed")
                    continue
                if table.status != "open":
                    assert error is not None and n not in unbreakable
                    continue
                assert (error is None) == (n not in unbreakable), (n, error)
                if error is not None and error.reason == "break_no_room":
                    assert error.params == {"room": unbreakable[n], "players": table.count}
                seen[error is None] += 1
    assert all(seen), seen


def test_redirect_seats_are_what_decide_lets_a_move_take(played: list[Game]) -> None:
    tried = 0
    for g in played:
        for t, _, _, check in replay(g, 8):
            if not check:
                continue
            staff = staff_facts(t)
            moves = t.plan.moves
            assert len(staff.seats) == len(moves)
            needs = set(staff.needs_reserved)
            for m, choice in zip(moves, staff.seats, strict=True):
                assert choice.table == m.to.table
                if m.player is not None:
                    movers = [m.player]
                else:
                    planned = {x.player for x in moves}
                    occupants = t.state.tables[m.from_.table].occupants.values()
                    movers = [pid for pid in occupants if pid not in planned]
                for pid in movers[:2]:
                    for seat in range(1, t.state.tables[m.to.table].seats + 1):
                        error = attempt(t, cmd.Confirm(player=pid, seat=seat))
                        may = seat in choice.free or (seat in choice.reserved and pid in needs)
                        # Called to a seat, it is carried out there, or called again first.
                        may = may and (choice.called is None or seat == choice.called)
                        assert (error is None) == may, (pid, m, seat, error)
                        tried += 1
    assert tried > 100


def test_a_table_whose_players_fit_a_free_reserved_seat_elsewhere_may_be_broken() -> None:
    # T3S1 sits in a reserved seat, so needs one: the free reserved seat 1 of table 1 and
    # the free seat 1 of table 2 seat both players of table 3.
    layout = {1: "2-6 pos 2/3/4", 2: "2-6 pos 2/3/4", 3: "1,2 pos 1/1/2"}
    rules: dict[str, Any] = {
        "seats": 6,
        "final_table": 6,
        "break_fill": 5,
        "halt_short": 0,
        "reserved_seats": [{"table": 1, "seat": 1}, {"table": 3, "seat": 1}],
    }
    floor = Floor(layout, **rules)
    assert 3 not in staff_facts(floor.t).unbreakable
    assert attempt(floor.t, cmd.BreakTable(table=3)) is None
    # Nobody at table 3 sits in a reserved seat: seat 1 of table 1 is room for neither.
    floor = Floor({**layout, 3: "2,3 pos 2/2/3"}, **rules)
    assert staff_facts(floor.t).unbreakable[3] == 1
    error = attempt(floor.t, cmd.BreakTable(table=3))
    assert error is not None
    assert (error.reason, error.params) == ("break_no_room", {"room": 1, "players": 2})


def test_the_final_table_starts_when_the_facts_say(played: list[Game]) -> None:
    for g in played:
        for t, _, _, check in replay(g, 20):
            if check:
                why = staff_facts(t).start_final
                error = attempt(t, cmd.StartFinal())
                if why is None:
                    assert error is None, error
                else:
                    assert_refused_as(error, why)


def merge(into: dict[str, Any] | None, patch: dict[str, Any]) -> dict[str, Any]:
    """What a screen does with a batch's facts (web/js/facts.js ``merge``)."""
    if into is None or patch["full"]:
        return patch
    for key, value in patch.items():
        if key in PARTIAL:
            for pid, x in value.items():
                if x is None:
                    into[key].pop(pid, None)
                else:
                    into[key][pid] = x
        else:
            into[key] = value
    return into


def test_the_facts_of_a_batch_merged_are_the_whole_facts(played: list[Game]) -> None:
    for g in played:
        shown: dict[str, dict[str, Any] | None] = {"facts": None, "staff": None}
        views: dict[int, Any] = {}
        for t, i, batch, _ in replay(g, 1):
            events: list[Event] | None = None if i == 0 else batch
            shown["facts"] = merge(shown["facts"], msgspec.to_builtins(public_facts(t, events)))
            shown["staff"] = merge(shown["staff"], msgspec.to_builtins(staff_facts(t, events)))
            touched = None if events is None else touched_tables(events)
            for n in t.state.tables if touched is None else touched:
                views[n] = table_view(t, t.state.tables[n])
            # The structure's steps come with the whole facts only, and stay; words of names
            # no longer in the field may stay too (a key is never wrong).
            whole = unflagged(public_facts(t))
            seen = unflagged(shown["facts"])
            assert whole["search"].items() <= seen.pop("search").items(), i
            assert {**whole, "search": None} == {**seen, "search": None}, i
            for p in t.state.players.values():
                assert search_key(shown["facts"]["search"], p.name) == fold(p.name), p.name
            assert unflagged(staff_facts(t)) == unflagged(shown["staff"]), i
            # A halt follows from every table's count: screens read it from the plan, which
            # comes whole with every batch, not from the views of the tables touched.
            assert {n: plain(v) for n, v in views.items()} == {
                n: plain(table_view(t, tb)) for n, tb in t.state.tables.items()
            }, i


def search_key(words: dict[str, str], name: str) -> str:
    """A name's key as a screen makes it from the words' keys (web/js/facts.js)."""
    return " ".join(words.get(w, w.lower()) for w in name.split(" "))


def unflagged(facts: Any) -> dict[str, Any]:
    data = facts if isinstance(facts, dict) else msgspec.to_builtins(facts)
    # A batch's announcements are news of that batch alone (``announcements``), never held.
    return {k: v for k, v in data.items() if k not in ("full", "steps", "announcements")}


def plain(view: TableView) -> TableView:
    return msgspec.structs.replace(view, status="open") if view.status == "halted" else view


def test_search_keys_are_the_servers_folding_of_the_words_not_plain_ascii() -> None:
    g = Game(7, {"game": "holdem", "seats": 9, "final_table": 9}, MONEY)
    g.do(cmd.Register(name="Anna Weiß", player="A"))
    g.do(cmd.Register(name="Tomáš Novák", player="B"))
    g.do(cmd.Register(name="John Smith", player="C"))
    g.do(cmd.Register(name="Łukasz Novák", player="Ω7"))
    facts = public_facts(g.t)
    assert facts.full
    assert facts.search == {"Weiß": "weiss", "Tomáš": "tomas", "Novák": "novak", "Łukasz": "lukasz"}
    assert facts.search_ids == {"Ω7": "ω7"}
    for p in g.t.state.players.values():
        assert search_key(facts.search, p.name) == fold(p.name)
    g.do(cmd.DrawSeats())
    g.do(cmd.Bust(player="B"))
    # A batch gives the words of the names it gave: a registration's.
    assert public_facts(g.t, g.batches[-1]).search == {}
    g.do(cmd.Register(name="Tomáš Nováček", player="B"))
    assert public_facts(g.t, g.batches[-1]).search == {"Tomáš": "tomas", "Nováček": "novacek"}


@pytest.mark.parametrize(
    "name", ["ΣΟΦΙΑ ΟΔΟΣ", "Straße  Weiß", "ﬁona ẞ", "Ǆemal İsmail", "a\u00a0b ć", "ᏣᎳᎩ ꮳꮃꭹ"]
)
def test_a_name_folds_as_its_words_fold(name: str) -> None:
    words = {w: fold(w) for w in name.split(" ") if not w.isascii()}
    assert search_key(words, name) == fold(name)


def test_clock_facts_follow_the_structure() -> None:
    g = Game(8, {"game": "holdem", "seats": 9, "final_table": 9}, MONEY)
    s = g.t.state
    structure = s.structure
    assert isinstance(structure, Structure)
    for i in range(30):
        g.do(cmd.Register(name=f"P {i}"))
    g.do(cmd.DrawSeats())
    clock = public_facts(g.t).clock
    assert clock is not None
    assert (clock.step, clock.number, clock.next, clock.break_first) == (0, 1, 1, None)
    assert clock.break_at is None and clock.break_in == 20 * 60
    g.do(cmd.ClockStart())
    clock = public_facts(g.t).clock
    assert clock is not None and clock.break_at == pytest.approx(g.now + 20 * 60)
    assert clock.break_at - (g.now + 100) == pytest.approx(seconds_to_break(s, g.now + 100))
    g.do(cmd.ClockLevel(step=1))
    g.do(cmd.ClockLevel(step=1))
    clock = public_facts(g.t).clock
    assert clock is not None and clock.on_break and clock.number is None
    assert (clock.next, clock.big_blind, clock.color_up) == (3, 200, (25,))
    assert clock.chips_before == (25, 100, 500, 1000) and clock.chips_in_play == (100, 500, 1000)
    assert [(r.leaving, r.next_up) for r in clock.race] == [(25, 100)]
    g.do(cmd.ClockPause())
    clock = public_facts(g.t).clock
    assert clock is not None and clock.break_in == 0.0
    g.do(cmd.ClockLevel(step=1))
    clock = public_facts(g.t).clock
    assert clock is not None and clock.break_first is None and clock.next == 4
    assert clock.break_in == pytest.approx(s.clock.remaining + 10 * 60)
    assert [(r.leaving, r.next_up) for r in clock.race] == [(100, 500), (500, 1000)]
    steps = public_facts(g.t).steps
    assert isinstance(steps, list)
    assert [(x.number, x.big_blind) for x in steps] == [
        (1, 50),
        (2, 100),
        (None, 200),
        (3, 200),
        (4, 400),
        (None, 1000),
        (5, 1000),
    ]
    assert isinstance(structure.levels[2], Break)


def test_a_hand_dealt_before_the_level_changed_plays_the_old_step() -> None:
    g = play(9, players=20, steps=0)
    table = min(g.t.state.tables)
    g.do(cmd.Button(table=table, seat=min(g.t.state.tables[table].occupants)))
    g.do(cmd.ClockStart())
    g.do(cmd.Hand(table=table))
    assert table_view(g.t, g.t.state.tables[table]).old_step is None
    g.do(cmd.ClockLevel(step=1))
    assert touched_tables([e for e in g.batches[-1] if isinstance(e, LevelChanged)]) is None
    assert table_view(g.t, g.t.state.tables[table]).old_step == 0
    g.do(cmd.Hand(table=table))
    assert isinstance(g.batches[-1][0], HandStarted)
    assert table_view(g.t, g.t.state.tables[table]).old_step is None


def test_the_facts_decode_as_the_protocol_sends_them(played: list[Game]) -> None:
    t = played[0].t
    for facts, kind in ((public_facts(t), Facts), (staff_facts(t), StaffFacts)):
        data = msgspec.json.encode(facts)
        assert msgspec.json.decode(data, type=kind) == facts
