"""A push service on this machine, for tests and benches: it takes what floor posts (as FCM or
Mozilla's service would), keeps it, and a "browser" made here opens it with its own keys.

No browser can subscribe to a real push service offline, so the browser's side is played
here: a P-256 key pair and an authentication secret per subscription (what
``PushManager.subscribe`` makes), the message decrypted with them (RFC 8291, by ``http_ece``,
as a browser would) and its VAPID signature checked against the server's public key.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Phone:
    """One browser's subscription: what it sends floor, and the keys it keeps."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
            "lang": lang,
        }

    def open(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


@dataclass
class Delivery:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


@dataclass
class PushPoint:
    """The local push service: ``origin`` is what ``FLOOR_PUSH_SERVICES`` names."""

    server: ThreadingHTTPServer
    deliveries: list[Delivery] = field(default_factory=list)
    #: Paths answered 410 Gone (a subscription the browser dropped).
    gone: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    arrived: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self.arrived = threading.Condition(self.lock)

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def phone(self) -> Phone:
        return Phone(
            f"{self.origin}/push/{secrets.token_urlsafe(12)}",
            ec.generate_private_key(ec.SECP256R1()),
            secrets.token_bytes(16),
        )

    def to(self, phone: Phone) -> list[Delivery]:
        path = phone.endpoint.removeprefix(self.origin)
        with self.lock:
            return [d for d in self.deliveries if d.path == path]

    def wait(self, count: int, timeout: float = 20.0) -> list[Delivery]:
        """At least ``count`` deliveries in all, waiting up to ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while len(self.deliveries) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.deliveries)} pushes arrived, not {count}")
                self.arrived.wait(left)
            return list(self.deliveries)

    def clear(self) -> None:
        with self.lock:
            self.deliveries.clear()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start(host: str = "127.0.0.1") -> PushPoint:
    point: PushPoint | None = None

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            assert point is not None
            length = int(self.headers.get("content-length", "0"))
            body = self.rfile.read(length)
            with point.arrived:
                point.deliveries.append(
                    Delivery(
                        self.path,
                        {k.lower(): v for k, v in self.headers.items()},
                        body,
                        time.time(),
                    )
                )
                point.arrived.notify_all()
            status = 410 if self.path in point.gone else 201
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer((host, 0), Handler)
    server.daemon_threads = True
    point = PushPoint(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return point


def vapid_claims(authorization: str, public_key: str) -> dict[str, Any]:
    """The claims of a ``vapid t=<jwt>, k=<key>`` header (RFC 8292), once its signature is
    checked with ``public_key`` (the server's, base64url) and its ``k`` is that key."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme.lower() == "vapid", authorization
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert params["k"] == public_key
    head, claims, signature = params["t"].split(".")
    raw = unb64(signature)
    signed = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    key.verify(signed, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    found: dict[str, Any] = json.loads(unb64(claims))
    return found
