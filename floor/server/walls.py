"""What the walls show besides a tournament: the venue's logo and each event's sponsor,
uploaded by the director, and the named screens' layouts.

An image is taken as PNG, JPEG or WebP by its first bytes (never by its name or the type a
client claims), at most ``MOST_IMAGE`` bytes; SVG (a document that may run script) is never
taken. It is kept under the SHA-256 of its bytes and served under that name, so that its URL
never changes meaning and may be cached for a year.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Final, Literal

import msgspec

from ..engine.errors import refused
from .edges import BadRequest, TooLarge

#: The largest logo or sponsor image: plenty for a banner on a 1080p wall.
MOST_IMAGE: Final = 512 * 1024

#: The name an image is served under: its digest and its type's extension.
IMAGE_NAME: Final = r"[0-9a-f]{32}\.(?:png|jpg|webp)"

_TYPES: Final = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp"}


def image_kind(data: bytes) -> str:
    """The extension of an image floor shows, read from its first bytes; refused otherwise."""
    if len(data) > MOST_IMAGE:
        raise refused(
            TooLarge, "image_too_large", {"bytes": len(data), "most": MOST_IMAGE}, field="body"
        )
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<svg", b"<?xml", b"<!doctype svg")) or b"<svg" in head:
        raise refused(BadRequest, "image_svg", {}, field="body")
    raise refused(BadRequest, "image_unknown_type", {}, field="body")


def image_name(data: bytes, kind: str) -> str:
    return f"{hashlib.sha256(data).hexdigest()[:32]}.{kind}"


def media_type(kind: str) -> str:
    return _TYPES[kind]


# Named screens --------------------------------------------------------------------------------

#: A screen's name as its URL gives it (``/wall/{id}?screen=bar-left``).
SCREEN_NAME: Final = r"[a-z0-9][a-z0-9_-]{0,31}"
#: The most screens a venue names.
MOST_SCREENS: Final = 200

WallPage = Literal["tables", "moves", "prizes", "chips", "charts", "seats"]


class LayoutPage(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One page of a named screen's rotation, shown for ``seconds``."""

    page: WallPage
    seconds: Annotated[int, msgspec.Meta(ge=4, le=600)] = 18


#: A time of day on a 24-hour clock ("22:30"), the screen's own.
HourMinute = Annotated[str, msgspec.Meta(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]


class Speech(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A named screen's voice (issue 29.4, ``web/js/speak.js``): whether it speaks the
    announcements it captions (one speaking screen per area), how loud, and its quiet hours
    (from..until, across midnight when until is earlier: captions only)."""

    on: bool = False
    volume: Annotated[int, msgspec.Meta(ge=0, le=100)] = 80
    quiet_from: HourMinute | None = None
    quiet_until: HourMinute | None = None


class Layout(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What a named screen shows: its pages, in order, each for its time; and its voice
    (None: set on the screen itself)."""

    pages: Annotated[tuple[LayoutPage, ...], msgspec.Meta(min_length=1, max_length=6)]
    speech: Speech | None = None


LAYOUT_KEYS: Final = frozenset(
    {"pages", "page", "seconds", "speech", "on", "volume", "quiet_from", "quiet_until"}
)


def check_layout(layout: Layout) -> Layout:
    """A page listed twice is refused, naming the second; so are quiet hours with one end."""
    seen: set[str] = set()
    for i, p in enumerate(layout.pages):
        if p.page in seen:
            raise BadRequest(f"the page {p.page} is listed twice", field=f"pages[{i}].page")
        seen.add(p.page)
    speech = layout.speech
    if speech is not None and (speech.quiet_from is None) != (speech.quiet_until is None):
        missing = "quiet_until" if speech.quiet_until is None else "quiet_from"
        raise BadRequest(
            "quiet hours need both their start and their end", field=f"speech.{missing}"
        )
    return layout
