"""Redis failures as the ports report them: ``Unavailable`` (a 503; the phone resends)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import redis.exceptions as rex

from ..store.errors import Unavailable
from .connection import REDIS_DOWN

__all__ = ["REDIS_DOWN", "call", "unreachable"]

T = TypeVar("T")


def unreachable(e: BaseException) -> Unavailable:
    return Unavailable(f"Redis is unreachable: {e}")


async def call(awaitable: Awaitable[T]) -> T:
    """Await one Redis call; a failure of Redis is ``Unavailable``."""
    try:
        return await awaitable
    except REDIS_DOWN as e:
        raise unreachable(e) from e
    except rex.ResponseError as e:
        raise Unavailable(f"Redis refused the call: {e}") from e
    except rex.RedisError as e:
        raise Unavailable(f"Redis failed: {e}") from e
