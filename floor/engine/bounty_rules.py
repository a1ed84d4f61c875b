"""Bounties: the settings, the records they leave, and how a bounty is split.

A bounty tournament takes a part of every buy-in (and of a rebuy or an add-on, where the
director sets one) out of the money before the prize pool, the guarantee and the overlay are
worked out (``prize.payouts``): that part is the bounty pool, and it is paid to the players who
knock others out.

- *knockout*: every entry carries a bounty of ``part``; whoever knocks the player out is paid it.
- *progressive*: half of the busted player's bounty is paid to the eliminator, the other half
  is added to the eliminator's own bounty. The winner takes their own bounty too.
- *mystery*: nobody carries a bounty; from a phase the director sets (``MysteryFrom``) each
  elimination draws one envelope, without replacement, from a pool set in advance
  (``envelopes``: amount x count; ``mystery``). The envelopes left at the end go as the house
  sets (``envelopes_left``).

A re-entry starts a fresh bounty; a rebuy or an add-on adds its part to the player's bounty.
Several winners of the pot split the bounty (``split``): each share rounded down to the
tournament's prize rounding unit, the remainder to the first of them clockwise from the button.

This module holds only data and arithmetic (the fold, ``fold.bounty``, and the decisions,
``bounty``, import it), so that the prize settings and the events can name its types.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .errors import ConfigValueError, refused
from .model import PlayerId

BountyKind = Literal["knockout", "progressive", "mystery"]
#: Where a mystery bounty's drawing starts: the first bust-out in the money, the first from a
#: level (``mystery_level``), or Day 2 (an event's Day 2, or a tournament's day after its first).
MysteryFrom = Literal["money", "level", "day2"]
#: The envelopes left when the tournament ends: to the winner, or kept by the house.
EnvelopesLeft = Literal["winner", "house"]
#: Where a won bounty is paid: by the floor at the table as the bust-out is recorded, or at the
#: cashier later (each payment recorded as the cashier makes it).
PaidAt = Literal["table", "cashier"]


class Envelope(msgspec.Struct, frozen=True, forbid_unknown_fields=True, array_like=True):
    """``[amount, count]``: a line of a mystery bounty's envelope pool."""

    amount: Annotated[int, Meta(gt=0)]
    count: Annotated[int, Meta(gt=0, le=1_000_000)]


class Bounty(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The bounty settings of a tournament (``[prize.bounty]`` in a TOML file)."""

    kind: BountyKind = "knockout"
    #: The part of each entry's ``buy_in`` (first entry or re-entry) that goes to bounties.
    part: Annotated[int, Meta(gt=0)]
    #: The part of a rebuy's and of an add-on's price that goes to bounties (0: none).
    rebuy_part: Annotated[int, Meta(ge=0)] = 0
    add_on_part: Annotated[int, Meta(ge=0)] = 0
    paid_at: PaidAt = "table"
    #: A mystery bounty's envelope pool, set in advance (empty for the other kinds).
    envelopes: tuple[Envelope, ...] = ()
    mystery_from: MysteryFrom = "money"
    #: The level number the drawing starts at (``mystery_from = "level"``).
    mystery_level: Annotated[int, Meta(gt=0)] | None = None
    envelopes_left: EnvelopesLeft = "winner"

    def __post_init__(self) -> None:
        mystery = self.kind == "mystery"
        if mystery != bool(self.envelopes):
            raise refused(
                ConfigValueError, "bounty_envelopes", {"kind": self.kind}, field="bounty.envelopes"
            )
        if len({e.amount for e in self.envelopes}) != len(self.envelopes):
            raise refused(ConfigValueError, "bounty_envelopes_twice", {}, field="bounty.envelopes")
        if (self.mystery_from == "level") != (self.mystery_level is not None):
            raise refused(
                ConfigValueError, "bounty_mystery_level", {}, field="bounty.mystery_level"
            )


class BountyShare(msgspec.Struct, frozen=True, array_like=True):
    """``[player, cash, added, paid]``: what one eliminator got from a bust-out: ``cash`` won,
    ``added`` to their own bounty (progressive); ``paid``: the floor paid the cash at the table
    as the bust-out was recorded (else the cashier pays it, ``BountyPaid``)."""

    player: PlayerId
    cash: int
    added: int = 0
    paid: bool = False


class PlayerBounty(msgspec.Struct, kw_only=True):
    """A player's bounty: the one on their head while they play, what they have won, what
    has been paid to them, and what their last bust-out took (so that an undo gives it back)."""

    head: int = 0
    won: int = 0
    paid: int = 0
    #: The bounty taken at the player's last bust-out, and where it went (empty: nobody was
    #: named, the bounty stays unclaimed with the house).
    taken: int = 0
    to: tuple[BountyShare, ...] = ()
    #: The winner's own bounty, taken at the finish (mystery: the envelopes left).
    own: int = 0
    #: Mystery: the envelope drawn at the player's last bust-out (0: none), and the envelopes
    #: the player drew as an eliminator (each once, a split pot's too).
    envelope: int = 0
    drew: tuple[int, ...] = ()
    #: The bounty on the player's head that went into a deal (``deal_bounties``).
    dealt: int = 0


class BountyBook(msgspec.Struct, kw_only=True):
    """The bounty money as a whole, beside the players' records: what has been won by
    players, what has been paid out of it, and what nobody won (a bust-out with no
    eliminator named: a disqualification). Won plus unclaimed plus the bounties of the
    players still in make the bounty pool, at every moment."""

    won: int = 0
    paid: int = 0
    unclaimed: int = 0
    #: Mystery: the envelopes drawn, by amount (amount -> count), and the envelopes left at
    #: the finish that went to the winner.
    drawn: dict[int, int] = msgspec.field(default_factory=dict)
    rest: int = 0
    #: The bounties shared out in a deal at the final table (won plus unclaimed plus dealt
    #: plus the bounties on heads make the pool).
    dealt: int = 0


def split(amount: int, winners: int, unit: int) -> list[int]:
    """``amount`` split among ``winners`` (in order clockwise from the button): each share
    rounded down to ``unit``, the remainder to the first."""
    each = amount // winners // unit * unit
    shares = [each] * winners
    shares[0] += amount - each * winners
    return shares


def halves(amount: int, unit: int) -> tuple[int, int]:
    """A progressive bounty: (paid, added to the eliminator's bounty); the paid half rounded
    down to ``unit``, the rest added."""
    cash = amount // 2 // unit * unit
    return cash, amount - cash


def clockwise(seats: Sequence[int], button: int | None, size: int) -> list[int]:
    """The indexes of ``seats`` in order clockwise from the button (the first seat after it
    first, the button last); by seat number where no button is known."""
    if button is None:
        return sorted(range(len(seats)), key=lambda i: seats[i])
    return sorted(range(len(seats)), key=lambda i: (seats[i] - button - 1) % max(size, 1))
