"""The port behind what the walls show besides a tournament: the venue's logo, each event's
sponsor, and the named screens' layouts (``floor.server.walls``). Kept apart from every log:
an image is no event, and a TV's layout outlives the tournament it shows.

An implementation keeps plain bytes: ``floor.redisdb.walls`` on Redis/Valkey (keys under a
hash tag of their own). Images are kept by their content's digest, so a URL naming the
digest names one image for ever (and may be cached for ever).
"""

from __future__ import annotations

from typing import Protocol


class WallStorage(Protocol):
    """A failing backend raises ``Unavailable``; each method is one atomic step."""

    async def put_image(self, digest: str, media_type: str, data: bytes) -> None: ...

    async def image(self, digest: str) -> tuple[str, bytes] | None:
        """The media type and the bytes of the image kept under ``digest``, or None."""
        ...

    async def set_brand(self, slot: str, name: str | None) -> None:
        """``slot`` (``logo``, ``sponsor:<tournament>``) shows the image ``name`` (its digest
        and extension), or nothing."""
        ...

    async def brand(self, slots: list[str]) -> dict[str, str]:
        """The image named by each slot that shows one."""
        ...

    async def put_screen(self, name: str, data: bytes) -> None: ...

    async def drop_screen(self, name: str) -> bool: ...

    async def screens(self) -> dict[str, bytes]:
        """Every named screen's layout, by name."""
        ...

    async def screen(self, name: str) -> bytes | None: ...
