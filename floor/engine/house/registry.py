"""The player registry: returning players found at any desk of any tournament of the house.

A record holds the name a player plays under, the language of their screens and
announcements, and when they consented to be kept (no consent, no record). The player may
read their record (``GET /api/desk/registry/{id}``) and have it erased; erasure must be real,
so the records live in keys of the house's slot beside its log, never in the log itself
(``floor.redisdb.desk``): a log cannot forget. The registry's id is the player's id in every
tournament they enter, so a re-entry and a later flight know them.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from ..rulebook import fold

Language = Literal["en", "cs", "de", "pl", "es", "pt-BR", "fr", "it"]
LANGUAGES: Final[tuple[Language, ...]] = ("en", "cs", "de", "pl", "es", "pt-BR", "fr", "it")
#: A registry id: "R" and ten letters or digits (the desk makes them from a command id).
RegistryId = Annotated[str, Meta(pattern=r"^R[0-9A-F]{10}$")]
#: Found players, at most, for one search.
MOST_FOUND: Final = 12


class Record(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    language: Language
    #: When the player agreed to be kept in the registry (seconds).
    consent_at: float
    created_at: float
    #: Who took the consent (a desk account).
    consent_by: str


def registry_id(command_id: str) -> str:
    """The id of a player a desk command adds: the same for a retried command."""
    return "R" + hashlib.sha256(command_id.encode()).hexdigest()[:10].upper()


def search_key(name: str) -> str:
    """A name as searched: folded (no case, no diacritics), words in their order."""
    return " ".join(fold(name).split())


def index_keys(name: str) -> list[str]:
    """The keys a name is found under: from each of its words on ("jan novak", "novak"),
    so that the start of the given name or of the surname finds it."""
    words = search_key(name).split()
    return [" ".join(words[i:]) for i in range(len(words))]
