"""The checks at the end of the soak. Each failed check adds a line to ``Verdict.failures``.

1. The stream runs 1, 2, 3... with no gap and the meta version is its last number.
2. The results kept under the command ids tile the log: every event was written by exactly
   one command, wholly (as ``tests/integration/test_crash.py`` checks).
3. Every acknowledged command (and refusal) is stored under its id with the acknowledged
   sequence range (or the same refusal); an acknowledged register or bust wrote its own
   player's event first.
4. ``Service.load`` (snapshot plus tail) equals ``Tournament.fold`` of the whole stream
   (msgpack-equal state, equal plan); nobody registered or busted twice; exactly one winner
   (nobody busted in place 1); the clock's level changes each written once, in order, each
   timed from the end of the level before.
5. ``GET /api/t/{id}`` from every staff server, signed in, is at the last sequence number
   with the folded state and plan; the packed snapshot a phone reads from the public edge
   (``GET /api/t/{id}/snapshot``) is the public's view of the fold at its ``Floor-Seq``.
6. Every screen is connected and at the last sequence number; every segment it recorded
   (a snapshot, then the events applied after it) matches the log exactly as the screen's
   view is shown it (staff: as written; public: ``floor.server.redact``), a snapshot that
   is not the state at its seq explained (the state of which seq it holds, and how it
   differs); no snapshot older than what the screen showed; the last plan each screen was
   sent is the plan of the fold (the public: only the called moves); the full screens' own
   folds equal the fold of the log (as their view shows it), and a staff screen's plan
   with every batch is the plan of its own fold.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec

from floor.engine.events import ClockStarted, LevelChanged, PlayerBusted, PlayerRegistered
from floor.engine.state import Tournament
from floor.protocol import decode_event
from floor.redisdb.connection import connect
from floor.redisdb.keys import Keys
from floor.redisdb.log import RedisLog
from floor.server.redact import for_public
from floor.server.views import _public_state
from floor.store.outcome import Outcome
from floor.store.service import Service

from .floorperson import Ack
from .screen import MOD, View, canonical, digest, event_term, unpack

_outcome = msgspec.json.Decoder(Outcome)
_encoder = msgspec.json.Encoder()


class _Snapshot(msgspec.Struct):
    seq: int
    state: msgspec.Raw
    plan: msgspec.Raw


@dataclass
class Verdict:
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)

    def check(self, ok: bool, text: str) -> bool:
        if not ok:
            self.fail(text)
        return ok

    def fail(self, text: str) -> None:
        self.failures.append(text)


def _first(items: list[Any], n: int = 5) -> str:
    shown = ", ".join(str(x) for x in items[:n])
    return shown + (f" ... ({len(items)} in all)" if len(items) > n else "")


async def check_log(
    redis_url: str, tid: str, acks: dict[str, Ack], v: Verdict
) -> tuple[list[tuple[int, bytes]], Tournament | None]:
    """Checks 1-4; the stream as (seq, event JSON) and the fold of it."""
    keys = Keys(tid)
    client = connect(redis_url)
    try:
        raw: list[tuple[bytes, dict[bytes, bytes]]] = await client.xrange(  # type: ignore[assignment]
            keys.events, "-", "+"
        )
        version = int(await client.hget(keys.meta, "version") or 0)
        stream = [(int(i.split(b"-")[0]), f[b"e"]) for i, f in raw]
        bad_ids = [i for n, (i, _) in enumerate(raw, 1) if i != f"{n}-0".encode()]
        v.check(not bad_ids, f"stream ids not consecutive from 1-0: {_first(bad_ids)}")
        v.check(version == len(raw), f"meta version {version} != {len(raw)} events in the stream")
        v.facts["events"] = len(raw)
        v.facts["version"] = version

        results: dict[str, Outcome] = {}
        prefix = keys.command("")
        async for key in client.scan_iter(match=keys.command("*"), count=1000):
            value = await client.get(key)
            if value is not None:
                results[key.decode().removeprefix(prefix)] = _outcome.decode(value)
        v.facts["stored_results"] = len(results)
        ranges = sorted(
            (r.first, r.last, cid) for cid, r in results.items() if r.ok and r.last >= r.first
        )
        expected = 1
        tiling = []
        for first, last, cid in ranges:
            if first != expected:
                tiling.append(f"{cid} holds {first}..{last}, expected to start at {expected}")
            expected = max(expected, last + 1)
        if expected != version + 1:
            tiling.append(f"the stored results cover 1..{expected - 1}, the log 1..{version}")
        v.check(not tiling, f"the stored results do not tile the log: {_first(tiling)}")

        missing, differ = [], []
        for cid, ack in acks.items():
            kept = results.get(cid)
            if kept is None:
                missing.append(cid)
                continue
            if ack.ok:
                same = kept.ok and (kept.first, kept.last) == (ack.first, ack.last)
            else:
                same = not kept.ok and kept.error is not None and kept.error.code == ack.code
            if not same:
                differ.append(f"{cid}: acknowledged {ack}, stored {kept}")
        v.check(not missing, f"acknowledged commands missing from Redis: {_first(missing)}")
        v.check(not differ, f"stored results differ from the acknowledgements: {_first(differ, 3)}")
        acked_ok = sum(1 for a in acks.values() if a.ok)
        v.facts["acks_checked"] = len(acks)
        v.facts["acks_ok"] = acked_ok
        unacked = [
            cid for cid, r in results.items() if r.ok and r.last >= r.first and cid not in acks
        ]
        v.facts["clock_ticks_in_log"] = sum(1 for cid in unacked if cid.startswith("tick:"))
        v.facts["unacknowledged_in_log"] = sum(1 for cid in unacked if not cid.startswith("tick:"))

        if not raw:
            v.fail("the log is empty")
            return stream, None
        events = [decode_event(e) for _, e in stream]
        registered = Counter(e.player for e in events if isinstance(e, PlayerRegistered))
        busted = Counter(e.player for e in events if isinstance(e, PlayerBusted))
        twice = [p for p, n in registered.items() if n > 1]
        v.check(not twice, f"players registered twice: {_first(twice)}")
        twice = [p for p, n in busted.items() if n > 1]
        v.check(not twice, f"players busted twice: {_first(twice)}")
        by_seq = {}
        for cid, r in results.items():
            if r.ok:
                for seq in range(r.first, r.last + 1):
                    by_seq[seq] = cid
        winners = [
            f"{e.player} busted in place {e.place} at seq {seq} by command {by_seq.get(seq)}"
            + (f" ({acks[by_seq[seq]].kind})" if by_seq.get(seq) in acks else "")
            for (seq, _), e in zip(stream, events, strict=True)
            if isinstance(e, PlayerBusted) and e.place <= 1
        ]
        v.check(not winners, f"the last player left was busted too: {_first(winners)}")
        # The clock: each level change once, in order, timed from the end of the one before
        # (the clock driver's lease moves when its server dies; a tick is never written twice).
        clock_errors = []
        level, ends_at = None, None
        for (seq, _), e in zip(stream, events, strict=True):
            if isinstance(e, ClockStarted):
                level, ends_at = e.level, e.ends_at
            elif isinstance(e, LevelChanged) and e.by == "clock":
                if level is None or e.level != level + 1 or e.at != ends_at:
                    clock_errors.append(
                        f"seq {seq}: level {e.level} at {e.at} after level {level} ending {ends_at}"
                    )
                level, ends_at = e.level, e.ends_at
        v.check(not clock_errors, f"level changes out of order: {_first(clock_errors)}")
        v.facts["level_changes"] = sum(1 for e in events if isinstance(e, LevelChanged))
        fold = Tournament.fold(events)
        if not winners:
            v.check(fold.active == 1, f"{fold.active} players are left, not one winner")
        # What each acknowledged register and bust wrote is about its own player.
        wrong = []
        for cid, ack in acks.items():
            player = (ack.command or {}).get("player")
            if not ack.ok or ack.kind not in ("register", "bust") or player is None:
                continue
            kind = PlayerRegistered if ack.kind == "register" else PlayerBusted
            written = events[ack.first - 1] if 1 <= ack.first <= len(events) else None
            if not (isinstance(written, kind) and written.player == player):
                wrong.append(f"{cid} ({ack.kind} {player}) -> seq {ack.first}: {written!r}"[:200])
        v.check(
            not wrong, f"acknowledged commands whose first event is not theirs: {_first(wrong, 3)}"
        )
        loaded, loaded_version = await Service(RedisLog(client)).load(tid)
        v.check(
            loaded_version == version, f"Service.load gives version {loaded_version}, not {version}"
        )
        v.check(
            msgspec.msgpack.encode(loaded.state) == msgspec.msgpack.encode(fold.state),
            "Service.load's state differs from the fold of the stream",
        )
        v.check(loaded.plan == fold.plan, "Service.load's plan differs from the fold's")
        v.facts["players"] = len(fold.state.players)
        v.facts["players_left"] = fold.active
        v.facts["level"] = fold.state.clock.level
        return stream, fold
    finally:
        await client.aclose()


async def check_servers(
    bases: dict[str, str],
    edges: dict[str, str],
    token: str,
    tid: str,
    version: int,
    stream: list[tuple[int, bytes]],
    fold: Tournament,
    v: Verdict,
) -> None:
    """Check 5: what every server answers is the fold of the log, in the reader's view."""
    state = _encoder.encode(fold.state)
    plan = _encoder.encode(fold.plan)
    staff = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=30.0) as client:
        for name, base in bases.items():
            r = await client.get(f"{base}/api/t/{tid}", headers=staff)
            if not v.check(r.status_code == 200, f"GET {base}/api/t/{tid}: {r.status_code}"):
                continue
            snap = msgspec.json.decode(r.content, type=_Snapshot)
            if snap.seq != version:
                v.fail(
                    f"GET /api/t/{tid} from {name} ({base}) answers seq {snap.seq}, the log is "
                    f"at {version} (see python -m bench.chaos.repro stale)"
                )
                continue
            if bytes(snap.state) != state:
                same = json.loads(bytes(snap.state)) == json.loads(state)
                v.fail(
                    f"{name}: GET state differs from the fold of the log"
                    + (" (only in the order of keys)" if same else "")
                )
            v.check(bytes(snap.plan) == plan, f"{name}: GET plan differs from the fold's plan")
        for name, base in edges.items():
            r = await client.get(
                f"{base}/api/t/{tid}/snapshot", headers={"Accept-Encoding": "gzip"}
            )
            if not v.check(
                r.status_code == 200, f"GET {base}/api/t/{tid}/snapshot: {r.status_code}"
            ):
                continue
            seq = int(r.headers.get("floor-seq", -1))
            msg = json.loads(r.content)
            if not v.check(
                0 < seq == msg["seq"] <= version,
                f"{name}: the packed snapshot says seq {msg['seq']} (Floor-Seq {seq}), the log "
                f"is at {version}",
            ):
                continue
            got = digest(canonical(unpack(msg["state"], msg["players"], msg["player_defaults"])))
            want = _state_digests(stream, {seq}, "public")[seq]
            v.check(
                got == want,
                f"{name}: the packed snapshot at {seq} is not the public's view of the fold there",
            )
            want_plan = _state_digests(stream, {seq}, "public", plan=True)[seq]
            v.check(
                digest(canonical(json.dumps(msg["plan"]).encode())) == want_plan,
                f"{name}: the packed snapshot's plan at {seq} is not the public's plan there",
            )
        v.facts["servers_checked"] = len(bases) + len(edges)


def _folds_at(stream: list[tuple[int, bytes]], seqs: set[int]) -> Iterator[tuple[int, Tournament]]:
    """The fold of the log at each of ``seqs``, in order (one tournament, folded on)."""
    if not seqs:
        return
    events = (decode_event(e) for _, e in stream)
    t = Tournament.fold([next(events)])
    at = 1
    for seq in sorted(seqs):
        for _ in range(seq - at):
            t.apply(next(events))
        at = seq
        yield seq, t


def shown_state(t: Tournament, view: View) -> bytes:
    """The state of ``t`` as ``view`` is shown it, canonical (``screen.canonical``)."""
    state = t.state if view == "staff" else _public_state(t.state)
    return canonical(_encoder.encode(state))


def shown_plan(t: Tournament, view: View) -> bytes:
    return canonical(_encoder.encode(t.plan if view == "staff" else t.plan.settled()))


def shown_event(seq: int, raw: bytes, view: View) -> bytes:
    """An event's bytes as ``view`` is sent them in a batch (the public's: ``redact``)."""
    if view == "staff":
        return raw
    message = b'{"events":[{"seq":%d,"event":%s}]}' % (seq, raw)
    shown = for_public(message)
    if shown is message:
        return raw
    return bytes(_batch_events.decode(shown)["events"][0].event)


class _RawSeq(msgspec.Struct):
    seq: int
    event: msgspec.Raw


_batch_events = msgspec.json.Decoder(dict[str, list[_RawSeq]])


def _state_digests(
    stream: list[tuple[int, bytes]], seqs: set[int], view: View = "staff", plan: bool = False
) -> dict[int, str]:
    """The digest of the fold of the log at each of ``seqs``, its state (or plan) as
    ``view`` is shown it, canonical."""
    return {
        seq: digest(shown_plan(t, view) if plan else shown_state(t, view))
        for seq, t in _folds_at(stream, seqs)
    }


def json_diff(
    a: Any, b: Any, path: str = "", out: list[str] | None = None, limit: int = 6
) -> list[str]:
    """Where two JSON values differ: up to ``limit`` paths, with both values (shortened)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if len(out) >= limit:
                break
            if k not in b:
                out.append(f"{path}.{k}: only in the snapshot")
            elif k not in a:
                out.append(f"{path}.{k}: only in the fold")
            elif a[k] != b[k]:
                json_diff(a[k], b[k], f"{path}.{k}", out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                json_diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b:
        out.append(f"{path}: snapshot {json.dumps(a)[:120]} / fold {json.dumps(b)[:120]}")
    return out


def check_screens(
    stream: list[tuple[int, bytes]],
    fold: Tournament,
    reports: list[dict[str, Any]],
    version: int,
    v: Verdict,
    label: str = "screen",
    dump: Path | None = None,
) -> dict[str, int]:
    """Check 6, for every screen report; returns counts for the summary."""
    stats: Counter[str] = Counter()
    views: list[View] = ["staff", "public"]
    for view in views:
        mine = [r for r in reports if r.get("view", "public") == view]
        if mine:
            _check_view(stream, fold, mine, version, v, f"{view} {label}", view, dump, stats)
    return dict(stats)


def _check_view(
    stream: list[tuple[int, bytes]],
    fold: Tournament,
    reports: list[dict[str, Any]],
    version: int,
    v: Verdict,
    label: str,
    view: View,
    dump: Path | None,
    stats: Counter[str],
) -> None:
    prefix = [0] * (len(stream) + 1)
    for n, (seq, raw) in enumerate(stream, 1):
        prefix[n] = (prefix[n - 1] + event_term(seq, shown_event(seq, raw, view))) % MOD

    bases = {seg[0] for r in reports for seg in r["segments"] if 1 <= seg[0] <= len(stream)}
    expected_state = _state_digests(stream, bases, view)
    # A snapshot that is not the state at its seq: which state is it? (A few seqs later?)
    wrong = {
        seg[0]
        for r in reports
        for seg in r["segments"]
        if seg[0] in expected_state and expected_state[seg[0]] != seg[1]
    }
    later = _state_digests(
        stream, {b + k for b in wrong for k in range(1, 6) if b + k <= len(stream)}, view
    )
    # What the wrong snapshots hold, against the fold at their seq (if they were kept).
    explained: dict[str, str] = {}
    if dump is not None and wrong:
        folds = {seq: shown_state(t, view) for seq, t in _folds_at(stream, wrong)}
        for r in reports:
            for seg in r["segments"]:
                base, state_digest = seg[0], seg[1]
                path = dump / f"{view}-{state_digest}.json"
                if base in wrong and state_digest not in explained and path.exists():
                    diff = json_diff(
                        json.loads(canonical(path.read_bytes())), json.loads(folds[base])
                    )
                    explained[state_digest] = "; ".join(diff) or "(no difference as JSON)"

    # A batch whose plan is not the plan at its last seq: the plan of which seq is it?
    plan_seqs = {
        seq + k
        for r in reports
        for _, seq, _, _ in r.get("plan_mismatches", [])
        for k in range(-2, 6)
        if 1 <= seq + k <= len(stream)
    }
    plans = {seq: digest(_encoder.encode(t.plan)) for seq, t in _folds_at(stream, plan_seqs)}

    final_state = digest(shown_state(fold, view))
    final_plan = digest(shown_plan(fold, view))
    final_own_plan = digest(_encoder.encode(fold.plan))
    problems: dict[str, list[str]] = {}

    def bad(kind: str, text: str) -> None:
        problems.setdefault(kind, []).append(text)

    for r in reports:
        who = f"{label} {r['i']}"
        stats["screens"] += 1
        stats["segments"] += len(r["segments"])
        if not r["connected"]:
            bad("not connected at the end", who)
        if r["seq"] != version:
            bad("not at the last seq", f"{who} at {r['seq']}")
        if not r["segments"]:
            bad("never got a snapshot", who)
        for base, state_digest, end, chain, server in r["segments"]:
            if not 1 <= base <= end <= len(stream):
                bad("segment out of the log", f"{who}: {base}..{end}")
                continue
            if expected_state.get(base) != state_digest:
                ahead = [k for k in range(1, 6) if later.get(base + k) == state_digest]
                bad(
                    "got a snapshot whose state is not the fold of the log at its seq",
                    f"{who}: snapshot 'seq {base}' from server {server}"
                    + (
                        f" holds the state at seq {base + ahead[0]}"
                        if ahead
                        else " matches no state at seq..seq+5"
                    )
                    + (
                        f" [vs the fold at {base}: {explained[state_digest]}]"
                        if state_digest in explained
                        and len(
                            problems.get(
                                "got a snapshot whose state is not the fold of the log at its seq",
                                [],
                            )
                        )
                        < 3
                        else ""
                    ),
                )
            if int(chain, 16) != (prefix[end] - prefix[base]) % MOD:
                bad("applied events differ from the log", f"{who}: {base + 1}..{end}")
            stats["events_verified"] += end - base
        if r["regressions"]:
            bad(
                "got a snapshot older than what it showed",
                f"{who}: "
                + ", ".join(f"at {a} got {b} (server {s})" for a, b, s in r["regressions"]),
            )
        plan_seq, plan_digest = r["plan"]
        if plan_seq == version and plan_digest != final_plan:
            bad("were last sent a plan that is not the fold's", who)
        counts = r["counts"]
        for where, seq, mismatch, server in r.get("plan_mismatches", []):
            match = [k for k in range(-2, 6) if plans.get(seq + k) == mismatch]
            bad(
                "got a plan that is not the plan of the fold of the log at its seq",
                f"{who}: {where} from server {server}"
                + (f": the plan at seq {seq + match[0]}" if match else ": no plan near it"),
            )
        if counts.get("unreadable") or counts.get("error_messages") or counts.get("wrong_role"):
            bad("unreadable, error or wrong-role messages", f"{who}: {r['errors'][:2]}")
        if r["full"] is not None:
            stats["full_folds"] += 1
            if r["full"]["state"] != final_state:
                bad("its own fold differs from the fold of the log", who)
            if view == "staff" and r["full"]["plan"] != final_own_plan:
                bad("its own fold's plan differs from the fold of the log's", who)
    reasons: Counter[str] = Counter()
    for r in reports:
        reasons.update(r.get("close_reasons", {}))
    stats["pool_closes"] += sum(n for k, n in reasons.items() if "Too many connections" in k)
    for kind, items in problems.items():
        v.fail(f"{label}s {kind}: {_first(items)}")
