"""Redis keys. Every key of one tournament carries the hash tag ``{id}``, so that they share
a cluster slot: the atomic append script touches them together, and the same code runs on
Redis Cluster or a Valkey cluster unchanged.
"""

from __future__ import annotations

from ..store.ids import check_tournament_id

#: The list of live tournaments and the archive of finished ones (one key each, any slot).
TOURNAMENTS = "floor:tournaments"
ARCHIVE = "floor:archive"
#: The clock driver's lease: the holder's name, expiring unless renewed.
CLOCK_LEASE = "floor:clock:lease"
#: The house's hash tag: the snapshot hash of its meta holds the snapshot's sequence number.
HOUSE_TAG = "@house"


class Keys:
    """The keys of one tournament (or of the house: ``Keys.house()``)."""

    __slots__ = ("channel", "events", "meta", "prefix", "snapshot", "tid")

    def __init__(self, tid: str, *, checked: bool = True) -> None:
        self.tid = check_tournament_id(tid) if checked else tid
        self.prefix = f"floor:{{{tid}}}"
        #: Hash: version (the last sequence number), snapshot (its sequence number), status.
        self.meta = f"{self.prefix}:meta"
        #: Stream: one entry per event, entry id ``<seq>-0``, field ``e`` the event as JSON.
        self.events = f"{self.prefix}:events"
        #: String: the msgpack snapshot of the state at ``meta.snapshot``.
        self.snapshot = f"{self.prefix}:snapshot"
        #: Sharded pub/sub channel carrying each batch of events to every server process.
        self.channel = f"{self.prefix}:live"

    @classmethod
    def house(cls) -> Keys:
        """The house's keys (``floor.engine.house``): the same shapes as a tournament's, in
        a hash slot of their own; ``@`` starts no tournament id, so none can collide."""
        return cls(HOUSE_TAG, checked=False)

    def command(self, command_id: str) -> str:
        """The stored result of a command, for idempotent retries."""
        return f"{self.prefix}:cmd:{command_id}"
