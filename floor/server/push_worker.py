"""The sending of Web Push messages, in a process of its own (``push_sender`` starts it).

Each message is encrypted for its subscription (RFC 8291, ``aes128gcm``: pywebpush, which
encrypts with ``http_ece``) and posted to the subscription's push service with a VAPID
signature (RFC 8292, ``py_vapid``), from a pool of threads: a push service answers in tens
of milliseconds across the internet, and a bubble concerns thousands of phones. The
encryption and the posting grow with the number of phones: here they take a core of their
own, never the event loop's (nor its GIL) that the staff's commands wait on.

A job is ``(owner, payload, subscriptions)``: the owner's key (where to forget a
subscription the service says is gone), the alert as JSON, and the owner's subscriptions as
Redis keeps them (a JSON list, decoded here rather than on the loop). Each subscription's
language is put into its payload, so that its service worker shows the text in it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, NamedTuple
from urllib.parse import urlsplit

#: A job: the owner's key, the payload (a JSON object), the subscriptions (a JSON list).
Job = tuple[str, bytes, bytes]
#: Seconds a push service keeps a message for a phone that is off (a move called an hour
#: ago is no use).
TTL: Final = 900
#: The VAPID token is signed once per push service and kept this long (it is valid 12 h).
SIGNED_FOR: Final = 6 * 3600
#: Seconds to wait for a push service.
TIMEOUT: Final = 10.0

log = logging.getLogger(__name__)


class Result(NamedTuple):
    """What became of a chunk of jobs: the messages handed over (the service took them),
    the subscriptions the service says are gone (owner key, endpoint), the messages that
    failed otherwise, and when the last was handed over (``time.time()``; 0: none)."""

    delivered: int
    gone: list[tuple[str, str]]
    failed: int
    last_at: float


class _Worker:
    def __init__(self, pem: bytes, subject: str, threads: int) -> None:
        import requests
        from py_vapid import Vapid02  # type: ignore[import-untyped]

        self.vapid = Vapid02.from_pem(pem)
        self.subject = subject
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="push")
        self.local = threading.local()
        self.requests = requests
        self._signed: dict[str, tuple[float, dict[str, str]]] = {}
        self._lock = threading.Lock()

    def session(self) -> Any:
        session = getattr(self.local, "session", None)
        if session is None:
            session = self.local.session = self.requests.Session()
        return session

    def headers(self, endpoint: str) -> dict[str, str]:
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        now = time.time()
        with self._lock:
            held = self._signed.get(audience)
            if held is None or held[0] < now:
                claims = {"aud": audience, "sub": self.subject, "exp": int(now) + 12 * 3600}
                signed = self.vapid.sign(claims)
                held = self._signed[audience] = (now + SIGNED_FOR, dict(signed))
        return dict(held[1])

    def send(self, owner: str, payload: bytes, sub: dict[str, Any]) -> tuple[str, str, str, float]:
        """Encrypt and post one message: ("ok" | "gone" | "failed", owner, endpoint, when
        the service answered)."""
        from pywebpush import WebPusher, WebPushException  # type: ignore[import-untyped]

        endpoint = str(sub.get("endpoint", ""))
        lang = str(sub.get("lang", "en"))
        data = b'{"lang":' + json.dumps(lang).encode() + b"," + payload[1:]
        headers = self.headers(endpoint)
        headers["Urgency"] = "high"
        try:
            pusher = WebPusher(sub, requests_session=self.session())
            answer = pusher.send(
                data=data, headers=headers, ttl=TTL, content_encoding="aes128gcm", timeout=TIMEOUT
            )
        except (WebPushException, self.requests.RequestException, ValueError) as e:
            log.warning("a push could not be sent", extra={"error": str(e)})
            return "failed", owner, endpoint, time.time()
        status = int(getattr(answer, "status_code", 0))
        at = time.time()
        if status in (404, 410):
            return "gone", owner, endpoint, at
        return ("ok" if 200 <= status < 300 else "failed"), owner, endpoint, at


_worker: _Worker | None = None


#: How much nicer than the staff's process the sender runs: a bubble's thousands of messages
#: take the cores the staff's commands leave, a few seconds later at worst.
NICENESS: Final = 10


def start(pem: bytes, subject: str, threads: int) -> None:
    """The process's initializer: the VAPID key, the contact, the threads; the process made
    nicer than the server (a process may only lower its own priority)."""
    global _worker
    with contextlib.suppress(OSError):
        os.nice(max(0, NICENESS - os.nice(0)))
    _worker = _Worker(pem, subject, threads)


def send_all(jobs: list[Job]) -> Result:
    """Send every message of ``jobs`` (in the sending process)."""
    worker = _worker
    if worker is None:
        raise RuntimeError("push_worker.start was not called in this process")
    calls = [
        (owner, payload, sub)
        for owner, payload, subs in jobs
        for sub in json.loads(subs)
        if isinstance(sub, dict)
    ]
    delivered = failed = 0
    gone: list[tuple[str, str]] = []
    last = 0.0
    for outcome, owner, endpoint, at in worker.pool.map(lambda c: worker.send(*c), calls):
        if outcome == "ok":
            delivered += 1
            last = max(last, at)
        elif outcome == "gone":
            gone.append((owner, endpoint))
        else:
            failed += 1
    return Result(delivered, gone, failed, last)


def warm() -> bool:
    """Nothing: the first call of a fresh process, which imports and starts it."""
    return _worker is not None
