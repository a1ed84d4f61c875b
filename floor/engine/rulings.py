"""Floor rulings: what the floor decided at a table, the rule it applied, the penalties it gave.

A ruling names a table (or none), the players it concerns, the rulebook entry it applies (a
rule id of the tournament's rule set, which the screens open, checked against that book when
the ruling is made: ``check_rule``) and a short note; it may give each player one penalty.

The penalties are those of TDA 2024 rule 71 (PFP 50, FLOOR-RULES 11), for what rule 71B
lists: etiquette violations (rule 70), exposing cards, throwing cards, one player to a hand
(rule 67), devices and strategy tools (rule 5), a player who will not be identified (rule 4),
soft play, abuse, dodging blinds, cheating. Rule 71A's range, lightest first, as the kinds a
ruling gives:

- a verbal warning: ``warning``;
- one or more missed hands: ``sit_out`` for ``hands``, counted from the hands the player's
  table reports (the hand being played when the ruling is made does not count, as rule 68
  starts a penalty at the end of the hand; the hand dealt once the last of them is over
  deals the player in again). The player is away from the table and their hand is dealt and
  killed, blinds and antes posted (rule 71C), which the dealer does;
- one or more missed rounds: ``sit_out`` for ``rounds``, which are hands: one per player
  seated at the player's table when the ruling is made, the player included, per round
  (rule 71A), fixed then and counted as hands;
- a sit-out of ``minutes``, from the ruling's ``at`` (the server's time as the phone knew it:
  a ruling sent late from an outbox still ends on time), for a house that keeps time
  penalties (PFP 50; the 2024 text has none). The clock driver writes its end, as it ends a
  time call;
- disqualification (rule 71D): the player's chips leave the tournament (the chips in play
  drop by them) and the player is out in the place a bust-out would have at that moment
  (the ruling is followed by the player's ``player_busted``, the same place ``decide`` gives
  a bust-out). A disqualification is not undone like a bust-out and the player cannot
  re-enter.

Every ruling is kept for the day (``ruling_log``): a player's earlier rulings and penalties
are at hand when the next is decided, and ``repeats`` lists the players penalised more than
once, so that the floor escalates (rule 71A: "repeat infractions are subject to escalating
penalties"; "Při opakovaném porušení pravidel se penalizace bude zvyšovat", PFP 50).
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from .commands import EndSitOut, Penalty, RecordRuling
from .dispatch import decides, folds, validates
from .errors import BadValue, NotAllowed, UnknownPlayer, UnknownTable, refused
from .events import Event, PenaltyGiven, PlayerBusted, RulingRecorded, SitOutEnded
from .model import MAX_CHIPS, PlayerId, TableNo
from .rulebook import Book
from .ruling_log import Ruling, SitOut
from .state import Player, Tournament, TournamentState

#: How far a ruling's time may run ahead of the server's clock: the phone's estimate of the
#: server's time is off by a round trip at most, far less than this.
AHEAD: Final = 60.0
#: The penalties from the lightest up (TDA 2024 rule 71A): a repeat is escalated past the
#: heaviest so far.
SEVERITY: Final[dict[str, int]] = {"warning": 1, "sit_out": 2, "disqualification": 3}


# Deciding ------------------------------------------------------------------------------------


def check_rule(rule: str | None, book: Book) -> None:
    """Refuse a ruling that cites a rule ``book`` (the tournament's rulebook) does not hold.

    Asked when the ruling is made, by the server with the book it has (reading it is I/O), not
    when a log is replayed: a ruling recorded under an earlier edition of a book stays."""
    if rule is not None and book.get(rule) is None:
        raise refused(BadValue, "rule_unknown", {"rule": rule, "book": book.title}, field="rule")


def record(t: Tournament, c: RecordRuling, now: float) -> list[Event]:
    """The events of a ruling, or a refusal naming the field (nothing changes then)."""
    s = t.state
    at = now if c.at is None else c.at
    if at > now + AHEAD:
        ahead = round(at - now)
        raise refused(NotAllowed, "ruling_in_future", {"seconds": ahead}, field="at")
    # A phone a little ahead ruled now, not in the future.
    at = min(at, now)
    hand = None
    if c.table is not None:
        table = s.tables.get(c.table)
        if table is None:
            raise refused(UnknownTable, "table_unknown", {"table": c.table}, field="table")
        hand = table.hand
    note = " ".join(c.note.split())
    if c.rule is None and not note and not c.penalties:
        raise refused(NotAllowed, "ruling_empty", {}, field="rule")
    named: list[PlayerId] = []
    for i, pid in enumerate(c.players):
        p = _known(s, pid, f"players[{i}]")
        if p.id in named:
            raise _twice(p.id, f"players[{i}]")
        named.append(p.id)
    given: list[PenaltyGiven] = []
    out: list[tuple[Player, int]] = []
    left = t.active
    for i, penalty in enumerate(c.penalties):
        where = f"penalties[{i}]"
        p = _known(s, penalty.player, f"{where}.player")
        if any(g.player == p.id for g in given):
            raise _twice(p.id, f"{where}.player")
        _check_terms(penalty, where)
        if penalty.kind != "warning":
            _in_play(p, f"{where}.player")
        if penalty.kind == "sit_out":
            running = sitting_out(s, p.id)
            if running is not None:
                raise refused(
                    NotAllowed,
                    "sit_out_running",
                    {"player": p.id, "ruling": running.ruling},
                    field=f"{where}.player",
                )
            ends = None if penalty.minutes is None else at + penalty.minutes * 60.0
            hands = penalty.hands
            if penalty.rounds is not None:
                hands = round_hands(t, p, penalty.rounds)
            given.append(
                PenaltyGiven(
                    player=p.id,
                    kind="sit_out",
                    hands=hands,
                    rounds=penalty.rounds,
                    minutes=penalty.minutes,
                    ends_at=ends,
                )
            )
        elif penalty.kind == "disqualification":
            # Out in the place a bust-out takes now; a second one in the ruling the next.
            if left <= 1:
                raise refused(
                    NotAllowed,
                    "disqualify_all",
                    {"players": len(out) + 1, "left": t.active},
                    field=f"{where}.player",
                )
            chips = penalty.chips if penalty.chips is not None else p.stack
            given.append(
                PenaltyGiven(player=p.id, kind="disqualification", chips=chips, place=left)
            )
            out.append((p, left))
            left -= 1
        else:
            given.append(PenaltyGiven(player=p.id, kind="warning"))
        if p.id not in named:
            named.append(p.id)
    events: list[Event] = [
        RulingRecorded(
            number=len(s.rulings.made) + 1,
            table=c.table,
            hand=hand,
            players=tuple(named),
            rule=c.rule,
            note=note,
            penalties=tuple(given),
            at=at,
        )
    ]
    for p, place in out:
        assert p.table is not None and p.seat is not None
        events.append(
            PlayerBusted(
                player=p.id,
                table=p.table,
                seat=p.seat,
                hand=t.table(p.table).hand,
                place=place,
                at=now,
            )
        )
    # A ruling recorded after its sit-out's minutes ran out: over as soon as it is written.
    events.extend(
        SitOutEnded(player=g.player, ruling=len(s.rulings.made) + 1, how="time", at=g.ends_at)
        for g in given
        if g.ends_at is not None and g.ends_at <= now
    )
    return events


def end(t: Tournament, c: EndSitOut, now: float) -> list[Event]:
    """The floor lets a player back in before their sit-out is over."""
    p = _known(t.state, c.player, "player")
    running = sitting_out(t.state, p.id)
    if running is None:
        raise refused(NotAllowed, "no_sit_out", {"player": p.id}, field="player")
    return [SitOutEnded(player=p.id, ruling=running.ruling, how="floor", at=now)]


def hands_over(t: Tournament, table: TableNo, now: float) -> list[Event]:
    """The sit-outs a hand dealt at ``table`` ends: the players who have missed their hands
    there are dealt in (asked before the hand is applied)."""
    log = t.state.rulings
    if not log.sit_outs:
        return []
    seated = set(t.table(table).occupants.values())
    return [
        SitOutEnded(player=s.player, ruling=s.ruling, how="hands", at=now)
        for s in log.sit_outs
        if s.hands_left == 0 and s.player in seated
    ]


def due(s: TournamentState, now: float) -> list[Event]:
    """The sit-outs of minutes over by ``now``, each ended at its own instant (``Tick``)."""
    return [
        SitOutEnded(player=x.player, ruling=x.ruling, how="time", at=x.ends_at)
        for x in s.rulings.sit_outs
        if x.ends_at is not None and x.ends_at <= now
    ]


def next_end(s: TournamentState) -> float | None:
    """When the next sit-out of minutes ends (the clock driver wakes for it)."""
    ends = [x.ends_at for x in s.rulings.sit_outs if x.ends_at is not None]
    return min(ends) if ends else None


def sitting_out(s: TournamentState, player: PlayerId) -> SitOut | None:
    for x in s.rulings.sit_outs:
        if x.player == player:
            return x
    return None


def disqualified(s: TournamentState, player: PlayerId) -> int | None:
    """The ruling that disqualified ``player``, if one did."""
    return s.rulings.disqualified.get(player)


def _known(s: TournamentState, pid: PlayerId, field: str) -> Player:
    p = s.players.get(pid)
    if p is None:
        raise refused(UnknownPlayer, "player_unknown", {"player": pid}, field=field)
    return p


def _in_play(p: Player, field: str) -> None:
    if p.busted:
        raise refused(NotAllowed, "player_out", {"player": p.id}, field=field)
    if p.table is None:
        raise refused(NotAllowed, "player_unseated", {"player": p.id}, field=field)


def _twice(pid: PlayerId, field: str) -> NotAllowed:
    return refused(NotAllowed, "player_listed_twice", {"player": pid}, field=field)


def round_hands(t: Tournament, p: Player, rounds: int) -> int:
    """The hands ``rounds`` missed rounds are for ``p`` now: one per player seated at their
    table, ``p`` included, per round (TDA 2024 rule 71A)."""
    assert p.table is not None
    return rounds * len(t.table(p.table).occupants)


def _check_terms(penalty: Penalty | PenaltyGiven, where: str) -> None:
    """A sit-out is for hands, rounds or minutes, nothing else is; only a disqualification
    takes chips. (A sit-out given for rounds says its hands too.)"""
    if penalty.kind == "sit_out":
        if isinstance(penalty, PenaltyGiven):
            # Hands or minutes; given for rounds, its hands too.
            ok = (penalty.minutes is None) != (penalty.hands is None) and (
                penalty.rounds is None or penalty.hands is not None
            )
        else:
            ok = sum(x is not None for x in (penalty.hands, penalty.rounds, penalty.minutes)) == 1
        if not ok:
            raise refused(NotAllowed, "sit_out_length", {}, field=f"{where}.hands")
    elif penalty.hands is not None or penalty.rounds is not None or penalty.minutes is not None:
        name = next(n for n in ("hands", "rounds", "minutes") if getattr(penalty, n) is not None)
        raise refused(NotAllowed, "penalty_length", {"kind": penalty.kind}, field=f"{where}.{name}")
    if penalty.kind != "disqualification" and penalty.chips is not None:
        raise refused(NotAllowed, "penalty_chips", {"kind": penalty.kind}, field=f"{where}.chips")


# Checking a log written elsewhere (``validate``) ---------------------------------------------


def check(t: Tournament, e: RulingRecorded | SitOutEnded) -> None:
    """Refuse a ruling or a sit-out's end no command could have written in ``t``."""
    s = t.state
    if isinstance(e, SitOutEnded):
        running = sitting_out(s, e.player)
        if running is None or running.ruling != e.ruling:
            raise refused(
                NotAllowed,
                "no_sit_out_ruling",
                {"player": e.player, "ruling": e.ruling},
                field="player",
            )
        return
    if e.number != len(s.rulings.made) + 1:
        raise _not_as_recorded("number", e.number, len(s.rulings.made) + 1, "number")
    if e.table is not None:
        table = s.tables.get(e.table)
        if table is None:
            raise refused(UnknownTable, "table_unknown", {"table": e.table}, field="table")
    for i, pid in enumerate(e.players):
        _known(s, pid, f"players[{i}]")
    left = t.active
    for i, g in enumerate(e.penalties):
        where = f"penalties[{i}]"
        p = _known(s, g.player, f"{where}.player")
        _check_terms(g, where)
        if g.kind != "warning":
            _in_play(p, f"{where}.player")
        if g.rounds is not None and g.hands != round_hands(t, p, g.rounds):
            raise _not_as_recorded("hands", g.hands, round_hands(t, p, g.rounds), f"{where}.hands")
        if g.kind == "disqualification":
            if g.place != left or left <= 1:
                raise _not_as_recorded("place", g.place, left, f"{where}.place")
            if g.chips is not None and not 0 <= g.chips <= MAX_CHIPS:
                raise _not_as_recorded("chips", g.chips, p.stack, f"{where}.chips")
            left -= 1
        elif g.place is not None or (g.kind == "warning" and g.ends_at is not None):
            raise _not_as_recorded("place", g.place, None, f"{where}.place")


def _not_as_recorded(name: str, value: int | None, expected: int | None, field: str) -> BadValue:
    return refused(
        BadValue,
        "not_as_recorded",
        {"name": name, "value": value, "expected": expected},
        field=field,
    )


# What the screens are told -------------------------------------------------------------------


class Repeat(msgspec.Struct, frozen=True, kw_only=True):
    """A player penalised more than once today: the next penalty is heavier (PFP 50)."""

    player: PlayerId
    #: The rulings that penalised the player, oldest first.
    rulings: list[int]
    heaviest: Literal["warning", "sit_out", "disqualification"]


def repeats(s: TournamentState) -> list[Repeat]:
    """The players penalised twice or more, the most often first (then the latest)."""
    by_player: dict[PlayerId, list[PenaltyGiven]] = {}
    numbers: dict[PlayerId, list[int]] = {}
    for r in s.rulings.made:
        for g in r.penalties:
            by_player.setdefault(g.player, []).append(g)
            numbers.setdefault(g.player, []).append(r.number)
    out = [
        Repeat(
            player=pid,
            rulings=numbers[pid],
            heaviest=max(given, key=lambda g: SEVERITY[g.kind]).kind,
        )
        for pid, given in by_player.items()
        if len(given) >= 2
    ]
    out.sort(key=lambda r: (-len(r.rulings), -r.rulings[-1]))
    return out


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _recorded(t: Tournament, e: RulingRecorded) -> None:
    """Keep the ruling and start its sit-outs; a disqualification takes the player's chips
    out of the tournament."""
    log = t.state.rulings
    log.made.append(
        Ruling(
            number=e.number,
            table=e.table,
            hand=e.hand,
            players=e.players,
            rule=e.rule,
            note=e.note,
            penalties=e.penalties,
            at=e.at,
        )
    )
    for p in e.penalties:
        if p.kind == "sit_out":
            log.sit_outs.append(
                SitOut(
                    player=p.player, ruling=e.number, at=e.at, ends_at=p.ends_at, hands_left=p.hands
                )
            )
        elif p.kind == "disqualification":
            log.disqualified[p.player] = e.number
            log.drop(p.player)
            t.state.chips_added -= p.chips or 0


def _sit_out_ended(t: Tournament, e: SitOutEnded) -> None:
    log = t.state.rulings
    log.sit_outs[:] = [s for s in log.sit_outs if (s.player, s.ruling) != (e.player, e.ruling)]


DECIDES = (
    decides(RecordRuling, lambda t, c, now, rng: record(t, c, now)),
    decides(EndSitOut, lambda t, c, now, rng: end(t, c, now)),
)
CHECKS = (
    validates(RulingRecorded, check),
    validates(SitOutEnded, check),
)
FOLDS = (
    folds(RulingRecorded, _recorded),
    folds(SitOutEnded, _sit_out_ended),
)
