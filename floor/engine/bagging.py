"""Bag and tag at the end of a day: each survivor's count, and the total-chips check.

At the end of a day the floor counts every survivor's stack at the table, bags it and tags
the bag (a bag number is optional). A table's sheet may also give the chips on the table as
one total (the racks counted together): where the bags add up to something else, a bag was
counted or written wrong, and that table is flagged. The room's check is exact: the chips that
must exist are the entries' starting stacks plus the rebuys and add-ons, less what colour-ups
and penalties took out (``TournamentState.chips_added`` keeps that sum). A difference above
the tolerance is flagged with what explains it: the tables off, the survivors not bagged yet.

A sheet sent again for a table is a correction, and says why (the log keeps both).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

import msgspec

from .errors import NotAllowed, UnknownPlayer, UnknownTable, refused
from .events import TableBagged
from .model import PlayerId, TableNo
from .state import Tournament


class ChipLedger(msgspec.Struct, frozen=True, kw_only=True):
    """The chips that must exist, by where they came from."""

    entries: int
    starting_stack: int
    rebuy_chips: int = 0
    add_on_chips: int = 0
    #: Chips colour-up races and penalties added (positive) or took out (negative).
    other: int = 0

    @property
    def expected(self) -> int:
        return (
            self.entries * self.starting_stack + self.rebuy_chips + self.add_on_chips + self.other
        )


class TableCheck(msgspec.Struct, frozen=True, kw_only=True):
    table: TableNo
    bags: int
    counted: int
    chips_on_table: int | None
    #: The bags' sum less the table's total; None without a total.
    difference: int | None
    flagged: bool


class Flag(msgspec.Struct, frozen=True, kw_only=True):
    """What explains a difference: ``table_off`` a table's bags against its total,
    ``unbagged`` survivors with no bag yet, ``room_off`` the room with no table to blame."""

    kind: Literal["table_off", "unbagged", "room_off"]
    table: TableNo | None = None
    chips: int | None = None
    players: int | None = None


class ChipCheck(msgspec.Struct, frozen=True, kw_only=True):
    """The room's total-chips check, and each table's."""

    ledger: ChipLedger
    expected: int
    counted: int
    #: Counted less expected: positive, chips too many.
    difference: int
    tolerance: int
    flagged: bool
    tables: tuple[TableCheck, ...]
    #: Survivors with no bag yet (their chips are missing from ``counted``).
    unbagged: tuple[PlayerId, ...]
    #: What explains the difference, for the screens to say.
    why: tuple[Flag, ...]
    #: Chips a milestone satellite's seat winners took out of play (``milestone``): they
    #: exist, though no bag holds them, so ``counted`` is set against ``expected`` with them.
    out_of_play: int = 0


def ledger(t: Tournament) -> ChipLedger:
    """The chips that must exist in ``t``: its entries, rebuys and add-ons, and the chips
    races and penalties moved (all kept in the state as they happen)."""
    s = t.state
    structure = s.structure
    if structure is None:
        return ChipLedger(entries=s.entries, starting_stack=0, other=s.chips_added)
    prize = structure.prize
    rebuy = s.rebuys * prize.rebuy.chips if prize is not None and prize.rebuy else 0
    add_on = s.add_ons * prize.add_on.chips if prize is not None and prize.add_on else 0
    return ChipLedger(
        entries=s.entries,
        starting_stack=structure.starting_stack,
        rebuy_chips=rebuy,
        add_on_chips=add_on,
        other=s.chips_added - rebuy - add_on,
    )


def check(
    chips: ChipLedger,
    sheets: Mapping[TableNo, TableBagged],
    survivors: Iterable[PlayerId],
    tolerance: int,
    out_of_play: int = 0,
) -> ChipCheck:
    """The total-chips check of ``sheets`` (the last per table) against ``chips``.

    ``survivors``: the players still in, whose bags are due. Flagged where the difference is
    more than ``tolerance`` chips, for the room and for each table with a total.
    """
    bagged: set[PlayerId] = set()
    tables: list[TableCheck] = []
    counted = 0
    for n in sorted(sheets):
        sheet = sheets[n]
        total = sum(b.stack for b in sheet.bags)
        bagged.update(b.player for b in sheet.bags)
        counted += total
        off = None if sheet.chips_on_table is None else total - sheet.chips_on_table
        tables.append(
            TableCheck(
                table=n,
                bags=len(sheet.bags),
                counted=total,
                chips_on_table=sheet.chips_on_table,
                difference=off,
                flagged=off is not None and abs(off) > tolerance,
            )
        )
    unbagged = tuple(sorted(p for p in survivors if p not in bagged))
    difference = counted + out_of_play - chips.expected
    why: list[Flag] = []
    for tc in tables:
        if tc.flagged and tc.difference is not None:
            why.append(Flag(kind="table_off", table=tc.table, chips=tc.difference))
    if unbagged:
        why.append(Flag(kind="unbagged", players=len(unbagged)))
    flagged = abs(difference) > tolerance
    if flagged and not why:
        why.append(Flag(kind="room_off", chips=difference))
    return ChipCheck(
        ledger=chips,
        expected=chips.expected,
        counted=counted,
        difference=difference,
        tolerance=tolerance,
        flagged=flagged,
        tables=tuple(tables),
        unbagged=unbagged,
        why=tuple(why),
        out_of_play=out_of_play,
    )


def room_check(t: Tournament) -> ChipCheck:
    """``t``'s total-chips check: its last sheet per table against the chips that must
    exist, at its flight's tolerance (0 for a tournament that is no flight)."""
    s = t.state
    tolerance = s.flight.rules.chip_tolerance if s.flight is not None else 0
    survivors = (p.id for p in s.players.values() if not p.busted)
    return check(ledger(t), s.bags, survivors, tolerance, s.chips_out)


def check_sheet(t: Tournament, sheet: TableBagged, before: TableBagged | None) -> None:
    """Refuses a sheet naming the field: a table that does not exist, a player not at it or
    out, a survivor of the table left off, a negative stack, a bag number given twice, or a
    correction without a reason. Nothing changes then."""
    table = t.state.tables.get(sheet.table)
    if table is None:
        raise refused(UnknownTable, "table_unknown", {"table": sheet.table}, field="table")
    if before is not None and not (sheet.reason or "").strip():
        raise refused(NotAllowed, "bags_correction_reason", {"table": sheet.table}, field="reason")
    seen: set[PlayerId] = set()
    numbers: dict[str, PlayerId] = {}
    for i, b in enumerate(sheet.bags):
        field = f"bags[{i}]"
        p = t.state.players.get(b.player)
        if p is None:
            raise refused(
                UnknownPlayer, "player_unknown", {"player": b.player}, field=f"{field}.player"
            )
        if p.busted:
            raise refused(NotAllowed, "player_out", {"player": b.player}, field=f"{field}.player")
        if p.id in seen:
            raise refused(
                NotAllowed, "player_listed_twice", {"player": p.id}, field=f"{field}.player"
            )
        seen.add(p.id)
        if p.table != table.number:
            raise refused(
                NotAllowed,
                "count_not_at_table",
                {"player": p.id, "table": table.number, "at_table": p.table},
                field=f"{field}.player",
            )
        if b.stack <= 0:
            raise refused(NotAllowed, "bag_empty", {"player": p.id}, field=f"{field}.stack")
        if b.bag is not None:
            other = numbers.get(b.bag)
            if other is not None:
                raise refused(
                    NotAllowed,
                    "bag_number_twice",
                    {"bag": b.bag, "player": other},
                    field=f"{field}.bag",
                )
            numbers[b.bag] = p.id
    for _, pid in sorted(table.occupants.items()):
        if pid not in seen:
            raise refused(
                NotAllowed, "bag_missing", {"player": pid, "table": table.number}, field="bags"
            )
