"""Backup and recovery: a tournament's whole log to a file, and back into any server.

The file is JSON lines: a header, every event with its sequence number and its link in the
hash chain (``engine.chain``), the snapshot of the final state, the venue's signature where
the server has a signing key (``floor.signing``), and a digest::

    {"format": "floor-export", "version": 3, "tournament": "spring", "events": 812,
     "chain": "floor-chain/1", ...}
    {"seq": 1, "event": {"type": "tournament_created", ...}, "link": "5f0c..."}
    ...
    {"seq": 812, "state": {...}}
    {"signature": {"alg": "ed25519", "key_id": "ed25519:...", "signed": "sha256:...", ...}}
    {"digest": "sha256:..."}

The digest is the SHA-256 of every byte before its line (``head -n -1 FILE | sha256sum``
says the same): a file damaged or edited since the export is refused. It is no signature
(whoever edits a file can write a new digest); the chain names the first event that was
changed, and the signature (of every line before it) says the venue wrote the file
(``floor verify`` checks all three, offline). What guards the server is that an import
replays the log through the rules (``floor.engine.validate``), each event checked against
the state before it as the live API would have decided it, and that the log folds to
exactly the state exported. A refusal is one line naming the event; nothing is written.

A version 2 file (written before exports carried the chain) imports as it did. A version 1
file (written before exports carried a digest) is imported only when asked to (``floor
import --no-digest``): nothing tells a damaged one from the export, though every event is
still checked.

    floor export TOURNAMENT FILE
    floor import FILE [--as NEW_ID] [--no-digest]
    floor verify FILE [--keys keys.json]
"""

from __future__ import annotations

import hashlib
import hmac
import time
from pathlib import Path
from typing import Any, get_args

import msgspec

from .engine import chain, finish
from .engine import clock as clocks
from .engine.events import Event, TournamentCreated
from .engine.state import TournamentState
from .engine.validate import InvalidEvent, replay
from .protocol import decode_event, encode_event
from .signing import Signature, Signer
from .store.errors import StoreError
from .store.house import House
from .store.ids import check_tournament_id
from .store.ports import Snapshot, Summary
from .store.service import Service

FORMAT = "floor-export"
VERSION = 3
#: Written before exports carried the hash chain: a digest, no links.
UNCHAINED = 2
#: Written before exports carried a digest: imported only with ``no_digest``.
UNDIGESTED = 1
#: How the signature's line begins (``Signed``).
SIGNATURE_LINE = b'{"signature":'
_TAGS = frozenset(str(c.__struct_config__.tag) for c in get_args(Event))
#: What a line that is not what it should be raises: msgspec's errors, and RecursionError
#: for JSON nested past the depth msgspec decodes.
_UNREADABLE = (msgspec.MsgspecError, RecursionError)


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    version: int
    tournament: str
    name: str
    events: int
    exported_at: float
    #: The hash chain's algorithm (``engine.chain.SPEC``); None before exports carried it.
    chain: str | None = None


class Line(msgspec.Struct, frozen=True):
    seq: int
    event: msgspec.Raw
    link: str | None = None


class Signed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The venue's signature of every line before its own."""

    signature: Signature


class Final(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    state: TournamentState


class Digest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The last line: ``sha256:`` and the hex SHA-256 of every byte before it."""

    digest: str


class BackupError(StoreError):
    code = "bad_backup"


def digest_of(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _one_line(text: str) -> str:
    """``text`` with what a terminal would not print as it is (newlines, controls, invisible
    marks from a forged name) escaped: a refusal stays one readable line."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _refused(path: Path, why: str) -> BackupError:
    return BackupError(_one_line(f"{path}: {why}"))


async def export(store: Service, tid: str, path: Path, signer: Signer | None = None) -> int:
    """Write the tournament's log and final state to ``path``; the number of events."""
    lines, events = await export_lines(store, tid, signer)
    tmp = path.with_name(path.name + ".part")
    try:
        with tmp.open("wb") as out:
            out.writelines(lines)
        tmp.replace(path)
    except OSError as e:
        raise _refused(path, f"cannot write: {e.strerror}") from None
    return events


async def export_lines(
    store: Service, tid: str, signer: Signer | None = None
) -> tuple[list[bytes], int]:
    """The export file's lines (the console downloads them), and the number of events."""
    t, version = await store.load(tid)
    raw = await _events_up_to(store, tid, version)
    encoder = msgspec.json.Encoder()
    header = Header(
        format=FORMAT,
        version=VERSION,
        tournament=tid,
        name=t.state.name,
        events=len(raw),
        exported_at=time.time(),
        chain=chain.SPEC,
    )
    lines = [encoder.encode(header) + b"\n"]
    links = chain.links(chain.genesis(tid), raw)
    lines.extend(
        encoder.encode(Line(seq, msgspec.Raw(data), link.link)) + b"\n"
        for (seq, data), link in zip(raw, links, strict=True)
    )
    lines.append(encoder.encode(Final(seq=version, state=t.state)) + b"\n")
    if signer is not None:
        lines.append(encoder.encode(Signed(signer.sign(b"".join(lines)))) + b"\n")
    lines.append(encoder.encode(Digest(digest_of(b"".join(lines)))) + b"\n")
    return lines, len(raw)


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


def _read(path: Path, no_digest: bool) -> tuple[Header, list[bytes], Final, bool, bytes]:
    """The header, the event lines, the final state, whether a digest vouched for them, and
    the final state's line as written."""
    try:
        lines = path.read_bytes().splitlines(keepends=True)
    except OSError as e:
        raise _refused(path, f"cannot read: {e.strerror}") from None
    if len(lines) < 3:
        raise _refused(path, "not a floor export: too short")
    try:
        header = msgspec.json.decode(lines[0], type=Header)
    except _UNREADABLE as e:
        raise _refused(path, f"not a floor export: {e}") from None
    if header.format != FORMAT or header.version not in (VERSION, UNCHAINED, UNDIGESTED):
        raise _refused(
            path,
            f"{header.format} version {header.version}, not {FORMAT} version {VERSION} "
            f"(or {UNCHAINED}, {UNDIGESTED})",
        )
    digested = header.version != UNDIGESTED
    if digested:
        *lines, last = lines
        try:
            said = msgspec.json.decode(last, type=Digest).digest
        except _UNREADABLE:
            raise _refused(path, "the last line is not the export's digest: cut short?") from None
        if not hmac.compare_digest(said.encode(), digest_of(b"".join(lines)).encode()):
            raise _refused(
                path, "changed since it was exported: its digest does not match; nothing imported"
            )
        if lines and lines[-1].startswith(SIGNATURE_LINE):
            # The signature is checked by ``floor verify``, against the venue's published
            # keys; an import is guarded by the digest and the replay.
            lines.pop()
    elif not no_digest:
        raise _refused(
            path,
            f"a version {UNDIGESTED} export, written before exports carried a digest: nothing "
            "tells whether it changed since; if it is your own export, import it with "
            "--no-digest",
        )
    if len(lines) < 3:
        raise _refused(path, "not a floor export: too short")
    body = []
    for number, line in enumerate(lines[1:-1], 1):
        try:
            body.append(msgspec.json.decode(line, type=Line))
        except _UNREADABLE as e:
            raise _refused(path, f"event {number}: {_unreadable(e)}; nothing imported") from None
    try:
        final = msgspec.json.decode(lines[-1], type=Final)
    except _UNREADABLE as e:
        raise _refused(path, f"the final state: {_unreadable(e)}; nothing imported") from None
    if len(body) != header.events or [x.seq for x in body] != list(range(1, len(body) + 1)):
        raise _refused(path, f"incomplete: the events are not numbered 1 to {header.events}")
    if header.chain is not None:
        broken = chain_break(header, body)
        if broken is not None:
            raise _refused(path, f"{broken}; nothing imported")
    return header, [bytes(x.event) for x in body], final, digested, lines[-1]


def chain_break(header: Header, body: list[Line]) -> str | None:
    """Where the export's events stop following their links, in words; None if they all do."""
    if header.chain != chain.SPEC:
        return f"its chain is {header.chain!r}, which this floor does not know ({chain.SPEC})"
    found = chain.first_break(header.tournament, ((x.seq, bytes(x.event), x.link) for x in body))
    if found is None:
        return None
    kind = kind_of(bytes(next(x.event for x in body if x.seq == found.seq)))
    return f"event {found.seq} ({kind}) {found.why}"


def kind_of(data: bytes) -> str:
    try:
        value: Any = msgspec.json.decode(data)
    except _UNREADABLE:
        return "not JSON"
    kind = value.get("type") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) and kind in _TAGS else "of no known type"


class _StateKeys(msgspec.Struct):
    state: dict[str, msgspec.Raw]


def holds(final: bytes, part: str) -> bool:
    """Whether the export's final state (its line) has ``part``, a part added to the state
    since some exports were written."""
    return part in msgspec.json.decode(final, type=_StateKeys).state


def _decoded(path: Path, lines: list[bytes]) -> list[Event]:
    events = []
    for seq, data in enumerate(lines, 1):
        try:
            events.append(decode_event(data))
        except _UNREADABLE as e:
            raise _refused(
                path, f"event {seq}: {_undecodable(data, e)}; nothing imported"
            ) from None
    return events


def _unreadable(error: Exception) -> str:
    return "nested too deeply" if isinstance(error, RecursionError) else str(error)


def _undecodable(data: bytes, error: Exception) -> str:
    """Why an event does not decode: an unknown type said as such, else msgspec's words."""
    if isinstance(error, RecursionError):
        return _unreadable(error)
    try:
        value: Any = msgspec.json.decode(data)
    except _UNREADABLE:
        return f"not JSON: {error}"
    kind = value.get("type") if isinstance(value, dict) else None
    if isinstance(value, dict) and not (isinstance(kind, str) and kind in _TAGS):
        said = repr(kind)
        return f"unknown event type {said if len(said) <= 60 else said[:57] + '...'}"
    return f"{kind}: {error}"


def _renamed(events: list[Event], new_id: str) -> list[Event]:
    return [
        msgspec.structs.replace(e, id=new_id) if isinstance(e, TournamentCreated) else e
        for e in events
    ]


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    #: Events written: the exported ones, and a clock pause if the clock was running.
    events: int
    #: Seconds left in the level when a running clock was paused; None if it was not running.
    paused_with: float | None = None
    #: The file's digest vouched for it; False: a version 1 file, imported on ``no_digest``.
    digested: bool = True


async def import_(
    store: Service,
    path: Path,
    new_id: str | None = None,
    *,
    no_digest: bool = False,
    house: House | None = None,
) -> Imported:
    """Load an export into this server; refuses an id that exists, a file whose digest does
    not match (or that has none, unless ``no_digest``) and any event the rules refuse.

    The state is the exported one, except that a running clock is paused as it stood at
    the export (one more event).
    """
    header, lines, final, digested, final_line = _read(path, no_digest)
    tid = check_tournament_id(new_id or header.tournament)
    events = _decoded(path, lines)
    first = events[0]
    if isinstance(first, TournamentCreated) and first.id != header.tournament:
        raise _refused(path, f"the header names tournament {header.tournament}, its log {first.id}")
    if new_id is not None:
        events = _renamed(events, tid)
    try:
        t = replay(events)
    except InvalidEvent as e:
        raise _refused(path, f"{e}; nothing imported") from None
    except Exception as e:  # a check missed: the fold broke on what it let through
        raise _refused(path, f"the events do not fold to a tournament: {e!r}") from None
    expected = msgspec.structs.replace(final.state, id=tid)
    if not holds(final_line, "board"):
        # An export from before the state kept the board: the fold makes it from the events.
        expected = msgspec.structs.replace(expected, board=t.state.board)
    if final.seq != len(events) or msgspec.msgpack.encode(t.state) != msgspec.msgpack.encode(
        expected
    ):
        raise _refused(path, "the events do not fold to the exported state; nothing imported")
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
    won = finish.winner(t.state)
    summary = Summary(
        id=tid,
        name=t.state.name,
        created_at=t.state.created_at,
        status=finish.status(t.state),
        winner=None if won is None else won.name,
    )
    await store.log.restore(
        tid, [encode_event(e) for e in events], Snapshot(version, t.state), summary
    )
    store.forget(tid)
    if house is not None:
        # Its bag sheets came in whole, past the house: a later flight's entries check them.
        await house.index_sheets(t)
    return Imported(tournament=tid, events=version, paused_with=paused_with, digested=digested)
