"""Splitting a pot: main and side pots, ties, high-low halves and odd chips.

FLOOR-RULES section 9 (TDA 2011 rules 17-18, TDA 2024 rules 20-21, PFP 2014 rules 16-17). The
floor uses this for a disputed or complicated pot: the dealer reports what each player put in,
who folded and how the hands still in ranked at the showdown; the engine answers with every pot,
who can win it and what each player takes, with a sentence saying why for the screens.

How a pot is built, and the readings where the rules leave room:

- Pots are layers of the contributions. Every distinct amount put in starts a layer; the
  players who put in at least that much pay into it, and the players among them who did not
  fold can win it. Neighbouring layers that the same players can win are one pot, as a dealer
  would stack them: folded players' chips only make a pot bigger, they never start a new one.
- A layer that only one player paid into was never called: it goes back to that player, shown
  as a pot of its own ("uncalled") so that nobody wonders where the chips went.
- Each side pot is split separately (TDA 2011 rule 18), and listed, like a dealer splits them,
  from the last side pot to the main pot.
- Odd chips are broken down to ``odd_chip_unit``, the smallest chip in play, so every share is
  a whole number of units and each winner of a tie gets at most one odd unit.
- Flop games: odd units go to the tied winners in order clockwise from the button, the first
  one left of the button first (TDA 2011 rule 17; PFP rule 16 says "the worse position").
- Stud games: odd units go to the tied winners in order of their high card by suit, which
  the floor reports in ``high_cards``. The TDA names no other order for the low half of stud
  high-low, so the same card decides there too.
- High-low: the pot is split in two and the odd unit of the whole pot goes to the high half;
  each half is then split among its winners as above. A pot nobody still eligible for it has
  a qualifying low for goes whole to the high hand (each pot is judged on its own players).
  When the very same players win both halves their hands are identical, and the TDA says the
  pot is then split as evenly as possible (the Omaha/8 wheel): it is split as one pot, so
  that nobody collects an odd unit twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final, Literal, NamedTuple

import msgspec

from ..errors import RuleError, refused, seat_listed_twice, seat_not_exist
from ..model import SeatNo
from ..positions import after
from .chiprace import card_strength

#: What decides the odd chip: the button (flop games) or the cards (stud), and whether the pot
#: is split high-low.
GameKind = Literal["flop", "stud", "flop_hilo", "stud_hilo"]
PotKind = Literal["main", "side", "uncalled"]

_HILO: frozenset[str] = frozenset({"flop_hilo", "stud_hilo"})
_STUD: frozenset[str] = frozenset({"stud", "stud_hilo"})


class Contribution(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What one player put into the pot over the whole hand, and whether they folded."""

    seat: SeatNo
    contributed: int
    folded: bool = False


class PotInput(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A hand at the showdown: the contributions and the ranking of the hands still in.

    ``high`` ranks every player still in, best first, tied players grouped: ``[[4], [2, 7]]``
    means seat 4 has the best hand and seats 2 and 7 tie behind it. ``low`` (high-low games
    only) ranks the players with a qualifying low, best first; None or empty means no low, and
    the high hand scoops. ``button`` is the button seat of a flop game (it may be an empty
    seat). ``high_cards`` gives, in stud, each player's high card by suit ("As", "Td"); it is
    needed only for the players who tie for an odd chip. ``total`` is the pot as the dealer
    counted it: when given, the contributions must add up to it.

    Range and consistency checks are made by ``split_pot``, so that a bad request is refused
    with a ``RuleError`` naming the field whether it came as JSON or was built in Python.
    """

    game: GameKind
    odd_chip_unit: int
    contributions: list[Contribution]
    high: list[list[SeatNo]]
    low: list[list[SeatNo]] | None = None
    button: SeatNo | None = None
    high_cards: dict[SeatNo, str] | None = None
    total: int | None = None


#: The clauses of a pot's note.
NoteCode = Literal[
    "pot_uncalled",
    "pot_no_low",
    "pot_identical",
    "pot_split_hilo",
    "pot_split_hilo_odd",
    "pot_wins",
    "pot_split",
    "pot_split_odd",
    "pot_high_wins",
    "pot_high_split",
    "pot_high_split_odd",
    "pot_low_wins",
    "pot_low_split",
    "pot_low_split_odd",
]

_SPLIT_ODD = ("seats", "amount", "odd", "unit", "to", "by")

#: Every clause and the names of its parameters (``errors.PARAMS`` is the same for refusals).
NOTE_PARAMS: Final[dict[NoteCode, tuple[str, ...]]] = {
    "pot_uncalled": ("amount", "seat"),
    "pot_no_low": (),
    "pot_identical": (),
    "pot_split_hilo": (),
    "pot_split_hilo_odd": (),
    "pot_wins": ("seat", "amount"),
    "pot_split": ("seats", "amount"),
    "pot_split_odd": _SPLIT_ODD,
    "pot_high_wins": ("seat", "amount"),
    "pot_high_split": ("seats", "amount"),
    "pot_high_split_odd": _SPLIT_ODD,
    "pot_low_wins": ("seat", "amount"),
    "pot_low_split": ("seats", "amount"),
    "pot_low_split_odd": _SPLIT_ODD,
}


class Note(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One clause of a pot's note: a code and the values it names (chips, a seat or a list
    of seats, and ``by``: "button" or "high_card", the rule that gave the odd chips)."""

    code: NoteCode
    params: dict[str, int | str | list[int]] = msgspec.field(default_factory=dict)


class Award(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Chips given to one seat."""

    seat: SeatNo
    amount: int


class Pot(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One pot as it is split: the players who can win it and what each takes.

    An ``uncalled`` pot is the part of a bet nobody called, returned to the player who made
    it; its only eligible seat is theirs.
    """

    kind: PotKind
    #: "main pot", "side pot 2", "uncalled bet".
    name: str
    #: The side pot's number (1 is the first side pot); 0 for the main pot and an uncalled bet.
    number: int = 0
    amount: int
    #: Seats that can win this pot, ascending.
    eligible: tuple[SeatNo, ...]
    #: The seats that take chips from this pot, ascending.
    awards: tuple[Award, ...]
    #: Why the pot went the way it did, in an English sentence (the CLI, API clients).
    note: str
    #: The same, clause by clause as codes with parameters, for the screens to say in their
    #: language: the clauses joined by "; ", after the pot's name for a main or side pot.
    why: tuple[Note, ...] = ()

    def __post_init__(self) -> None:
        if sum(a.amount for a in self.awards) != self.amount:
            raise ValueError(f"{self.name}: the awards do not add up to {self.amount}")
        if any(a.seat not in self.eligible for a in self.awards):
            raise ValueError(f"{self.name}: a seat that cannot win it has an award")


class PotResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Every pot in the order a dealer splits them, and what each player takes in all."""

    #: The uncalled bet (if any), the side pots from the last to the first, the main pot.
    pots: tuple[Pot, ...]
    #: Every seat that was in the hand, ascending, with the sum of its awards (0 included).
    totals: tuple[Award, ...]


#: The order in which tied winners receive odd units, given the tied seats.
_OddOrder = Callable[[Sequence[SeatNo]], list[SeatNo]]


class _OddChips(NamedTuple):
    """How a game hands out odd units: the order, and the words that explain it."""

    order: _OddOrder
    why: str
    #: The rule, for ``Note.params["by"]``.
    by: Literal["button", "high_card"]


def split_pot(pot: PotInput) -> PotResult:
    """Build the pots from the contributions and split each one by the showdown.

    Raises ``RuleError`` naming the field for input that does not describe a hand (negative
    or fractional chips, a seat twice, a ranking that does not fit the players still in, a
    missing button or high card); nothing is returned then.
    """
    _check(pot)
    unit = pot.odd_chip_unit
    uncalled, layers = _layers(pot.contributions)
    odd_chips = _odd_chips(pot)

    built: list[Pot] = []
    if uncalled is not None:
        amount, seat = uncalled
        built.append(
            Pot(
                kind="uncalled",
                name="uncalled bet",
                amount=amount,
                eligible=(seat,),
                awards=(Award(seat=seat, amount=amount),),
                note=f"nobody called the last {amount:,} of seat {seat}: it goes back to them",
                why=(Note(code="pot_uncalled", params={"amount": amount, "seat": seat}),),
            )
        )
    for number in reversed(range(len(layers))):  # side pots first, the main pot (0) last
        amount, eligible = layers[number]
        name = f"side pot {number}" if number else "main pot"
        units, note, why = _split(amount // unit, eligible, pot, odd_chips)
        built.append(
            Pot(
                kind="side" if number else "main",
                name=name,
                number=number,
                amount=amount,
                eligible=eligible,
                awards=tuple(Award(seat=s, amount=units[s] * unit) for s in sorted(units)),
                note=f"{name}: {note}",
                why=why,
            )
        )

    totals = dict.fromkeys(sorted(c.seat for c in pot.contributions), 0)
    for p in built:
        for a in p.awards:
            totals[a.seat] += a.amount
    return PotResult(
        pots=tuple(built),
        totals=tuple(Award(seat=s, amount=amount) for s, amount in totals.items()),
    )


def _layers(
    contributions: Sequence[Contribution],
) -> tuple[tuple[int, SeatNo] | None, list[tuple[int, tuple[SeatNo, ...]]]]:
    """The uncalled bet (amount, seat) if any, and the pots (amount, eligible), main first.

    Layers are cut at every distinct amount put in; a layer with one payer is uncalled, and
    neighbouring layers with the same live players merge into one pot.
    """
    pots: list[tuple[int, tuple[SeatNo, ...]]] = []
    uncalled: tuple[int, SeatNo] | None = None
    below = 0
    for level in sorted({c.contributed for c in contributions if c.contributed > 0}):
        payers = [c for c in contributions if c.contributed >= level]
        amount = (level - below) * len(payers)
        below = level
        if len(payers) == 1:  # only ever the top layer: nobody matched this much
            uncalled = (amount, payers[0].seat)
            continue
        eligible = tuple(sorted(c.seat for c in payers if not c.folded))
        if not eligible:
            raise refused(RuleError, "nobody_can_win", {"amount": level}, field="contributions")
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
    return uncalled, pots


def _split(
    units: int,
    eligible: tuple[SeatNo, ...],
    pot: PotInput,
    odd_chips: _OddChips,
) -> tuple[dict[SeatNo, int], str, tuple[Note, ...]]:
    """Split ``units`` odd-chip units of one pot among its winners; returns the shares and
    the note, in English and as clauses."""
    hilo = pot.game in _HILO
    high = _best(pot.high, eligible)
    low = _best(pot.low or [], eligible)
    shares: dict[SeatNo, int] = {}
    if not low or sorted(low) == sorted(high):
        note, clause = _share(units, high, odd_chips, shares, pot.odd_chip_unit, "")
        if hilo and not low:
            return (
                shares,
                f"no qualifying low among its players, the high hand scoops; {note}",
                (Note(code="pot_no_low"), clause),
            )
        if hilo:
            return (
                shares,
                f"identical hands win high and low, split as evenly as possible; {note}",
                (Note(code="pot_identical"), clause),
            )
        return shares, note, (clause,)
    high_units = units - units // 2
    high_note, high_clause = _share(high_units, high, odd_chips, shares, pot.odd_chip_unit, "high")
    low_note, low_clause = _share(units // 2, low, odd_chips, shares, pot.odd_chip_unit, "low")
    odd = ", the odd chip of the pot to the high hand" if units % 2 else ""
    split = Note(code="pot_split_hilo_odd" if units % 2 else "pot_split_hilo")
    return (
        shares,
        f"split high-low{odd}; high: {high_note}; low: {low_note}",
        (split, high_clause, low_clause),
    )


def _share(
    units: int,
    winners: Sequence[SeatNo],
    odd_chips: _OddChips,
    shares: dict[SeatNo, int],
    unit: int,
    half: Literal["", "high", "low"],
) -> tuple[str, Note]:
    """Add an even share of ``units`` per winner to ``shares``, odd units in rule order;
    returns the note in English and as a clause (of the high or low half, if ``half``)."""
    each, odd = divmod(units, len(winners))
    for seat in winners:
        shares[seat] = shares.get(seat, 0) + each
    amount = units * unit
    if len(winners) == 1:
        return f"seat {winners[0]} wins {amount:,}", Note(
            code=_HALF_WINS[half], params={"seat": winners[0], "amount": amount}
        )
    who = f"{_seats(sorted(winners))} split {amount:,}"
    if not odd:
        return who, Note(
            code=_HALF_SPLIT[half], params={"seats": sorted(winners), "amount": amount}
        )
    lucky = odd_chips.order(winners)[:odd]
    for seat in lucky:
        shares[seat] += 1
    chips = "odd chip" if odd == 1 else f"{odd} odd chips"
    return f"{who}, {chips} of {unit:,} to {_seats(lucky)} ({odd_chips.why})", Note(
        code=_HALF_SPLIT_ODD[half],
        params={
            "seats": sorted(winners),
            "amount": amount,
            "odd": odd,
            "unit": unit,
            "to": lucky,
            "by": odd_chips.by,
        },
    )


_HALF_WINS: Final[dict[str, NoteCode]] = {
    "": "pot_wins",
    "high": "pot_high_wins",
    "low": "pot_low_wins",
}
_HALF_SPLIT: Final[dict[str, NoteCode]] = {
    "": "pot_split",
    "high": "pot_high_split",
    "low": "pot_low_split",
}
_HALF_SPLIT_ODD: Final[dict[str, NoteCode]] = {
    "": "pot_split_odd",
    "high": "pot_high_split_odd",
    "low": "pot_low_split_odd",
}


def _best(ranking: Iterable[Sequence[SeatNo]], eligible: tuple[SeatNo, ...]) -> list[SeatNo]:
    """The best-ranked group's players who can win this pot (empty when nobody ranked can)."""
    for group in ranking:
        winners = [s for s in group if s in eligible]
        if winners:
            return winners
    return []


def _odd_chips(pot: PotInput) -> _OddChips:
    """The rule that orders tied winners for odd units in this game."""
    if pot.game in _STUD:
        cards = pot.high_cards or {}

        def by_high_card(tied: Sequence[SeatNo]) -> list[SeatNo]:
            missing = [s for s in tied if s not in cards]
            if missing:
                raise refused(
                    RuleError,
                    "high_card_needed",
                    {"seats": sorted(tied), "missing": missing},
                    field="high_cards",
                )
            return sorted(tied, key=lambda s: card_strength(cards[s]), reverse=True)

        return _OddChips(by_high_card, "the high card by suit", "high_card")

    assert pot.button is not None  # _check requires it for flop games
    table = max(pot.button, *(c.seat for c in pot.contributions))
    clockwise = {seat: i for i, seat in enumerate(after(pot.button, table))}

    def left_of_button(tied: Sequence[SeatNo]) -> list[SeatNo]:
        return sorted(tied, key=clockwise.__getitem__)

    return _OddChips(left_of_button, "first clockwise from the button", "button")


def _seats(seats: Sequence[SeatNo]) -> str:
    """'seat 3', 'seats 3 and 5', 'seats 3, 5 and 8'."""
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return f"seats {', '.join(names[:-1])} and {names[-1]}"


def _check(pot: PotInput) -> None:
    """Refuse input that does not describe a hand, naming the first field at fault."""
    unit = pot.odd_chip_unit
    if unit <= 0:
        raise refused(RuleError, "pot_unit_not_positive", {"unit": unit}, field="odd_chip_unit")
    if not pot.contributions:
        raise refused(RuleError, "pot_nobody", {}, field="contributions")
    in_hand: dict[SeatNo, Contribution] = {}
    for i, c in enumerate(pot.contributions):
        where = f"contributions[{i}]"
        if c.seat < 1:
            raise seat_not_exist(c.seat, f"{where}.seat")
        if c.seat in in_hand:
            raise seat_listed_twice(c.seat, f"{where}.seat")
        in_hand[c.seat] = c
        if c.contributed < 0:
            raise refused(
                RuleError,
                "contribution_negative",
                {"amount": c.contributed},
                field=f"{where}.contributed",
            )
        if c.contributed % unit:
            # Every chip is a multiple of the smallest one, so a contribution must be too;
            # otherwise a pot could not be broken down to whole odd chips.
            raise refused(
                RuleError,
                "contribution_not_multiple",
                {"amount": c.contributed, "unit": unit},
                field=f"{where}.contributed",
            )
    if pot.total is not None:
        put_in = sum(c.contributed for c in pot.contributions)
        if put_in != pot.total:
            raise refused(
                RuleError, "contributions_total", {"sum": put_in, "total": pot.total}, field="total"
            )
    live = {seat for seat, c in in_hand.items() if not c.folded}
    if not live:
        raise refused(RuleError, "everybody_folded", {}, field="contributions")

    if pot.game in _STUD:
        if pot.button is not None:
            raise refused(RuleError, "stud_no_button_pot", {}, field="button")
        for seat, card in (pot.high_cards or {}).items():
            where = f"high_cards[{seat}]"
            if seat not in in_hand:
                raise _not_in_hand(seat, where)
            try:
                card_strength(card)
            except ValueError:
                raise refused(RuleError, "not_a_card", {"card": card}, field=where) from None
        cards = list((pot.high_cards or {}).values())
        if len(set(cards)) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            raise refused(RuleError, "card_twice", {"card": dup}, field="high_cards")
    else:
        if pot.button is None:
            raise refused(RuleError, "button_needed", {}, field="button")
        if pot.button < 1:
            raise seat_not_exist(pot.button, "button")
        if pot.high_cards:
            raise refused(RuleError, "cards_in_flop", {}, field="high_cards")

    _check_ranking("high", pot.high, in_hand, live, complete=True)
    if pot.low:
        if pot.game not in _HILO:
            raise refused(RuleError, "no_low", {"game": pot.game}, field="low")
        _check_ranking("low", pot.low, in_hand, live, complete=False)


def _not_in_hand(seat: SeatNo, field: str) -> RuleError:
    return refused(RuleError, "seat_not_in_hand", {"seat": seat}, field=field)


def _check_ranking(
    name: str,
    ranking: Sequence[Sequence[SeatNo]],
    in_hand: dict[SeatNo, Contribution],
    live: set[SeatNo],
    *,
    complete: bool,
) -> None:
    """A ranking lists players still in the hand, each once; ``complete`` ones list them all.

    The high ranking must be complete because each side pot goes to the best hand among its
    own players, who need not be the best overall.
    """
    listed = sum(len(group) for group in ranking)
    if listed > len(live):
        raise refused(
            RuleError, "ranks_too_many", {"listed": listed, "live": len(live)}, field=name
        )
    seen: set[SeatNo] = set()
    for gi, group in enumerate(ranking):
        if not group:
            raise refused(RuleError, "tie_group_empty", {}, field=f"{name}[{gi}]")
        for si, seat in enumerate(group):
            where = f"{name}[{gi}][{si}]"
            if seat not in in_hand:
                raise _not_in_hand(seat, where)
            if seat not in live:
                raise refused(RuleError, "seat_folded", {"seat": seat}, field=where)
            if seat in seen:
                raise refused(RuleError, "seat_ranked_twice", {"seat": seat}, field=where)
            seen.add(seat)
    if complete and (missing := sorted(live - seen)):
        raise refused(RuleError, "not_ranked", {"seats": missing}, field=name)
