"""Draws anyone can check (``engine.fair``, ``engine.fair_rng``): the seed chain, the material,
the stream and the choices made from it, each computed here again from SHA-256 alone, and the
test vectors of ``docs/draw-spec.md`` read from the document itself."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from floor.engine import commands as cmd
from floor.engine import fair
from floor.engine.decide import decide
from floor.engine.errors import NotAllowed
from floor.engine.events import DrawMade, PlayerRegistered, TournamentCreated
from floor.engine.fair_rng import FairRng
from floor.engine.rules import Rules
from floor.engine.state import Tournament
from floor.engine.validate import check
from tests.unit.test_error_codes import assert_said

RULES = Rules(game="holdem", seats=9, final_table=9)
SPEC = Path(__file__).resolve().parents[2] / "docs" / "draw-spec.md"
TOP = bytes(range(32))


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def test_each_seed_hashes_to_the_one_before_it_across_the_checkpoints() -> None:
    chain = fair.make_chain(TOP, 1024)
    seed = TOP
    for _ in range(1024):
        seed = sha(seed)
    assert chain.head == seed
    for i in (1, 2, 255, 256, 257, 511, 512, 1023, 1024):
        assert sha(chain.seed(i)) == chain.seed(i - 1), i
    assert chain.seed(1024) == TOP
    with pytest.raises(ValueError, match="outside the chain"):
        chain.seed(1025)


def test_a_revealed_seed_follows_only_the_seed_it_hashes_to() -> None:
    chain = fair.make_chain(TOP, 64)
    assert fair.follows(chain.seed(2).hex(), chain.seed(1).hex())
    assert not fair.follows(chain.seed(3).hex(), chain.seed(1).hex())  # one skipped
    assert not fair.follows(chain.seed(1).hex(), chain.seed(2).hex())  # backwards
    assert not fair.follows("zz" * 32, chain.seed(1).hex())  # not a seed at all
    assert not fair.follows(chain.seed(2).hex().upper(), chain.seed(1).hex())


def test_a_block_holds_the_seeds_of_its_draws_in_order() -> None:
    chain = fair.make_chain(TOP, 1000)
    for index in (1, 2, 255, 256, 257, 512, 513, 999, 1000):
        first, seeds = chain.block(index)
        assert first <= index < first + len(seeds)
        assert [chain.seed(first + j) for j in range(len(seeds))] == seeds
    assert chain.block(1000) == (769, [chain.seed(i) for i in range(769, 1001)])


def test_the_material_is_the_hash_of_its_six_parts() -> None:
    seed, link = sha(b"s"), sha(b"l")
    expected = sha(b"floor-draw/1\nclub\n7\n" + seed + b"\n" + link + b"\n4711")
    assert fair.material("club", 7, seed, link, "4711") == expected


def stream(material: bytes, n: int) -> bytes:
    out = b""
    block = 0
    while len(out) < n:
        out += sha(material + block.to_bytes(8, "big"))
        block += 1
    return out[:n]


@given(st.binary(min_size=32, max_size=32), st.integers(1, 70))
def test_bits_are_the_streams_bytes_shifted_to_their_width(material: bytes, k: int) -> None:
    n = (k + 7) // 8
    expected = int.from_bytes(stream(material, n), "big") >> (8 * n - k)
    assert FairRng(material).getrandbits(k) == expected


@given(st.binary(min_size=32, max_size=32), st.integers(1, 1000))
def test_below_takes_bits_until_one_is_below_the_bound(material: bytes, bound: int) -> None:
    rng = FairRng(material)
    k = max(1, (bound - 1).bit_length())
    width = (k + 7) // 8
    data = stream(material, width * 64)
    expected = None
    for i in range(64):
        r = int.from_bytes(data[i * width : (i + 1) * width], "big") >> (8 * width - k)
        if r < bound:
            expected = r
            break
    assert expected is not None
    assert rng.below(bound) == expected


@given(st.binary(min_size=32, max_size=32), st.lists(st.integers(), max_size=30))
def test_a_shuffle_is_a_permutation_made_the_same_each_time(
    material: bytes, items: list[int]
) -> None:
    a, b = list(items), list(items)
    FairRng(material).shuffle(a)
    FairRng(material).shuffle(b)
    assert a == b and sorted(a) == sorted(items)


@given(st.binary(min_size=32, max_size=32), st.integers(0, 20))
def test_a_sample_takes_distinct_items(material: bytes, k: int) -> None:
    population = list(range(20))
    got = FairRng(material).sample(population, k)
    assert len(got) == len(set(got)) == k and set(got) <= set(population)


def test_what_a_draw_never_uses_is_refused() -> None:
    rng = FairRng(bytes(32))
    for call in (lambda: rng.getstate(), lambda: rng.choices([1, 2]), lambda: rng.gauss(0, 1)):
        with pytest.raises(TypeError):
            call()
    assert not rng.used
    rng.below(3)
    assert rng.used


def test_the_specs_vectors_are_what_the_code_gives() -> None:
    doc = SPEC.read_text()
    vectors = doc[doc.index("## 5. Test vectors") :]
    hexes = re.findall(r"`([0-9a-f]{64})`", vectors)
    chain = fair.make_chain(TOP, 1024)
    material = fair.material("club-night", 1, chain.seed(1), bytes(32), "4711")
    assert hexes == [chain.head.hex(), chain.seed(1).hex(), material.hex()]
    rng = FairRng(material)
    first = [rng.getrandbits(8)] + [rng.below(10) for _ in range(5)]
    assert "`4`, then `5 2 2 4 2`" in vectors
    assert first == [4, 5, 2, 2, 4, 2]
    items = list(range(1, 11))
    FairRng(material).shuffle(items)
    assert f"`{' '.join(map(str, items))}`" in vectors
    picked = FairRng(material).sample(list("ABCDEFGHIJ"), 3)
    assert f"`{' '.join(picked)}`" in vectors


def committed_tournament(players: int) -> Tournament:
    t = Tournament.create(TournamentCreated(id="club", name="Club", rules=RULES))
    chain = fair.make_chain(TOP, 64)
    t.apply(fair.committed(chain.head, chain.length, 0.0))
    for i in range(players):
        t.apply(PlayerRegistered(player=f"P{i}", name=f"Player {i}"))
    return t


def test_the_same_seed_draws_the_same_seats_and_another_seed_others() -> None:
    draws = []
    for seed in (b"a", b"a", b"b"):
        t = committed_tournament(30)
        material = fair.material("club", 1, sha(seed), bytes(32), "")
        draws.append(decide(t, cmd.DrawSeats(), 1.0, FairRng(material)))
    assert draws[0] == draws[1]
    assert draws[0] != draws[2]


def test_a_log_whose_seed_does_not_follow_or_comes_out_of_order_is_refused() -> None:
    t = committed_tournament(0)
    chain = fair.make_chain(TOP, 64)

    def made(index: int, seed: bytes) -> DrawMade:
        return DrawMade(index=index, seed=seed.hex(), link="0" * 64, spec=fair.SPEC, events=1)

    check(t, made(1, chain.seed(1)))
    with pytest.raises(NotAllowed) as wrong:
        check(t, made(1, sha(b"chosen")))
    fair_state = t.state.fair
    assert fair_state is not None
    # The English names the two seeds (their first 16 digits) as the template does.
    assert_said(
        wrong.value,
        "draw_seed_wrong",
        {"index": 1, "seed": sha(b"chosen").hex()[:16], "before": fair_state.last_seed[:16]},
    )
    with pytest.raises(NotAllowed) as order:
        check(t, made(2, chain.seed(2)))
    assert order.value.reason == "draw_out_of_order"
    t.apply(made(1, chain.seed(1)))
    check(t, made(2, chain.seed(2)))


def test_a_commitment_after_the_first_entry_is_refused() -> None:
    t = Tournament.create(TournamentCreated(id="club", name="Club", rules=RULES))
    t.apply(PlayerRegistered(player="P1", name="Early Bird"))
    late = fair.committed(fair.make_chain(TOP, 8).head, 8, 1.0)
    with pytest.raises(NotAllowed) as refused:
        check(t, late)
    assert refused.value.reason == "draws_committed_late"
