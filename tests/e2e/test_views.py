"""Views per role on the live server: each role's snapshot, batch and catch-up is built once
per version and role, whatever the number of screens, and the public is shown no staff data.

The counts are the server's own (``floor_views_built_total`` on ``/metrics``), read before
and after: real ``floor serve`` processes, real websockets, the embedded Valkey.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx

from tests.e2e.conftest import Api, ServerProcess, settled, sign_in
from tests.e2e.screens import Screen

SCREENS = 50
DIRECTOR = ("boss", "director-secret")


def built(server: ServerProcess) -> dict[tuple[str, str], int]:
    """Messages built per (kind, view) so far by ``server``."""
    # The metrics are for staff (or a token): signed in as the director.
    text = httpx.get(server.base + "/metrics", headers=sign_in(server, *DIRECTOR)).text
    pattern = r'^floor_views_built_total\{message="(\w+)",view="(\w+)"\} (\d+)$'
    return {(k, v): int(n) for k, v, n in re.findall(pattern, text, re.MULTILINE)}


def grew(before: dict[tuple[str, str], int], after: dict[tuple[str, str], int]) -> dict[str, int]:
    keys = before.keys() | after.keys()
    changes = {f"{k}/{v}": after.get((k, v), 0) - before.get((k, v), 0) for k, v in keys}
    return {key: n for key, n in changes.items() if n}


async def screens(url: str, n: int, **kwargs: Any) -> list[Screen]:
    opened = await asyncio.gather(*(Screen.open(url, **kwargs) for _ in range(n)))
    return list(opened)


def no_staff_flags(raw: str) -> bool:
    flat = raw.replace(" ", "")
    return '"special_needs":true' not in flat and '"locked":true' not in flat


async def test_fifty_public_screens_joining_at_one_version_cost_one_public_snapshot(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("views", 30)
    # Something to hide, so that the public snapshot is an encoding of its own.
    wheel = {"type": "register", "name": "Ana Wheel", "player": "W1", "special_needs": True}
    seq = int(director.ok("views", wheel)["last"])  # type: ignore[call-overload]
    server = servers[0]
    settled(server, "views", seq, packed=True)  # the full snapshots are counted
    url = server.ws + "/ws/t/views"
    before = built(server)
    public = await screens(url, SCREENS)
    firsts = [await s.receive() for s in public]
    after = built(server)
    assert {m["type"] for m in firsts} == {"snapshot"}
    assert len({m["seq"] for m in firsts}) == 1
    assert not any(m["state"]["players"]["W1"]["special_needs"] for m in firsts)
    # What only the staff act on (sales, undoable bust-outs, reserved seats) is not sent.
    assert all(m["staff"] is None for m in firsts)
    # One staff encoding (the public one is made from it) and one public one, for 50 screens.
    assert grew(before, after) == {"snapshot/staff": 1, "snapshot/public": 1}

    # Staff screens at the same version share the staff snapshot already built.
    auth = {"Authorization": director.client.headers["authorization"]}
    staff = await screens(url, 3, additional_headers=auth)
    for s in staff:
        message = await s.receive()
        assert message["type"] == "snapshot"
        assert message["state"]["players"]["W1"]["special_needs"] is True
        assert message["staff"] is not None
    # A public read over HTTP answers the very bytes the public screens were sent.
    read = httpx.get(server.base + "/api/t/views")
    assert read.status_code == 200 and no_staff_flags(read.text)
    assert grew(after, built(server)) == {}

    for s in public + staff:
        await s.close()


async def test_a_batch_is_made_public_once_for_every_public_screen(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("batches", 20)
    server = servers[0]
    url = server.ws + "/ws/t/batches"
    auth = {"Authorization": director.client.headers["authorization"]}
    public = await screens(url, SCREENS)
    staff = await screens(url, 3, additional_headers=auth)
    for s in public + staff:
        s.take(await s.receive())
    before = built(server)
    # A seat lock carries a staff-only flag: the public batch is encoded afresh, once.
    director.ok("batches", {"type": "lock_seat", "player": "P2"})
    end = int(director.ok("batches", {"type": "bust", "player": "P3"})["last"])  # type: ignore[call-overload]
    for s in public + staff:
        await s.until(end)
    # Two batches, each made public once; the staff view is the batch as written (nothing
    # to build), and the pub/sub echo of each batch builds nothing either.
    assert grew(before, built(server)) == {"batch/public": 2}
    for s in public:
        assert s.t is not None and not s.t.player("P2").locked
        assert [b["staff"] for b in s.batches] == [None, None]
    for s in staff:
        assert s.t is not None and s.t.player("P2").locked
        assert all(b["staff"] is not None for b in s.batches)
    for s in public + staff:
        await s.close()


async def test_screens_reconnecting_from_one_number_are_sent_the_batches_the_server_holds(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("rejoin", 20)
    server = servers[0]
    url = server.ws + "/ws/t/rejoin"
    seq = int(director.state("rejoin")["seq"])  # type: ignore[call-overload]
    for pid in ("P4", "P5", "P6"):
        director.ok("rejoin", {"type": "bust", "player": pid})
    end = int(director.state("rejoin")["seq"])  # type: ignore[call-overload]
    settled(server, "rejoin", end)  # its ring holds them before the screens ask
    before, caught_before = built(server), caught_up(server)
    back = await screens(url, 20, since=seq)
    for s in back:
        got = [await s.receive()]
        while got[-1]["to"] < end:
            got.append(await s.receive())
        assert {m["type"] for m in got} == {"events"}
        # The batches as they were sent live, one after the other, from the screen's number.
        assert [m["from"] for m in got] == [seq + 1] + [m["to"] + 1 for m in got[:-1]]
        assert got[-1]["to"] == end
    # From memory: nothing read from the log, no catch-up built; each batch made public
    # once for the twenty screens (nobody public had been sent them before).
    assert set(grew(before, built(server))) <= {"batch/public"}
    caught = caught_up(server)
    assert caught.get("ring", 0) - caught_before.get("ring", 0) == 20
    assert caught.get("log", 0) == caught_before.get("log", 0)
    for s in back:
        await s.close()


def caught_up(server: ServerProcess) -> dict[str, int]:
    """Screens caught up so far by ``server``, by source (ring, log, snapshot)."""
    text = httpx.get(server.base + "/metrics", headers=sign_in(server, *DIRECTOR)).text
    pattern = r'^floor_catch_ups_total\{source="(\w+)"\} (\d+)$'
    return {how: int(n) for how, n in re.findall(pattern, text, re.MULTILINE)}
