"""This process's notifications: the subscriptions' storage, the VAPID key, the checks of an
opt-in, the notifier and its sending process.

An opt-in is a public write (anybody may follow a player, so anybody may ask to be woken for
one): its body is small and checked field by field (the endpoint must be one of the push
services floor posts to, ``FLOOR_PUSH_SERVICES``: never an address of the venue's network),
each client address has ``FLOOR_PUSH_RATE`` opt-ins and stops a minute, and a player or a
staff member holds at most ``MOST_PER_OWNER`` subscriptions (one more is refused, never
evicting one: a stranger cannot push a player's own phone out).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import logging
import re
import time
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

import msgspec
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

from ..engine.errors import FloorError
from ..store.push_port import MOST_PER_OWNER, Owner, PushKeys, PushStorage, Subscription
from ..store.service import Service
from .edges import BadRequest
from .push_notify import Notifier
from .push_sender import PushSender
from .settings import Settings

log = logging.getLogger(__name__)

#: The largest opt-in body: an endpoint (FCM's are about 200 characters), two keys, a language.
MAX_BODY: Final = 2048
MAX_ENDPOINT: Final = 1024
#: The languages a subscription's texts may be in (``web/js/lang/push-*.js``); a language the
#: service worker does not know is shown in English.
_LANG: Final = re.compile(r"[a-z]{2}(-[A-Za-z]{2})?")


class Full(FloorError):
    """The owner holds as many subscriptions as one may."""

    code = "not_allowed"


class OptIn(msgspec.Struct, forbid_unknown_fields=True):
    """``PUT .../push``: the browser's ``PushSubscription.toJSON()`` and the page's language."""

    endpoint: str
    keys: PushKeys
    lang: str = "en"
    expirationTime: float | None = None


class OptOut(msgspec.Struct, forbid_unknown_fields=True):
    endpoint: str


def _b64(text: str, field: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise BadRequest("is not base64url", field=field) from None


def check_keys(keys: PushKeys) -> None:
    """The keys a browser gives: a P-256 point (65 bytes, uncompressed) and 16 random bytes."""
    point = _b64(keys.p256dh, "keys.p256dh")
    if len(point) != 65 or point[0] != 4:
        raise BadRequest(
            "must be an uncompressed P-256 public key (65 bytes, base64url)", field="keys.p256dh"
        )
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadRequest("is not a point of the P-256 curve", field="keys.p256dh") from None
    if len(_b64(keys.auth, "keys.auth")) != 16:
        raise BadRequest("must be 16 bytes (base64url)", field="keys.auth")


def service_allowed(endpoint: str, services: tuple[str, ...]) -> bool:
    """Whether ``endpoint`` is at one of ``services`` (see ``FLOOR_PUSH_SERVICES``)."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        origin = f"{parts.scheme}://{parts.netloc}".lower()
    except ValueError:
        return False
    for service in services:
        if "://" in service:
            if origin == service.rstrip("/"):
                return True
            continue
        if parts.scheme != "https" or parts.port not in (None, 443) or _is_address(host):
            continue
        if host == service or (service.startswith("*.") and host.endswith(service[1:])):
            return True
    return False


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


class Push:
    """Subscriptions, sections and sending for this process (see the top)."""

    def __init__(self, settings: Settings, storage: PushStorage, store: Service) -> None:
        self.settings = settings
        self.storage = storage
        self.enabled = settings.push
        self.services = settings.push_services
        self._pem: bytes | None = None
        self._public: str | None = None
        self._file: bytes | None = None
        if settings.vapid_key:
            try:
                self._file = Path(settings.vapid_key).read_bytes()
            except OSError as e:
                raise SystemExit(f"FLOOR_VAPID_KEY: {e}") from None
        self.sender: PushSender | None = None
        self.notifier: Notifier | None = None
        if self.enabled and settings.serves == "everyone":
            # A public edge writes no batch: it has nothing to send.
            self.notifier = Notifier(store, storage, self._send)
            self.notifier.listen()

    # The VAPID key ----------------------------------------------------------------------------

    async def _key(self) -> bytes:
        if self._pem is None:
            if self._file is not None:
                pem = self._file
            else:
                made = ec.generate_private_key(ec.SECP256R1())
                candidate = made.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
                pem = await self.storage.vapid_key(candidate)
            key = load_pem_private_key(pem, None)
            if not isinstance(key, ec.EllipticCurvePrivateKey):
                raise SystemExit("FLOOR_VAPID_KEY must hold a P-256 (EC) private key")
            raw = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
            self._public = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
            self._pem = pem
        return self._pem

    async def public_key(self) -> str:
        """The application server key a browser subscribes with (base64url)."""
        await self._key()
        assert self._public is not None
        return self._public

    # Opting in and out ------------------------------------------------------------------------

    def subscription(self, body: OptIn) -> Subscription:
        """The subscription an opt-in asks for, its every field checked (422 naming it)."""
        self.check_endpoint(body.endpoint)
        check_keys(body.keys)
        if not _LANG.fullmatch(body.lang):
            raise BadRequest("must be a language code such as en or cs", field="lang")
        return Subscription(
            endpoint=body.endpoint, keys=body.keys, lang=body.lang, created_at=int(time.time())
        )

    def check_endpoint(self, endpoint: str) -> None:
        if len(endpoint) > MAX_ENDPOINT:
            raise BadRequest(f"is longer than {MAX_ENDPOINT} characters", field="endpoint")
        if not service_allowed(endpoint, self.services):
            raise BadRequest(
                "is not at a push service this server posts to (FLOOR_PUSH_SERVICES)",
                field="endpoint",
            )

    async def subscribe(self, owner: Owner, sub: Subscription) -> int:
        held = await self.storage.subscribe(owner, sub, MOST_PER_OWNER)
        if held is None:
            raise Full(
                f"{MOST_PER_OWNER} phones are signed up for these alerts already: stop them "
                "on one of them first",
                field="player" if owner.player is not None else "staff",
            )
        return held

    # Sending ----------------------------------------------------------------------------------

    def _send(self, jobs: list[tuple[str, bytes, bytes]]) -> int:
        if self.sender is None:
            return 0
        return self.sender.send(jobs)

    async def start(self) -> None:
        if self.notifier is None:
            return
        try:
            pem = await self._key()
        except Exception as e:
            # Redis not there yet: the key is read at the first opt-in, the sender then.
            log.warning("the push key could not be read at start", extra={"error": str(e)})
            return
        self._start_sender(pem)

    def _start_sender(self, pem: bytes) -> None:
        if self.sender is None and self.notifier is not None:
            self.sender = PushSender(pem, self.settings.push_subject, on_result=self.notifier.gone)
            self.sender.start()

    async def ready(self) -> None:
        """The sender running (started late when Redis came late)."""
        if self.notifier is not None and self.sender is None:
            self._start_sender(await self._key())

    async def stop(self) -> None:
        if self.notifier is not None:
            await self.notifier.settle()
        if self.sender is not None:
            await self.sender.stop()
