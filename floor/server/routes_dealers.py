"""The dealer room over HTTP: its screen's view and commands, its dealers' accounts, the
downs sheet (JSON, CSV, printable), what a table screen and a dealer's phone show.

    GET  /api/dealers                      the dealer room's screen (``RoomView``)
    POST /api/dealers/commands             {id?, command}: a dealer room command
    POST /api/dealers/people               {username, name, games, pin?}: a dealer added
    PUT  /api/dealers/people/{username}/pin {pin}: a dealer's new PIN
    GET  /api/dealers/downs[?period=D]     the pay period's downs (``downs.Sheet``)
    GET  /api/dealers/downs.csv[?period=D&kind=rows|totals]
    GET  /api/dealers/table[?tournament=T&table=N]   who deals there, the next push
    POST /api/dealers/phone/code           a dealer on a table screen: their phone's code
    POST /api/dealers/phone                {code}: the phone signs in as that dealer
    GET  /api/dealers/me                   the dealer's own next push (their phone)

The dealer room is the director's and the coordinator's (``permissions.require_room``); a
table screen reads its own table alone; a dealer's phone reads its dealer alone.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Literal

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine.errors import BadValue
from ..engine.house.dealers import DealerName, Games
from ..engine.house.dealers_commands import (
    RoomCommand,
    SaveDealer,
    SetSettings,
    SignIn,
    SignOut,
    TableNumber,
)
from ..engine.house.downs import Sheet
from ..errortext import field_names
from ..exports.cells import csv_bytes
from ..store.ids import check_command_id, check_tournament_id
from .accounts import check_username
from .context import floor_of, staff
from .dealer_room import check_settings, zone_of
from .edges import decode, handle_errors, json_response, read_body
from .permissions import require_room
from .principal import BadAccount, Forbidden, NoSuchAccount, Principal
from .routes_staff import MAX_BODY, client_of, with_session_cookie

#: A command body is small; settings with a long priority list the largest.
MAX_COMMAND = 64 * 1024
_KEYS = field_names(*RoomCommand.__args__)


class CommandBody(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    command: RoomCommand
    id: str | None = None


class NewDealer(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    username: str
    name: DealerName
    games: Games = ("holdem",)
    #: The PIN of a new account (4-8 digits); none for an account that exists.
    pin: str | None = None


class NewPin(msgspec.Struct, forbid_unknown_fields=True):
    pin: str


class PhoneCode(msgspec.Struct, forbid_unknown_fields=True):
    code: str


class TableQuery(msgspec.Struct, kw_only=True):
    tournament: str
    table: TableNumber


# The dealer room ---------------------------------------------------------------------------


@handle_errors
async def room_view(request: Request) -> Response:
    floor = floor_of(request)
    require_room(await staff(request))
    return Response(
        await floor.dealers.view(),
        media_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


@handle_errors
async def room_command(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    require_room(principal)
    body = decode(await read_body(request, MAX_COMMAND), CommandBody, _KEYS | {"command", "id"})
    command = body.command
    if isinstance(command, SetSettings):
        check_settings(command.settings)
    cid = check_command_id(body.id) if body.id is not None else f"room-{uuid.uuid4().hex}"
    events = await floor.dealers.execute(command, cid)
    return json_response({"ok": True, "events": len(events)})


@handle_errors
async def add_dealer(request: Request) -> Response:
    """A dealer for the room: their account (a PIN, for table screens alone) if it is new,
    and their name and games in the house."""
    floor = floor_of(request)
    require_room(await staff(request))
    body = decode(
        await read_body(request, MAX_BODY), NewDealer, frozenset({"username", "name", "games"})
    )
    name = check_username(body.username)
    account = await floor.accounts.get(name)
    if account is None:
        if body.pin is None:
            raise BadAccount("a new dealer needs a PIN of 4 to 8 digits", field="pin")
        account = await floor.accounts.add(name, body.pin, "dealer", pin=True)
    elif account.role != "dealer":
        raise BadAccount(f"{name} is a {account.role} account, not a dealer's", field="username")
    save = SaveDealer(dealer=name, name=body.name, games=body.games)
    await floor.dealers.execute(save, f"room-dealer-{uuid.uuid4().hex}")
    return json_response({"ok": True, "dealer": name}, 201)


@handle_errors
async def new_pin(request: Request) -> Response:
    """A dealer's new PIN (the dealer room's): their sessions end, their screens sign out."""
    floor = floor_of(request)
    require_room(await staff(request))
    body = decode(await read_body(request, MAX_BODY), NewPin, frozenset({"pin"}))
    name = check_username(request.path_params["username"])
    account = await floor.accounts.get(name)
    if account is None or account.role != "dealer":
        raise NoSuchAccount(f"there is no dealer {name}", field="username")
    await floor.accounts.set_secret(name, body.pin, pin=True)
    return json_response({"ok": True})


# Downs -------------------------------------------------------------------------------------


def _period(request: Request) -> date | None:
    asked = request.query_params.get("period")
    if asked is None or asked == "":
        return None
    try:
        return date.fromisoformat(asked)
    except ValueError:
        raise BadValue(f"period: {asked[:40]!r} is no date (YYYY-MM-DD)", field="period") from None


async def _sheet(request: Request) -> Sheet:
    floor = floor_of(request)
    require_room(await staff(request))
    return await floor.dealers.sheet(_period(request))


@handle_errors
async def downs(request: Request) -> Response:
    return json_response(await _sheet(request), headers={"Cache-Control": "no-store"})


Kind = Literal["rows", "totals"]


@handle_errors
async def downs_csv(request: Request) -> Response:
    """The pay period's downs as a spreadsheet: every down (``kind=rows``) or each
    dealer's totals (``kind=totals``); every cell neutralised (``exports.cells``)."""
    kind = request.query_params.get("kind", "rows")
    if kind not in ("rows", "totals"):
        raise BadValue("kind is rows or totals", field="kind")
    sheet = await _sheet(request)
    room = await floor_of(request).dealers.room()
    zone = zone_of(room.settings.zone)

    def local(at: float | None) -> str | None:
        return (
            None if at is None else datetime.fromtimestamp(at, zone).strftime("%Y-%m-%d %H:%M:%S")
        )

    if kind == "rows":
        header = ["dealer", "name", "pay day", "tournament", "table", "start", "end", "minutes"]
        rows = [
            [
                r.dealer,
                r.name,
                r.day,
                r.tournament,
                r.table,
                local(r.start),
                local(r.end),
                None if r.seconds is None else round(r.seconds / 60, 2),
            ]
            for r in sheet.rows
        ]
    else:
        header = ["dealer", "name", "period from", "period to", "downs", "minutes", "open"]
        rows = [
            [t.dealer, t.name, sheet.first, sheet.last, t.downs, round(t.seconds / 60, 2), t.open]
            for t in sheet.totals
        ]
    name = f"dealer-downs-{kind}-{sheet.first}.csv"
    return Response(
        csv_bytes(header, rows),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


# A table screen and a dealer's phone ----------------------------------------------------------


def _own_table(principal: Principal, request: Request) -> tuple[str, int]:
    """The table a request may read: a table screen's own; any, named, for the staff."""
    if principal.at_table and principal.tournament is not None and principal.table is not None:
        return principal.tournament, principal.table
    if principal.role not in ("director", "floor", "coordinator"):
        raise Forbidden("a table screen reads its own table's dealers; sign in as staff")
    try:
        query = msgspec.convert(dict(request.query_params), TableQuery, strict=False)
    except msgspec.ValidationError as e:
        raise BadValue(f"name the table: {e}", field="table") from None
    return check_tournament_id(query.tournament), query.table


@handle_errors
async def table_dealers(request: Request) -> Response:
    floor = floor_of(request)
    tid, number = _own_table(await staff(request), request)
    return json_response(
        await floor.dealers.at_table(tid, number), headers={"Cache-Control": "no-store"}
    )


@handle_errors
async def phone_code(request: Request) -> Response:
    """A dealer signed in on a table screen: a one-time code for their own phone."""
    floor = floor_of(request)
    code = await floor.phones.issue(await staff(request))
    return json_response(code, 201)


@handle_errors
async def phone_sign_in(request: Request) -> Response:
    """The phone's code typed: the phone is the dealer's (their rotation, nothing else)."""
    floor = floor_of(request)
    floor.check_origin(request)
    body = decode(await read_body(request, MAX_BODY), PhoneCode, frozenset({"code"}))
    session = await floor.phones.redeem(body.code, client_of(request))
    return with_session_cookie(request, json_response(session), session)


@handle_errors
async def own_dealer(request: Request) -> Response:
    floor = floor_of(request)
    principal = await staff(request)
    if principal.role not in ("dealer_phone", "dealer") or principal.username is None:
        raise Forbidden("a dealer's phone reads its dealer's rotation: sign it in with a code")
    own = await floor.dealers.own(principal.username)
    if own is None:
        raise NoSuchAccount(
            f"{principal.username} is not in the dealer room yet: ask the dealer room",
            field="dealer",
        )
    return json_response(own, headers={"Cache-Control": "no-store"})


# Hooks of the table screens' sign-in (``routes_pairing``) -------------------------------------


async def signed_in(request: Request, principal: Principal) -> None:
    """A dealer signed in on a table screen: their down there starts."""
    if principal.username is None or principal.tournament is None or principal.table is None:
        return
    command = SignIn(
        dealer=principal.username, tournament=principal.tournament, table=principal.table
    )
    await floor_of(request).dealers.execute(command, f"room-in-{uuid.uuid4().hex}")


async def signed_out(request: Request, screen: Principal) -> None:
    """The dealer on a table screen signed out: their down there ends."""
    if screen.tournament is None or screen.table is None:
        return
    command = SignOut(tournament=screen.tournament, table=screen.table)
    await floor_of(request).dealers.execute(command, f"room-out-{uuid.uuid4().hex}")


routes: list[BaseRoute] = [
    Route("/api/dealers", room_view, methods=["GET"]),
    Route("/api/dealers/commands", room_command, methods=["POST"]),
    Route("/api/dealers/people", add_dealer, methods=["POST"]),
    Route("/api/dealers/people/{username}/pin", new_pin, methods=["PUT"]),
    Route("/api/dealers/downs", downs, methods=["GET"]),
    Route("/api/dealers/downs.csv", downs_csv, methods=["GET"]),
    Route("/api/dealers/table", table_dealers, methods=["GET"]),
    Route("/api/dealers/phone/code", phone_code, methods=["POST"]),
    Route("/api/dealers/phone", phone_sign_in, methods=["POST"]),
    Route("/api/dealers/me", own_dealer, methods=["GET"]),
]
