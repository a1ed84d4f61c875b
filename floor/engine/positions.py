"""Hand positions: the dead button, heads-up, the next big blind, a reported button, waiting.

FLOOR-RULES section 2. All functions take a table's seat count and the set of occupied seats,
so they serve the real seating and the planner's virtual seating alike.
"""

from __future__ import annotations

from collections.abc import Container, Iterator

from .model import Positions, SeatNo


def after(seat: SeatNo, seats: int) -> Iterator[SeatNo]:
    """The seats clockwise after ``seat``, wrapping around, ``seat`` itself last."""
    for step in range(1, seats + 1):
        yield (seat + step - 1) % seats + 1


def first_occupied_after(seat: SeatNo, seats: int, occupied: Container[SeatNo]) -> SeatNo | None:
    for s in after(seat, seats):
        if s in occupied:
            return s
    return None


def last_occupied_before(seat: SeatNo, seats: int, occupied: Container[SeatNo]) -> SeatNo | None:
    for step in range(1, seats + 1):
        s = (seat - step - 1) % seats + 1
        if s in occupied:
            return s
    return None


def next_hand(last: Positions, seats: int, occupied: Container[SeatNo], count: int) -> Positions:
    """The positions of the next hand (TDA 2024 rule 32: the dead button).

    Nobody skips the big blind: it goes to the first occupied seat after the last big blind.
    The small blind goes to the last big blind's seat and the button to the last small
    blind's seat, either of which may be empty now (dead small blind, dead button).
    Heads-up (TDA 2024 rule 34B) the button posts the small blind: the other player.
    """
    bb = first_occupied_after(last.big_blind, seats, occupied)
    if bb is None:
        return last
    if count == 2:
        other = first_occupied_after(bb, seats, occupied)
        assert other is not None
        return Positions(button=other, small_blind=other, big_blind=bb)
    return Positions(button=last.small_blind, small_blind=last.big_blind, big_blind=bb)


def reported_button(seat: SeatNo, seats: int, occupied: Container[SeatNo], count: int) -> Positions:
    """The last hand recorded so that the next hand's button is at ``seat``.

    Button = the occupied seat before it, small blind = the seat, big blind = the first
    occupied seat after it; heads-up, button = small blind = the other player's seat and
    big blind = the seat, so that the button and small blind of the next hand are ``seat``.
    """
    if count == 2:
        other = first_occupied_after(seat, seats, occupied)
        assert other is not None
        return Positions(button=other, small_blind=other, big_blind=seat)
    before = last_occupied_before(seat, seats, occupied)
    bb = first_occupied_after(seat, seats, occupied)
    assert before is not None and bb is not None
    return Positions(button=before, small_blind=seat, big_blind=bb)


def next_big_blind(last: Positions, seats: int, occupied: Container[SeatNo]) -> SeatNo | None:
    return first_occupied_after(last.big_blind, seats, occupied)


def waiting_seats(last: Positions, seats: int, occupied: Container[SeatNo]) -> list[SeatNo]:
    """Occupied seats strictly between the next button and the next small blind.

    The next button is the last small blind and the next small blind the last big blind, so
    these are the seats after the last small blind and before the last big blind: nobody sat
    there when the last hand was dealt, and a newcomer there waits for the button to pass
    (TDA 2011 rule 7, TDA 2024 rule 10A). Heads-up nobody waits (the caller checks).
    """
    out: list[SeatNo] = []
    for s in after(last.small_blind, seats):
        if s == last.big_blind:
            break
        if s in occupied:
            out.append(s)
    return out


def button_seat(
    last: Positions, reported: bool, seats: int, occupied: Container[SeatNo], count: int
) -> SeatNo:
    """The seat the dealer button sits on now: the hand in progress's, or after a button
    report (no hand dealt since) the reported seat, which is the next hand's button.

    ``last`` holds the last hand dealt; a report records a virtual one before the seat it
    names (``reported_button``), so its own button is the seat before: a screen showing
    ``last.button`` after "button here" on seat 4 shows the button on seat 3.
    """
    if not reported:
        return last.button
    return next_hand(last, seats, occupied, count).button
