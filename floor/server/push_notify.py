"""Notifications: each batch this process writes, turned into Web Push messages for the
players and the staff it concerns.

Who a batch concerns is the engine's to say (``engine.alerts``: a called move, a table
breaking, bag time, a payout, the bubble; for the staff a time call or a table to break, by
table). The process that wrote a batch sends its pushes (the store hands it each batch it
writes: ``Service.listen``), so each goes once whatever the number of processes. Here, on the
loop: the events decoded, the alerts worked out (the tournament as this process holds it
after the batch), the subscriptions of the players concerned read a slice at a time (as
kept, undecoded), each alert encoded once; the encryption, once per subscription, and the
posting are the sending process's (``push_sender``, ``push_worker``).

A staff alert of a table goes to the staff whose section (``PUT /api/t/{id}/sections/{name}``)
holds the table; a table in nobody's section to the subscribed staff with no section of
their own (a room with no sections set: everybody).

A player's push is public information only: the room is shown a called move, a table
breaking, the bubble; a payout is the player's own place and prize, on the public results.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Final

import msgspec

from ..engine.events import Event
from ..engine.read import alerts
from ..protocol import Sequenced
from ..store.push_port import Owner, PushStorage
from ..store.service import Service
from .push_worker import Job, Result

log = logging.getLogger(__name__)

#: Events any alert is made of: a batch with none of them costs one scan of its bytes.
_MARKS: Final = (
    b'"moves_called"',
    b'"table_breaking"',
    b'"day_ended"',
    b'"player_busted"',
    b'"tournament_finished"',
    b'"time_called"',
)


#: Players' pushes read, encoded and handed to the sending process at a time.
SLICE: Final = 200


class _Events(msgspec.Struct, frozen=True):
    tournament: str
    events: list[Sequenced] = msgspec.field(default_factory=list)


_events = msgspec.json.Decoder(_Events)
_encoder = msgspec.json.Encoder()


class Payload(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a phone's service worker is sent (it adds nothing but its language): the alert,
    the tournament, the player's name for the title, where a tap opens."""

    tournament: str
    alert: alerts.PlayerAlert | alerts.StaffAlert
    url: str
    name: str | None = None
    #: Alerts with the same tag replace each other on the phone (a move called again).
    tag: str
    at: float


Send = Callable[[list[Job]], int]


def owner_key(owner: Owner) -> str:
    """The key a sending process reports a gone subscription under."""
    if owner.staff is not None:
        return f"staff\x00{owner.staff}"
    return f"player\x00{owner.tournament}\x00{owner.player}"


def owner_of(key: str) -> Owner:
    parts = key.split("\x00")
    if parts[0] == "staff":
        return Owner(staff=parts[1])
    return Owner(tournament=parts[1], player=parts[2])


class Notifier:
    """The batches this process writes, as pushes (see the top)."""

    def __init__(
        self,
        store: Service,
        storage: PushStorage,
        send: Send,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.storage = storage
        self.send = send
        self.clock = clock
        self._tasks: set[asyncio.Task[None]] = set()
        #: Pushes handed to the sending process, by kind (for tests and /metrics).
        self.handed: dict[str, int] = {}

    def listen(self) -> None:
        self.store.listen(self.batch)

    def batch(self, data: bytes) -> None:
        """A batch this process wrote (``Service.listen``): its pushes, soon."""
        if not any(mark in data for mark in _MARKS):
            return
        try:
            batch = _events.decode(data)
        except msgspec.MsgspecError:
            return
        events = [item.event for item in batch.events]
        task = asyncio.get_running_loop().create_task(self._notify(batch.tournament, events))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for the batches handed in so far to be handed to the sending process."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _notify(self, tid: str, events: list[Event]) -> None:
        try:
            t, _ = await self.store.tournament(tid)
            # No await from here to the alerts: they are of the state just read.
            mine = alerts.for_players(events, t)
            theirs = alerts.for_staff(events)
            names = {
                a.player: t.state.players[a.player].name
                for a in mine
                if a.player in t.state.players
            }
            jobs = await self._staff(tid, theirs) if theirs else []
            if jobs:
                self.send(jobs)
            # A bubble concerns the whole field: its pushes are read, encoded and handed over
            # a slice at a time, the loop given back between slices, so the staff's commands
            # meanwhile wait for one slice at most, not for 5,000 players' worth.
            for first in range(0, len(mine), SLICE):
                jobs = await self._players(tid, mine[first : first + SLICE], names)
                if jobs:
                    self.send(jobs)
                await asyncio.sleep(0)
        except Exception:
            log.exception(
                "the pushes of a batch could not be worked out", extra={"tournament": tid}
            )

    async def _players(
        self, tid: str, mine: list[alerts.PlayerAlert], names: dict[str, str]
    ) -> list[Job]:
        subs = await self.storage.raw_of_players(tid, sorted({a.player for a in mine}))
        if not subs:
            return []
        now = self.clock()
        url = f"/player/{tid}"
        jobs: list[Job] = []
        for a in mine:
            held = subs.get(a.player)
            if held is None:
                continue
            payload = Payload(
                tournament=tid,
                alert=a,
                url=url,
                name=names.get(a.player),
                tag=f"{tid}:{a.player}:{a.kind}",
                at=now,
            )
            key = owner_key(Owner(tournament=tid, player=a.player))
            jobs.append((key, _encoder.encode(payload), held))
            self.handed[a.kind] = self.handed.get(a.kind, 0) + 1
        return jobs

    async def _staff(self, tid: str, theirs: list[alerts.StaffAlert]) -> list[Job]:
        subscribed = await self.storage.staff_subscribed()
        if not subscribed:
            return []
        sections = await self.storage.sections(tid)
        holders: dict[int, list[str]] = {}
        for name, tables in sections.items():
            for table in tables:
                holders.setdefault(table, []).append(name)
        floaters = [name for name in subscribed if name not in sections]
        wanted: dict[str, list[alerts.StaffAlert]] = {}
        for a in theirs:
            for name in holders.get(a.table, floaters):
                wanted.setdefault(name, []).append(a)
        found = await self.storage.of_staff(sorted(wanted))
        now = self.clock()
        jobs: list[Job] = []
        for name, held in found.items():
            raw = _encoder.encode(held)
            for a in wanted[name]:
                payload = Payload(
                    tournament=tid,
                    alert=a,
                    url=f"/floor/{tid}",
                    tag=f"{tid}:staff:{a.kind}:{a.table}",
                    at=now,
                )
                jobs.append((owner_key(Owner(staff=name)), _encoder.encode(payload), raw))
                self.handed[f"staff.{a.kind}"] = self.handed.get(f"staff.{a.kind}", 0) + 1
        return jobs

    def gone(self, result: Result) -> None:
        """The sending process's answer: forget the subscriptions their services dropped."""
        if result.gone:
            task = asyncio.get_running_loop().create_task(self._forget(result.gone))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _forget(self, gone: list[tuple[str, str]]) -> None:
        for key, endpoint in gone:
            try:
                await self.storage.unsubscribe(owner_of(key), endpoint)
            except Exception:
                log.warning("a gone subscription could not be forgotten")
                return
