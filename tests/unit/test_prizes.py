"""The prize pool and payouts: guarantee and fee, payout rows by field size, rounding, shared
places, and prize settings refused with the key named."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from floor import config
from floor.engine.errors import ConfigError
from floor.engine.prize import PayoutRow, Prize, payouts, shared_prizes
from floor.engine.rules import Structure

MAIN_EVENT = Prize(
    currency="CZK",
    buy_in=2700,
    fee=300,
    guarantee=3_000_000,
    round_to=100,
    payouts=(
        PayoutRow(entries=2, percents=(100,)),
        PayoutRow(entries=8, percents=(65, 35)),
        PayoutRow(entries=70, percents=(30, 19, 13, 10, 8, 6.5, 5.5, 4.5, 3.5)),
    ),
)


def prizes(pool: object) -> list[int]:
    return [p.prize for p in pool.places]  # type: ignore[attr-defined]


# --- the pool -------------------------------------------------------------------------------


def test_below_the_guarantee_the_pool_is_the_guarantee_and_the_house_pays_the_overlay() -> None:
    # 1,000 entries at 2,700 CZK bring 2,700,000; the guarantee is 3,000,000.
    pool = payouts(MAIN_EVENT, entries=1000)

    assert (pool.collected, pool.pool, pool.overlay) == (2_700_000, 3_000_000, 300_000)
    assert pool.fees == 300_000  # the 300 CZK of every entry, kept apart


def test_once_the_field_beats_the_guarantee_the_pool_is_what_came_in() -> None:
    pool = payouts(MAIN_EVENT, entries=1200)

    assert (pool.pool, pool.overlay) == (3_240_000, 0)


def test_the_fee_never_reaches_the_pool() -> None:
    no_guarantee = msgspec.structs.replace(MAIN_EVENT, guarantee=0)

    pool = payouts(no_guarantee, entries=100)

    assert (pool.collected, pool.fees, pool.pool) == (270_000, 30_000, 270_000)


def test_rebuys_and_add_ons_pay_their_price_into_the_pool_and_their_fee_apart() -> None:
    prize = msgspec.convert(
        {
            "currency": "CZK",
            "buy_in": 500,
            "fee": 100,
            "rebuy": {"price": 500, "fee": 50, "chips": 10000, "until_level": 6},
            "add_on": {"price": 400, "chips": 15000, "level": 6},
            "payouts": [{"entries": 2, "percents": [100]}],
        },
        Prize,
    )

    pool = payouts(prize, entries=40, rebuys=25, add_ons=30)

    assert pool.collected == 40 * 500 + 25 * 500 + 30 * 400
    assert pool.fees == 40 * 100 + 25 * 50
    assert pool.pool == pool.collected


# --- the payout table -------------------------------------------------------------------------


def test_the_row_for_the_field_size_applies_and_changes_as_entries_come_in() -> None:
    no_guarantee = msgspec.structs.replace(MAIN_EVENT, guarantee=0, round_to=1)

    assert prizes(payouts(no_guarantee, entries=1)) == []  # nobody paid yet
    assert prizes(payouts(no_guarantee, entries=7)) == [18_900]  # 7 x 2,700, winner takes all
    assert prizes(payouts(no_guarantee, entries=8)) == [14_040, 7_560]
    assert len(payouts(no_guarantee, entries=69).places) == 2
    assert len(payouts(no_guarantee, entries=70).places) == 9


def test_prizes_are_rounded_down_to_100_and_the_winner_gets_what_rounding_leaves() -> None:
    # 77 entries: 207,900 CZK. 19 % is 39,501 -> 39,500; 6.5 % is 13,513.5 -> 13,500 ...
    pool = payouts(msgspec.structs.replace(MAIN_EVENT, guarantee=0), entries=77)

    assert pool.pool == 207_900
    assert prizes(pool) == [62_700, 39_500, 27_000, 20_700, 16_600, 13_500, 11_400, 9_300, 7_200]
    assert all(p % 100 == 0 for p in prizes(pool)[1:])
    assert sum(prizes(pool)) == pool.pool


def test_every_shipped_tournament_pays_out_its_whole_pool_at_every_field_size() -> None:
    for name, path in config.tournaments().items():
        _, structure = config.build_tournament(config.load_tournament(path))
        assert structure.prize is not None, name
        for entries in (0, 1, 2, 9, 45, 70, 119, 300, 1111, 5000):
            pool = payouts(structure.prize, entries)
            assert sum(prizes(pool)) in (0, pool.pool), (name, entries)
            assert prizes(pool) == sorted(prizes(pool), reverse=True), (name, entries)


def test_the_pfp_main_event_is_2700_plus_300_czk_with_three_million_guaranteed() -> None:
    cfg = config.load_tournament(config.tournaments()["pfp-2014-main-event"])
    _, structure = config.build_tournament(cfg)
    prize = structure.prize

    assert prize is not None
    assert (prize.currency, prize.buy_in, prize.fee, prize.guarantee) == (
        "CZK",
        2700,
        300,
        3_000_000,
    )
    # The expected field of 1,111 leaves 300 CZK to the house's overlay.
    assert payouts(prize, 1111).overlay == 300


# --- shared places ----------------------------------------------------------------------------


def test_players_sharing_a_place_split_the_prizes_of_the_places_they_cover() -> None:
    pool = payouts(msgspec.structs.replace(MAIN_EVENT, guarantee=0, round_to=1), entries=70)
    ninth, tenth = 6615, 0  # 3.5 % of 189,000; the 10th place is not paid

    assert prizes(pool)[-1] == ninth
    assert shared_prizes(pool, 9, 2) == [3308, 3307]  # the odd crown to the first of them
    assert shared_prizes(pool, 8, 2) == [7560, 7560]  # 8,505 + 6,615 split evenly
    assert shared_prizes(pool, 10, 3) == [tenth] * 3


# --- refusals, with the key named -----------------------------------------------------------


def write_tournament(tmp_path: Path, prize: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(
        f'name = "T"\nrules = "tda-2024"\nstructure = "club-night-turbo"\n{prize}',
        encoding="utf-8",
    )
    return path


PRIZE = '[prize]\ncurrency = "CZK"\nbuy_in = 500\n'
ROW = "[[prize.payouts]]\nentries = {entries}\npercents = {percents}\n"


@pytest.mark.parametrize(
    ("toml", "key", "problem"),
    [
        (
            PRIZE + ROW.format(entries=2, percents="[60, 30]"),
            "prize.payouts[0].percents",
            "add up to 90, not 100",
        ),
        (
            PRIZE + ROW.format(entries=10, percents="[40, 60]"),
            "prize.payouts[0].percents[1]",
            "place 2 cannot pay more than place 1",
        ),
        (
            PRIZE
            + ROW.format(entries=10, percents="[100]")
            + ROW.format(entries=5, percents="[100]"),
            "prize.payouts[1].entries",
            "rows go from the smallest field up",
        ),
        (
            PRIZE + ROW.format(entries=2, percents="[50, 30, 20]"),
            "prize.payouts[0].percents",
            "pays 3 places but the row starts at 2 entries",
        ),
        (
            PRIZE + ROW.format(entries=2, percents="[-10, 110]"),
            "prize.payouts[0].percents[0]",
            "Expected float > 0.0",
        ),
        (
            '[prize]\ncurrency = "CZK"\nbuy_in = -5\n' + ROW.format(entries=2, percents="[100]"),
            "prize.buy_in",
            "Expected int >= 0, got -5",
        ),
        (
            PRIZE
            + "[prize.rebuy]\nprice = 500\nchips = 10000\nuntil_level = 40\n"
            + ROW.format(entries=2, percents="[100]"),
            "prize.rebuy.until_level",
            "there is no level 40 (the structure has 16)",
        ),
        (
            PRIZE
            + "[prize.add_on]\nprice = 500\nchips = 10000\nlevel = 3\n"
            + ROW.format(entries=2, percents="[100]"),
            "prize.add_on.level",
            "there is no break right after level 3",
        ),
        (
            PRIZE
            + "[prize.rebuy]\nprice = 500\nchips = 10010\nuntil_level = 4\n"
            + ROW.format(entries=2, percents="[100]"),
            "prize.rebuy.chips",
            "10,010 cannot be made of 25s",
        ),
    ],
    ids=[
        "percents short of 100",
        "percents rising",
        "rows out of order",
        "more places than entries",
        "negative percent",
        "negative buy-in",
        "rebuy until a level that is not there",
        "add-on at a break that is not there",
        "rebuy chips not payable",
    ],
)
def test_bad_prize_settings_are_refused_naming_the_key(
    tmp_path: Path, toml: str, key: str, problem: str
) -> None:
    path = write_tournament(tmp_path, toml)

    with pytest.raises(ConfigError) as refused:
        config.build_tournament(config.load_tournament(path))

    assert refused.value.field is not None
    assert refused.value.field.endswith(f": {key}"), refused.value
    assert problem in refused.value.message, refused.value


def test_a_structure_sent_with_a_prize_is_checked_against_its_levels() -> None:
    structure = config.resolve_structure("club-night-turbo")
    prize = msgspec.convert(
        {
            "currency": "EUR",
            "buy_in": 50,
            "re_entry": {"until_level": 99},
            "payouts": [{"entries": 2, "percents": [100]}],
        },
        Prize,
    )

    with pytest.raises(ConfigError) as refused:
        config.with_prize(structure, prize)

    assert refused.value.field == "prize.re_entry.until_level"
    assert isinstance(
        config.with_prize(structure, msgspec.structs.replace(prize, re_entry=None)), Structure
    )
