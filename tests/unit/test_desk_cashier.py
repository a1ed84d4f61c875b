"""The cashier's list beside places and deal amounts: the bounties a player won (what is still
owed of them, until the cashier pays it with the prize) and the seat ticket a satellite won
them, as it will be issued and once it is."""

from __future__ import annotations

from floor.engine import commands as cmd
from floor.engine.desk.cashier import to_pay
from tests.unit.test_bounties import floor_of, prize
from tests.unit.test_satellites import nine


def test_the_cashier_lists_the_bounties_won_and_what_is_owed_of_them() -> None:
    floor = floor_of(prize(paid_at="cashier"))
    # Out of the money with a bounty won: listed for the bounty alone.
    floor.do(cmd.Bust(player="T1S9", eliminators=("T1S8",)))
    floor.do(cmd.Bust(player="T1S8", eliminators=("T1S1",)))
    sheet = to_pay(floor.t, [])
    rows = {r.player: r for r in sheet.rows}
    assert set(rows) == {"T1S8"}
    assert (rows["T1S8"].amount, rows["T1S8"].bounty, rows["T1S8"].bounty_owed) == (0, 100, 100)
    assert sheet.bounties_owed == 100 and sheet.owed == 0
    # Paid by the tournament's bounty book: nothing owed, the bounty still shown as won.
    floor.do(cmd.PayBounty(player="T1S8", by="cashier"))
    row = to_pay(floor.t, [("T1S8", 5.0, "dora")]).rows[0]
    assert (row.bounty, row.bounty_owed, row.paid) == (100, 0, True)
    # Someone who busted out of the money with no bounty is not listed.
    floor.do(cmd.Bust(player="T1S7"))
    assert [r.player for r in to_pay(floor.t, []).rows] == ["T1S8"]


def test_a_satellites_seat_winners_are_listed_with_their_tickets() -> None:
    floor = nine()
    floor.bust("T1S9", "T1S8", "T1S7", "T1S6", "T1S5", "T1S4")
    seats = floor.t.state.satellite_end.seats  # type: ignore[union-attr]
    before = {r.player: (r.ticket, r.ticket_target, r.amount) for r in to_pay(floor.t, []).rows}
    assert set(before) == set(seats)
    assert all(t is not None and target == "main" for t, target, _ in before.values())
    # Issued, the same tickets (their ids are the ledger's).
    (issued,) = floor.do(cmd.IssueSeats())
    after = {r.player: r.ticket for r in to_pay(floor.t, []).rows}
    assert after == {x.player: x.ticket for x in issued.tickets}  # type: ignore[attr-defined]
    assert after == {p: t for p, (t, _, _) in before.items()}


def test_the_winners_bounties_are_paid_at_the_cashier_after_the_last_hand() -> None:
    floor = floor_of(prize(paid_at="cashier"), {1: "1-3 pos 1/2/3"})
    floor.do(cmd.Bust(player="T1S3", eliminators=("T1S1",)))
    floor.do(cmd.Bust(player="T1S2", eliminators=("T1S1",)))
    assert floor.t.state.winner == "T1S1"
    (row,) = [r for r in to_pay(floor.t, []).rows if r.player == "T1S1"]
    assert row.bounty_owed == row.bounty > 0
    # Finished: the cashier's payment of what the winner won is still recorded.
    (paid,) = floor.do(cmd.PayBounty(player="T1S1", by="cashier"))
    assert paid.amount == row.bounty  # type: ignore[attr-defined]
    assert to_pay(floor.t, []).bounties_owed == 0
