"""Backup and recovery: a tournament's whole log to a file, and back into any server.

The file is JSON lines: a header, then every event with its sequence number, then the
snapshot of the final state. The log is what counts (the state is its fold); the snapshot
lets an import check that the log it wrote folds to exactly the state that was exported.

    floor export TOURNAMENT FILE
    floor import FILE [--as NEW_ID]
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import msgspec

from .engine import clock as clocks
from .engine.events import Event, TournamentCreated
from .engine.state import Tournament, TournamentState
from .protocol import decode_event, encode_event
from .store.errors import StoreError
from .store.ids import check_tournament_id
from .store.ports import Snapshot, Summary
from .store.service import Service

FORMAT = "floor-export"
VERSION = 1


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    version: int
    tournament: str
    name: str
    events: int
    exported_at: float


class Line(msgspec.Struct, frozen=True):
    seq: int
    event: msgspec.Raw


class Final(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    state: TournamentState


class BackupError(StoreError):
    code = "bad_backup"


async def export(store: Service, tid: str, path: Path) -> int:
    """Write the tournament's log and final state to ``path``; the number of events."""
    t, version = await store.load(tid)
    raw = await _events_up_to(store, tid, version)
    encoder = msgspec.json.Encoder()
    tmp = path.with_name(path.name + ".part")
    with tmp.open("wb") as out:
        out.write(
            encoder.encode(
                Header(
                    format=FORMAT,
                    version=VERSION,
                    tournament=tid,
                    name=t.state.name,
                    events=len(raw),
                    exported_at=time.time(),
                )
            )
            + b"\n"
        )
        for seq, data in raw:
            out.write(encoder.encode(Line(seq, msgspec.Raw(data))) + b"\n")
        out.write(encoder.encode(Final(seq=version, state=t.state)) + b"\n")
    tmp.replace(path)
    return len(raw)


#: Events read from the log per call: a long tournament is not asked for in one piece.
_PAGE = 10_000


async def _events_up_to(store: Service, tid: str, version: int) -> list[tuple[int, bytes]]:
    """The log's events 1 to ``version`` (the state exported), not any written since."""
    raw: list[tuple[int, bytes]] = []
    after = 0
    while after < version:
        page = await store.log.read(tid, after, min(_PAGE, version - after))
        if not page:
            break
        raw.extend(page)
        after = page[-1][0]
    if [seq for seq, _ in raw] != list(range(1, version + 1)):
        raise BackupError(f"the log of {tid} is not numbered 1 to {version}: nothing exported")
    return raw


def _read(path: Path) -> tuple[Header, list[tuple[int, bytes]], Final]:
    try:
        lines = path.read_bytes().splitlines()
    except OSError as e:
        raise BackupError(f"cannot read {path}: {e.strerror}") from None
    if len(lines) < 3:
        raise BackupError(f"{path} is not a floor export: too short")
    try:
        header = msgspec.json.decode(lines[0], type=Header)
        final = msgspec.json.decode(lines[-1], type=Final)
        body = [msgspec.json.decode(line, type=Line) for line in lines[1:-1]]
    except msgspec.MsgspecError as e:
        raise BackupError(f"{path} is not a floor export: {e}") from None
    if header.format != FORMAT or header.version != VERSION:
        raise BackupError(
            f"{path} is {header.format} version {header.version}, not {FORMAT} version {VERSION}"
        )
    if len(body) != header.events or [x.seq for x in body] != list(range(1, len(body) + 1)):
        raise BackupError(f"{path} is incomplete: the events are not numbered 1 to {header.events}")
    return header, [(x.seq, bytes(x.event)) for x in body], final


def _renamed(events: Iterator[Event], new_id: str) -> Iterator[Event]:
    for e in events:
        yield msgspec.structs.replace(e, id=new_id) if isinstance(e, TournamentCreated) else e


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    #: Events written: the exported ones, and a clock pause if the clock was running.
    events: int
    #: Seconds left in the level when a running clock was paused; None if it was not running.
    paused_with: float | None = None


async def import_(store: Service, path: Path, new_id: str | None = None) -> Imported:
    """Load an export into this server; refuses an id that exists.

    The state is the exported one, except that a running clock is paused as it stood at
    the export (one more event).
    """
    header, lines, final = _read(path)
    tid = check_tournament_id(new_id or header.tournament)
    events = [decode_event(data) for _, data in lines]
    if new_id is not None:
        events = list(_renamed(iter(events), tid))
    try:
        t = Tournament.fold(events)
    except Exception as e:  # a damaged log can break the fold anywhere
        raise BackupError(f"{path}: the events do not fold to a tournament: {e!r}") from None
    expected = msgspec.structs.replace(final.state, id=tid)
    if msgspec.msgpack.encode(t.state) != msgspec.msgpack.encode(expected):
        raise BackupError(f"{path}: the events do not fold to the exported state")
    paused_with = None
    if t.state.clock.running:
        # Left running, the clock would catch up at once on every level that came due while
        # the server was lost. It stops where the export saw it; the director resumes it
        # when play does.
        pause = clocks.pause(t.state, header.exported_at)
        t.apply(pause)
        events.append(pause)
        paused_with = pause.remaining
    version = len(events)
    summary = Summary(id=tid, name=t.state.name, created_at=t.state.created_at)
    await store.log.restore(
        tid, [encode_event(e) for e in events], Snapshot(version, t.state), summary
    )
    store.forget(tid)
    return Imported(tournament=tid, events=version, paused_with=paused_with)
