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
removing an entry. The windows and limits mirror ``decide`` at the
clock's step as written (``decide`` also counts a level change due but not yet written, which
the next batch brings within a tick); tests hold the two to the same answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

from .errors import Reason
from .events import (
    ChipsRaced,
    Event,
    PlayerRegistered,
    PlayersMoved,
    SeatsAssigned,
    SeatsDrawn,
    TableSetUp,
    TournamentCreated,
)
from .model import MAX_CHIPS, PlayerId, SeatNo, TableNo
from .rulebook import fold
from .rules import Break, Level, Structure
from .state import Player, Tournament, TournamentState

#: What a floorperson sells at a player's seat (re-entry: at the registration desk too).
SaleKind = Literal["re_entry", "rebuy", "add_on"]
#: A parameter of a reason (``errors.Param``, in a form msgspec can also decode).
Param = str | int | float | bool | None | list[int | str]
#: Where a player stands for a sale: out (may re-enter) or seated (may rebuy, take the add-on).
Standing = Literal["out", "seated"]


class Why(msgspec.Struct, frozen=True):
    """A reason as ``decide`` gives it: a reason of ``errors.PARAMS`` and its parameters,
    which each language renders (a window's reasons leave out the player: the screen adds
    whom it shows)."""

    reason: Reason
    params: dict[str, Param] = msgspec.field(default_factory=dict)


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


# Staff facts ---------------------------------------------------------------------------------


class Sale(msgspec.Struct, frozen=True, kw_only=True):
    """A kind of sale the tournament offers: closed now (why) or open, and its terms."""

    closed: Why | None
    #: What the player pays (an entry: the buy-in and the fee); None without prize settings.
    price: int | None
    #: The chips it gives; None when stacks are not tracked.
    chips: int | None


class Undoable(msgspec.Struct, frozen=True, kw_only=True):
    """A bust-out that can still be undone: until ``table`` deals the hand after ``hand``."""

    player: PlayerId
    table: TableNo
    seat: SeatNo
    hand: int


class SeatChoice(msgspec.Struct, frozen=True, kw_only=True):
    """Where a planned move may be redirected at its table: ``free`` seats for anybody,
    ``reserved`` ones only for the players in ``StaffFacts.needs_reserved``."""

    table: TableNo
    free: list[SeatNo]
    reserved: list[SeatNo]


class StaffFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What only the staff are shown: a public view drops this whole."""

    full: bool
    #: The sales by where a player stands; a kind missing is not offered at all.
    sales: dict[Standing, dict[SaleKind, Sale]]
    #: What bars a player from a sale whatever the window: a limit reached, the stack.
    bars: dict[PlayerId, dict[SaleKind, Why] | None]
    undo: list[Undoable]
    #: Open tables that cannot be broken now, with the free seats the other tables have.
    unbreakable: dict[TableNo, int]
    #: One per move of the plan, in its order.
    seats: list[SeatChoice]
    #: Movers (and players a move may pick) who may take a reserved seat.
    needs_reserved: list[PlayerId]
    #: Why the final table cannot be started now; None: it can.
    start_final: Why | None


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
    )


def staff_facts(t: Tournament, events: Sequence[Event] | None = None) -> StaffFacts:
    """The staff facts after ``events`` (None: all of them)."""
    s = t.state
    named = None if events is None or _starts_over(events) else _players_in(events)
    bars: dict[PlayerId, dict[SaleKind, Why] | None] = {}
    if named is None:
        for p in s.players.values():
            own = player_bars(t, p)
            if own:
                bars[p.id] = own
    else:
        for pid in named:
            if pid in s.players:
                bars[pid] = player_bars(t, s.players[pid]) or None
    seats, needs = redirects(t)
    return StaffFacts(
        full=named is None,
        sales=sales(t),
        bars=bars,
        undo=undoable(t),
        unbreakable=unbreakable(t),
        seats=seats,
        needs_reserved=needs,
        start_final=start_final(t),
    )


def _starts_over(events: Sequence[Event]) -> bool:
    return any(isinstance(e, TournamentCreated) for e in events)


def _named(events: Sequence[Event]) -> set[PlayerId]:
    """Players whose name these events may have given or changed."""
    out: set[PlayerId] = set()
    for e in events:
        if isinstance(e, PlayerRegistered):
            out.add(e.player)
        elif isinstance(e, TableSetUp):
            out.update(e.occupants.values())
    return out


def _players_in(events: Sequence[Event]) -> set[PlayerId]:
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
    return out


# The clock -----------------------------------------------------------------------------------


def steps(structure: Structure) -> list[StepFacts]:
    return [
        StepFacts(structure.level_number(i), big_blind_at(structure, i))
        for i in range(len(structure.levels))
    ]


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
    else:
        ahead = 0.0
        for step in levels[i + 1 :]:
            if isinstance(step, Break):
                if c.running and c.ends_at is not None:
                    break_at = c.ends_at + ahead
                else:
                    break_in = c.remaining + ahead
                break
            ahead += step.minutes * 60.0
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
        race=race_options(going, before if going else in_play),
        game=current.game or s.current_game if isinstance(current, Level) else None,
    )


def race_options(going: tuple[int, ...], before: tuple[int, ...]) -> tuple[RaceOption, ...]:
    """The chips that can be raced off (``decide``'s chip race): at a colour-up break the
    leaving ones, else any in play; each for the smallest larger chip that stays."""
    out = []
    for leaving in going or before:
        staying = [d for d in before if d != leaving and d not in going]
        larger = [d for d in staying if d > leaving]
        if larger:
            out.append(RaceOption(leaving, min(larger)))
    return tuple(out)


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


def _level(s: TournamentState, structure: Structure) -> tuple[int, bool]:
    """The level played at the clock's step, and whether it is the break after it."""
    return structure.level_played(s.clock.level)


def sales(t: Tournament) -> dict[Standing, dict[SaleKind, Sale]]:
    """What the tournament sells, by standing, with the window at the clock's step."""
    s = t.state
    structure = s.structure
    prize = structure.prize if structure is not None else None
    stack = structure.starting_stack if structure is not None else None
    out: dict[Standing, dict[SaleKind, Sale]] = {"out": {}, "seated": {}}
    if prize is None or prize.re_entry is not None:
        price = None if prize is None else prize.buy_in + prize.fee
        out["out"]["re_entry"] = Sale(closed=_re_entry_window(t), price=price, chips=stack)
    if prize is None or structure is None:
        return out
    level, at_break = _level(s, structure)
    if prize.rebuy is not None:
        r = prize.rebuy
        closed = (
            Why("rebuys_closed", {"until": r.until_level, "level": level})
            if level > r.until_level
            else None
        )
        out["seated"]["rebuy"] = Sale(closed=closed, price=r.price, chips=r.chips)
    if prize.add_on is not None:
        a = prize.add_on
        closed = None
        if level != a.level or (a.at_break and not at_break):
            reason: Reason = "add_on_at_break_only" if a.at_break else "add_on_during_level"
            closed = Why(reason, {"offered": a.level, "level": level, "at_break": at_break})
        out["seated"]["add_on"] = Sale(closed=closed, price=a.price, chips=a.chips)
    return out


def _re_entry_window(t: Tournament) -> Why | None:
    s = t.state
    structure = s.structure
    if structure is None or not s.clock.started:
        return None
    level, _ = _level(s, structure)
    until = structure.late_registration_until
    if until is not None and level > until:
        return Why("re_entry_late_closed", {"until": until, "level": level})
    prize = structure.prize
    rules = prize.re_entry if prize is not None else None
    if rules is not None and rules.until_level is not None and level > rules.until_level:
        return Why("re_entry_closed", {"until": rules.until_level, "level": level})
    return None


def standing(p: Player) -> Standing | None:
    if p.busted:
        return "out"
    return "seated" if p.table is not None else None


def player_bars(t: Tournament, p: Player) -> dict[SaleKind, Why]:
    """What bars ``p`` from a sale of their standing whatever the window (``decide``'s
    checks after the window's, in its order)."""
    structure = t.state.structure
    prize = structure.prize if structure is not None else None
    where = standing(p)
    out: dict[SaleKind, Why] = {}
    if prize is None or where is None:
        return out
    if where == "out":
        rules = prize.re_entry
        made = p.entries - 1
        if rules is not None and rules.max_per_player is not None and made >= rules.max_per_player:
            out["re_entry"] = Why("re_entry_limit", {"player": p.id, "made": made})
        return out
    if prize.rebuy is not None:
        r = prize.rebuy
        why: Why | None = None
        if r.max_per_player is not None and p.rebuys >= r.max_per_player:
            why = Why("rebuy_limit", {"player": p.id, "made": p.rebuys})
        elif r.max_stack is not None and p.stack is None:
            why = Why("rebuy_stack_unknown", {"player": p.id, "most": r.max_stack})
        elif r.max_stack is not None and p.stack is not None and p.stack > r.max_stack:
            why = Why(
                "rebuy_stack_too_big", {"player": p.id, "stack": p.stack, "most": r.max_stack}
            )
        else:
            why = _too_many_chips(p, r.chips)
        if why is not None:
            out["rebuy"] = why
    if prize.add_on is not None:
        a = prize.add_on
        if p.add_ons >= a.max_per_player:
            out["add_on"] = Why("add_on_limit", {"player": p.id, "taken": p.add_ons})
        else:
            why = _too_many_chips(p, a.chips)
            if why is not None:
                out["add_on"] = why
    return out


def _too_many_chips(p: Player, chips: int) -> Why | None:
    if p.stack is not None and p.stack + chips > MAX_CHIPS:
        return Why("stack_limit", {"player": p.id, "stack": p.stack + chips, "most": MAX_CHIPS})
    return None


# Bust-outs, tables, moves, the final ---------------------------------------------------------


def undoable(t: Tournament) -> list[Undoable]:
    """Bust-outs the floor may still undo (TDA rule 19: until the table's next hand)."""
    s = t.state
    if s.final_table is not None or not s.busted:
        return []
    out = []
    tables = s.tables
    # A tight pass: every player, once per batch (a bust record is cleared by its undo).
    for p in s.players.values():
        b = p.bust
        if b is None or not p.busted:
            continue
        table = tables[b.table]
        if table.hand == b.hand and table.status != "broken" and b.seat not in table.occupants:
            out.append(Undoable(player=p.id, table=b.table, seat=b.seat, hand=b.hand))
    return out


def _planned(t: Tournament) -> set[tuple[TableNo, SeatNo]]:
    return {(m.to.table, m.to.seat) for m in t.plan.moves if m.to.seat is not None}


def unbreakable(t: Tournament) -> dict[TableNo, int]:
    """Open tables the director cannot break now, with the free seats elsewhere: the other
    open tables must seat everybody at it, in seats neither planned nor reserved."""
    tables = t.state.tables
    # Empty seats that are no room: planned for a mover, or reserved. Few, so counted apart
    # and every open table's free seats are its empty seats less these.
    spoken: dict[TableNo, int] = {}
    for n, seat in _planned(t).union(t.reserved_seats()):
        table = tables.get(n)
        if table is not None and seat <= table.seats and seat not in table.occupants:
            spoken[n] = spoken.get(n, 0) + 1
    rows = [
        (table.number, table.seats - table.count - spoken.get(table.number, 0), table.count)
        for table in t.open_tables()
    ]
    total = sum(free for _, free, _ in rows)
    last = t.open_count < 2
    return {n: total - free for n, free, count in rows if last or total - free < count}


def redirects(t: Tournament) -> tuple[list[SeatChoice], list[PlayerId]]:
    """For each planned move the seats it may be redirected to, and the movers (or players a
    move may pick) who may take a reserved one."""
    s = t.state
    moves = t.plan.moves
    planned = _planned(t)
    choices = []
    needs: set[PlayerId] = set()
    # The empty seats of each destination, planned or not: a move may take its own.
    empty: dict[TableNo, list[tuple[SeatNo, bool, bool]]] = {}
    for m in moves:
        n = m.to.table
        if n not in empty:
            table = s.tables[n]
            empty[n] = [
                (seat, (n, seat) in planned, t.is_reserved(n, seat))
                for seat in range(1, table.seats + 1)
                if seat not in table.occupants
            ]
        seats = [
            (seat, reserved) for seat, taken, reserved in empty[n] if not taken or seat == m.to.seat
        ]
        choices.append(
            SeatChoice(
                table=n,
                free=[seat for seat, reserved in seats if not reserved],
                reserved=[seat for seat, reserved in seats if reserved],
            )
        )
        if m.player is not None:
            movers: Iterable[PlayerId] = (m.player,)
        else:
            movers = s.tables[m.from_.table].occupants.values()
        needs.update(pid for pid in movers if t.needs_reserved(s.players[pid]))
    return choices, sorted(needs)


def start_final(t: Tournament) -> Why | None:
    """Why the director cannot start the final table now (``decide``'s checks)."""
    s = t.state
    if s.final_table is not None:
        return Why("final_formed", {"table": s.final_table})
    if t.active < 2:
        return Why("final_too_few")
    most = max(s.rules.final_table, s.rules.seats)
    if max(s.rules.final_table, t.active) > most:
        return Why("final_too_many", {"players": t.active, "size": most})
    return None
