"""The facts screens show that follow from the rules, derived from the state and the plan.

Screens render these and decide nothing: what may be sold to a player now and why not, which
bust-outs can still be undone, which tables cannot be broken for want of room, the seats a
move may be redirected to, the clock's next level and break, the phases of a time call, and
the search key of every name (the server's own folding, so a phone searching offline finds
what the server finds). They are sent with every snapshot and every batch, encoded once.

Two parts, for the two kinds of screen:

- ``Facts`` is public (the wall, player screens, the staff too);
- ``StaffFacts`` is for the staff only (offers, undo, room to break, redirects): a public
  view drops it whole.

A batch carries the facts after it. Most are sent whole; the maps ``search``, ``search_ids``
and ``bars`` only for the players the batch named (``full`` is false), a ``None`` value
removing an entry.

Every fact that follows from a rule is asked of the check ``decide`` refuses by (``windows``,
``undo``, ``room``, ``moves``, ``final``, ``colour_up``, ``players``; the clock's
``seconds_to_break``):
one rule, one place. The windows are asked at the clock's step as written (``decide`` also
counts a level change due but not yet written, which the next batch brings within a tick).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec
from msgspec import UNSET

from .. import (
    bounty_facts,
    deal,
    final,
    finish,
    hand_for_hand,
    milestone,
    money,
    moves,
    players,
    room,
    rulings,
    seating,
    undo,
    windows,
)
from ..alternates import AlternateFacts
from ..alternates import facts as alternates_facts
from ..clock import seconds_to_break
from ..colour_up import Terms, offered, terms
from ..counts import ChipFacts, chip_facts, touches_counts
from ..deal import DealFacts
from ..events import (
    ChipsRaced,
    Event,
    PlayerRegistered,
    PlayerRenamed,
    PlayersMoved,
    SeatsAssigned,
    SeatsDrawn,
    StacksCounted,
    TableBagged,
    TableSetUp,
    TournamentCreated,
)
from ..milestone import MilestoneFacts
from ..model import PlayerId, SeatNo, Spot, TableNo
from ..rulebook import fold
from ..rules import Break, Level, Structure
from ..state import Player, Tournament, TournamentState
from ..why import Why
from ..windows import SaleKind, Standing, standing
from .announcements import Announcement
from .announcements import of_batch as announced

# Public facts --------------------------------------------------------------------------------


class StepFacts(msgspec.Struct, frozen=True, array_like=True):
    """One step of the structure: ``[level number or None at a break, big blind in force]``
    (a break's is the level's after it, or before it at the end)."""

    number: int | None
    big_blind: int | None


class RaceOption(msgspec.Struct, frozen=True):
    """A denomination that can be raced off now and the chip that replaces it."""

    leaving: int
    next_up: int


class ClockFacts(msgspec.Struct, frozen=True, kw_only=True):
    """The clock's step as the screens explain it; the current step's end is the state's
    ``clock.ends_at`` (running) or ``clock.remaining`` (paused)."""

    step: int
    #: The level number, None during a break.
    number: int | None
    on_break: bool
    #: The last step: it never ends.
    last: bool
    #: The next step that is a level, and a break before it if one comes first.
    next: int | None
    break_first: int | None
    #: When the next break begins while the clock runs; ``break_in`` is the seconds to it
    #: while it stands (0 during a break). Both None with no break ahead.
    break_at: float | None
    break_in: float | None
    #: The big blind in force (a break's: the next level's), for stacks in big blinds.
    big_blind: int | None
    #: The chips leaving at this break, those in play once it began and those just before.
    color_up: tuple[int, ...]
    chips_in_play: tuple[int, ...]
    chips_before: tuple[int, ...]
    #: What can be raced now: at a colour-up break its leaving chips, else any chip a larger
    #: one can replace.
    race: tuple[RaceOption, ...]
    #: The game dealt in this step (a mixed event's rotation), None at a break.
    game: str | None


class Phase(msgspec.Struct, frozen=True, array_like=True):
    """``[phase, until]``: the time call is in ``phase`` until the instant ``until``."""

    phase: Literal["minute", "count"]
    until: float


class TimeCallFacts(msgspec.Struct, frozen=True, kw_only=True):
    table: TableNo
    seat: SeatNo
    player: PlayerId | None
    #: In order; after the last one the call is over (the hand is dead).
    phases: tuple[Phase, ...]


class Facts(msgspec.Struct, frozen=True, kw_only=True):
    """What every screen may know."""

    #: True: every map is whole; False: the maps hold only the players a batch named.
    full: bool
    clock: ClockFacts | None
    #: Every step of the structure; sent when ``full`` only (a structure never changes).
    steps: list[StepFacts] | msgspec.UnsetType = msgspec.UNSET
    time_calls: list[TimeCallFacts]
    #: The search key (``rulebook.fold``) of each word of a name that is not plain ASCII. A
    #: name's key is its words' keys joined by spaces (the folding is letter by letter), a
    #: plain ASCII word's key the word in lower case: a field's keys are its distinct
    #: accented words, not one per player. A batch adds the words of the names it gave.
    search: dict[str, str]
    #: The same for player ids that are not plain ASCII (ids match whole words).
    search_ids: dict[PlayerId, str]
    #: "live", "finished" (a winner; the last bust-out may still be undone) or "closed".
    status: finish.Status = "live"
    winner: finish.Winner | None = None
    #: The chip leaders and the average of the counted stacks (``counts.chip_facts``); sent
    #: when ``full`` and with a batch that may change them.
    chips: ChipFacts | msgspec.UnsetType = msgspec.UNSET
    #: Hand-for-hand while it runs: the hand, the tables still playing it (``hand_for_hand``).
    hand_for_hand: hand_for_hand.HandForHandFacts | None = None
    #: The bubble burst: every player left is paid (``money``); None before.
    in_the_money: money.InTheMoney | None = None
    #: A bounty tournament's bounties (``bounty_facts``); sent when ``full`` and with a batch
    #: that may change them; None: no bounties.
    bounties: bounty_facts.BountyFacts | msgspec.UnsetType | None = msgspec.UNSET
    #: The capacity: whether the flight is full (``alternates``); None without one.
    alternates: AlternateFacts | None = None
    #: What this batch announces to the room (``announcements``): empty in a snapshot.
    announcements: list[Announcement] = msgspec.field(default_factory=list)


# Staff facts ---------------------------------------------------------------------------------


class Sale(msgspec.Struct, frozen=True, kw_only=True):
    """A kind of sale the tournament offers: closed now (why) or open, and its terms."""

    closed: Why | None
    #: What the player pays (an entry: the buy-in and the fee); None without prize settings.
    price: int | None
    #: The chips it gives; None when stacks are not tracked.
    chips: int | None


class Refund(msgspec.Struct, frozen=True, kw_only=True):
    """Unregistering a player: closed now (why) or open, and what each purchase is paid
    back at (price and fee; None without prize settings): the entry, a rebuy, an add-on."""

    closed: Why | None
    entry: int | None
    rebuy: int | None
    add_on: int | None


#: What a player's own bar is about: a sale of their standing, or withdrawing the entry.
BarKind = SaleKind | Literal["unregister"]


class Undoable(msgspec.Struct, frozen=True, kw_only=True):
    """A bust-out that can still be undone: until ``table`` deals the hand after ``hand``."""

    player: PlayerId
    table: TableNo
    seat: SeatNo
    hand: int
    #: When the house's minutes end the window (None: no time limit); a screen shows it
    #: and drops the undo then. A new level ends it sooner when ``level`` is true.
    until: float | None = None
    level: bool = False


class SeatChoice(msgspec.Struct, frozen=True, kw_only=True):
    """Where a planned move may be redirected at its table: ``free`` seats for anybody,
    ``reserved`` ones only for the players in ``StaffFacts.needs_reserved``. A move called
    to a seat (``called``) is carried out there only: another seat is called again first."""

    table: TableNo
    free: list[SeatNo]
    reserved: list[SeatNo]
    called: SeatNo | None = None


class StaffFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What only the staff are shown: a public view drops this whole."""

    full: bool
    #: The sales by where a player stands; a kind missing is not offered at all.
    sales: dict[Standing, dict[SaleKind, Sale]]
    #: What bars a player from a sale whatever the window (a limit reached, the stack), or
    #: from being unregistered (``unregister``: a re-entry).
    bars: dict[PlayerId, dict[BarKind, Why] | None]
    undo: list[Undoable]
    #: Open tables that cannot be broken now, with the free seats the other tables have.
    unbreakable: dict[TableNo, int]
    #: One per move of the plan, in its order.
    seats: list[SeatChoice]
    #: Movers (and players a move may pick) who may take a reserved seat.
    needs_reserved: list[PlayerId]
    #: Why the final table cannot be started now; None: it can.
    start_final: Why | None
    #: Unregistering a player with a refund (``players``): the window and the prices.
    refund: Refund | None = None
    #: How many planned moves each player has carried out today (balance, break, final),
    #: for the players moved at least once; a batch holds the players it named, None
    #: removing one.
    moves: dict[PlayerId, int | None] = msgspec.field(default_factory=dict)
    #: The players penalised more than once today, for the floor to escalate (``rulings``).
    repeats: list[rulings.Repeat] = msgspec.field(default_factory=list)
    #: The console suggests hand-for-hand: one player left from the money.
    hand_for_hand_due: bool = False
    #: The final table as a deal sees it (``deal``); None away from it or once one is made.
    deal: DealFacts | None = None
    #: A milestone satellite: the seated players whose count reached it, each a one-tap
    #: award, and the seats won (``milestone``); None for any other tournament.
    milestone: MilestoneFacts | None = None


# Computing them ------------------------------------------------------------------------------


def public_facts(t: Tournament, events: Sequence[Event] | None = None) -> Facts:
    """The public facts after ``events`` (None: all of them, for a snapshot or catch-up)."""
    s = t.state
    named = None if events is None or _starts_over(events) else _named(events)
    if named is None:
        players: Iterable[Player] = s.players.values()
    else:
        players = [s.players[pid] for pid in named if pid in s.players]
    search: dict[str, str] = {}
    ids: dict[PlayerId, str] = {}
    for p in players:
        if not p.name.isascii():
            for word in p.name.split(" "):
                if not word.isascii() and word not in search:
                    search[word] = fold(word)
        if not p.id.isascii():
            ids[p.id] = p.id.casefold()
    structure = s.structure
    return Facts(
        full=named is None,
        clock=None if structure is None else clock_facts(s, structure),
        steps=steps(structure) if named is None and structure is not None else msgspec.UNSET,
        time_calls=time_calls(s),
        search=search,
        search_ids=ids,
        status=finish.status(s),
        winner=finish.winner(s),
        chips=chip_facts(t) if named is None or touches_counts(t, events or ()) else UNSET,
        hand_for_hand=hand_for_hand.facts(t),
        in_the_money=money.in_the_money(t),
        bounties=bounty_facts.facts(t)
        if named is None or bounty_facts.touches(t, events or ())
        else UNSET,
        alternates=alternates_facts(s),
        announcements=[] if events is None else announced(events, t),
    )


def staff_facts(t: Tournament, events: Sequence[Event] | None = None) -> StaffFacts:
    """The staff facts after ``events`` (None: all of them)."""
    s = t.state
    named = None if events is None or _starts_over(events) else players_in(events)
    bars: dict[PlayerId, dict[BarKind, Why] | None] = {}
    if named is None:
        for p in s.players.values():
            own = player_bars(t, p)
            if own:
                bars[p.id] = own
    else:
        for pid in named:
            # A player no longer in the state (unregistered) is removed from the map.
            held = s.players.get(pid)
            bars[pid] = None if held is None else player_bars(t, held) or None
    moved: dict[PlayerId, int | None] = {}
    if named is None:
        moved.update((p.id, p.moves) for p in s.players.values() if p.moves)
    else:
        for pid in named:
            held = s.players.get(pid)
            moved[pid] = held.moves or None if held is not None else None
    seats, needs = redirects(t)
    return StaffFacts(
        full=named is None,
        sales=sales(t),
        bars=bars,
        undo=undoable(t),
        unbreakable=room.unbreakable(t),
        seats=seats,
        needs_reserved=needs,
        start_final=start_final(t),
        refund=refund(t),
        moves=moved,
        repeats=rulings.repeats(s),
        hand_for_hand_due=hand_for_hand.due(t),
        deal=deal.facts(t),
        milestone=milestone.facts(t),
    )


def _starts_over(events: Sequence[Event]) -> bool:
    return any(isinstance(e, TournamentCreated) for e in events)


def _named(events: Sequence[Event]) -> set[PlayerId]:
    """Players whose name these events may have given or changed."""
    out: set[PlayerId] = set()
    for e in events:
        if isinstance(e, PlayerRegistered | PlayerRenamed):
            out.add(e.player)
        elif isinstance(e, TableSetUp):
            out.update(e.occupants.values())
    return out


def players_in(events: Sequence[Event]) -> set[PlayerId]:
    """Every player these events name."""
    out: set[PlayerId] = set()
    for e in events:
        player = getattr(e, "player", None)
        if isinstance(player, str):
            out.add(player)
        if isinstance(e, PlayersMoved):
            out.update(m.player for m in e.moves)
        elif isinstance(e, SeatsDrawn | SeatsAssigned):
            out.update(x.player for x in e.seats)
        elif isinstance(e, TableSetUp):
            out.update(e.occupants.values())
        elif isinstance(e, ChipsRaced):
            out.update(r.player for r in e.players)
        elif isinstance(e, StacksCounted):
            out.update(c.player for c in e.stacks)
        elif isinstance(e, TableBagged):
            out.update(b.player for b in e.bags)
    return out


# The clock -----------------------------------------------------------------------------------


def steps(structure: Structure) -> list[StepFacts]:
    # The level numbers counted in one pass: asked step by step (``level_number`` counts the
    # levels before it), a structure of 900 levels took 400,000 steps at every version.
    out = []
    number = 0
    for i, step in enumerate(structure.levels):
        if isinstance(step, Level):
            number += 1
        out.append(
            StepFacts(number if isinstance(step, Level) else None, big_blind_at(structure, i))
        )
    return out


def big_blind_at(structure: Structure, index: int) -> int | None:
    """The big blind in force at step ``index``: a break's is the next level's (the blinds
    players return to), or the last level's after the last break."""
    levels = structure.levels
    for step in levels[index:]:
        if isinstance(step, Level):
            return step.big_blind
    for step in reversed(levels[:index]):
        if isinstance(step, Level):
            return step.big_blind
    return None


def clock_facts(s: TournamentState, structure: Structure) -> ClockFacts:
    c = s.clock
    levels = structure.levels
    i = c.level
    current = levels[i]
    on_break = isinstance(current, Break)
    nxt: int | None = None
    break_first: int | None = None
    for j in range(i + 1, len(levels)):
        if isinstance(levels[j], Break):
            if break_first is None:
                break_first = j
        else:
            nxt = j
            break
    break_at: float | None = None
    break_in: float | None = None
    if on_break:
        break_in = 0.0
    elif c.running and c.ends_at is not None:
        # Counted from the step's end, when none of it is left: an instant that stands.
        ahead = seconds_to_break(s, c.ends_at)
        break_at = None if ahead is None else c.ends_at + ahead
    else:
        # Paused or not started: what is left stands, whatever the instant.
        break_in = seconds_to_break(s, 0.0)
    going = current.color_up if isinstance(current, Break) else ()
    in_play = structure.chips_in_play(i)
    before = structure.chips_before(i)
    return ClockFacts(
        step=i,
        number=structure.level_number(i),
        on_break=on_break,
        last=i >= len(levels) - 1,
        next=nxt,
        break_first=break_first if nxt is not None else None,
        break_at=break_at,
        break_in=break_in,
        big_blind=big_blind_at(structure, i),
        color_up=going,
        chips_in_play=in_play,
        chips_before=before,
        race=race_options(structure, i),
        game=current.game or s.current_game if isinstance(current, Level) else None,
    )


def race_options(structure: Structure, step: int) -> tuple[RaceOption, ...]:
    """The chips a table can race off at ``step``, each with the chip that replaces it."""
    options = (terms(structure, step, chip) for chip in offered(structure, step))
    return tuple(RaceOption(x.leaving, x.next_up) for x in options if isinstance(x, Terms))


def time_calls(s: TournamentState) -> list[TimeCallFacts]:
    return [
        TimeCallFacts(
            table=c.table,
            seat=c.seat,
            player=c.player,
            phases=(Phase("minute", c.count_from), Phase("count", c.ends_at)),
        )
        for c in s.time_calls
    ]


# Sales ---------------------------------------------------------------------------------------


def sales(t: Tournament) -> dict[Standing, dict[SaleKind, Sale]]:
    """What the tournament sells, by standing, with the window at the clock's step."""
    s = t.state
    step = s.clock.level
    structure = s.structure
    prize = structure.prize if structure is not None else None
    stack = structure.starting_stack if structure is not None else None
    # Finished or closed: nothing is sold any more, whatever the window.
    over = finish.ended(s)
    out: dict[Standing, dict[SaleKind, Sale]] = {"out": {}, "seated": {}}
    if prize is None or prize.re_entry is not None:
        price = None if prize is None else prize.buy_in + prize.fee
        closed = over or windows.re_entry_window(s, step) or _final_table_full(t)
        out["out"]["re_entry"] = Sale(closed=closed, price=price, chips=stack)
    if prize is None:
        return out
    if (r := prize.rebuy) is not None:
        closed = over or windows.rebuy_window(s, step)
        out["seated"]["rebuy"] = Sale(closed=closed, price=r.price, chips=r.chips)
    if (a := prize.add_on) is not None:
        closed = over or windows.add_on_window(s, step)
        out["seated"]["add_on"] = Sale(closed=closed, price=a.price, chips=a.chips)
    return out


def _final_table_full(t: Tournament) -> Why | None:
    return Why("final_table_full") if seating.final_table_full(t) else None


def refund(t: Tournament) -> Refund:
    """Unregistering with a refund at the clock's step (``players.refund_window``)."""
    s = t.state
    prize = s.structure.prize if s.structure is not None else None
    closed = finish.ended(s) or players.refund_window(s, s.clock.level)
    if prize is None:
        return Refund(closed=closed, entry=None, rebuy=None, add_on=None)
    r, a = prize.rebuy, prize.add_on
    return Refund(
        closed=closed,
        entry=prize.buy_in + prize.fee,
        rebuy=None if r is None else r.price + r.fee,
        add_on=None if a is None else a.price + a.fee,
    )


def player_bars(t: Tournament, p: Player) -> dict[BarKind, Why]:
    """What bars ``p`` from a sale of their standing whatever the window (their limits),
    and from being unregistered."""
    s = t.state
    out: dict[BarKind, Why] = {}
    if (why := players.unregister_bar(p)) is not None:
        out["unregister"] = why
    where = standing(p)
    # A re-entry is sold without prize settings too: a disqualification bars it anyway.
    if where == "out" and (why := windows.re_entry_limit(s, p)) is not None:
        out["re_entry"] = why
    if s.structure is None or s.structure.prize is None:
        return out
    if where == "seated":
        if (why := windows.rebuy_limit(s, p)) is not None:
            out["rebuy"] = why
        if (why := windows.add_on_limit(s, p)) is not None:
            out["add_on"] = why
    return out


# Bust-outs, tables, moves, the final ---------------------------------------------------------


def undoable(t: Tournament) -> list[Undoable]:
    """Bust-outs the floor may still undo (TDA rule 19: until the table's next hand)."""
    if t.state.closed_at is not None:
        return []  # the director's close ends every dispute
    out = []
    for p in undo.undoable(t):
        b = p.bust
        assert b is not None
        out.append(
            Undoable(
                player=p.id,
                table=b.table,
                seat=b.seat,
                hand=b.hand,
                until=undo.until(t, p),
                level=b.level is not None and t.state.winner is None,
            )
        )
    return out


def redirects(t: Tournament) -> tuple[list[SeatChoice], list[PlayerId]]:
    """For each planned move the seats it may be redirected to, and the movers (or players a
    move may pick) who may take a reserved one."""
    s = t.state
    planned = moves.planned_seats(t)
    choices = []
    needs: set[PlayerId] = set()
    # The seats of each destination nobody sits in (a move may take its own drawn seat).
    empty: dict[TableNo, list[SeatNo]] = {}
    for m in t.plan.moves:
        n = m.to.table
        if n not in empty:
            seats = range(1, s.tables[n].seats + 1)
            empty[n] = [x for x in seats if moves.taken_bar(t, Spot(n, x), ()) is None]
        free = []
        reserved = []
        # A mover already at the destination table may stay in (or take back) the seat they
        # sit in: nobody else holds it (``decide`` lets the mover past ``taken_bar``).
        here = s.players[m.player] if m.player is not None else None
        own = here.seat if here is not None and here.table == n else None
        candidates = empty[n] if own is None else sorted({*empty[n], own})
        for seat in candidates:
            to = Spot(n, seat)
            if seat == m.to.seat or moves.redirect_bar(t, to, False, planned) is None:
                free.append(seat)
            elif moves.redirect_bar(t, to, True, planned) is None:
                reserved.append(seat)
        call = s.calls.get(m.player) if m.called and m.player is not None else None
        called = None if call is None else call.seat
        choices.append(SeatChoice(table=n, free=free, reserved=reserved, called=called))
        if m.player is not None:
            movers: Iterable[PlayerId] = (m.player,)
        else:
            movers = s.tables[m.from_.table].occupants.values()
        needs.update(pid for pid in movers if t.needs_reserved(s.players[pid]))
    return choices, sorted(needs)


def start_final(t: Tournament) -> Why | None:
    """Why the director cannot start the final table now."""
    return finish.ended(t.state) or final.start_bar(t)
