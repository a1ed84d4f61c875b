"""Bounties as the floor records them: who won the pot, what each won, what was paid.

A bust-out names the players who won the pot the busted player was all-in for (the floor's one
tap: the seat that won it). Their bounty is worked out here, when the bust-out is recorded, and
written into the event (``PlayerBusted.bounty_to``): the whole bounty on the busted player's
head, split among the winners of the pot (``bounty_rules.split``: rounded to the tournament's
prize rounding unit, the remainder to the first of them clockwise from the button), each share
paid (knockout) or half paid and half added to the winner's own bounty (progressive). In one
hand several players out are taken worst place first, as they are recorded: a player who wins
a side pot and busts in the main one carries what the side pot added to their bounty to its
winner. A bust-out with nobody named (a disqualification, a hand-for-hand report) leaves the
bounty unclaimed, with the house.

An undone bust-out gives the bounty back (``fold.bounty``); it is refused while a winner of
that bounty is out since (undo theirs first), so that every amount goes back where it came from.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import msgspec

from . import lookups, mystery
from .bounty_rules import Bounty, BountyShare, clockwise, halves, split
from .commands import Busted, PayBounty
from .dispatch import decides, folds, validates
from .errors import NotAllowed, refused
from .events import BountyPaid, Event, PlayerBusted
from .features import checks
from .fold.bounty import head
from .model import PlayerId
from .prize import Prize
from .state import Player, Table, Tournament


def settings(t: Tournament) -> tuple[Prize, Bounty] | None:
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    if prize is None or prize.bounty is None:
        return None
    return prize, prize.bounty


def eliminate(
    t: Tournament,
    busts: Sequence[PlayerBusted],
    named: Mapping[PlayerId, tuple[str, ...]],
    fields: Mapping[PlayerId, str],
    *,
    rng: random.Random | None = None,
    recorded: Mapping[PlayerId, int] | None = None,
    lenient: bool = False,
) -> list[PlayerBusted]:
    """``busts`` (worst place first, not yet applied) with their eliminators and bounties:
    ``named`` the eliminators each busted player's command named, ``fields`` where in the
    command they were named. ``lenient``: a winner who does not fit (named earlier, out
    since) is left out instead of refusing: the others share the bounty (nobody left: it is
    unclaimed). A mystery bounty's envelopes are drawn from ``rng`` (or, checking a logged
    event, the ``recorded`` ones checked)."""
    money = settings(t)
    if money is None and not any(named.get(e.player) for e in busts):
        return list(busts)
    draws = mystery.Draws(t, *money, rng) if money is not None else None
    out: list[PlayerBusted] = []
    # Bounties as they stand within these bust-outs, before any is applied.
    heads: dict[PlayerId, int] = {}
    out_now: set[PlayerId] = set()
    for e in busts:
        field = fields.get(e.player, "eliminators")
        refs = named.get(e.player, ())
        if lenient:
            refs = tuple(r for r in refs if _fits(t, e, r, out_now))
        winners = _winners(t, e, refs, field)
        for i, w in enumerate(winners):
            if w.id in out_now:
                raise refused(
                    NotAllowed,
                    "bounty_eliminator_out_before",
                    {"player": w.id, "busted": e.player},
                    field=f"{field}[{i}]",
                )
        out_now.add(e.player)
        ids = tuple(w.id for w in winners)
        if money is None:
            out.append(msgspec.structs.replace(e, eliminators=ids))
            continue
        prize, b = money
        unit = prize.round_to
        progressive = b.kind == "progressive"
        paid = b.paid_at == "table"
        if b.kind == "mystery":
            assert draws is not None
            out.append(_envelope(e, winners, draws, (recorded or {}).get(e.player, 0), unit, paid))
            continue
        taken = heads.get(e.player)
        if taken is None:
            taken = head(t.state.players[e.player], b)
        heads[e.player] = 0
        shares: list[BountyShare] = []
        if winners:
            for w, portion in zip(winners, split(taken, len(winners), unit), strict=True):
                cash, added = halves(portion, unit) if progressive else (portion, 0)
                if added:
                    before = heads.get(w.id)
                    heads[w.id] = (head(w, b) if before is None else before) + added
                shares.append(BountyShare(w.id, cash, added, paid))
        out.append(
            msgspec.structs.replace(e, eliminators=ids, bounty=taken, bounty_to=tuple(shares))
        )
    return out


def _envelope(
    e: PlayerBusted,
    winners: Sequence[Player],
    draws: mystery.Draws,
    recorded: int,
    unit: int,
    paid: bool,
) -> PlayerBusted:
    """A mystery bounty's bust-out: one envelope drawn for its winners together (none named, a
    disqualification: none drawn), split among them as a knockout's bounty is."""
    ids = tuple(w.id for w in winners)
    amount = draws.take(e.place, recorded) if winners else 0
    if not amount:
        return msgspec.structs.replace(e, eliminators=ids)
    shares = tuple(
        BountyShare(pid, cash, 0, paid)
        for pid, cash in zip(ids, split(amount, len(ids), unit), strict=True)
    )
    return msgspec.structs.replace(e, eliminators=ids, bounty_to=shares, envelope=amount)


def one(t: Tournament, e: PlayerBusted, refs: tuple[str, ...], rng: random.Random) -> PlayerBusted:
    """``eliminate`` for the bust-out of one player (``bust``): the most frequent command
    of a day, worked out without the bookkeeping several players out need."""
    money = settings(t)
    if len(refs) > 1:
        return eliminate(t, [e], {e.player: refs}, {e.player: "eliminators"}, rng=rng)[0]
    if money is not None and money[1].kind == "mystery":
        prize, b = money
        named = _winners(t, e, refs, "eliminators")
        draws = mystery.Draws(t, prize, b, rng)
        return _envelope(e, named, draws, 0, prize.round_to, b.paid_at == "table")
    if not refs:
        if money is None:
            return e
        taken = head(t.state.players[e.player], money[1])
        # Nobody named (the table screen or the API did not say): the bounty stays unclaimed.
        return msgspec.structs.replace(e, bounty=taken)
    (w,) = _winners(t, e, refs, "eliminators")
    if money is None:
        return msgspec.structs.replace(e, eliminators=(w.id,))
    prize, b = money
    taken = head(t.state.players[e.player], b)
    cash, added = halves(taken, prize.round_to) if b.kind == "progressive" else (taken, 0)
    share = BountyShare(w.id, cash, added, b.paid_at == "table")
    return msgspec.structs.replace(e, eliminators=(w.id,), bounty=taken, bounty_to=(share,))


def _fits(t: Tournament, e: PlayerBusted, ref: str, out_now: set[PlayerId]) -> bool:
    w = t.state.players.get(ref)
    return (
        w is not None
        and w.id != e.player
        and not w.busted
        and w.table == e.table
        and w.id not in out_now
    )


def winners_at(
    t: Tournament, table: Table, out: PlayerId, seats: Sequence[int], field: str
) -> tuple[PlayerId, ...]:
    """The players at the ``seats`` of ``table`` named as winners of ``out``'s pot (a
    hand-for-hand report names seats, as the table sees them)."""
    found: list[PlayerId] = []
    for i, seat in enumerate(seats):
        where = f"{field}[{i}]"
        pid = table.occupants.get(seat)
        if pid is None:
            raise checks.empty(table.number, seat, where)
        if pid == out:
            raise refused(NotAllowed, "bounty_eliminator_self", {"player": pid}, field=where)
        if pid in found:
            raise refused(NotAllowed, "bounty_eliminator_twice", {"player": pid}, field=where)
        found.append(pid)
    return tuple(found)


def _winners(t: Tournament, e: PlayerBusted, refs: tuple[str, ...], field: str) -> list[Player]:
    """The players named for ``e``'s pot, in order clockwise from the button."""
    found: list[Player] = []
    for i, ref in enumerate(refs):
        where = f"{field}[{i}]"
        w = lookups.player(t, ref, where)
        if w.id == e.player:
            raise refused(NotAllowed, "bounty_eliminator_self", {"player": w.id}, field=where)
        if w.busted:
            raise refused(NotAllowed, "bounty_eliminator_out", {"player": w.id}, field=where)
        if w.table != e.table:
            raise refused(
                NotAllowed,
                "bounty_eliminator_elsewhere",
                {"player": w.id, "busted": e.player, "table": e.table},
                field=where,
            )
        if found and w.id in {x.id for x in found}:
            raise refused(NotAllowed, "bounty_eliminator_twice", {"player": w.id}, field=where)
        found.append(w)
    if len(found) < 2:
        return found
    table = t.state.tables[e.table]
    button = table.positions.button if table.positions is not None else None
    order = clockwise([w.seat or 0 for w in found], button, table.seats)
    return [found[i] for i in order]


def same_hand(
    t: Tournament, busts: Sequence[PlayerBusted], named: Sequence[Busted], rng: random.Random
) -> list[PlayerBusted]:
    """``eliminate`` for several out in one hand, as ``bust_same_hand`` lists them."""
    by: dict[PlayerId, tuple[str, ...]] = {}
    fields: dict[PlayerId, str] = {}
    for i, x in enumerate(named):
        pid = lookups.player(t, x.player).id
        by[pid] = x.eliminators
        fields[pid] = f"players[{i}].eliminators"
    return eliminate(t, busts, by, fields, rng=rng)


def undone(t: Tournament, p: Player) -> tuple[PlayerId, ...]:
    """The players an undo of ``p``'s bust-out takes the bounty back from (its winners and the
    tournament's winner); refused while a winner of it is out since."""
    r = p.bounty
    if r is None or settings(t) is None:
        return ()
    players = t.state.players
    back: list[PlayerId] = []
    for x in r.to:
        w = players.get(x.player)
        if w is None or w.busted:
            raise refused(
                NotAllowed,
                "bounty_undo_eliminator_out",
                {"player": p.id, "eliminator": x.player},
                field="player",
            )
        back.append(x.player)
    winner = t.state.winner
    if winner is not None and winner not in back:
        back.append(winner)
    return tuple(back)


def pay(t: Tournament, c: PayBounty, now: float) -> list[Event]:
    """The cashier pays what ``c.player`` has won and not yet been paid."""
    if settings(t) is None:
        raise refused(NotAllowed, "bounty_none", {}, field="type")
    p = lookups.player(t, c.player)
    owed = owed_to(p)
    if owed <= 0:
        raise refused(NotAllowed, "bounty_nothing_owed", {"player": p.id}, field="player")
    return [BountyPaid(player=p.id, amount=owed, at=now, by=c.by)]


def owed_to(p: Player) -> int:
    """Won and not yet paid (below 0: paid more than won, after an undo: to be given back)."""
    r = p.bounty
    return 0 if r is None else r.won - r.paid


def check(t: Tournament, event: PlayerBusted | BountyPaid) -> None:
    """What an imported log may hold: a bust-out's bounty as ``eliminate`` works it out, a
    payment of what was owed."""
    if isinstance(event, BountyPaid):
        p = lookups.player(t, event.player)
        if settings(t) is None or event.amount != owed_to(p) or event.amount <= 0:
            raise refused(
                NotAllowed,
                "not_as_recorded",
                {"name": "amount", "value": event.amount, "expected": owed_to(p)},
                field="amount",
            )
        return
    if not event.eliminators and not event.bounty_to and not event.envelope:
        return
    named = {event.player: tuple(event.eliminators)}
    bare = msgspec.structs.replace(event, eliminators=(), bounty=0, bounty_to=(), envelope=0)
    again = eliminate(
        t,
        [bare],
        named,
        {event.player: "eliminators"},
        recorded={event.player: event.envelope},
    )[0]
    if again.envelope != event.envelope:
        raise refused(
            NotAllowed,
            "not_as_recorded",
            {"name": "envelope", "value": event.envelope, "expected": again.envelope},
            field="envelope",
        )
    if again.bounty_to != event.bounty_to or again.bounty != event.bounty:
        raise refused(
            NotAllowed,
            "not_as_recorded",
            {"name": "bounty_to", "value": str(event.bounty_to), "expected": str(again.bounty_to)},
            field="bounty_to",
        )


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _paid(t: Tournament, e: BountyPaid) -> None:
    """The bounties only, which ``Tournament.apply`` folds for every event (``_bounty``)."""


DECIDES = (decides(PayBounty, lambda t, c, now, rng: pay(t, c, now)),)
CHECKS = (validates(BountyPaid, check),)
FOLDS = (folds(BountyPaid, _paid),)
