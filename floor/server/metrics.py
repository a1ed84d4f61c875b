"""Prometheus metrics in text format, kept in this process (each worker has its own)."""

from __future__ import annotations

from collections import Counter

#: Upper bounds (seconds) of the fan-out latency histogram: one batch to every screen.
_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: The same per screen, some microseconds each (bench/fanout.py): in its own range, or
#: every observation would fall into the lowest bucket above.
_PER_CLIENT_BUCKETS = (1e-6, 2.5e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 1e-2)


class Histogram:
    __slots__ = ("buckets", "count", "counts", "total")

    def __init__(self, buckets: tuple[float, ...] = _BUCKETS) -> None:
        self.buckets = buckets
        self.counts = [0] * len(buckets)
        self.count = 0
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.count += 1
        self.total += seconds
        for i, bound in enumerate(self.buckets):
            if seconds <= bound:
                self.counts[i] += 1
                break

    def lines(self, name: str) -> list[str]:
        out = []
        running = 0
        for bound, n in zip(self.buckets, self.counts, strict=True):
            running += n
            out.append(f'{name}_bucket{{le="{bound:g}"}} {running}')
        out.append(f'{name}_bucket{{le="+Inf"}} {self.count}')
        out.append(f"{name}_sum {self.total:.6f}")
        out.append(f"{name}_count {self.count}")
        return out


class Metrics:
    def __init__(self) -> None:
        self.clients = 0
        #: Phones following one player (``follow_feed``), not counted in ``clients``.
        self.followers = 0
        self.commands: Counter[tuple[str, str]] = Counter()
        self.queue_drops = 0
        self.resyncs = 0
        self.messages_out = 0
        self.fanout = Histogram()
        self.fanout_per_client = Histogram(_PER_CLIENT_BUCKETS)
        #: Messages built for a view (encoded, or redacted for the public), by kind and view.
        self.views: Counter[tuple[str, str]] = Counter()
        #: Screens caught up, by how: "ring" (the batches held in memory), "log" (read from
        #: the event log), "snapshot", "refused" (the log's readers were busy: a snapshot).
        self.catch_ups: Counter[str] = Counter()
        #: Public answers built, by kind (``answers``): once per version, not per request.
        self.answers: Counter[str] = Counter()
        #: argon2 hashes and checks computed (``accounts.Accounts.hashes``).
        self.signin_hashes = 0

    def command(self, kind: str, outcome: str) -> None:
        self.commands[(kind, outcome)] += 1

    def view_built(self, kind: str, view: str) -> None:
        self.views[(kind, view)] += 1

    def caught_up(self, how: str) -> None:
        self.catch_ups[how] += 1

    def answer_built(self, kind: str) -> None:
        self.answers[kind] += 1

    def render(self) -> str:
        lines = [
            "# HELP floor_clients Websocket screens connected to this process.",
            "# TYPE floor_clients gauge",
            f"floor_clients {self.clients}",
            "# HELP floor_followers Phones following one player on this process.",
            "# TYPE floor_followers gauge",
            f"floor_followers {self.followers}",
            "# HELP floor_commands_total Commands handled, by type and outcome.",
            "# TYPE floor_commands_total counter",
        ]
        for (kind, outcome), n in sorted(self.commands.items()):
            lines.append(f'floor_commands_total{{type="{kind}",outcome="{outcome}"}} {n}')
        lines += [
            "# HELP floor_queue_drops_total Screens dropped for falling behind (they resync).",
            "# TYPE floor_queue_drops_total counter",
            f"floor_queue_drops_total {self.queue_drops}",
            "# HELP floor_resyncs_total Catch-ups and fresh snapshots sent to screens.",
            "# TYPE floor_resyncs_total counter",
            f"floor_resyncs_total {self.resyncs}",
            "# HELP floor_messages_out_total Messages queued to screens.",
            "# TYPE floor_messages_out_total counter",
            f"floor_messages_out_total {self.messages_out}",
            "# HELP floor_views_built_total Snapshots, batches and catch-ups built for a "
            "view (once per version and view, however many screens it goes to).",
            "# TYPE floor_views_built_total counter",
            *(
                f'floor_views_built_total{{message="{kind}",view="{view}"}} {n}'
                for (kind, view), n in sorted(self.views.items())
            ),
            "# HELP floor_catch_ups_total Screens caught up, by source (ring: the batches "
            "kept in memory; log: read from the event log; snapshot; refused: the log's "
            "readers were busy, so a snapshot, counted under snapshot too; fetch: a public edge's "
            "screen told to read the snapshot over HTTP instead).",
            "# TYPE floor_catch_ups_total counter",
            *(
                f'floor_catch_ups_total{{source="{how}"}} {n}'
                for how, n in sorted(self.catch_ups.items())
            ),
            "# HELP floor_answers_built_total Public answers built (the schema, the "
            "rulebook, results, counts, events), by kind: once per version, not per request.",
            "# TYPE floor_answers_built_total counter",
            *(
                f'floor_answers_built_total{{answer="{kind}"}} {n}'
                for kind, n in sorted(self.answers.items())
            ),
            "# HELP floor_signin_hashes_total argon2 hashes and checks computed (sign-ins, "
            "new secrets): a refused attempt costs none.",
            "# TYPE floor_signin_hashes_total counter",
            f"floor_signin_hashes_total {self.signin_hashes}",
            "# HELP floor_fanout_seconds Time to hand one batch to every local screen.",
            "# TYPE floor_fanout_seconds histogram",
            *self.fanout.lines("floor_fanout_seconds"),
            "# HELP floor_fanout_per_client_seconds Fan-out time of one batch per screen.",
            "# TYPE floor_fanout_per_client_seconds histogram",
            *self.fanout_per_client.lines("floor_fanout_per_client_seconds"),
        ]
        return "\n".join(lines) + "\n"
