"""The player search on its index finds what the linear scan of every name finds, in the same
order (the name exactly as typed, then a word starting with the first word typed, then the
rest), counts every match, and the index is built once for a field's names, not once per
keystroke or version."""

from __future__ import annotations

import random

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine.decide import decide
from floor.engine.events import TournamentCreated
from floor.engine.rulebook import fold
from floor.engine.rules import Rules
from floor.engine.state import Player, Tournament
from floor.server import player_search
from floor.server.player_search import PlayerIndex, index_of
from floor.server.views import find_players, search_players

RULES = msgspec.convert({"game": "holdem", "seats": 10, "final_table": 10}, Rules)
FIRST = ["Jan", "Jana", "Jiří", "Eva", "Šárka", "Łukasz", "Øystein", "Anna", "Zoë", "Ana"]
LAST = ["Novák", "Nováková", "Dvořák", "Černý", "Svoboda", "Müller", "García", "Jansen", "Ek"]


def linear(t: Tournament, query: str, limit: int = 20) -> list[str]:
    """The search as it was: every name folded and ranked at each keystroke."""
    words = fold(query).split()
    if not words:
        return []
    hits: list[tuple[int, bool, str, Player]] = []
    for p in t.state.players.values():
        name = fold(p.name)
        if all(w in name or w == p.id.casefold() for w in words):
            starts = any(part.startswith(words[0]) for part in name.split())
            kind = 0 if name.split() == words else 1 if starts else 2
            hits.append((kind, p.busted, name, p))
    hits.sort(key=lambda h: h[:3])
    return [h[3].id for h in hits[:limit]]


def linear_count(t: Tournament, query: str) -> int:
    return len(linear(t, query, limit=len(t.state.players) + 1))


def field(players: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    t = Tournament.create(TournamentCreated(id="s", name="s", rules=RULES))
    for i in range(players):
        # Names repeat (ties keep the order of registration), ids may look like names.
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if rng.random() < 0.3:
            name += f" {rng.randrange(100)}"
        pid = rng.choice([f"P{i}", f"p{i}x", f"Jan{i}", f"é{i}"])
        decide(t, cmd.Register(name=name, player=pid), 0.0, rng)
    decide(t, cmd.DrawSeats(), 0.0, rng)
    for p in rng.sample(list(t.state.players.values()), players // 3):
        if not p.busted:
            decide(t, cmd.Bust(player=p.id), 0.0, rng)
    return t


QUERIES = [
    "", " ", "j", "ja", "jan", "JAN", "jana", "nov", "novak", "NOVÁKOVÁ", "ova", "a", "e",
    "š", "sarka", "lukasz", "oystein", "zoe", "jan nov", "nov jan", "ova jan", "a e",
    "p1", "P12", "p12x", "jan3", "é3", "e3", "1", "42", "jan 4", "no match", "zz", "ek",
    "müller", "garcia ana", "a a", "\x00", "jan\x00",
]  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_the_index_finds_what_the_linear_scan_found_in_the_same_order(seed: int) -> None:
    t = field(300, seed)
    index = PlayerIndex(t)
    for query in QUERIES:
        for limit in (1, 5, 20, 400):
            found = [p.id for p in index.search(t, query, limit)]
            assert found == linear(t, query, limit), (query, limit)
        assert index.count(query) == linear_count(t, query), query


def test_the_answer_is_the_players_as_they_stand_now() -> None:
    t = field(50, 7)
    index = PlayerIndex(t)
    who = next(p for p in t.state.players.values() if not p.busted)
    rng = random.Random(1)
    decide(t, cmd.Bust(player=who.id), 0.0, rng)
    # Busting changes the ranking, not the index.
    assert index.fits(t)
    assert [p.id for p in index.search(t, who.name, 50)] == linear(t, who.name, 50)
    [found] = [f for f in find_players(t, who.id, index=index) if f.id == who.id]
    assert found.busted and found.place is not None


def test_one_index_serves_every_version_until_an_entry() -> None:
    t = field(40, 3)
    first = index_of("s", t)
    rng = random.Random(2)
    live = [p.id for p in t.state.players.values() if not p.busted]
    decide(t, cmd.Bust(player=live[0]), 0.0, rng)
    assert index_of("s", t) is first
    decide(t, cmd.Register(name="Nová Hráčka", player="NEW"), 0.0, rng)
    second = index_of("s", t)
    assert second is not first
    assert [p.id for p in second.search(t, "hracka", 5)] == ["NEW"]
    # A copy of the same tournament loaded afresh is indexed afresh.
    again = Tournament(msgspec.convert(msgspec.to_builtins(t.state), type(t.state)))
    assert index_of("s", again) is not second


def test_a_re_entry_under_another_name_is_found_by_it() -> None:
    t = field(20, 5)
    rng = random.Random(3)
    out = next(p for p in t.state.players.values() if p.busted)
    index = index_of("r", t)
    decide(t, cmd.Register(name="Quentin Renamed", player=out.id), 0.0, rng)
    assert not index.fits(t)
    assert [f.id for f in find_players(t, "quentin", index=index_of("r", t))] == [out.id]


def test_only_so_many_fields_are_kept() -> None:
    t = field(5, 1)
    for n in range(player_search._INDEXES_MAX + 10):
        index_of(f"t{n}", t)
    assert len(player_search._INDEXES) == player_search._INDEXES_MAX


def named(*names: str) -> Tournament:
    t = Tournament.create(TournamentCreated(id="n", name="n", rules=RULES))
    rng = random.Random(0)
    for i, name in enumerate(names):
        decide(t, cmd.Register(name=name, player=f"N{i}"), 0.0, rng)
    return t


def test_the_name_as_typed_comes_first_then_a_word_that_starts_so_then_the_rest() -> None:
    t = named("Adam Novák", "Jan Novák", "Novák", "Ivana Novakovičová", "Karel Ženovák")
    found = [p.name for p in PlayerIndex(t).search(t, "novak", 20)]
    assert found == ["Novák", "Adam Novák", "Ivana Novakovičová", "Jan Novák", "Karel Ženovák"]
    assert [p.name for p in PlayerIndex(t).search(t, "NOVÁK jan", 20)] == ["Jan Novák"]
    found = [p.name for p in PlayerIndex(t).search(t, "jan novak", 20)]
    assert found == ["Jan Novák"]


def test_a_search_says_how_many_match_beyond_the_first_twenty() -> None:
    t = named(*(f"{first} Novák" for first in FIRST * 6), *(f"Eva Nováková {i}" for i in range(3)))
    answer = search_players(t, "novak")
    assert (answer.total, len(answer.players)) == (63, 20)
    assert answer.players[0].name == "Ana Novák"  # every kind the same: by name
    narrower = search_players(t, "novak eva")
    assert (narrower.total, len(narrower.players)) == (9, 9)
    assert search_players(t, "nobody").total == 0


def test_a_name_corrected_or_an_entry_withdrawn_is_searched_afresh() -> None:
    t = named("Jan Novák", "Eva Svobodová", "Petr Černý")
    index = index_of("fresh", t)
    assert index.count("novak") == 1
    rng = random.Random(0)
    decide(t, cmd.RenamePlayer(player="N1", name="Eva Nováková"), 0.0, rng)
    assert not index.fits(t)
    assert index_of("fresh", t).count("novak") == 2
    assert [p.id for p in find_players(t, "svobodova", index=index_of("fresh", t))] == []
    decide(t, cmd.Unregister(player="N0"), 0.0, rng)
    # The field's size and entries are back where they were after a new entry: still afresh.
    decide(t, cmd.Register(name="Karel Čapek", player="N3"), 0.0, rng)
    assert [p.id for p in find_players(t, "novak", index=index_of("fresh", t))] == ["N1"]
    assert [p.id for p in find_players(t, "capek", index=index_of("fresh", t))] == ["N3"]
