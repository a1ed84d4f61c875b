"""The front desk's rules: the exclusion check fails closed, a list matches people however
their names are typed, the dealer sees the document's last characters only, and a shift's
report adds up and balances."""

from __future__ import annotations

import datetime

import pytest

from floor.engine.desk import exclusion
from floor.engine.desk.identity import OLDEST, Identity, check, expires_at, shown
from floor.engine.desk.ledger import Entry, Shift, report
from floor.engine.desk.tickets import usable
from floor.engine.errors import BadValue
from floor.engine.house.registry import registry_id, search_key
from floor.engine.house.tickets import Ledger, Ticket
from floor.engine.house.tickets_events import TicketIssue
from tests.unit.test_error_codes import assert_said

NOVAK = exclusion.Person(
    surname="Novák", given_names="Jan", birth_date=datetime.date(1980, 5, 1), doc_number="123456789"
)


def test_a_list_matches_the_name_with_the_birth_date_or_the_document_whatever_the_accents() -> None:
    digests, rows, bad = exclusion.read_list(
        "surname,given_names,birth_date,document_number\n"
        "NOVAK,jan,1980-05-01,\n"
        "Svoboda,Petr,1975-01-02,AB 987654\n"
        "Broken,Row,01.02.1975,\n"
    )
    assert (rows, [b.line for b in bad]) == (2, [4])
    assert exclusion.matches(NOVAK, (k in digests for k in exclusion.keys(NOVAK))) == "excluded"
    other_name = exclusion.Person(
        surname="Someone",
        given_names="Else",
        birth_date=datetime.date(1990, 1, 1),
        doc_number="ab-987654",
    )
    assert (
        exclusion.matches(other_name, (k in digests for k in exclusion.keys(other_name)))
        == "excluded"
    )
    born_later = exclusion.Person(
        surname="Novák",
        given_names="Jan",
        birth_date=datetime.date(1981, 5, 1),
        doc_number="555555",
    )
    assert (
        exclusion.matches(born_later, (k in digests for k in exclusion.keys(born_later))) == "clear"
    )


def test_the_list_keeps_digests_never_the_names() -> None:
    digests, _, _ = exclusion.read_list("Novák,Jan,1980-05-01,123456789\n")
    assert all("nov" not in d.lower() and "123456789" not in d for d in digests)


def test_the_check_fails_closed_when_it_cannot_answer_or_the_list_is_old() -> None:
    now = 1_000_000.0
    assert exclusion.verdict(None, now, now, 24) == "unavailable"
    assert exclusion.verdict("clear", now - 25 * 3600, now, 24) == "stale"
    assert exclusion.verdict("excluded", now - 25 * 3600, now, 24) == "stale"
    assert exclusion.verdict("clear", now - 3600, now, 24) == "clear"
    assert exclusion.verdict("excluded", now - 3600, now, 24) == "excluded"
    assert [
        exclusion.lets_through(r)
        for r in ("clear", "overridden", "excluded", "stale", "unavailable")
    ] == [
        True,
        True,
        False,
        False,
        False,
    ]


def test_the_dealer_sees_the_name_the_document_type_and_its_last_characters() -> None:
    identity = Identity(
        doc_type="passport",
        doc_number="AB 123-456",
        birth_date=datetime.date(1980, 1, 1),
        country="CZ",
    )
    seen = shown("Jan Novák", identity)
    assert (seen.name, seen.doc_type, seen.last) == ("Jan Novák", "passport", "456")


def test_an_identity_of_a_minor_or_an_impossible_birth_date_is_refused_naming_the_field() -> None:
    today = datetime.date(2026, 6, 1)
    young = Identity(
        doc_type="id_card", doc_number="123456", birth_date=datetime.date(2008, 6, 2), country="CZ"
    )
    with pytest.raises(BadValue) as e:
        check(young, today, 18)
    assert (e.value.field, e.value.reason, e.value.params) == (
        "identity.birth_date",
        "desk_too_young",
        {"age": 17, "least": 18},
    )
    eighteen = Identity(
        doc_type="id_card", doc_number="123456", birth_date=datetime.date(2008, 6, 1), country="CZ"
    )
    assert check(eighteen, today, 18) is eighteen
    future = Identity(
        doc_type="id_card", doc_number="123456", birth_date=datetime.date(2027, 1, 1), country="CZ"
    )
    with pytest.raises(BadValue, match="birth date") as e:
        check(future, today, 18)
    assert_said(e.value, "desk_birth_date", {"date": "2027-01-01", "oldest": OLDEST.isoformat()})


def test_an_identity_expires_after_the_venues_retention() -> None:
    assert expires_at(1000.0, 30) == 1000.0 + 30 * 86400


def test_a_retried_command_makes_the_same_registry_id_and_names_are_searched_folded() -> None:
    assert registry_id("desk-1-abc") == registry_id("desk-1-abc") != registry_id("desk-1-abd")
    assert search_key("  Jan   NOVÁK ") == "jan novak"


def _entry(n: int, kind: str, method: str, amount: int, of: str | None = None) -> Entry:
    return Entry(
        id=f"c{n}",
        kind=kind,  # type: ignore[arg-type]
        shift="s-1",
        desk="A",
        by="dora",
        tournament="t",
        player=f"R{n}",
        name=f"P {n}",
        method=method,  # type: ignore[arg-type]
        amount=amount,
        at=float(n),
        of=of,
    )


def test_a_shift_report_adds_up_by_method_and_balances_when_the_drawer_holds_what_it_should() -> (
    None
):
    shift = Shift(id="s-1", desk="A", by="dora", opened_at=0.0, float_=500)
    entries = [
        _entry(1, "sale", "cash", 100),
        _entry(2, "sale", "cash", 100),
        _entry(3, "sale", "card", 100),
        _entry(4, "void", "cash", 100, of="c1"),
        _entry(5, "refund", "card", 100, of="c3"),
        _entry(6, "sale", "cash", 100),
    ]
    open_ = report(shift, entries)
    cash, card, ticket = open_.totals
    assert (cash.sold, cash.voided, cash.net, card.sold, card.refunded, card.net, ticket.net) == (
        300,
        100,
        200,
        100,
        100,
        0,
        0,
    )
    assert (open_.sales, open_.voids, open_.refunds, open_.net) == (4, 1, 1, 200)
    assert (open_.expected_cash, open_.balances) == (700, None)
    closed = report(
        Shift(id="s-1", desk="A", by="dora", opened_at=0.0, float_=500, counted=700), entries
    )
    assert (closed.difference, closed.balances) == (0, True)
    short = report(
        Shift(id="s-1", desk="A", by="dora", opened_at=0.0, float_=500, counted=650), entries
    )
    assert (short.difference, short.balances) == (-50, False)


def _ticket(tid: str, at: float, **issue: object) -> Ticket:
    i = TicketIssue(id=tid, target=issue.pop("target", "main"), value=1000, **issue)  # type: ignore[arg-type]
    return Ticket(issue=i, holder=i.holder, name=i.name, at=at)


def test_the_desk_lists_the_tickets_that_pay_this_entry_the_players_own_first() -> None:
    tickets = [
        _ticket("open-old", 1.0),
        _ticket("open-new", 5.0),
        _ticket("mine", 9.0, holder="R000000000A"),
        _ticket("theirs", 2.0, holder="R000000000B"),
        _ticket("theirs-free", 3.0, holder="R000000000B", transferable=True),
        _ticket("elsewhere", 1.0, target="side"),
        _ticket("expired", 1.0, expires=50.0),
        _ticket("held", 1.0),
        _ticket("used", 1.0),
    ]
    tickets[-1].status = "used"
    ledger = Ledger(tickets={t.issue.id: t for t in tickets})
    found = usable(ledger, {"held"}, "main", "R000000000A", now=100.0)
    assert [t.issue.id for t in found] == ["mine", "open-old", "theirs-free", "open-new"]
    # A new player: nobody's bound ticket.
    found = usable(ledger, {"held"}, "main", None, now=100.0)
    assert [t.issue.id for t in found] == ["open-old", "theirs-free", "open-new"]
    # Before its end, the expiring one too; never more than asked.
    assert "expired" in [t.issue.id for t in usable(ledger, set(), "main", None, now=10.0)]
    assert len(usable(ledger, set(), "main", None, now=10.0, most=2)) == 2
