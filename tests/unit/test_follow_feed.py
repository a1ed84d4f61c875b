"""The follow feed's order of messages (``server.follow_feed.Feed``): a follower's first
message holds every part, whatever the feed sends others meanwhile. On the command service
over the in-memory ports; the phones are sinks that keep what they were sent."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from floor.engine import commands as cmd
from floor.server.follow_feed import Feed
from floor.store.memory import MemoryLog, MemoryServer
from floor.store.service import Service
from tests.unit.test_service import seated


class Phone:
    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    def push(self, data: bytes, framed: bytes | None = None) -> bool:
        self.got.append(json.loads(data))
        return True

    def drop(self, code: int, reason: str) -> None:
        raise AssertionError(f"dropped: {code} {reason}")


async def test_a_follower_joining_while_a_command_is_written_gets_every_part_first() -> None:
    store = Service(MemoryLog(MemoryServer()), rng=random.Random(1))
    await seated(store, "t1", 20)
    feed = Feed("t1", store)
    store.listen(feed.push)
    old, new = Phone(), Phone()
    await feed.add(old, "P1")
    t, _ = await store.tournament("t1")
    table = t.player("P2").table
    other = next(p for p in t.state.players.values() if p.table == table and p.id != "P2")

    # A command's batch is out and the feed waits to send it, behind a write holding the
    # copy; a phone joins meanwhile, and waits behind both.
    await store.execute("t1", cmd.Bust(player=other.id), "bust")
    entry = store._entries["t1"]
    await entry.lock.acquire()
    await asyncio.sleep(0.05)  # the feed's send is queued on the lock
    joining = asyncio.ensure_future(feed.add(new, "P2"))
    await asyncio.sleep(0.01)
    entry.lock.release()
    await joining
    await asyncio.sleep(0.05)

    assert new.got and {"static", "room", "me"} <= new.got[0].keys()
    assert new.got[0]["me"]["player"]["id"] == "P2"
    assert [m for m in new.got[1:] if "static" in m] == []
    # The one who followed before gets the change, not every part again.
    assert "static" not in old.got[-1] and "room" in old.got[-1]
    feed.close()


async def test_a_feed_nobody_follows_builds_nothing_and_a_phone_gets_the_board() -> None:
    store = Service(MemoryLog(MemoryServer()), rng=random.Random(1))
    await seated(store, "t1", 19)  # three tables
    feed = Feed("t1", store)
    store.listen(feed.push)
    # One out: 18 fit at two tables, and one breaks.
    assert (await store.execute("t1", cmd.Bust(player="P0"), "bust")).ok
    await asyncio.sleep(0.05)
    # No follower: the room's part (a scan of the field) is not built at every batch ...
    assert feed._room is None
    # ... and the first phone gets every part, as the room is now, the board the state's.
    phone = Phone()
    await feed.add(phone, "P1")
    assert {"static", "room", "me"} <= phone.got[0].keys()
    assert phone.got[0]["room"]["board"][0]["kind"] == "breaking"
    feed.close()
