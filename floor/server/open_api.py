"""The OpenAPI 3.1 document of the open read API (``GET /api/open/v1/openapi.json``).

The schemas are read off the engine's documents (``engine.open_read``) by msgspec, so that
the description cannot drift from what the routes send; ``tests/unit/test_open_api.py``
validates the document and checks that it lists every route of ``routes_open``.
"""

from __future__ import annotations

import functools
from typing import Any, Final

import msgspec

from .. import signing
from ..engine import chain
from ..engine.read import open_draws, open_read
from .open_answer import (
    DEFAULT_CHANGES,
    MAX_CHANGES,
    MAX_TABLE,
    MAX_TOP,
    PREFIX,
    Built,
    built,
    floor_version,
)

_DOCS: Final = {
    "OpenClock": open_read.OpenClock,
    "OpenField": open_read.OpenField,
    "OpenSeats": open_read.OpenSeats,
    "OpenCounts": open_read.OpenCounts,
    "OpenResults": open_read.OpenResults,
    "OpenPayouts": open_read.OpenPayouts,
    "OpenChanges": open_read.OpenChanges,
    "ChainHead": chain.ChainHead,
    "OpenDraws": open_draws.OpenDraws,
    "KeyList": signing.KeyList,
}

_TID = {
    "name": "tid",
    "in": "path",
    "required": True,
    "description": "The tournament's id.",
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
}
_TABLE = {
    "name": "table",
    "in": "query",
    "required": False,
    "description": "Only this table.",
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_TABLE},
}
_TOP = {
    "name": "top",
    "in": "query",
    "required": False,
    "description": "Only the biggest stacks, this many (the leaders).",
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_TOP},
}
_SINCE = {
    "name": "since",
    "in": "query",
    "required": True,
    "description": "The sequence number to read after (0: from the start; then the answer's `to`).",
    "schema": {"type": "integer", "minimum": 0},
}
_LIMIT = {
    "name": "limit",
    "in": "query",
    "required": False,
    "description": f"The most events read (default {DEFAULT_CHANGES}).",
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_CHANGES},
}
_PLAYER = {
    "name": "player",
    "in": "query",
    "required": False,
    "description": "A player's id: the draw that gave their seat, and its seed revealed.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 64},
}
_IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The ETag of the answer the reader holds: 304 while it is still the answer.",
    "schema": {"type": "string"},
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _read(
    summary: str, schema: dict[str, Any], *params: dict[str, Any], tournament: bool = True
) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {
            "description": summary,
            "headers": {
                "ETag": {"schema": {"type": "string"}, "description": "The answer's tag."},
                "Floor-Seq": {
                    "schema": {"type": "integer"},
                    "description": "The tournament's sequence number the answer was built at.",
                },
            },
            "content": {"application/json": {"schema": schema}},
        },
        "304": {"description": "Not modified: the ETag sent is still the answer's."},
        "400": {
            "description": "A query parameter not taken, or a value not usable (named).",
            "content": {"application/json": {"schema": _ref("Error")}},
        },
        "429": {"description": "Too many requests from this address: wait and ask again."},
    }
    if tournament:
        responses["404"] = {
            "description": "No such tournament.",
            "content": {"application/json": {"schema": _ref("Error")}},
        }
    return {
        "get": {
            "summary": summary,
            "parameters": [*([_TID] if tournament else []), *params, _IF_NONE_MATCH],
            "responses": responses,
        }
    }


def build() -> dict[str, Any]:
    (_, components) = msgspec.json.schema_components(
        list(_DOCS.values()), ref_template="#/components/schemas/{name}"
    )
    components["Error"] = {
        "type": "object",
        "properties": {
            "error": {
                "type": "object",
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "field": {"type": ["string", "null"]},
                },
                "required": ["code", "message"],
            }
        },
        "required": ["error"],
    }
    components["SignedResults"] = {
        "type": "object",
        "description": "document: the results (format floor-results), signed as written; "
        "signature: the venue's Ed25519 signature of the document's bytes.",
        "properties": {
            "document": {"type": "object"},
            "signature": {
                "type": "object",
                "properties": {
                    "alg": {"type": "string", "const": "ed25519"},
                    "key_id": {"type": "string"},
                    "signed": {"type": "string"},
                    "value": {"type": "string"},
                },
                "required": ["alg", "key_id", "signed", "value"],
            },
        },
        "required": ["document", "signature"],
    }
    components["Tournaments"] = {
        "type": "object",
        "properties": {
            "tournaments": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "created_at": {"type": "number"},
                        "status": {"type": "string"},
                    },
                    "required": ["id", "name", "created_at", "status"],
                },
            }
        },
        "required": ["tournaments"],
    }
    components["OpenTournamentSummary"] = {
        "type": "object",
        "description": "The results as an Open Tournament Summary (spec version "
        f"{open_read.OTS_VERSION}): every player who entered, finished or still playing.",
        "properties": {"ots": {"type": "object"}},
        "required": ["ots"],
    }
    t = f"{PREFIX}/t/{{tid}}"
    paths = {
        f"{PREFIX}/openapi.json": _read("This document.", {"type": "object"}, tournament=False),
        f"{PREFIX}/tournaments": _read(
            "The tournaments listed (archived ones are not).", _ref("Tournaments"), tournament=False
        ),
        f"{t}/clock": _read("The clock: the step, the blinds, when it ends.", _ref("OpenClock")),
        f"{t}/field": _read(
            "The field: players left, entries, chips, the pool.", _ref("OpenField")
        ),
        f"{t}/seats": _read(
            "Where every player still in sits, and the moves called.", _ref("OpenSeats"), _TABLE
        ),
        f"{t}/counts": _read(
            "The counted stacks, biggest first, with when each was counted.",
            _ref("OpenCounts"),
            _TABLE,
            _TOP,
        ),
        f"{t}/results": _read(
            "The bust-outs with places and prizes, best place first.", _ref("OpenResults")
        ),
        f"{t}/payouts": _read("The prize pool and every paid place.", _ref("OpenPayouts")),
        f"{t}/changes": _read(
            "What changed in public terms after a sequence number, a page at a time.",
            _ref("OpenChanges"),
            _SINCE,
            _LIMIT,
        ),
        f"{t}/ots.json": _read(
            "The results as an Open Tournament Summary.", _ref("OpenTournamentSummary")
        ),
        f"{t}/chain": _read(
            "The head of the tournament's hash chain over its log (docs/chain-spec.md) and "
            "the event it follows: note it, and a log changed later no longer leads to it.",
            _ref("ChainHead"),
        ),
        f"{t}/draws": _read(
            "The tournament's committed draws (docs/draw-spec.md): the head of its seed chain, "
            "committed before registration opened, and the draws made; with a player, the "
            "draw that gave their seat and its seed, which hashes back to the head.",
            _ref("OpenDraws"),
            _PLAYER,
        ),
        f"{t}/results/signed": _read(
            "The results and the payout table signed by the venue (Ed25519; the keys at "
            "/.well-known/floor-keys.json): check it offline with floor verify. 404 where the "
            "venue has no signing key.",
            _ref("SignedResults"),
        ),
        "/.well-known/floor-keys.json": _read(
            "The venue's signing keys: the public halves, their ids, the revoked ones (outside "
            "the versioned API). 404 where the venue has none.",
            _ref("KeyList"),
            tournament=False,
        ),
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "floor: the open read API",
            "version": f"{open_read.VERSION}.0 (floor {floor_version()})",
            "description": "Public, read-only documents of a live poker tournament. Every "
            "answer carries an ETag (send it back in If-None-Match: 304 while unchanged), is "
            "gzipped when asked, and is rate limited per address. See docs/open-api.md.",
        },
        "paths": paths,
        "components": {"schemas": components},
    }


@functools.cache
def document() -> Built:
    return built(msgspec.json.encode(build()))
