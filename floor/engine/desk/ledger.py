"""A desk's takings: each buy-in sold, voided or refunded, by shift, and the report that
closes a shift.

An entry is written once under the command id that made it (a retry finds it and changes
nothing). A void undoes a sale of the same shift (a mistake at the desk: the money never
left the drawer); a refund gives a sale's money back, in the shift where it is paid out.
The shift's report adds them up by payment method; the cash expected in the drawer is the
float plus the cash taken less the cash given back, and the shift balances when the cash
counted at close is that.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

Method = Literal["cash", "card", "ticket"]
Kind = Literal["sale", "void", "refund"]
METHODS: Final[tuple[Method, ...]] = ("cash", "card", "ticket")
#: An amount in the venue's currency units (whole units, as the prize pool counts them).
Amount = Annotated[int, Meta(ge=0, le=10_000_000)]
DeskName = Annotated[str, Meta(min_length=1, max_length=24, pattern=r"^[0-9A-Za-z _-]+$")]


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a shift's takings."""

    id: str
    kind: Kind
    shift: str
    desk: str
    by: str
    tournament: str
    player: str
    name: str
    method: Method
    #: What the desk took (a sale) or gave back (a void, a refund): never negative.
    amount: int
    at: float
    #: The sale a void or refund undoes.
    of: str | None = None
    #: The seat drawn (a sale), for the answer to a retried command.
    table: int | None = None
    seat: int | None = None
    code: str | None = None
    reason: str = ""
    #: The ticket that paid a sale of the method ``ticket`` (the house's ledger).
    ticket: str | None = None


class Shift(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    desk: str
    by: str
    opened_at: float
    #: The cash in the drawer when it opened.
    float_: int = msgspec.field(name="float")
    closed_at: float | None = None
    #: The cash counted at close.
    counted: int | None = None


class Totals(msgspec.Struct, frozen=True, kw_only=True):
    method: Method
    sales: int
    sold: int
    voided: int
    refunded: int
    net: int


class Report(msgspec.Struct, frozen=True, kw_only=True):
    shift: Shift
    totals: tuple[Totals, ...]
    sales: int
    voids: int
    refunds: int
    net: int
    #: The cash that must be in the drawer: float + cash taken - cash given back.
    expected_cash: int
    counted: int | None
    #: Counted less expected (None before close).
    difference: int | None
    balances: bool | None
    entries: tuple[Entry, ...]


def report(shift: Shift, entries: Iterable[Entry]) -> Report:
    rows = sorted(entries, key=lambda e: (e.at, e.id))
    totals = []
    for method in METHODS:
        mine = [e for e in rows if e.method == method]
        sold = sum(e.amount for e in mine if e.kind == "sale")
        voided = sum(e.amount for e in mine if e.kind == "void")
        refunded = sum(e.amount for e in mine if e.kind == "refund")
        totals.append(
            Totals(
                method=method,
                sales=sum(1 for e in mine if e.kind == "sale"),
                sold=sold,
                voided=voided,
                refunded=refunded,
                net=sold - voided - refunded,
            )
        )
    cash = next(t for t in totals if t.method == "cash")
    expected = shift.float_ + cash.net
    difference = None if shift.counted is None else shift.counted - expected
    return Report(
        shift=shift,
        totals=tuple(totals),
        sales=sum(t.sales for t in totals),
        voids=sum(1 for e in rows if e.kind == "void"),
        refunds=sum(1 for e in rows if e.kind == "refund"),
        net=sum(t.net for t in totals),
        expected_cash=expected,
        counted=shift.counted,
        difference=difference,
        balances=None if difference is None else difference == 0,
        entries=tuple(rows),
    )
