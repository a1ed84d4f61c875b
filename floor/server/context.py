"""What a request runs with: this process's parts (``Floor``) and who is asking.

``wiring`` builds the ``Floor`` and puts it on ``app.state``; routes and the websocket reach
it through ``floor_of``. Nothing here picks a storage backend: the parts arrive built.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from starlette.requests import HTTPConnection, Request

from ..signing import KeyList, Signer
from ..store.house import House
from ..store.ids import check_tournament_id
from ..store.service import Service
from ..store.walls_port import WallStorage
from .accounts import Accounts
from .clock_thread import ClockThread
from .dealer_phones import DealerPhones
from .dealer_room import DealerRoom
from .desk import Desk
from .follow_feed import Feeds
from .forecasts import Forecasts
from .hub import Hub
from .metrics import Metrics
from .origins import origin_allowed
from .principal import PUBLIC, Forbidden, Principal, SignedOut
from .push import Push
from .seat_pass import SeatPasses
from .settings import Settings
from .tablets import Tablets

SESSION_COOKIE = "floor_session"


class Floor:
    """This process's services: the store, the fan-out hub, accounts, the clock driver."""

    def __init__(
        self,
        *,
        settings: Settings,
        metrics: Metrics,
        store: Service,
        house: House,
        hub: Hub,
        accounts: Accounts,
        tablets: Tablets,
        clock: ClockThread,
        forecasts: Forecasts,
        push: Push,
        desk: Desk,
        walls: WallStorage,
        seat_passes: SeatPasses,
        ping: Callable[[], Awaitable[object]],
        close: Callable[[], Awaitable[None]],
        signer: Signer | None = None,
        signing_keys: KeyList | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.store = store
        #: What spans tournaments (``floor.store.house``).
        self.house = house
        self.hub = hub
        self.accounts = accounts
        #: The paired table screens (their tokens are read by ``accounts``).
        self.tablets = tablets
        self.clock = clock
        #: The day forecaster (``forecasts``): plays nothing on a public edge.
        self.forecasts = forecasts
        #: Notifications: subscriptions, sections, the pushes this process sends (``push``).
        self.push = push
        #: The front desk and the cashier (``desk``).
        self.desk = desk
        #: The walls' images and named screens (``walls``).
        self.walls = walls
        #: The digital seat cards: made for a player's phone, scanned at the table.
        self.seat_passes = seat_passes
        #: The dealer room (``dealer_room``) and the dealers' own phones (``dealer_phones``).
        self.dealers = DealerRoom(house)
        self.phones = DealerPhones(accounts, tablets.storage)
        #: The phones following one player each (``follow_feed``).
        self.follow = Feeds(store, hub)
        #: The hash chain's heads (``store.heads``), and the venue's signing key and its
        #: published list (``floor.signing``; None where the server has no key).
        self.chain = store.heads
        hub.heard.append(self.chain.observe)
        self.signer = signer
        self.signing_keys = signing_keys
        #: Raises when the storage cannot be reached (``/healthz``).
        self.ping = ping
        self._close = close
        self.started = time.time()

    async def start(self) -> None:
        await self.hub.start()
        await self.accounts.start()
        # A public edge never holds the clock: its ticks would wait behind a crowd of
        # phones, and a staff process always runs beside it to hold the lease.
        if self.settings.serves == "everyone":
            await self.clock.start()
        await self.forecasts.start()
        await self.push.start()

    async def stop(self) -> None:
        self.follow.stop()
        await self.forecasts.stop()
        await self.push.stop()
        await self.clock.stop()
        await self.accounts.stop()
        await self.hub.stop()
        await self._close()

    async def principal(self, conn: HTTPConnection) -> tuple[Principal, bool]:
        """Who is asking, and whether they proved it with the session cookie.

        The one door for every request and websocket: the bearer token, else the
        ``floor_session`` cookie, names a staff member's session or a paired table screen
        (``Principal.device`` set; role ``table``, or ``dealer`` with a dealer signed in on
        it); an unknown or expired bearer token is ``SignedOut``, an unknown cookie the
        public."""
        header = conn.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            found = await self.accounts.principal(header[7:].strip())
            if found is None:
                raise SignedOut("the token is unknown or expired: sign in again")
            return found, False
        token = conn.cookies.get(SESSION_COOKIE)
        if token:
            found = await self.accounts.principal(token)
            if found is not None:
                return found, True
        return PUBLIC, False

    def check_origin(self, conn: HTTPConnection) -> None:
        if not origin_allowed(
            conn.headers.get("origin"), conn.headers.get("host"), self.settings.allowed_origins
        ):
            raise Forbidden("requests from another site are not accepted")


def floor_of(conn: HTTPConnection) -> Floor:
    floor: Floor = conn.app.state.floor
    return floor


async def staff(request: Request) -> Principal:
    """The signed-in principal for a changing request (cookie requests must be same-site)."""
    floor = floor_of(request)
    principal, by_cookie = await floor.principal(request)
    if by_cookie:
        floor.check_origin(request)
    return principal


def tid_of(request: Request) -> str:
    return check_tournament_id(request.path_params["tid"])
