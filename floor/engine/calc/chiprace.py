"""Colour-up and chip race: taking a denomination out of play (FLOOR-RULES section 8).

PFP 2014 rule 20, TDA 2024 rule 24. When a denomination leaves play, each player's chips of it
are exchanged at equal value for the next larger denomination as far as they go. What is left
over (the odd chips) cannot be exchanged one for one, so it is raced: the dealer deals one card
per odd chip, starting at seat 1, each player getting all their cards before the next player;
the highest cards win one new chip each, and nobody wins more than one. The new chips raced are
worth the odd value rounded to the nearest whole chip, so the chips in play change only a little
and the race stays fair to the small stacks. Nobody is raced out of the tournament: a player left
with nothing gets one chip of the smallest denomination still in play.

The engine does not shuffle on its own: the caller passes the random source (a seeded
``random.Random`` in tests, ``random.SystemRandom`` in production), and the cards dealt are in
the result so that the table can check them and the race can be shown and replayed.

This module also holds the card order the floor uses wherever a card settles something
("the high card by suit"): the rank first, then the suit, spades > hearts > diamonds > clubs.
"""

from __future__ import annotations

import random

import msgspec

from ..errors import RuleError, refused, seat_listed_twice, seat_not_exist
from ..model import SeatNo

#: Card ranks, lowest first; "T" is the ten.
RANKS = "23456789TJQKA"
#: Suits, lowest first: clubs < diamonds < hearts < spades (TDA: suits break rank ties).
SUITS = "cdhs"
#: A standard 52-card deck as the strings the screens show ("As", "Td", "2c").
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)


def card_strength(card: str) -> tuple[int, int]:
    """The sort key of ``card``: (rank, suit), higher is better.

    Raises ``ValueError`` for a string that is not a card, so that each caller can name the
    field it came from.
    """
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"{card!r} is not a card: write rank then suit, like 'As', 'Td', '7c'")
    return RANKS.index(card[0]), SUITS.index(card[1])


class RaceSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One player at the colour-up: how many chips of the leaving denomination they hold.

    ``stack`` is the value of the player's whole stack before the colour-up, leaving chips
    included; it tells whether the leaving chips are all the player has (raced-out rule).
    """

    seat: SeatNo
    chips: int
    stack: int


class ChipRaceInput(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A colour-up at one table: ``leaving`` goes out of play, ``next_up`` replaces it.

    ``next_up`` is the next larger denomination in play. ``smallest_in_play`` is the chip a
    player who would be raced out gets; it is ``next_up`` unless a chip smaller than the
    leaving one stays in play (None means ``next_up``). Range checks are made by
    ``chip_race`` so that a bad request is refused with the field named, whether it came as
    JSON or was built in Python.
    """

    leaving: int
    next_up: int
    seats: list[RaceSeat]
    smallest_in_play: int | None = None


class RaceSeatResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What the colour-up did to one player's stack, with the cards so the table can see them."""

    seat: SeatNo
    #: Chips of ``next_up`` given in exchange at equal value.
    exchanged: int
    #: Leaving chips left over after the exchange: one card each.
    odd_chips: int
    #: The cards dealt to this player, in the order dealt (none when no chip is raced).
    cards: tuple[str, ...]
    #: Chips of ``next_up`` won in the race: 0 or 1.
    won: int
    #: The value of the stack after the colour-up.
    stack: int
    #: True when the player would have been raced out and got the smallest chip in play.
    kept_in: bool


class ChipRaceResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The whole race: per seat (in seat order) and the totals the dealer announces."""

    leaving: int
    next_up: int
    seats: tuple[RaceSeatResult, ...]
    #: Odd chips of the leaving denomination, all players together.
    odd_chips: int
    #: Their value: ``odd_chips * leaving``.
    odd_value: int
    #: New chips raced: ``odd_value / next_up`` rounded to the nearest chip, half up.
    chips_raced: int


def chip_race(race: ChipRaceInput, rng: random.Random) -> ChipRaceResult:
    """Exchange the leaving chips, race the odd ones and keep everybody in.

    ``rng`` shuffles the deck once (only when there is something to race); the same seed
    deals the same cards. Raises ``RuleError`` naming the field for input the race cannot
    use, before anything is dealt.
    """
    _check(race)
    smallest = race.smallest_in_play if race.smallest_in_play is not None else race.next_up
    ratio = race.next_up // race.leaving
    seats = sorted(race.seats, key=lambda s: s.seat)  # the race starts at seat 1
    odd = {s.seat: s.chips % ratio for s in seats}
    odd_chips = sum(odd.values())
    odd_value = odd_chips * race.leaving
    # Nearest whole chip, a half rounding up: floor(odd_value / next_up + 1/2) in integers.
    chips_raced = (2 * odd_value + race.next_up) // (2 * race.next_up)

    # When the odd value rounds down to no chip there is nothing to race: no card is dealt.
    cards: dict[SeatNo, tuple[str, ...]] = {s.seat: () for s in seats}
    if chips_raced:
        if odd_chips > len(DECK):
            raise refused(
                RuleError, "race_deck", {"cards": odd_chips, "deck": len(DECK)}, field="seats"
            )
        deck = list(DECK)
        rng.shuffle(deck)
        top = 0
        for s in seats:
            cards[s.seat] = tuple(deck[top : top + odd[s.seat]])
            top += odd[s.seat]

    # At most one chip per player: a player's best card is their only chance, so ranking
    # players by their best card is the same as walking the cards from the highest down and
    # skipping players who already won. Cards are all different, so there are no ties left.
    in_race = [seat for seat, dealt in cards.items() if dealt]
    in_race.sort(key=lambda seat: max(map(card_strength, cards[seat])), reverse=True)
    winners = set(in_race[:chips_raced])

    out: list[RaceSeatResult] = []
    for s in seats:
        exchanged = s.chips // ratio
        won = 1 if s.seat in winners else 0
        stack = s.stack - s.chips * race.leaving + (exchanged + won) * race.next_up
        kept_in = stack == 0
        out.append(
            RaceSeatResult(
                seat=s.seat,
                exchanged=exchanged,
                odd_chips=odd[s.seat],
                cards=cards[s.seat],
                won=won,
                stack=smallest if kept_in else stack,
                kept_in=kept_in,
            )
        )
    return ChipRaceResult(
        leaving=race.leaving,
        next_up=race.next_up,
        seats=tuple(out),
        odd_chips=odd_chips,
        odd_value=odd_value,
        chips_raced=chips_raced,
    )


def _check(race: ChipRaceInput) -> None:
    """Refuse a colour-up the race cannot carry out, naming the first field at fault."""
    if race.leaving <= 0:
        raise refused(RuleError, "chip_not_positive", {"chip": race.leaving}, field="leaving")
    if race.next_up <= race.leaving or race.next_up % race.leaving:
        raise refused(
            RuleError,
            "next_up_not_multiple",
            {"next_up": race.next_up, "chip": race.leaving},
            field="next_up",
        )
    smallest = race.smallest_in_play
    if smallest is not None and (smallest <= 0 or smallest > race.next_up):
        raise refused(
            RuleError, "smallest_out_of_range", {"most": race.next_up}, field="smallest_in_play"
        )
    if smallest == race.leaving:
        raise refused(
            RuleError, "smallest_leaves", {"chip": race.leaving}, field="smallest_in_play"
        )
    if not race.seats:
        raise refused(RuleError, "race_nobody", {}, field="seats")
    seen: set[SeatNo] = set()
    for i, s in enumerate(race.seats):
        where = f"seats[{i}]"
        if s.seat < 1:
            raise seat_not_exist(s.seat, f"{where}.seat")
        if s.seat in seen:
            raise seat_listed_twice(s.seat, f"{where}.seat")
        seen.add(s.seat)
        if s.chips < 0:
            raise refused(RuleError, "chips_negative", {"chips": s.chips}, field=f"{where}.chips")
        if s.stack <= 0:
            raise refused(RuleError, "seat_no_chips", {"seat": s.seat}, field=f"{where}.stack")
        if s.stack < s.chips * race.leaving:
            raise refused(
                RuleError,
                "stack_below_chips",
                {
                    "stack": s.stack,
                    "chips": s.chips,
                    "chip": race.leaving,
                    "value": s.chips * race.leaving,
                },
                field=f"{where}.stack",
            )
