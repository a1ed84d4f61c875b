"""Entries and the prize pool: buy-in, fee, guarantee, rebuys, add-ons, re-entries, payouts.

The money side of a tournament, configured with its structure (``Structure.prize``) and
carried in its first event. ``payouts`` is pure: from the prize settings and the counts of
buy-ins, rebuys and add-ons so far it gives the prize pool and the prize of every paid place,
so the wall display can recompute it after every entry.

How the pool is made, and the readings where houses differ:

- Every entry (a first entry or a re-entry) pays ``buy_in`` to the prize pool and ``fee`` to
  the house; rebuys and add-ons pay their ``price`` to the pool and their own ``fee`` (usually
  none). Fees are kept apart: they never reach the pool.
- The pool is what came in, or the guarantee when that is more (the difference is the
  overlay the house pays).
- The payout table has a row per field size: the row with the most ``entries`` not above the
  entries so far applies. Its percentages (each row adds up to 100) give the places paid.
- Prizes below first place are rounded down to a multiple of ``round_to`` (100 CZK, say); what
  rounding leaves over goes to the winner, so the prizes always add up to the pool exactly.
- Players who share a place (busted in the same hand with equal stacks) share the prizes of
  the places they cover, split evenly; odd units go one each to the first of them.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Annotated

import msgspec
from msgspec import Meta

from .bounty_rules import Bounty
from .errors import ConfigValueError, refused
from .satellite_prize import Satellite
from .satellite_prize import amounts as seat_amounts

NonNegativeInt = Annotated[int, Meta(ge=0)]
PositiveInt = Annotated[int, Meta(gt=0)]
Percent = Annotated[float, Meta(gt=0, le=100)]
Currency = Annotated[str, Meta(min_length=1, max_length=8)]


class Rebuy(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Chips bought by a player still in, declared before the deal (PFP 23)."""

    price: NonNegativeInt
    fee: NonNegativeInt = 0
    chips: PositiveInt
    #: Rebuys one player may make in all; None means no limit.
    max_per_player: PositiveInt | None = None
    #: Rebuys are allowed up to and including this level (a break counts as the level before).
    until_level: PositiveInt
    #: A rebuy is allowed only while the player's stack is at most this; None means any stack.
    max_stack: NonNegativeInt | None = None


class AddOn(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Extra chips offered to every player still in, once, at the end of the rebuy period."""

    price: NonNegativeInt
    fee: NonNegativeInt = 0
    chips: PositiveInt
    max_per_player: PositiveInt = 1
    #: The level the add-on belongs to.
    level: PositiveInt
    #: True: only at the break right after ``level``; False: during ``level`` and that break.
    at_break: bool = True


class ReEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A busted player may enter again: a new buy-in and a new seat from the same seat pool."""

    #: Re-entries one player may make (entries beyond the first); None means no limit.
    max_per_player: PositiveInt | None = None
    #: Re-entries are allowed up to and including this level; None: while late registration
    #: is open (whichever closes first applies).
    until_level: PositiveInt | None = None


class PayoutRow(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The places paid from a field of ``entries`` entries up: a percentage per place."""

    entries: PositiveInt
    percents: Annotated[tuple[Percent, ...], Meta(min_length=1)]


class Prize(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The money of a tournament: what an entry costs, where it goes, and what is paid."""

    currency: Currency
    #: What each entry (first entry or re-entry) puts in the prize pool.
    buy_in: NonNegativeInt
    #: What each entry pays the house on top; never part of the pool.
    fee: NonNegativeInt = 0
    #: The prize pool is at least this much.
    guarantee: NonNegativeInt = 0
    #: Prizes below first place are rounded down to a multiple of this; the winner gets the rest.
    round_to: PositiveInt = 1
    rebuy: Rebuy | None = None
    add_on: AddOn | None = None
    #: None: a busted player cannot enter again (a freezeout).
    re_entry: ReEntry | None = None
    #: By field size, ascending: the row with the most ``entries`` not above the field applies.
    payouts: Annotated[tuple[PayoutRow, ...], Meta(min_length=1)]
    #: None: no bounties. Their part is taken out of each buy-in before the prize pool.
    bounty: Bounty | None = None
    #: The prizes are seats in another event (``satellite_prize``); ``payouts`` unused then.
    satellite: Satellite | None = None

    def __post_init__(self) -> None:
        if self.bounty is not None:
            _check_bounty(self, self.bounty)
        previous = 0
        for i, row in enumerate(self.payouts):
            where = f"payouts[{i}]"
            if row.entries <= previous:
                raise refused(
                    ConfigValueError,
                    "payout_rows_order",
                    {"entries": row.entries, "previous": previous},
                    field=f"{where}.entries",
                )
            previous = row.entries
            if len(row.percents) > row.entries:
                raise refused(
                    ConfigValueError,
                    "payout_too_many_places",
                    {"places": len(row.percents), "entries": row.entries},
                    field=f"{where}.percents",
                )
            total = _total(row.percents)
            if total != 100:
                raise refused(
                    ConfigValueError,
                    "payout_total",
                    {"total": float(total)},
                    field=f"{where}.percents",
                )
            for j in range(1, len(row.percents)):
                if row.percents[j] > row.percents[j - 1]:
                    raise refused(
                        ConfigValueError,
                        "payout_rising",
                        {"place": j + 1, "above": j},
                        field=f"{where}.percents[{j}]",
                    )


def _check_bounty(prize: Prize, bounty: Bounty) -> None:
    parts = (
        ("part", bounty.part, prize.buy_in),
        ("rebuy_part", bounty.rebuy_part, prize.rebuy.price if prize.rebuy else 0),
        ("add_on_part", bounty.add_on_part, prize.add_on.price if prize.add_on else 0),
    )
    for name, part, price in parts:
        if part > price:
            # The field leads the message (``bounty.rebuy_part: ...``): ``errortext.explain``
            # reads it as the key the HTTP answer and the config loader name.
            raise refused(
                ConfigValueError,
                "bounty_part_too_big",
                {"name": name, "part": part, "price": price},
                field=f"bounty.{name}",
            )


class PaidPlace(msgspec.Struct, frozen=True, kw_only=True):
    place: int
    percent: float
    prize: int


class PrizePool(msgspec.Struct, frozen=True, kw_only=True):
    """The prize pool as it stands: what came in, the guarantee, and every paid place."""

    currency: str
    entries: int
    rebuys: int
    add_ons: int
    #: Buy-ins, rebuys and add-ons paid into the pool.
    collected: int
    #: Fees kept by the house, apart from the pool.
    fees: int
    guarantee: int
    #: What the house adds to reach the guarantee (0 once the field beats it).
    overlay: int
    pool: int
    #: The paid places, first first; empty while the field is smaller than the first row.
    places: tuple[PaidPlace, ...]
    #: The bounty pool: the bounty parts of the buy-ins, rebuys and add-ons, kept out of
    #: ``collected`` and ``pool`` (0: no bounties).
    bounties: int = 0


def payouts(prize: Prize, entries: int, rebuys: int = 0, add_ons: int = 0) -> PrizePool:
    """The prize pool and the prize of every paid place for the field so far."""
    rebuy_price = prize.rebuy.price if prize.rebuy else 0
    rebuy_fee = prize.rebuy.fee if prize.rebuy else 0
    add_on_price = prize.add_on.price if prize.add_on else 0
    add_on_fee = prize.add_on.fee if prize.add_on else 0
    collected = entries * prize.buy_in + rebuys * rebuy_price + add_ons * add_on_price
    bounties = bounty_pool(prize, entries, rebuys, add_ons)
    # The bounty part is taken out first: the guarantee and the overlay are of the prizes.
    collected -= bounties
    fees = entries * prize.fee + rebuys * rebuy_fee + add_ons * add_on_fee
    pool = max(prize.guarantee, collected)
    row = None
    for candidate in prize.payouts:
        if candidate.entries <= entries:
            row = candidate
    places: list[PaidPlace] = []
    if row is not None:
        unit = prize.round_to
        # pool * p / 100 rounded down to the unit, in whole numbers: the same figures as
        # Fractions gave, but a 1,500-place row took 136 ms that way, on every version.
        amounts = [pool * n // (d * 100) // unit * unit for n, d in _exact(row.percents)]
        amounts[0] = pool - sum(amounts[1:])
        places = [
            PaidPlace(place=i + 1, percent=p, prize=int(a))
            for i, (p, a) in enumerate(zip(row.percents, amounts, strict=True))
        ]
    if prize.satellite is not None:
        seats = seat_amounts(prize.satellite, pool, prize.round_to)
        places = [
            PaidPlace(place=i + 1, percent=round(a * 100 / pool, 2), prize=a)
            for i, a in enumerate(seats)
        ]
    return PrizePool(
        currency=prize.currency,
        entries=entries,
        rebuys=rebuys,
        add_ons=add_ons,
        collected=collected,
        fees=fees,
        guarantee=prize.guarantee,
        overlay=pool - collected,
        pool=pool,
        places=tuple(places),
        bounties=bounties,
    )


def bounty_pool(prize: Prize, entries: int, rebuys: int = 0, add_ons: int = 0) -> int:
    """The bounty parts of what was sold: the bounty pool (0 without bounties)."""
    b = prize.bounty
    if b is None:
        return 0
    return entries * b.part + rebuys * b.rebuy_part + add_ons * b.add_on_part


def shared_prizes(pool: PrizePool, place: int, players: int) -> list[int]:
    """What each of ``players`` sharing ``place`` gets: the prizes of the places they cover,
    split evenly, the odd units one each to the first of them."""
    # The places are listed in order, place 1 first: the ones covered are a slice (a scan of
    # every paid place for each result made the results of 10,000 cost 366 ms).
    total = sum(p.prize for p in pool.places[place - 1 : place - 1 + players])
    each, odd = divmod(total, players)
    return [each + 1 if i < odd else each for i in range(players)]


@lru_cache(maxsize=256)
def _exact(percents: tuple[float, ...]) -> tuple[tuple[int, int], ...]:
    """Each percentage as written (``12.5`` is 25/2, never the float's binary value), as a
    numerator and denominator: a payout row is read once, not at every version."""
    return tuple((f.numerator, f.denominator) for f in (Fraction(str(p)) for p in percents))


@lru_cache(maxsize=256)
def _total(percents: tuple[float, ...]) -> Fraction:
    """What a row's percentages add up to, exactly: checked each time a structure is read
    (every snapshot, every copy of a tournament), a payout table of 2,800 places cost 40 ms
    in Fractions each time."""
    return sum((Fraction(n, d) for n, d in _exact(percents)), Fraction(0))
