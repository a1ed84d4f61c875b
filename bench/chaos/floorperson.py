"""The simulated floor: floorpersons sending commands over HTTP, as phones do.

A floorperson follows the tournament on a staff screen of its own (a full ``Screen`` signed
in as the director: the staff view, with the moves not called yet and the seats drawn for
them, which the public is not shown), decides the next command on that fold as floor staff
do (``floor_step``: each planned move called, then carried out; the final table called and
seated at once; otherwise a hand dealt or a player busted), and POSTs it with a fresh command
id to a server picked at random (as a load balancer would). On a network error, a timeout or
a 503 it sends the SAME id again, to the next server, until the command is answered; then it
waits until its screen shows the command's events before deciding again. A 409 (another
floorperson's command changed the state first) is noted and the floor carries on. Every
answer is kept in the ``Ledger`` by command id, for the checks at the end.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from floor.engine.autopilot import _carry_out, playable_tables
from floor.engine.commands import (
    Bust,
    Button,
    CallAll,
    CallMove,
    Command,
    Confirm,
    ConfirmAll,
    Hand,
)
from floor.engine.model import FLOP_GAMES
from floor.engine.state import Tournament

from .screen import Screen


class SoakFailure(Exception):
    """Something the soak must fail loudly for."""


@dataclass
class Ack:
    cid: str
    kind: str
    ok: bool
    first: int
    last: int
    code: str | None
    duplicate: bool
    attempts: int
    status: int
    command: dict[str, Any] | None = None


@dataclass
class Ledger:
    """Every answered command by id, and what it took to get the answers."""

    acks: dict[str, Ack] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    retry_reasons: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    #: 5xx answers other than 503 and 401s (each is a finding: the soak fails), first few.
    findings: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.findings) < 30:
            self.findings.append(text)


class Phone:
    """HTTP to the floor servers with a director's token; resends until answered."""

    def __init__(
        self,
        name: str,
        bases: list[str],
        username: str,
        secret: str,
        tid: str,
        ledger: Ledger,
        home: int = 0,
        retry_for: float = 120.0,
        seed: int = 0,
    ) -> None:
        self.name = name
        self.bases = bases
        self.username = username
        self.secret = secret
        self.tid = tid
        self.ledger = ledger
        self.home = home
        self.server = home
        #: Each new request goes to a server picked at random (a load balancer's choice);
        #: a resend goes to the next one.
        self.rng = random.Random(f"{seed}:phone:{name}")
        self.retry_for = retry_for
        self.token: str | None = None
        timeout = httpx.Timeout(15.0, connect=2.0)
        self.clients = [httpx.AsyncClient(base_url=b, timeout=timeout) for b in bases]

    async def close(self) -> None:
        for c in self.clients:
            await c.aclose()

    def _rotate(self) -> None:
        self.server = (self.server + 1) % len(self.bases)

    async def sign_in(self) -> None:
        deadline = time.monotonic() + self.retry_for
        delay = 0.05
        while True:
            try:
                r = await self.clients[self.server].post(
                    "/api/signin", json={"username": self.username, "secret": self.secret}
                )
                if r.status_code == 200:
                    self.token = r.json()["token"]
                    self.ledger.counts["sign_ins"] += 1
                    return
                if r.status_code not in (503, 429):
                    raise SoakFailure(f"{self.name}: sign-in answered {r.status_code}: {r.text}")
            except httpx.TransportError:
                self._rotate()
            if time.monotonic() > deadline:
                raise SoakFailure(f"{self.name}: could not sign in within {self.retry_for}s")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def request(self, method: str, path: str, body: Any, what: str) -> httpx.Response:
        """One request, resent (to the next server) on network errors and 503s."""
        deadline = time.monotonic() + self.retry_for
        delay = 0.05
        attempts = 0
        self.server = self.rng.randrange(len(self.bases))
        while True:
            attempts += 1
            if self.token is None:
                await self.sign_in()
            headers = {"Authorization": f"Bearer {self.token}"}
            client = self.clients[self.server]
            reason: str
            try:
                r = await client.request(method, path, json=body, headers=headers)
            except httpx.TransportError as e:
                reason = type(e).__name__
                self._rotate()
            else:
                if r.status_code == 401:
                    reason = "401"
                    self.token = None
                    self.ledger.counts["unexpected_answers"] += 1
                    self.ledger.note(f"{self.name}: 401 on {what}: {r.text[:200]}")
                elif r.status_code == 503:
                    reason = "503"
                    self._rotate()
                elif r.status_code >= 500:
                    reason = str(r.status_code)
                    self.ledger.counts["unexpected_answers"] += 1
                    self.ledger.note(
                        f"{self.name}: HTTP {r.status_code} from {client.base_url} on {what}: "
                        f"{r.text[:300]}"
                    )
                    self._rotate()
                else:
                    r.extensions["attempts"] = attempts
                    return r
            self.ledger.counts["retries"] += 1
            self.ledger.retry_reasons[reason] += 1
            if time.monotonic() + delay > deadline:
                raise SoakFailure(
                    f"{self.name}: {what} not answered after {attempts} attempts "
                    f"({self.retry_for}s); last: {reason}"
                )
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, 1.0)

    async def command(self, command: dict[str, Any], cid: str) -> Ack:
        """POST a command until answered; the answer is recorded in the ledger."""
        kind = str(command["type"])
        self.ledger.counts["commands_sent"] += 1
        self.ledger.kinds[kind] += 1
        r = await self.request(
            "POST",
            f"/api/t/{self.tid}/commands",
            {"id": cid, "command": command},
            f"command {cid} ({kind})",
        )
        attempts = int(r.extensions.get("attempts", 1))
        if attempts > 1:
            self.ledger.counts["commands_retried"] += 1
        try:
            body = r.json()
        except ValueError:
            raise SoakFailure(
                f"{self.name}: {cid} answered {r.status_code} with {r.text!r}"
            ) from None
        if r.status_code == 200 and body.get("ok"):
            ack = Ack(
                cid,
                kind,
                True,
                body["first"],
                body["last"],
                None,
                body["duplicate"],
                attempts,
                200,
                command,
            )
            self.ledger.counts["acknowledged"] += 1
        elif r.status_code == 409:
            code = body["error"]["code"]
            ack = Ack(
                cid, kind, False, 0, 0, code, bool(body.get("duplicate")), attempts, 409, command
            )
            self.ledger.counts["refused"] += 1
            self.ledger.refusals[f"{kind}:{code}"] += 1
        else:
            raise SoakFailure(
                f"{self.name}: {cid} ({command}) answered {r.status_code}: {r.text[:500]}"
            )
        if ack.duplicate:
            self.ledger.counts["answered_as_duplicate"] += 1
        prior = self.ledger.acks.get(cid)
        if prior is not None and (prior.ok, prior.first, prior.last) != (
            ack.ok,
            ack.first,
            ack.last,
        ):
            raise SoakFailure(f"{cid} answered twice, differently: {prior} then {ack}")
        self.ledger.acks[cid] = ack
        return ack


def floor_step(
    t: Tournament, rng: random.Random, bust_chance: float, k: int = 0, n: int = 1
) -> Command | None:
    """What floorperson ``k`` of ``n`` does next on the staff view ``t``, as floor staff do.

    Each looks after a section of the room (the tables numbered ``k`` modulo ``n``), so
    that two of them do not call and carry out the same move at once: a planned move from
    one of its tables is called (the room is shown it) before it is carried out; the final
    table is called whole, then seated, by floorperson 0; otherwise a button report, a hand
    dealt or a player busted at one of its tables (at any table once its section is empty).
    None: nothing to do.
    """
    plan = t.plan
    final = [m for m in plan.moves if m.reason == "final"]
    if final:
        if k:
            return None
        if any(not m.called and m.player is not None and m.from_.seat is not None for m in final):
            return CallAll(reason="final")
        return ConfirmAll(reason="final")

    def mine(table: int) -> bool:
        return table % n == k

    for m in plan.moves:
        if m.called and m.player is not None and mine(m.from_.table):
            return Confirm(player=m.player)
    flop = t.state.current_game in FLOP_GAMES or t.rules.game == "mixed"
    if flop and not t.rules.stud_only:
        for table in t.open_tables():
            if mine(table.number) and table.positions is None and table.count >= 2:
                return Button(table=table.number, seat=rng.choice(sorted(table.occupants)))
    for m in plan.moves:
        if m.called or not mine(m.from_.table):
            continue
        # The autopilot's choice of who goes and where, where the plan leaves it to the floor.
        action = _carry_out(t, m, rng)
        if isinstance(action, Confirm):
            seat = action.seat if m.to.seat is None else None
            return CallMove(player=action.player, seat=seat)
    if t.active < 2:
        return None
    tables = playable_tables(t)
    section = [x for x in tables if mine(x.number)] or tables
    if not section:
        return None
    table = rng.choice(section)
    can_deal = t.state.current_game not in FLOP_GAMES or table.positions is not None
    if can_deal and rng.random() >= bust_chance:
        return Hand(table=table.number)
    return Bust(player=table.occupants[rng.choice(sorted(table.occupants))])


class Floorperson:
    """Plays the tournament: ``floor_step`` on its own staff screen's fold."""

    def __init__(
        self,
        k: int,
        phone: Phone,
        view: Screen,
        run: str,
        seed: int,
        bust_chance: float,
        gate: Callable[[int], Awaitable[None]] | None = None,
        of: int = 1,
    ) -> None:
        self.k = k
        #: How many floorpersons share the room (each its section of the tables).
        self.of = of
        #: Waited on before each command: the chaos holds the floor while a kill it owes at
        #: this point of the tournament cannot happen yet (Valkey's healthy gap).
        self.gate = gate
        self.phone = phone
        self.view = view
        self.run = run
        self.rng = random.Random(f"{seed}:floor:{k}")
        self.bust_chance = bust_chance
        self.need = 0  # the last sequence number this floorperson's commands produced
        self.n = 0
        #: Seconds with nothing to do since its last command.
        self.idle = 0.0

    async def caught_up(self, seq: int, what: str, within: float = 90.0) -> None:
        if not await self.view.until(seq, within):
            raise SoakFailure(
                f"floorperson {self.k}: its screen did not show seq {seq} ({what}) within "
                f"{within}s (it shows {self.view.seq}, connected={self.view.connected})"
            )

    async def send(self, command: dict[str, Any], cid: str) -> Ack:
        if self.gate is not None:
            await self.gate(self.k)
        ack = await self.phone.command(command, cid)
        if ack.ok:
            self.need = max(self.need, ack.last)
        return ack

    async def register(self, players: list[int]) -> None:
        for i in players:
            await self.send(
                {"type": "register", "name": f"Player {i}", "player": f"P{i}"},
                f"{self.run}-reg-{i}",
            )

    async def play(self) -> None:
        """Until there is a winner."""
        while True:
            await self.caught_up(self.need, "its own last command")
            t = self.view.t
            assert t is not None
            command = floor_step(t, self.rng, self.bust_chance, self.k, self.of)
            if command is None:
                if t.active < 2:
                    return
                # Nothing to do on this state (a plan waiting on another's move): wait.
                seq = self.view.seq
                t0 = time.monotonic()
                await self.view.until(seq + 1, 5.0)
                self.idle += time.monotonic() - t0
                if self.idle > 120:
                    raise SoakFailure(f"floorperson {self.k}: nothing to do for 120 s at {seq}")
                continue
            self.n += 1
            self.idle = 0.0
            seq = self.view.seq
            ack = await self.send(msgspec.to_builtins(command), f"{self.run}-f{self.k}-{self.n}")
            if not ack.ok:
                # Refused: the room moved on under this screen (the other floorperson's
                # command, or the screen away while its server restarts). A person looks
                # again once the screen shows something newer. Deciding again at once on
                # the same view, a floorperson sent 78 refused commands (busts of players
                # already out, mostly) in the few seconds both staff servers were down
                # (seed 24 in a CI run), and failed the soak on the harness's haste.
                await self.view.until(seq + 1, 5.0)
