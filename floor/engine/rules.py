"""A tournament's rules (the house rule set in force) and its structure (the blind levels).

Both are frozen msgspec Structs: they are loaded from TOML files in ``config/``, carried in the
first event of a tournament, and compared by value in tests. Invariants that a type cannot say
are checked in ``__post_init__`` and surface as ``msgspec.ValidationError`` naming the field;
so are the per-field limits when a Struct is built in code (``limits``).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from .errors import ConfigValueError, refused
from .limits import check_limits
from .model import FLOP_GAMES, STUD_GAMES, DealtGame, Game, Rulebook, TableNo
from .prize import Prize

SeatCount = Annotated[int, Meta(ge=2, le=12, description="seats per table")]
PositiveInt = Annotated[int, Meta(gt=0)]
NonNegativeInt = Annotated[int, Meta(ge=0)]


class ReservedSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat kept for players with special needs (TDA 2011 rule 6, 2024 rule 9)."""

    table: PositiveInt
    seat: PositiveInt

    def __post_init__(self) -> None:
        check_limits(self)


class Rules(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The floor rules of one tournament; every house choice is a named setting."""

    game: Game
    seats: SeatCount
    final_table: SeatCount
    #: Tables are balanced while the fullest and the shortest differ by this many or more.
    balance_trigger: Annotated[int, Meta(ge=2)] = 2
    #: A table this many or more players short of the fullest is halted; 0 turns halting off.
    halt_short: NonNegativeInt = 3
    #: The order tables break in; None means highest table number first.
    break_order: tuple[PositiveInt, ...] | None = None
    #: The predetermined order that settles ties between tables; None means ascending number.
    balance_order: tuple[PositiveInt, ...] | None = None
    #: A table breaks as soon as the others can seat everybody at this many per table.
    break_fill: SeatCount | None = None
    reserved_seats: tuple[ReservedSeat, ...] = ()
    #: The table the final is played at; None means the last open one in break_order.
    final_table_number: PositiveInt | None = None
    #: The rulebook the house follows, for the citations shown with each decision.
    rulebook: Rulebook = "tda-2024"
    name: str = ""
    #: A time call gives the player this long to act (PFP 24: "as a rule one minute")...
    time_call_seconds: Annotated[int, Meta(ge=5, le=600)] = 60
    #: ...then a count of this many seconds; when it ends the hand is dead.
    time_call_count: Annotated[int, Meta(ge=0, le=60)] = 10
    #: A house choice against pointless moves: balancing moves nobody into the next table
    #: to break while that break is this many bust-outs away or fewer (unless the table is
    #: halted); 0 turns it off, as the TDA has it. "The next table to break" is the first
    #: open table in ``break_order``; it breaks when the other open tables can seat everybody
    #: at ``break_fill`` (FLOOR-RULES 5), so the bust-outs to it are the players left less
    #: the seats the others hold.
    spare_next_break: Annotated[int, Meta(ge=0, le=1000)] = 0
    #: The right to undo a bust-out ends at the table's next hand (TDA 19), when the clock's
    #: level changes, or this many minutes after the bust-out, whichever comes first: a
    #: floor that does not report every hand still sees its undo list end. 0: no time limit.
    undo_minutes: Annotated[int, Meta(ge=0, le=1440)] = 10
    #: The clock at hand-for-hand: 0 stops it until hand-for-hand ends; more, the clock
    #: stands still and each hand-for-hand hand takes this many seconds off the level.
    hand_for_hand_seconds: Annotated[int, Meta(ge=0, le=600)] = 0

    def __post_init__(self) -> None:
        check_limits(self)
        for key in ("break_order", "balance_order"):
            order = getattr(self, key)
            if order is not None and len(set(order)) != len(order):
                raise refused(ConfigValueError, "order_table_twice", {"key": key})
        if self.break_fill is not None and self.break_fill > self.seats:
            raise refused(ConfigValueError, "break_fill_too_big", {})
        seen: set[tuple[int, int]] = set()
        # Only the final table may have more seats than the others (7 at a 6-max event), and
        # which table that is may be known only when it forms: so the larger bound here.
        for i, r in enumerate(self.reserved_seats):
            if r.seat > max(self.seats, self.final_table):
                raise refused(
                    ConfigValueError,
                    "reserved_seat_unknown",
                    {"table": r.table, "seat": r.seat},
                    field=f"reserved_seats[{i}].seat",
                )
            if (r.table, r.seat) in seen:
                raise refused(
                    ConfigValueError,
                    "reserved_seat_twice",
                    {"table": r.table, "seat": r.seat},
                    field=f"reserved_seats[{i}]",
                )
            seen.add((r.table, r.seat))

    @property
    def fill(self) -> int:
        return self.break_fill if self.break_fill is not None else self.seats

    @property
    def stud_only(self) -> bool:
        return self.game in STUD_GAMES

    @property
    def flop_only(self) -> bool:
        return self.game in FLOP_GAMES

    def reserved(self) -> frozenset[tuple[TableNo, int]]:
        return frozenset((r.table, r.seat) for r in self.reserved_seats)


class Level(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True, tag="level"):
    """One blind level. A new level applies from the next hand (TDA 2024 rule 23, PFP 19)."""

    small_blind: NonNegativeInt
    big_blind: PositiveInt
    ante: NonNegativeInt = 0
    #: A big-blind ante: the player in the big blind posts the ante for the whole table.
    big_blind_ante: bool = False
    minutes: Annotated[float, Meta(gt=0, le=600)]
    #: The game dealt in this level of a mixed event; None means the tournament's game.
    game: DealtGame | None = None
    #: Stud games post a bring-in instead of blinds; shown when set.
    bring_in: NonNegativeInt = 0

    def __post_init__(self) -> None:
        check_limits(self)
        if self.small_blind > self.big_blind:
            raise refused(ConfigValueError, "small_blind_too_big", {})
        if self.big_blind_ante and self.ante == 0:
            raise refused(ConfigValueError, "big_blind_ante_needs_ante", {})


class Break(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True, tag="break"):
    """A break; at a colour-up break the listed denominations leave play (PFP 20)."""

    minutes: Annotated[float, Meta(gt=0, le=600)]
    color_up: tuple[PositiveInt, ...] = ()
    name: str = ""

    def __post_init__(self) -> None:
        check_limits(self)


Step = Level | Break


#: The level numbers of each structure's steps, by the steps' tuple (held, so that its id
#: stands for it): counted at each call, every player's sale window at every version of a
#: room of 10,000 on a structure of 900 steps cost 10,000 counts of up to 900 steps.
_NUMBERED: dict[int, tuple[tuple[Step, ...], tuple[int | None, ...]]] = {}


def _numbers(levels: tuple[Step, ...]) -> tuple[int | None, ...]:
    held = _NUMBERED.get(id(levels))
    if held is None or held[0] is not levels:
        numbers: list[int | None] = []
        number = 0
        for step in levels:
            if isinstance(step, Level):
                number += 1
                numbers.append(number)
            else:
                numbers.append(None)
        if len(_NUMBERED) >= 64:
            _NUMBERED.pop(next(iter(_NUMBERED)), None)
        held = _NUMBERED[id(levels)] = (levels, tuple(numbers))
    return held[1]


class Structure(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Blind levels and breaks in the order they are played, with the chip set in play."""

    name: str
    starting_stack: PositiveInt
    #: Chip denominations at the start, smallest first.
    chips: Annotated[tuple[PositiveInt, ...], Meta(min_length=1)]
    levels: tuple[Step, ...]
    #: Late registration (and re-entry) is allowed up to and including this level number.
    late_registration_until: PositiveInt | None = None
    #: Buy-in, fee, guarantee, rebuys, add-ons, re-entries and the payout table; None: no money
    #: is tracked (and re-entries are limited only by late registration).
    prize: Prize | None = None

    def __post_init__(self) -> None:
        check_limits(self)
        if not any(isinstance(s, Level) for s in self.levels):
            raise refused(ConfigValueError, "no_levels", {})
        if list(self.chips) != sorted(set(self.chips)):
            raise refused(ConfigValueError, "chips_order", {})
        in_play = set(self.chips)
        if self.starting_stack % min(in_play):
            raise _not_made_of("starting_stack", self.starting_stack, min(in_play))
        for i, step in enumerate(self.levels):
            if isinstance(step, Break):
                for d in step.color_up:
                    if d not in in_play:
                        raise refused(
                            ConfigValueError,
                            "colour_up_not_in_play",
                            {"chip": d},
                            field=f"levels[{i}].color_up",
                        )
                    in_play.discard(d)
                if not in_play:
                    raise refused(
                        ConfigValueError, "colour_up_leaves_none", {}, field=f"levels[{i}].color_up"
                    )
                continue
            unit = min(in_play)
            for key in ("small_blind", "big_blind", "ante", "bring_in"):
                amount = getattr(step, key)
                if amount % unit:
                    raise refused(
                        ConfigValueError,
                        "blind_not_payable",
                        {"amount": amount, "chip": unit},
                        field=f"levels[{i}].{key}",
                    )
        levels = sum(1 for s in self.levels if isinstance(s, Level))
        if self.late_registration_until is not None and self.late_registration_until > levels:
            raise _no_level("late_registration_until", self.late_registration_until, levels)
        if self.prize is not None:
            self._check_prize(self.prize, levels)

    def _check_prize(self, prize: Prize, levels: int) -> None:
        """The prize's levels exist, and its chips can be paid with the chips in play."""
        unit = min(self.chips)
        named: list[tuple[str, int | None]] = [
            ("rebuy.until_level", prize.rebuy.until_level if prize.rebuy else None),
            ("add_on.level", prize.add_on.level if prize.add_on else None),
            ("re_entry.until_level", prize.re_entry.until_level if prize.re_entry else None),
        ]
        for key, level in named:
            if level is not None and level > levels:
                raise _no_level(f"prize.{key}", level, levels)
        for key, bought in (("rebuy", prize.rebuy), ("add_on", prize.add_on)):
            if bought is not None and bought.chips % unit:
                raise _not_made_of(f"prize.{key}.chips", bought.chips, unit)
        add_on = prize.add_on
        if add_on is not None and add_on.at_break:
            index = self.level_index(add_on.level)
            following = self.levels[index + 1] if index + 1 < len(self.levels) else None
            if not isinstance(following, Break):
                raise refused(
                    ConfigValueError,
                    "add_on_no_break",
                    {"level": add_on.level},
                    field="prize.add_on.level",
                )

    def level_index(self, number: int) -> int:
        """The step index of level ``number`` (1-based); ValueError if there is none."""
        seen = 0
        for i, step in enumerate(self.levels):
            if isinstance(step, Level):
                seen += 1
                if seen == number:
                    return i
        raise _no_level("", number, seen)

    def level_played(self, index: int) -> tuple[int, bool]:
        """The level number in play at step ``index`` and whether it is the break after it.

        A break counts as the level before it (late registration stays open through the break
        after its last level; an add-on is taken at the break after its level). A break before
        the first level counts as level 1.
        """
        for i in range(index, -1, -1):
            number = self.level_number(i)
            if number is not None:
                return number, i != index
        return 1, True

    def levels_played(self) -> list[tuple[int, bool]]:
        """``level_played`` of every step, in one pass: asked for each of 3,333 results of a
        structure of 900 steps, each counting the levels before it, it took 90 ms."""
        out = []
        number = 0
        for step in self.levels:
            if isinstance(step, Level):
                number += 1
                out.append((number, False))
            else:
                out.append((number or 1, True))
        return out

    def level_number(self, index: int) -> int | None:
        """The 1-based level number of step ``index``, None for a break."""
        return _numbers(self.levels)[index]

    def chips_before(self, index: int) -> tuple[int, ...]:
        """The denominations in play just before step ``index`` began (a colour-up break's
        leaving chips included)."""
        return self.chips_in_play(index - 1) if index > 0 else self.chips

    def chips_in_play(self, index: int) -> tuple[int, ...]:
        """The denominations still in play once step ``index`` has begun."""
        gone: set[int] = set()
        for step in self.levels[: index + 1]:
            if isinstance(step, Break):
                gone.update(step.color_up)
        return tuple(c for c in self.chips if c not in gone)


def _no_level(key: str, level: int, levels: int) -> ConfigValueError:
    return refused(
        ConfigValueError, "no_level", {"level": level, "levels": levels}, field=key or None
    )


def _not_made_of(key: str, amount: int, chip: int) -> ConfigValueError:
    return refused(ConfigValueError, "not_made_of", {"amount": amount, "chip": chip}, field=key)
