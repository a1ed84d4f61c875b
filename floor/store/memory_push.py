"""Push subscriptions, sections and the VAPID key in this process's memory: the
``PushStorage`` contract of ``floor.redisdb.push``, for fast tests."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .push_port import Owner, Subscription


def _key(owner: Owner) -> tuple[str, str]:
    if owner.staff is not None:
        return ("staff", owner.staff)
    return (f"t:{owner.tournament}", str(owner.player))


class MemoryPush:
    """A ``PushStorage`` in dictionaries."""

    def __init__(self) -> None:
        self._subs: dict[tuple[str, str], list[Subscription]] = {}
        self._sections: dict[str, dict[str, list[int]]] = {}
        self._vapid: bytes | None = None

    async def subscribe(self, owner: Owner, sub: Subscription, most: int) -> int | None:
        held = [s for s in self._subs.get(_key(owner), []) if s.endpoint != sub.endpoint]
        if len(held) >= most:
            return None
        self._subs[_key(owner)] = [*held, sub]
        return len(held) + 1

    async def unsubscribe(self, owner: Owner, endpoint: str) -> bool:
        held = self._subs.get(_key(owner), [])
        kept = [s for s in held if s.endpoint != endpoint]
        if kept:
            self._subs[_key(owner)] = kept
        else:
            self._subs.pop(_key(owner), None)
        return len(kept) != len(held)

    async def of_players(
        self, tournament: str, players: Sequence[str]
    ) -> dict[str, list[Subscription]]:
        found = ((p, self._subs.get((f"t:{tournament}", p))) for p in players)
        return {p: list(subs) for p, subs in found if subs}

    async def raw_of_players(self, tournament: str, players: Sequence[str]) -> dict[str, bytes]:
        found = await self.of_players(tournament, players)
        return {p: msgspec.json.encode(subs) for p, subs in found.items()}

    async def of_staff(self, usernames: Sequence[str]) -> dict[str, list[Subscription]]:
        found = ((u, self._subs.get(("staff", u))) for u in usernames)
        return {u: list(subs) for u, subs in found if subs}

    async def staff_subscribed(self) -> list[str]:
        return sorted(name for kind, name in self._subs if kind == "staff")

    async def sections(self, tournament: str) -> dict[str, list[int]]:
        return {u: list(t) for u, t in self._sections.get(tournament, {}).items()}

    async def set_section(self, tournament: str, username: str, tables: Sequence[int]) -> None:
        held = self._sections.setdefault(tournament, {})
        if tables:
            held[username] = sorted(set(tables))
        else:
            held.pop(username, None)

    async def vapid_key(self, candidate: bytes) -> bytes:
        if self._vapid is None:
            self._vapid = candidate
        return self._vapid
