"""Table screens and pairing codes in this process's memory: the ``DeviceStorage`` contract
of ``floor.redisdb.devices``, for fast tests. Expiry follows ``clock``."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from .devices_port import Device, HeldDevice, PairingCode


class MemoryDevices:
    """A ``DeviceStorage`` in dictionaries."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        #: slot -> (code, wrong tries left, expires at)
        self._codes: dict[str, tuple[PairingCode, int, float]] = {}
        #: id -> (held, expires at)
        self._devices: dict[str, tuple[HeldDevice, float]] = {}
        self._seen: dict[str, float] = {}
        self._revisions = itertools.count(1)

    def _code(self, slot: str) -> tuple[PairingCode, int, float] | None:
        kept = self._codes.get(slot)
        if kept is not None and kept[2] <= self.clock():
            del self._codes[slot]
            return None
        return kept

    async def add_code(self, code: PairingCode, tries: int, ttl: int) -> bool:
        if self._code(code.slot) is not None:
            return False
        self._codes[code.slot] = (code, tries, self.clock() + ttl)
        return True

    async def try_code(self, slot: str, digest: str) -> PairingCode | None:
        kept = self._code(slot)
        if kept is None:
            return None
        code, tries, ends = kept
        if code.digest == digest:
            del self._codes[slot]
            return code
        if tries <= 1:
            del self._codes[slot]
        else:
            self._codes[slot] = (code, tries - 1, ends)
        return None

    async def code_tries(self, slot: str) -> int | None:
        kept = self._code(slot)
        return None if kept is None else kept[1]

    def _held(self, device: Device) -> HeldDevice:
        return HeldDevice(device, str(next(self._revisions)).encode())

    async def add_device(self, device: Device, ttl: int) -> None:
        self._devices[device.id] = (self._held(device), self.clock() + ttl)

    async def device(self, device_id: str) -> HeldDevice | None:
        kept = self._devices.get(device_id)
        if kept is None:
            return None
        if kept[1] <= self.clock():
            del self._devices[device_id]
            return None
        return kept[0]

    async def device_by_token(self, token: str) -> HeldDevice | None:
        for device_id in list(self._devices):
            held = await self.device(device_id)
            if held is not None and held.device.token == token:
                return held
        return None

    async def replace_device(self, revision: bytes, device: Device) -> bytes | None:
        held = await self.device(device.id)
        if held is None or held.revision != revision:
            return None
        new = self._held(device)
        self._devices[device.id] = (new, self._devices[device.id][1])
        return new.revision

    async def remove_device(self, device_id: str) -> Device | None:
        held = await self.device(device_id)
        self._devices.pop(device_id, None)
        self._seen.pop(device_id, None)
        return None if held is None else held.device

    async def devices(self) -> list[Device]:
        out = []
        for device_id in sorted(self._devices):
            held = await self.device(device_id)
            if held is not None:
                out.append(held.device)
        return out

    async def seen(self, device_id: str, when: float) -> None:
        self._seen[device_id] = when

    async def last_seen(self, device_ids: list[str]) -> list[float | None]:
        return [self._seen.get(i) for i in device_ids]
