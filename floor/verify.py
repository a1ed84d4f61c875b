"""``floor verify``: an export or signed results checked offline, in words a regulator reads.

Nothing here needs a server: the file, and the venue's key list for the signature (``--keys``,
the ``/.well-known/floor-keys.json`` the venue publishes, saved). Every check is made and
said, whichever failed before it, so one run names everything that is wrong:

- an export (``floor export``, or the console's download): its digest, every event in its
  place, the hash chain (the first event that does not follow its link is named), the venue's
  signature, and the log replayed through the rules to the exported state;
- signed results (``/api/open/v1/t/{id}/results/signed``): the signature of the document.

Exit status: 0 when every check passed, 1 when one failed, 2 when the file cannot be read as
either.
"""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Any

import msgspec

from . import backup, verify_draws
from .engine import chain
from .engine.validate import InvalidEvent, replay
from .exports import signed as signed_results
from .protocol import decode_event
from .signing import KeyList, Signature, check


class Report(msgspec.Struct):
    lines: list[str] = msgspec.field(default_factory=list)
    failed: bool = False

    def ok(self, text: str) -> None:
        self.lines.append(f"ok    {text}")

    def bad(self, text: str) -> None:
        self.lines.append(f"FAIL  {text}")
        self.failed = True

    def note(self, text: str) -> None:
        self.lines.append(f"      {text}")


class Unreadable(Exception):
    """Not a file ``floor verify`` can read: exit status 2."""


def verify(path: Path, keys: KeyList | None) -> Report:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise Unreadable(f"{path}: cannot read: {e.strerror}") from None
    first = data.split(b"\n", 1)[0]
    if b'"format":"floor-export"' in first.replace(b" ", b""):
        return _export(data, keys)
    try:
        doc = msgspec.json.decode(data, type=signed_results.SignedResults)
    except (msgspec.MsgspecError, RecursionError):
        raise Unreadable(
            f"{path}: neither a floor export nor signed results (a JSON object with a "
            "document and its signature)"
        ) from None
    return _results(doc, keys)


def _signature(report: Report, sig: Signature, data: bytes, keys: KeyList | None) -> None:
    if keys is None:
        report.note(f"signed by {sig.key_id}: not checked (give the venue's key list with --keys)")
        return
    why = check(sig, data, keys)
    if why is None:
        report.ok(f"the venue's signature ({sig.key_id})")
    else:
        report.bad(f"the venue's signature: {why}")


def _results(doc: signed_results.SignedResults, keys: KeyList | None) -> Report:
    report = Report()
    body = bytes(doc.document)
    try:
        results = msgspec.json.decode(body, type=signed_results.Results)
    except msgspec.MsgspecError as e:
        report.bad(f"the document: not floor results: {e}")
        results = None
    if results is not None:
        report.note(
            f"results of {results.tournament} ({results.name}) at event {results.seq}, "
            f"chain head {results.chain.head[:16]}… ({len(results.results)} finishers)"
        )
    _signature(report, doc.signature, body, keys)
    return report


class _Header(msgspec.Struct):
    tournament: str
    version: int
    events: int = 0
    chain: str | None = None


def _export(data: bytes, keys: KeyList | None) -> Report:
    report = Report()
    lines = data.splitlines(keepends=True)
    try:
        header = msgspec.json.decode(lines[0], type=_Header)
    except (msgspec.MsgspecError, RecursionError) as e:
        raise Unreadable(f"the export's header: {e}") from None
    report.note(f"export of {header.tournament}, format version {header.version}")
    body = lines[1:]
    # The digest: the last line, of every byte before it.
    if header.version >= backup.UNCHAINED and body:
        *body, last = body
        try:
            said = msgspec.json.decode(last, type=backup.Digest).digest
        except (msgspec.MsgspecError, RecursionError):
            report.bad("the digest: the last line is not the export's digest (cut short?)")
            said = None
        if said is not None:
            real = backup.digest_of(b"".join(lines[:-1]))
            if hmac.compare_digest(said.encode(), real.encode()):
                report.ok("the digest: the file is as it was written")
            else:
                report.bad("the digest: the file changed after it was written")
    else:
        report.bad("the digest: this export carries none (version 1)")
    sig: Signature | None = None
    if body and body[-1].startswith(backup.SIGNATURE_LINE):
        signed_line = body.pop()
        try:
            sig = msgspec.json.decode(signed_line, type=backup.Signed).signature
        except (msgspec.MsgspecError, RecursionError) as e:
            report.bad(f"the venue's signature: its line cannot be read: {e}")
    if not body:
        report.bad("the export holds no final state")
        return report
    *event_lines, final_line = body
    events: list[backup.Line] = []
    for number, line in enumerate(event_lines, 1):
        try:
            events.append(msgspec.json.decode(line, type=backup.Line))
        except (msgspec.MsgspecError, RecursionError) as e:
            report.bad(f"event line {number}: cannot be read: {e}")
    if [x.seq for x in events] == list(range(1, len(events) + 1)) and len(events) == (
        header.events
    ):
        report.ok(f"the events: {len(events)}, numbered 1 to {len(events)}")
    else:
        report.bad(f"the events: not numbered 1 to {header.events}")
    if header.chain is None:
        report.bad("the hash chain: this export carries none (written before the chain)")
    elif header.chain != chain.SPEC:
        report.bad(f"the hash chain: {header.chain!r}, not the {chain.SPEC} this floor knows")
    else:
        found = chain.first_break(
            header.tournament, ((x.seq, bytes(x.event), x.link) for x in events)
        )
        if found is None:
            head = events[-1].link if events else chain.genesis(header.tournament).hex()
            report.ok(f"the hash chain ({chain.SPEC}): every event follows; head {head}")
        else:
            broken = next((x for x in events if x.seq == found.seq), None)
            kind = backup.kind_of(bytes(broken.event)) if broken is not None else "missing"
            report.bad(f"the hash chain: event {found.seq} ({kind}) {found.why}")
    verify_draws.check(header.tournament, events, report)
    if sig is not None:
        signed_bytes = b"".join(lines[: 1 + len(event_lines) + 1])
        _signature(report, sig, signed_bytes, keys)
    else:
        report.note("not signed (the server that wrote it had no signing key)")
    _replayed(report, events, final_line)
    return report


def _replayed(report: Report, events: list[backup.Line], final_line: bytes) -> None:
    try:
        final = msgspec.json.decode(final_line, type=backup.Final)
        decoded = [decode_event(bytes(x.event)) for x in events]
        t = replay(decoded)
    except InvalidEvent as e:
        report.bad(f"the rules: {e}")
        return
    except (msgspec.MsgspecError, RecursionError) as e:
        report.bad(f"the rules: an event or the final state cannot be read: {e}")
        return
    except Exception as e:  # a check missed: the fold broke on what it let through
        report.bad(f"the rules: the events do not fold to a tournament: {e!r}")
        return
    expected: Any = final.state
    if not backup.holds(final_line, "board"):
        expected = msgspec.structs.replace(expected, board=t.state.board)
    if msgspec.msgpack.encode(t.state) == msgspec.msgpack.encode(expected):
        report.ok("the rules: every event replays, to exactly the exported state")
    else:
        report.bad("the rules: the events do not fold to the exported state")
