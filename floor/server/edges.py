"""Where errors meet HTTP: decoding bodies with a clear message, and errors to status codes.

Every error the package raises on purpose is a ``FloorError`` with a ``code``; ``STATUS`` is
the one table of the HTTP status of each code (a unit test walks every error class of the
package against it). Errors are translated only here (and in the websocket handler, which
sends the same code): a 4xx with ``{"error": {"code", "message", "field"}}`` that names the
problem.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from ..engine import commands
from ..engine.errors import FloorError, Params, refused
from ..errortext import explain, field_names
from ..store.outcome import ErrorInfo

T = TypeVar("T")

#: The HTTP status of each error code: engine refusals, the store, sign-in, requests.
STATUS: Final[dict[str, int]] = {
    "malformed": 400,
    "bad_query": 400,
    "auth": 400,
    "invalid": 422,
    "bad_id": 422,
    "bad_account": 422,
    "bad_backup": 422,
    "unknown_player": 404,
    "no_such_account": 404,
    "unknown_table": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "bad_seat": 409,
    "not_allowed": 409,
    "no_planned_move": 409,
    "refused": 409,
    "already_exists": 409,
    "id_reused": 409,
    "account_exists": 409,
    "bad_credentials": 401,
    "signed_out": 401,
    "forbidden": 403,
    "too_large": 413,
    "too_many_attempts": 429,
    "too_many_requests": 429,
    "store": 500,
    "unavailable": 503,
    "busy": 503,
}


def status_of(code: str) -> int:
    """The HTTP status of an error code; a code missing from ``STATUS`` is a bug (500)."""
    return STATUS.get(code, 500)


_encoder = msgspec.json.Encoder()
_KEYS = field_names(*commands.Command.__args__)
_COMMAND_TAGS = [str(c.__struct_config__.tag) for c in commands.Command.__args__]


#: The answer to JSON nested deeper than the decoder's stack.
TOO_DEEP = "the body is nested too deeply to be read"


class BadRequest(FloorError):
    """A request with a value that cannot be used: the wrong shape, out of range."""

    code = "invalid"


class Malformed(BadRequest):
    """A body that cannot be read: empty, not JSON, nested too deeply, cut short."""

    code = "malformed"


class BadQuery(BadRequest):
    """A query parameter a read does not take, or a value of one it cannot use (the open
    read API answers 400 naming it)."""

    code = "bad_query"


class TooLarge(BadRequest):
    code = "too_large"


class NoSuch(BadRequest):
    """A request naming what does not exist: a command type, a rule set, a rule."""

    code = "not_found"


Endpoint = Callable[[Request], Awaitable[Response]]


def handle_errors(endpoint: Endpoint) -> Endpoint:
    """Domain errors raised by ``endpoint`` answered as 4xx (and 503) with the message."""

    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except FloorError as e:
            return for_error(e)

    wrapped.__name__ = endpoint.__name__
    wrapped.__doc__ = endpoint.__doc__
    return wrapped


def search_query(request: Request, limit: int = 80) -> str:
    """The ``q`` of a search, refused when longer than a name could be."""
    query = request.query_params.get("q", "")
    if len(query) > limit:
        raise BadRequest(f"the search is longer than {limit} characters", field="q")
    return query


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        _encoder.encode(data), status_code=status, headers=headers, media_type="application/json"
    )


def error_response(
    code: str,
    message: str,
    field: str | None = None,
    headers: dict[str, str] | None = None,
    *,
    reason: str | None = None,
    params: Params | None = None,
) -> Response:
    info = ErrorInfo(
        code=code, message=message, field=field, reason=reason or code, params=params or {}
    )
    return json_response({"error": info}, status_of(code), headers)


def for_error(e: FloorError) -> Response:
    code = e.code
    headers = None
    retry_after = getattr(e, "retry_after", None)
    if retry_after is not None:
        headers = {"Retry-After": str(max(1, int(retry_after)))}
    return error_response(code, e.message, e.field, headers, reason=e.reason, params=e.params)


async def read_body(request: Request, limit: int) -> bytes:
    """The body, refusing more than ``limit`` bytes before reading them all."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the body is larger than {limit:,} bytes", field="body")
    chunks = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise TooLarge(f"the body is larger than {limit:,} bytes", field="body")
            chunks.append(chunk)
    except ClientDisconnect:
        # The client hung up before the body was complete (a phone losing the wifi, a
        # Content-Length larger than what was sent). Nobody reads the answer, but without
        # this it was an unhandled exception: a 500 and a traceback in the log each time.
        raise Malformed("the body ended before its Content-Length") from None
    return b"".join(chunks)


#: The largest whole number a request may carry: JavaScript's ``Number.MAX_SAFE_INTEGER``,
#: so that the screens show it exactly, and far enough below 2**64 that stacks grown by
#: rebuys and add-ons still fit the 64-bit integers of the msgpack snapshots.
MAX_INT = 2**53 - 1


def check_numbers(value: Any, where: str = "") -> None:
    """Refuse (422, naming the field) a number beyond ``MAX_INT`` anywhere in a decoded body.

    The types bound what they can, but not chip counts: a stack of 2**64 - 1 was accepted,
    a rebuy then made it 2**64 + 9,999, and every command that came to write the tournament's
    next snapshot failed with a 500 (msgpack holds 64 bits), until somebody set that stack
    back by hand.
    """
    if isinstance(value, msgspec.Struct):
        value = msgspec.to_builtins(value)
    if isinstance(value, bool):
        return
    if isinstance(value, int) and not -MAX_INT <= value <= MAX_INT:
        raise BadRequest(
            f"{value} is out of range: numbers up to {MAX_INT:,} are accepted",
            field=where or None,
        )
    if isinstance(value, dict):
        for k, v in value.items():
            check_numbers(v, f"{where}.{k}" if where else str(k))
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            check_numbers(v, f"{where}[{i}]")


_MISSING = re.compile(r"Object missing required field `(?P<name>[^`]+)`")


def decode(data: bytes, type_: type[T], keys: frozenset[str] = _KEYS) -> T:
    """Decode JSON into ``type_``; a clear BadRequest naming the field otherwise."""
    if not data:
        raise Malformed("the body is empty: send a JSON object")
    try:
        return msgspec.json.decode(data, type=type_)
    except RecursionError:
        # Nested deeper than the decoder goes (``[[[[...`` a thousand times, where any JSON
        # value is allowed): msgspec raises RecursionError, not a DecodeError.
        raise Malformed(TOO_DEEP) from None
    except msgspec.ValidationError as e:
        try:
            raw = msgspec.json.decode(data)
        except (msgspec.DecodeError, RecursionError):
            # Decoded again only to quote the bad value: a body nested too deeply to decode
            # untyped (the typed decoder stopped at its first level) is not quoted. Before,
            # the RecursionError escaped and the answer was a 500.
            raw = None
        field, problem = explain(str(e), raw, keys)
        if isinstance(e.__cause__, FloorError):
            # A config Struct's own check (``ConfigValueError``): its reason stands.
            raise e.__cause__.recast(BadRequest, field or None, problem) from None
        missing = _MISSING.fullmatch(problem)
        if missing:
            # The field a client must add, as a path like any other bad field's.
            name = missing["name"]
            raise refused(
                BadRequest, "required", {"name": name}, field=f"{field}.{name}" if field else name
            ) from None
        if field.endswith("type") and problem.startswith("Invalid value"):
            problem += "; the command types are " + ", ".join(sorted(_COMMAND_TAGS))
        raise BadRequest(problem, field=field or None) from None
    except msgspec.DecodeError as e:
        raise Malformed(f"the body is not valid JSON: {e}") from None
