"""What a batch of events announces to the room: captioned on the wall and the table screens
and spoken there, in the languages of the players it concerns (issue 29.4).

Four things a player must act on, whether or not they hold a phone: a move the floor called
(at the table the player sits at), a table breaking (at that table), the bubble bursting and a
dinner break (at every table). Each announcement names the table screens that show it (none:
every table; the wall shows them all) and the languages to say it in, one after the other:
the languages of the players it concerns, ``""`` standing for the venue's (a player whose
language nobody set).

Only what the room may see: a move is announced once called (the room is shown called moves
alone), never while planned. Pure: the events of one batch and the tournament after it in,
the announcements out; the screens render them from their own templates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final, Literal

import msgspec

from ..events import Event, LevelChanged, MovesCalled, PlayerBusted, TableBreaking
from ..model import PlayerId, SeatNo, TableNo
from ..money import in_the_money
from ..rules import Break
from ..state import Tournament
from .alerts import _seated_at

Kind = Literal["move_called", "table_breaking", "in_the_money", "dinner_break"]

#: A break this long or longer is the dinner break (the structure gives each break's minutes):
#: the players leave the room, so it is announced; a short break is the clock's to show.
DINNER_MINUTES: Final = 45


class Announcement(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One announcement; the fields a kind does not use stay None."""

    kind: Kind
    #: The languages to say it in, in order (``""``: the venue's).
    langs: tuple[str, ...]
    #: The table screens that show it; empty: every table.
    tables: tuple[TableNo, ...] = ()
    #: When it happened, from the batch's events (None: no event of the batch says).
    at: float | None = None
    #: ``move_called``: the player, where they sit and where they go.
    player: PlayerId | None = None
    name: str | None = None
    table: TableNo | None = None
    seat: SeatNo | None = None
    to_table: TableNo | None = None
    to_seat: SeatNo | None = None
    #: ``move_called``: 2 and up when called again to another seat.
    count: int | None = None
    #: ``in_the_money``: the places paid.
    places: int | None = None
    #: ``dinner_break``: its minutes and when play resumes (None: the clock is paused).
    minutes: int | None = None
    until: float | None = None


def _latest(events: Sequence[Event]) -> float | None:
    times = [at for e in events if isinstance(at := getattr(e, "at", None), float) and at > 0]
    return max(times) if times else None


def _ranked(counts: Counter[str]) -> tuple[str, ...]:
    """The venue's language first (most of the room reads it), then the others by how many
    players read each, a tie by code."""
    ranked = sorted(counts, key=lambda code: (code != "", -counts[code], code))
    return tuple(ranked) or ("",)


def _langs(t: Tournament, players: Iterable[PlayerId]) -> tuple[str, ...]:
    """The languages of ``players``."""
    found = (t.state.players.get(pid) for pid in players)
    return _ranked(Counter(p.lang or "" for p in found if p is not None))


def _room_langs(t: Tournament) -> tuple[str, ...]:
    """The languages of every player still seated: one pass over the field (10,000 players:
    a few milliseconds, once for a batch that bursts the bubble or starts the dinner break)."""
    return _ranked(
        Counter(
            p.lang or "" for p in t.state.players.values() if p.table is not None and not p.busted
        )
    )


def of_batch(events: Sequence[Event], t: Tournament) -> list[Announcement]:
    """The announcements of a batch, ``t`` being the tournament after it."""
    out: list[Announcement] = []
    at = _latest(events)
    busted: set[PlayerId] = set()
    structure = t.state.structure
    for e in events:
        match e:
            case MovesCalled(calls=calls):
                for call in calls:
                    p = t.state.players.get(call.player)
                    out.append(
                        Announcement(
                            kind="move_called",
                            langs=_langs(t, [call.player]),
                            tables=(call.from_.table,),
                            at=e.at or at,
                            player=call.player,
                            name=p.name if p is not None else call.player,
                            table=call.from_.table,
                            seat=call.from_.seat,
                            to_table=call.to.table,
                            to_seat=call.to.seat,
                            count=call.count if call.count > 1 else None,
                        )
                    )
            case TableBreaking(table=table):
                out.append(
                    Announcement(
                        kind="table_breaking",
                        langs=_langs(t, _seated_at(t, table)),
                        tables=(table,),
                        at=at,
                        table=table,
                    )
                )
            case LevelChanged(level=level) if structure is not None:
                step = structure.levels[level] if 0 <= level < len(structure.levels) else None
                if isinstance(step, Break) and step.minutes >= DINNER_MINUTES:
                    out.append(
                        Announcement(
                            kind="dinner_break",
                            langs=_room_langs(t),
                            at=e.at,
                            minutes=round(step.minutes),
                            until=e.ends_at,
                        )
                    )
            case PlayerBusted(player=pid):
                busted.add(pid)
            case _:
                pass
    if busted:
        burst = in_the_money(t)
        # The bubble burst in this batch: one of this batch's bust-outs burst it.
        if burst is not None and set(burst.players) & busted:
            out.append(
                Announcement(
                    kind="in_the_money",
                    langs=_room_langs(t),
                    at=burst.at,
                    places=burst.places,
                )
            )
    return out
