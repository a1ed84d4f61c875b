"""What the open read API (``routes_open``) answers with: a document's bytes, gzipped
bytes and ETag, kept per version, and the bounds its queries take (also in its OpenAPI
document, ``open_api``)."""

from __future__ import annotations

import gzip
import hashlib
from importlib import metadata
from typing import Final

import msgspec

PREFIX: Final = "/api/open/v1"
#: The most events one read of the feed goes through; a reader pages with ``since=to``.
MAX_CHANGES: Final = 500
DEFAULT_CHANGES: Final = 100
#: The largest table number a query may name.
MAX_TABLE: Final = 10_000
#: The most leaders a counts read may ask for by ``top`` (the widget asks for a few).
MAX_TOP: Final = 100
#: Answers smaller than this are sent as they are: gzip would save nothing worth its cost.
GZIP_FROM: Final = 1024
#: The site named in an Open Tournament Summary.
SITE: Final = "floor"


def floor_version() -> str:
    """The installed floor's version (the package may not import the top package: layers)."""
    try:
        return metadata.version("floor")
    except metadata.PackageNotFoundError:
        return "unknown"


class Built(msgspec.Struct, frozen=True):
    """A document's bytes, gzipped bytes (None: small) and ETag, kept per version."""

    body: bytes
    gzipped: bytes | None
    etag: str


def built(body: bytes) -> Built:
    tag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    packed = gzip.compress(body, 6, mtime=0) if len(body) >= GZIP_FROM else None
    return Built(body, packed, tag)
