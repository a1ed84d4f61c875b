"""A websocket screen for the tests: follows a tournament and folds events as a page does."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect

from floor.engine.events import Event
from floor.engine.state import Tournament, TournamentState
from floor.protocol import PROTOCOL_VERSION


class Screen:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.hello: dict[str, Any] = {}
        self.seq = 0
        self.t: Tournament | None = None
        self.batches: list[dict[str, Any]] = []
        self.seqs: list[int] = []
        self.others: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, url: str, since: int | None = None, **kwargs: Any) -> Screen:
        full = url if since is None else f"{url}?since={since}"
        screen = cls(await connect(full, compression=None, **kwargs))
        screen.hello = await screen.receive()
        assert screen.hello["type"] == "hello"
        assert screen.hello["version"] == PROTOCOL_VERSION
        return screen

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        data = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(data)
        return message

    def take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "snapshot":
            self.t = Tournament(msgspec.convert(message["state"], TournamentState, strict=False))
            self.seq = message["seq"]
        elif kind == "events":
            self.batches.append(message)
            assert self.t is not None
            for item in message["events"]:
                if item["seq"] <= self.seq:
                    continue
                assert item["seq"] == self.seq + 1, f"gap: {self.seq} then {item['seq']}"
                self.t.apply(msgspec.convert(item["event"], Event, strict=False))
                self.seq = item["seq"]
                self.seqs.append(item["seq"])
        else:
            self.others.append(message)

    async def until(self, seq: int, timeout: float = 10.0) -> None:
        """Read until the screen holds sequence number ``seq``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.seq < seq:
            left = deadline - loop.time()
            assert left > 0, f"screen stuck at {self.seq}, waiting for {seq}"
            self.take(await self.receive(left))

    async def until_event(self, kind: str, timeout: float = 15.0, **fields: Any) -> dict[str, Any]:
        """Read until an event of ``kind`` with these field values has arrived."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout

        def found() -> dict[str, Any] | None:
            for b in self.batches:
                for e in b["events"]:
                    ev = e["event"]
                    if ev["type"] == kind and all(ev.get(k) == v for k, v in fields.items()):
                        return e
            return None

        while (hit := found()) is None:
            left = deadline - loop.time()
            assert left > 0, f"no {kind} {fields} event within {timeout} s"
            self.take(await self.receive(left))
        return hit

    async def close(self) -> None:
        await self.ws.close()


def state_json(t: Tournament) -> Any:
    return json.loads(msgspec.json.encode(t.state))


def as_public(state: Any) -> Any:
    """The staff's ``state`` as a public screen holds it: no seat drawn for a move that is
    not called yet (``floor.server.redact``)."""
    return {**state, "draws": {}}
