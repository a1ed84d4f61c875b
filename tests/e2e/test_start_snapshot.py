"""How a screen starts on the live server: the packed snapshot over HTTP, gzipped and built
once for every reader of a role, then the websocket from its number, which sends the
batches after it from what the server holds. Real ``floor serve`` processes, real HTTP and
websockets, the embedded Valkey.
"""

from __future__ import annotations

import gzip
import json
import re
from copy import deepcopy as copy_of
from typing import Any

import httpx
import msgspec

from floor.engine.state import Tournament, TournamentState
from tests.e2e.conftest import Api, ServerProcess, settled, sign_in
from tests.e2e.screens import Screen
from tests.unit.test_catch_up import unpacked

DIRECTOR = ("boss", "director-secret")


def counts(server: ServerProcess) -> dict[str, int]:
    text = httpx.get(server.base + "/metrics", headers=sign_in(server, *DIRECTOR)).text
    built = re.findall(
        r'^floor_views_built_total\{message="packed",view="(\w+)"\} (\d+)$', text, re.M
    )
    caught = re.findall(r'^floor_catch_ups_total\{source="(\w+)"\} (\d+)$', text, re.M)
    return {**{f"packed/{v}": int(n) for v, n in built}, **{k: int(n) for k, n in caught}}


def state_of(message: dict[str, Any]) -> dict[str, Any]:
    """The state whole, the message left as it came."""
    copy = copy_of(message)
    return unpacked(copy) if copy.get("packed") else copy["state"]


async def test_a_screen_starts_from_the_gzipped_snapshot_and_the_batches_after_it(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("start", 40)
    registered = director.ok("start", {"type": "register", "name": "Ana Wheel", "player": "W1",
                                       "special_needs": True})  # fmt: skip
    server = servers[0]
    settled(server, "start", int(registered["last"]))  # type: ignore[call-overload]
    before = counts(server)
    r = httpx.get(f"{server.base}/api/t/start/snapshot", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["vary"] == "Accept-Encoding"
    message = r.json()  # httpx gunzips it
    seq = int(r.headers["floor-seq"])
    assert message["packed"] is True and message["seq"] == seq and message["staff"] is None
    public = state_of(message)
    assert public["players"]["W1"]["special_needs"] is False  # the public's view
    # On the wire it is the gzip of what a reader without gzip is sent: the same message.
    plain = httpx.get(
        f"{server.base}/api/t/start/snapshot", headers={"Accept-Encoding": "identity"}
    )
    assert "content-encoding" not in plain.headers
    assert json.loads(plain.content) == message
    with httpx.stream(
        "GET", f"{server.base}/api/t/start/snapshot", headers={"Accept-Encoding": "gzip"}
    ) as again:
        wire = b"".join(again.iter_raw())
    assert len(wire) < len(plain.content) and gzip.decompress(wire) == plain.content
    # Built once for all three readers.
    after = counts(server)
    assert after.get("packed/public", 0) - before.get("packed/public", 0) == 1

    # The staff's own: their flags, their part.
    auth = {"Authorization": director.client.headers["authorization"]}
    staff = httpx.get(f"{server.base}/api/t/start/snapshot", headers=auth).json()
    assert state_of(staff)["players"]["W1"]["special_needs"] is True
    assert staff["staff"] is not None

    # Commands after the snapshot; the websocket from its number brings the screen to them.
    end = 0
    for pid in ("P1", "P2", "P3"):
        end = int(director.ok("start", {"type": "bust", "player": pid})["last"])  # type: ignore[call-overload]
    settled(server, "start", end)  # the batches are in its ring before the screen asks
    screen = await Screen.open(f"{server.ws}/ws/t/start?packed=1&since={seq}")
    screen.t = Tournament(msgspec.convert(public, TournamentState, strict=False))
    screen.seq = seq
    await screen.until(end)
    assert screen.batches and screen.batches[0]["from"] == seq + 1
    full = director.state("start")["state"]
    shown = msgspec.to_builtins(screen.t.state)
    assert shown["players"]["P2"]["busted"] is True
    full["players"]["W1"]["special_needs"] = False  # type: ignore[index]
    assert json.loads(json.dumps(shown)) == full
    assert counts(server).get("ring", 0) > after.get("ring", 0)
    await screen.close()


async def test_a_screen_on_the_websocket_alone_gets_a_packed_snapshot_when_it_asks(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("wsonly", 12)
    screen = await Screen.open(servers[1].ws + "/ws/t/wsonly?packed=1")
    message = await screen.receive()
    assert message["type"] == "snapshot" and message["packed"] is True
    assert len(state_of(message)["players"]) == 12
    await screen.close()
