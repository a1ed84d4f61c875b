"""Where errors meet HTTP: decoding bodies with a clear message, and errors to status codes.

Domain errors are translated only here (and in the websocket handler, which uses the same
mapping): a 4xx with ``{"error": {"code", "message", "field"}}`` that names the problem.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ..engine import commands
from ..engine.errors import FloorError
from ..errortext import explain, field_names
from ..store.store import ErrorInfo

T = TypeVar("T")

#: HTTP status for each error code (engine refusals, store, auth).
STATUS = {
    "malformed": 400,
    "invalid": 422,
    "bad_id": 422,
    "bad_account": 422,
    "unknown_player": 404,
    "no_such_account": 404,
    "unknown_table": 404,
    "not_found": 404,
    "bad_seat": 409,
    "not_allowed": 409,
    "no_planned_move": 409,
    "refused": 409,
    "already_exists": 409,
    "account_exists": 409,
    "bad_credentials": 401,
    "signed_out": 401,
    "forbidden": 403,
    "too_large": 413,
    "too_many_attempts": 429,
    "unavailable": 503,
    "busy": 503,
}

_encoder = msgspec.json.Encoder()
_KEYS = field_names(*commands.Command.__args__)
_COMMAND_TAGS = [str(c.__struct_config__.tag) for c in commands.Command.__args__]


class BadRequest(FloorError):
    """A body that cannot be read: not JSON, the wrong shape, too large."""

    def __init__(self, message: str, *, code: str, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.code = code


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        _encoder.encode(data), status_code=status, headers=headers, media_type="application/json"
    )


def error_response(
    code: str, message: str, field: str | None = None, headers: dict[str, str] | None = None
) -> Response:
    body = {"error": ErrorInfo(code=code, message=message, field=field)}
    return json_response(body, STATUS.get(code, 400), headers)


def for_error(e: FloorError) -> Response:
    code = getattr(e, "code", "refused")
    headers = None
    retry_after = getattr(e, "retry_after", None)
    if retry_after is not None:
        headers = {"Retry-After": str(max(1, int(retry_after)))}
    return error_response(code, e.message, e.field, headers)


async def read_body(request: Request, limit: int) -> bytes:
    """The body, refusing more than ``limit`` bytes before reading them all."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BadRequest(f"the body is larger than {limit} bytes", code="too_large")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(f"the body is larger than {limit} bytes", code="too_large")
        chunks.append(chunk)
    return b"".join(chunks)


def decode(data: bytes, type_: type[T], keys: frozenset[str] = _KEYS) -> T:
    """Decode JSON into ``type_``; a clear BadRequest naming the field otherwise."""
    if not data:
        raise BadRequest("the body is empty: send a JSON object", code="malformed")
    try:
        return msgspec.json.decode(data, type=type_)
    except msgspec.ValidationError as e:
        try:
            raw = msgspec.json.decode(data)
        except msgspec.DecodeError:
            raw = None
        field, problem = explain(str(e), raw, keys)
        if field.endswith("type") and problem.startswith("Invalid value"):
            problem += "; the command types are " + ", ".join(sorted(_COMMAND_TAGS))
        raise BadRequest(problem, code="invalid", field=field or None) from None
    except msgspec.DecodeError as e:
        raise BadRequest(f"the body is not valid JSON: {e}", code="malformed") from None
