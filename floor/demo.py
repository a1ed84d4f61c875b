"""``floor demo``: the whole product moving within a minute.

Starts the embedded Valkey (unless REDIS_URL is set) and the server, sets up a 300-player
tournament (drawn seats, buttons reported, the clock running on one-minute levels) and then
plays it like a busy floor: players bust every few seconds, the floor carries out each
planned move after a few seconds, tables deal hands, tables break, the final table forms.
The simulated floor writes through its own store, as a second process would, so every
change reaches the screens the same way a real floorperson's would.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import signal
import time
from collections.abc import Callable

import msgspec
import uvicorn

from . import config
from .engine import commands as cmd
from .engine.autopilot import next_floor_action, playable_tables
from .engine.rules import Break
from .engine.state import Tournament
from .redisdb.accounts import RedisAccounts
from .redisdb.connection import connect
from .redisdb.embedded import server_for
from .redisdb.log import RedisLog
from .redisdb.seeds import RedisSeeds
from .redisdb.wipe import wipe_tournament
from .serve import server_options
from .server.accounts import Accounts
from .server.logs import configure
from .server.principal import NoSuchAccount
from .server.settings import from_env
from .store.errors import StoreError
from .store.service import Service

log = logging.getLogger("floor.demo")

TID = "demo"

_FIRST = [
    "Jan",
    "Petr",
    "Tomáš",
    "Jiří",
    "Lukáš",
    "Martin",
    "Pavel",
    "Jakub",
    "Ondřej",
    "Michal",
    "Tereza",
    "Lucie",
    "Kateřina",
    "Eva",
    "Veronika",
    "Anna",
    "Barbora",
    "Zuzana",
    "Marek",
    "Vojtěch",
    "Adam",
    "Filip",
    "David",
    "Radek",
    "Zdeněk",
    "Šárka",
    "Ivana",
    "Oliver",
    "Emma",
    "Liam",
    "Sofia",
    "Lukas",
    "Mia",
    "Mateusz",
    "Zofia",
    "Dominik",
    "Klára",
    "Hana",
    "Matěj",
    "Štěpán",
    "Jana",
]
_LAST = [
    "Novák",
    "Svoboda",
    "Novotný",
    "Dvořák",
    "Černý",
    "Procházka",
    "Kučera",
    "Veselý",
    "Horák",
    "Němec",
    "Marek",
    "Pokorný",
    "Pospíšil",
    "Hájek",
    "Král",
    "Jelínek",
    "Růžička",
    "Beneš",
    "Fiala",
    "Sedláček",
    "Doležal",
    "Zeman",
    "Kolář",
    "Navrátil",
    "Čermák",
    "Vaněk",
    "Urban",
    "Blažek",
    "Kříž",
    "Kovář",
    "Bartoš",
    "Vlček",
    "Polák",
    "Musil",
    "Šimek",
    "Kopecký",
    "Müller",
    "Schmidt",
    "Kowalski",
    "Nowak",
    "Wiśniewski",
    "Smith",
    "Jones",
    "Andersson",
    "Rossi",
    "García",
    "Dubois",
    "Varga",
]


def player_names(count: int, rng: random.Random) -> list[str]:
    names: set[str] = set()
    while len(names) < count:
        names.add(f"{rng.choice(_FIRST)} {rng.choice(_LAST)}")
    return sorted(names, key=lambda _: rng.random())


async def set_up(store: Service, accounts: Accounts, players: int, rng: random.Random) -> str:
    """The director account, the tournament, its players, the draw, buttons and clock."""
    password = secrets.token_urlsafe(9)
    try:
        await accounts.set_secret("director", password)
    except NoSuchAccount:
        await accounts.add("director", password, "director")
    cfg = config.load_tournament(config.tournaments()["demo"])
    rules, structure = config.build_tournament(cfg)
    await store.create(TID, cfg.name, rules, structure)
    for i, name in enumerate(player_names(players, rng), start=1):
        await store.execute(TID, cmd.Register(name=name), f"demo-register-{i}")
    await store.execute(TID, cmd.DrawSeats(), "demo-draw")
    while True:
        t, _ = await store.tournament(TID)
        action = next_floor_action(t, rng)
        if not isinstance(action, cmd.Button):
            break
        await store.execute(TID, action, None)
    await store.execute(TID, cmd.ClockStart(), "demo-clock")
    return password


class Floorperson:
    """Plays the tournament: busts, hands, and the plan carried out after a short delay."""

    def __init__(
        self, stores: Callable[[], Service | None], rng: random.Random, pace: float
    ) -> None:
        # The server's own store, once it runs: the hub keeps its copy current. A store of
        # the demo's own was only refreshed when one of its writes lost a race, so through a
        # break (when the floor writes nothing) it never saw the break end, and the demo
        # stood still for good.
        self.stores = stores
        self.rng = rng
        self.pace = pace
        self.planned_since: dict[str, float] = {}
        #: When the floor last called a move (carried out no sooner than a while after).
        self.called_at = 0.0

    @property
    def store(self) -> Service:
        store = self.stores()
        if store is None:
            raise StoreError("the server is starting")
        return store

    async def run(self) -> None:
        next_bust = time.monotonic() + 3 * self.pace
        next_hand = time.monotonic() + 2
        while True:
            await asyncio.sleep(0.5)
            if self.stores() is None:
                continue
            try:
                t, _ = await self.store.tournament(TID)
                if t.active < 2:
                    continue
                now = time.monotonic()
                await self._carry_out(t, now)
                t, _ = await self.store.tournament(TID)
                structure = t.state.structure
                on_break = structure is not None and isinstance(
                    structure.levels[t.state.clock.level], Break
                )
                if on_break:
                    continue
                if now >= next_hand:
                    tables = playable_tables(t)
                    if tables:
                        table = self.rng.choice(tables)
                        if table.positions is not None:
                            await self.store.execute(TID, cmd.Hand(table=table.number), None)
                    next_hand = now + self.rng.uniform(0.5, 2.0)
                if now >= next_bust:
                    tables = playable_tables(t)
                    if tables:
                        table = self.rng.choice(tables)
                        pid = self.rng.choice(sorted(table.occupants.values()))
                        await self.store.execute(TID, cmd.Bust(player=pid), None)
                    # Faster with a big field, slower at the final table, as on a real floor.
                    next_bust = now + self.pace * self.rng.uniform(1.5, 4.0) * (
                        2.5 if t.active <= 9 else 1.0
                    )
            except StoreError as e:
                log.warning("demo floor", extra={"error": e.message})
                await asyncio.sleep(1)
            except Exception:
                # The show goes on: a surprise is logged and the floor keeps playing.
                log.exception("demo floor")
                await asyncio.sleep(1)

    async def _carry_out(self, t: Tournament, now: float) -> None:
        plan = t.plan
        keys = {f"{m.player}>{m.to.table}" for m in plan.moves}
        # A table that needs its button reported waits as long as a move does.
        keys |= {
            f"button@{tb.number}"
            for tb in t.open_tables()
            if tb.positions is None and tb.count >= 2
        }
        for k in list(self.planned_since):
            if k not in keys:
                del self.planned_since[k]
        for k in keys:
            self.planned_since.setdefault(k, now)
        oldest = min(self.planned_since.values(), default=now)
        if keys and now - oldest >= 2 * self.pace:
            action = next_floor_action(t, self.rng)
            if action is None:
                return
            # As a floorperson does: call the move (the wall and the phones show it, the
            # player gets up), and carry it out a little later, once they are walking.
            call = _call_first(t, action)
            if call is not None:
                await self.store.execute(TID, call, None)
                self.called_at = now
            elif now - self.called_at >= 2 * self.pace:
                await self.store.execute(TID, action, None)


def _call_first(t: Tournament, action: cmd.Command) -> cmd.Command | None:
    """The call that comes before ``action`` while its move is not called yet, else None."""
    if isinstance(action, cmd.ConfirmAll):
        uncalled = [m for m in t.plan.moves if m.reason == action.reason and not m.called]
        return cmd.CallAll(reason=action.reason) if uncalled else None
    if isinstance(action, cmd.Confirm):
        move = t.plan.move_of(action.player)
        if move is None:  # a move that names no player: the floor picks who goes
            move = next((m for m in t.plan.moves if m.player is None), None)
        if move is not None and not move.called:
            return cmd.CallMove(player=action.player, seat=action.seat)
    return None


async def _main(host: str, port: int, url: str, players: int, pace: float) -> None:
    settings = from_env()
    redis = connect(url)
    store = Service(RedisLog(redis), seeds=RedisSeeds(redis))
    rng = random.Random()
    # The demo starts over each run.
    await wipe_tournament(redis, TID)
    password = await set_up(store, Accounts(RedisAccounts(redis)), players, rng)
    base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    print(
        f"\nfloor demo: a {players:,}-player tournament is being played now.\n"
        f"  wall display     {base}/wall/{TID}\n"
        f"  floor phone      {base}/floor/{TID}\n"
        f"  player screen    {base}/player/{TID}\n"
        f"  director console {base}/director\n"
        f"  sign in as       director / {password}\n"
        "Press Ctrl+C to stop.\n",
        flush=True,
    )
    from .server.wiring import create_app

    app = create_app(msgspec.structs.replace(settings, redis_url=url))
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            loop="asyncio",
            lifespan="on",
            # The demo faces clients as `floor serve` does: the same limits on what a
            # stranger can send (message and header sizes, request time, connections).
            **server_options(settings),
        )
    )

    def server_store() -> Service | None:
        return getattr(getattr(app.state, "floor", None), "store", None)

    floor = asyncio.create_task(Floorperson(server_store, rng, pace).run())
    try:
        await server.serve()
    finally:
        floor.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await floor
        await redis.aclose()


def demo(host: str, port: int, players: int, pace: float) -> int:
    from .serve import exit_status, watch

    settings = from_env()
    configure(settings.log_level)
    url, valkey = (settings.redis_url, None) if settings.redis_url else server_for(os.environ)
    # uvicorn shuts down on SIGTERM, then raises it again: as `floor serve` does, make that a
    # KeyboardInterrupt, so that the Valkey started here is stopped too (it was left running).
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    # Restarted when it dies, as under `floor serve` (SIGTERM when it cannot be kept up).
    supervisor = watch(valkey, settings)
    try:
        import uvloop

        uvloop.run(_main(host, port, url, players, pace))
    except KeyboardInterrupt:
        pass
    finally:
        if supervisor is not None:
            supervisor.close()
    return exit_status(supervisor)
