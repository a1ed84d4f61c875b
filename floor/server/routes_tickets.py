"""The ticket ledger over HTTP (``floor.engine.house.tickets``).

    GET  /api/tickets[?target=T&origin=S&holder=P]  the ledger, newest first (``TicketRow``s)
    POST /api/tickets/commands             {id?, command}: sell, expire, refund, transfer

Reading is the floor's and the director's (a registration desk looks tickets up); changing
the ledger is the director's. A registration pays with a ticket through the tournament's own
command (``register`` with ``ticket``), which holds the ticket in the house while it is
decided; a satellite's seats enter the ledger by its ``issue_seats`` command.
"""

from __future__ import annotations

import uuid

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine.house.decide import held_tickets
from ..engine.house.tickets import Status, Ticket
from ..engine.house.tickets_commands import SellTicket, TicketCommand
from ..errortext import field_names
from ..store.ids import check_command_id, check_tournament_id
from .context import floor_of, staff
from .edges import decode, handle_errors, json_response, read_body
from .permissions import require_director, require_floor

MAX_COMMAND = 4 * 1024
_KEYS = field_names(*TicketCommand.__args__)
#: The most rows one read returns (a festival's ledger, newest first).
MOST_ROWS = 5_000


class CommandBody(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    command: TicketCommand
    id: str | None = None


class TicketRow(msgspec.Struct, frozen=True, kw_only=True):
    """One ticket as the console lists it."""

    id: str
    target: str
    value: int
    holder: str | None
    name: str
    transferable: bool
    source: str
    origin: str
    status: Status
    held: bool
    at: float
    changed: float
    expires: float | None
    used_in: str | None
    used_by: str | None


def row(t: Ticket, held: bool) -> TicketRow:
    i = t.issue
    return TicketRow(
        id=i.id,
        target=i.target,
        value=i.value,
        holder=t.holder,
        name=t.name,
        transferable=i.transferable,
        source=i.source,
        origin=i.origin,
        status=t.status,
        held=held,
        at=t.at,
        changed=t.changed,
        expires=i.expires,
        used_in=t.used_in,
        used_by=t.used_by,
    )


@handle_errors
async def ledger(request: Request) -> Response:
    floor = floor_of(request)
    require_floor(await staff(request), "read the ticket ledger")
    target = request.query_params.get("target") or None
    origin = request.query_params.get("origin") or None
    holder = request.query_params.get("holder") or None
    for tid in (target, origin):
        if tid is not None:
            check_tournament_id(tid)
    state = await floor.house.state()
    held = held_tickets(state)
    rows = [
        row(t, t.issue.id in held)
        for t in state.tickets.tickets.values()
        if (target is None or t.issue.target == target)
        and (origin is None or t.issue.origin == origin)
        and (holder is None or t.holder == holder)
    ]
    rows.sort(key=lambda r: (-r.at, r.id))
    return json_response(
        {"tickets": rows[:MOST_ROWS], "total": len(rows)}, headers={"Cache-Control": "no-store"}
    )


@handle_errors
async def ticket_command(request: Request) -> Response:
    floor = floor_of(request)
    require_director(await staff(request), "changes the ticket ledger")
    body = decode(await read_body(request, MAX_COMMAND), CommandBody, _KEYS | {"command", "id"})
    command = body.command
    cid = check_command_id(body.id) if body.id is not None else f"ticket-{uuid.uuid4().hex}"
    if isinstance(command, SellTicket):
        await floor.store.tournament(check_tournament_id(command.target))  # 404 if none such
        if command.id is None:
            command = msgspec.structs.replace(command, id=f"sold-{uuid.uuid4().hex[:12]}")
    events = await floor.house.execute(command, cid)
    ticket = command.id if isinstance(command, SellTicket) else command.ticket
    return json_response({"ok": True, "events": len(events), "ticket": ticket})


routes: list[BaseRoute] = [
    Route("/api/tickets", ledger, methods=["GET"]),
    Route("/api/tickets/commands", ticket_command, methods=["POST"]),
]
