"""The day forecaster over HTTP.

    GET  /api/t/{id}/forecast                 the current forecast, the job running (or last
                                              run), the settings, each forecast kept beside
                                              what happened (the floor and the director)
    POST /api/t/{id}/forecast                 a forecast asked: a what-if, corrections, runs
                                              (the director; 202 with the job; a new one
                                              stops the one running)
    GET  /api/t/{id}/forecast/jobs/{job}      one job (the floor and the director)
    PUT  /api/t/{id}/forecast/settings        the closing time, the dealers per table, the
                                              wall's line shown or not (the director)
    GET  /api/t/{id}/forecast/wall            the wall's line when shown (anybody: the wall)
    GET  /api/t/{id}/export/forecasts.csv     each forecast kept beside what happened

A public edge serves the wall's line only (``public_edge``); the forecasts are played by the
staff processes' workers (``forecasts``).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TypeVar

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..exports.cells import Cell, csv_bytes
from ..forecast.model import Settings
from ..forecast.truth import Moment
from .context import floor_of, staff, tid_of
from .edges import (
    BadRequest,
    NoSuch,
    check_numbers,
    decode,
    handle_errors,
    json_response,
    read_body,
)
from .forecasts import Ask
from .permissions import require_director, require_floor

#: A forecast's ask: a what-if and a few corrections.
MAX_ASK = 4096
_JOB_ID = re.compile(r"[0-9a-f]{32}")
_NO_STORE = {"Cache-Control": "no-store"}
T = TypeVar("T")


def _named(data: bytes, type_: type[T]) -> T:
    """``decode``, its refusal's message saying the field too ("what_if.level_minutes:
    Expected float > 0.0, got 0"): the console's form shows it beside the field."""
    try:
        return decode(data, type_)
    except BadRequest as e:
        if e.field and not e.message.startswith(e.field):
            raise type(e)(f"{e.field}: {e.message}", field=e.field) from None
        raise


async def _reader(request: Request) -> None:
    principal, _ = await floor_of(request).principal(request)
    require_floor(principal, "read the forecasts")


@handle_errors
async def get_forecast(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    await _reader(request)
    await floor.store.tournament(tid)  # a tournament that is not there: 404
    return json_response(await floor.forecasts.view(tid), headers=_NO_STORE)


@handle_errors
async def post_forecast(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    require_director(await staff(request), "asks for forecasts")
    ask = _named(await read_body(request, MAX_ASK), Ask)
    check_numbers(ask, "")
    job = await floor.forecasts.request(tid, ask, "director")
    return json_response(job, status=202, headers=_NO_STORE)


@handle_errors
async def get_job(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    await _reader(request)
    job_id = request.path_params["job"]
    if not _JOB_ID.fullmatch(job_id):
        raise BadRequest("job is a forecast job's id (32 hexadecimal digits)", field="job")
    job = await floor.forecasts.job(tid, job_id)
    if job is None:
        raise NoSuch(f"there is no forecast job {job_id} (jobs are kept 6 hours)", field="job")
    return json_response(job, headers=_NO_STORE)


@handle_errors
async def put_settings(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    require_director(await staff(request), "sets the forecast's settings")
    settings = _named(await read_body(request, MAX_ASK), Settings)
    await floor.store.tournament(tid)
    return json_response(await floor.forecasts.set_settings(tid, settings), headers=_NO_STORE)


@handle_errors
async def get_wall(request: Request) -> Response:
    floor = floor_of(request)
    tid = tid_of(request)
    return json_response(await floor.forecasts.wall(tid), headers=_NO_STORE)


def _time(at: float | None) -> str:
    if at is None:
        return ""
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="minutes")


def _count(at: float | None) -> str:
    return "" if at is None else str(round(at))


@handle_errors
async def get_csv(request: Request) -> Response:
    """Each forecast kept (one per level) beside what happened: times in the server's zone."""
    floor = floor_of(request)
    tid = tid_of(request)
    await _reader(request)
    await floor.store.tournament(tid)
    view = await floor.forecasts.view(tid)
    moments = ("money", "final_table", "day_end", "players_at_end", "entries_added")
    head = ["level", "on_break", "made_at", "players_left"]
    for name in moments:
        head += [f"{name}_{x}" for x in ("p10", "p50", "p90", "actual", "inside")]
    rows: list[list[Cell]] = []
    for row in view.checked:
        line: list[Cell] = [row.level, "yes" if row.on_break else "no", _time(row.made_at)]
        line.append(row.players_left)
        for name in moments:
            moment: Moment = getattr(row, name)
            shown = _count if name in ("players_at_end", "entries_added") else _time
            inside = "" if moment.inside is None else "yes" if moment.inside else "no"
            line += [shown(x) for x in (moment.p10, moment.p50, moment.p90, moment.actual)]
            line.append(inside)
        rows.append(line)
    # Through the writer every export uses (``exports.cells``): no cell a spreadsheet runs.
    return Response(
        csv_bytes(head, rows),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{tid}-forecasts.csv"',
            "Cache-Control": "no-store",
        },
    )


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/forecast", get_forecast, methods=["GET"]),
    Route("/api/t/{tid}/forecast", post_forecast, methods=["POST"]),
    Route("/api/t/{tid}/forecast/jobs/{job}", get_job, methods=["GET"]),
    Route("/api/t/{tid}/forecast/settings", put_settings, methods=["PUT"]),
    Route("/api/t/{tid}/forecast/wall", get_wall, methods=["GET"]),
    Route("/api/t/{tid}/export/forecasts.csv", get_csv, methods=["GET"]),
]
