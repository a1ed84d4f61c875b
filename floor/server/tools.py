"""Floor tools beyond seating (prize pool and results, chip race, pots, the rulebook).

Reads and calculators only: what changes a tournament (rebuys, add-ons, chip races, time
calls, bust-outs in the same hand) goes through the command API like every other command.

    GET  /api/t/{id}/prizes         the prize pool, the payout table and the results
    GET  /api/t/{id}/results.csv    the results as a spreadsheet
    POST /api/pots                  the pot calculator (no tournament needed)
    GET  /api/rulebook              the rule set in force, searched (?set=&q=&lang=)
    GET  /api/rulebook/{rule}       one rule (?set=)

Everybody may read these: the results and the rules are public, and the pot calculator
changes nothing.
"""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import Callable
from typing import Final, get_args

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .. import config as configs
from ..engine.calc.pots import Award, Contribution, Pot, PotInput, split_pot
from ..engine.errors import ConfigError, FloorError, RuleError, refused, seat_not_exist
from ..engine.prize import PrizePool
from ..engine.read.views import Finish, prize_pool, results
from ..engine.reasons import RULE_IDS
from ..engine.rulebook import Book, Rule, search
from ..engine.rules import SeatCount
from ..engine.state import Tournament
from ..errortext import field_names
from ..exports.results import results_csv
from ..store.ids import check_tournament_id
from .answers import answer, answer_off_loop
from .context import floor_of
from .edges import (
    BadRequest,
    NoSuch,
    check_numbers,
    decode,
    handle_errors,
    json_response,
    read_body,
    search_query,
)
from .languages import shipped
from .routes_pages import WEB
from .routes_tournaments import accepts_gzip
from .rule_titles import title_in

#: The pot calculator's body is small: a dozen seats at most.
MAX_POT_BODY: Final = 16 * 1024


def _most_seats() -> int:
    """The most seats a table may have (``rules.SeatCount``)."""
    return next(
        m.le for m in get_args(SeatCount)[1:] if isinstance(m, Meta) and isinstance(m.le, int)
    )


#: The most seats a hand is played by: the largest table the rules allow. 370 seats fit in
#: the body, and their split cost 139 ms and 330 KB for anyone who asked.
MOST_SEATS: Final = _most_seats()
_POT_KEYS: Final = field_names(PotInput, Contribution)
#: The rule set the rulebook opens with when none is named.
DEFAULT_SET: Final = "tda-2024"


async def _tournament(request: Request) -> tuple[Tournament, int]:
    tid = check_tournament_id(request.path_params["tid"])
    return await floor_of(request).store.tournament(tid)


def _answer(
    request: Request, kind: str, t: Tournament, version: int, build: Callable[[], bytes]
) -> bytes:
    """``build()`` once per tournament and version (``answers``): at 10,000 players the
    results took 6-9 ms to build, for anyone who asked. Call it before the next ``await``."""
    return answer(floor_of(request).metrics, kind, t.state.id, version, build)


# The prize pool and results ------------------------------------------------------------------


class Prizes(msgspec.Struct, frozen=True, kw_only=True):
    """``GET /api/t/{id}/prizes``: the pool as it stands and who finished where."""

    tournament: str
    #: None when the tournament tracks no money (no prize settings).
    pool: PrizePool | None
    results: list[Finish]
    #: The rule the prize pool follows, for a link to the rulebook.
    rule: str = RULE_IDS["prize_pool"]


_encode = msgspec.json.Encoder().encode


@handle_errors
async def get_prizes(request: Request) -> Response:
    t, version = await _tournament(request)

    def build() -> bytes:
        pool = prize_pool(t)
        return _encode(Prizes(tournament=t.state.id, pool=pool, results=results(t, pool)))

    body = _answer(request, "prizes", t, version, build)
    return Response(body, media_type="application/json")


@handle_errors
async def get_results_csv(request: Request) -> Response:
    """The results, best place first: a row per player, a shared place on each of its rows."""
    t, version = await _tournament(request)
    return Response(
        _answer(request, "results.csv", t, version, lambda: _results_csv(t)),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{t.state.id}-results.csv"'},
    )


def _results_csv(t: Tournament) -> bytes:
    """The results file of the console's exports (``floor.exports.results``): place, name,
    id, country, entries, the bust-out's time, level and table, the prize."""
    return results_csv(t)


# The pot calculator ----------------------------------------------------------------------------


class PotAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """``POST /api/pots``: every pot in the order a dealer splits them, and the totals."""

    pots: tuple[Pot, ...]
    totals: tuple[Award, ...]
    #: The rules the split follows, for links to the rulebook.
    rules: tuple[str, ...] = (RULE_IDS["side_pots"], RULE_IDS["odd_chip"])


@handle_errors
async def post_pots(request: Request) -> Response:
    """Main and side pots from each player's contribution and the showdown (FLOOR-RULES 9)."""
    body = await read_body(request, MAX_POT_BODY)
    pot = decode(body, PotInput, _POT_KEYS)
    check_numbers(pot)
    _check_seats(pot)
    try:
        result = split_pot(pot)
    except RuleError as e:
        # Input that does not describe a hand: the request is wrong, not the rules refusing.
        raise e.recast(BadRequest, e.field) from None
    return json_response(PotAnswer(pots=result.pots, totals=result.totals))


def _check_seats(pot: PotInput) -> None:
    """No more seats than a table has, each one a seat a table can have: checked before the
    split, whose cost grows with the seats."""
    seats = len(pot.contributions)
    if seats > MOST_SEATS:
        raise refused(
            BadRequest,
            "pot_too_many_seats",
            {"seats": seats, "most": MOST_SEATS},
            field="contributions",
        )
    for i, c in enumerate(pot.contributions):
        if c.seat > MOST_SEATS:
            raise seat_not_exist(c.seat, f"contributions[{i}].seat").recast(
                BadRequest, f"contributions[{i}].seat"
            )


# The rulebook ----------------------------------------------------------------------------------


class RuleOut(Rule, frozen=True, kw_only=True):
    """A rule as a screen shows it: ``title``, ``text`` and what it was and was not checked
    against in the language asked for, beside both languages."""

    title: str
    text: str
    checked: str
    unchecked: str


class RulebookAnswer(msgspec.Struct, frozen=True, kw_only=True):
    set: str
    title: str
    based_on: tuple[str, ...]
    lang: str
    query: str
    count: int
    rules: list[RuleOut]
    #: What the engine explains, and the rule each links to ("balance": "balancing").
    links: dict[str, str]


def _rule_out(rule: Rule, lang: str) -> RuleOut:
    czech = lang == "cs"
    # Beyond English and Czech, a rule's title in the reader's language above its English text.
    title = rule.title_en if lang == "en" else title_in(lang, rule.title_en)
    return RuleOut(
        **msgspec.structs.asdict(rule),
        title=rule.title_cs if czech else title,
        text=rule.text_cs if czech else rule.text_en,
        checked=rule.checked_cs if czech else rule.checked_en,
        unchecked=rule.unchecked_cs if czech else rule.unchecked_en,
    )


class RulebookUnreadable(FloorError):
    """A shipped rule set that cannot be read: the server's fault, not the request's."""

    code = "unavailable"


async def _book(request: Request) -> Book:
    name = request.query_params.get("set", DEFAULT_SET)
    known = configs.rulebooks()
    if name not in known:
        raise NoSuch(
            f"there is no rule set {name!r}; known: {', '.join(sorted(known))}", field="set"
        )
    try:
        # Off the loop: a book's first read (and each change of its file) builds its index.
        return await asyncio.to_thread(configs.load_rulebook, name)
    except ConfigError as e:
        raise RulebookUnreadable(f"the rule set cannot be read: {e}") from None


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    if lang in shipped(WEB):
        return lang
    raise BadRequest(f"lang is one of {', '.join(shipped(WEB))}", field="lang")


def _rulebook_answer(book: Book, lang: str, query: str) -> RulebookAnswer:
    found = search(book, query)
    return RulebookAnswer(
        set=book.name,
        title=book.title,
        based_on=book.based_on,
        lang=lang,
        query=query,
        count=len(found),
        rules=[_rule_out(r, lang) for r in found],
        links={str(k): v for k, v in RULE_IDS.items()},
    )


#: The whole book as a phone keeps it (every rule with its words: 400 KB for TDA 2024, 85 KB
#: gzipped), encoded and gzipped once per book read and language.
_WHOLE: dict[tuple[str, str], tuple[Book, bytes, bytes]] = {}


def _whole_book(book: Book, lang: str) -> tuple[bytes, bytes]:
    data = msgspec.json.encode(_rulebook_answer(book, lang, ""))
    return data, gzip.compress(data, compresslevel=6, mtime=0)


@handle_errors
async def get_rulebook(request: Request) -> Response:
    """The rules of a set matching ``q`` (every word, either language, no diacritics); no
    ``q``, the whole book, built once and gzipped when the reader takes it."""
    book = await _book(request)
    lang = _lang(request)
    query = search_query(request)
    if query.strip():
        # A search of the book takes up to 150 ms: made on a worker thread (the book is
        # read-only), once for each query and language (``answers``).
        metrics = floor_of(request).metrics
        key = (book.name, lang, query)
        body = await answer_off_loop(
            metrics, "rulebook", key, book, lambda: _encode(_rulebook_answer(book, lang, query))
        )
        return Response(body, media_type="application/json")
    kept = _WHOLE.get((book.name, lang))
    if kept is None or kept[0] is not book:
        # Off the loop: the whole book is hundreds of kilobytes to encode and compress.
        data, packed = await asyncio.to_thread(_whole_book, book, lang)
        _WHOLE[(book.name, lang)] = kept = (book, data, packed)
    headers = {"Vary": "Accept-Encoding"}
    if accepts_gzip(request.headers.get("accept-encoding", "")):
        headers["Content-Encoding"] = "gzip"
        return Response(kept[2], media_type="application/json", headers=headers)
    return Response(kept[1], media_type="application/json", headers=headers)


@handle_errors
async def get_rule(request: Request) -> Response:
    book = await _book(request)
    rule_id = request.path_params["rule"]
    rule = book.get(rule_id)
    if rule is None:
        raise NoSuch(f"rule set {book.name} has no rule {rule_id!r}", field="rule")
    return json_response(_rule_out(rule, _lang(request)))


routes: list[BaseRoute] = [
    Route("/api/t/{tid}/prizes", get_prizes, methods=["GET"]),
    Route("/api/t/{tid}/results.csv", get_results_csv, methods=["GET"]),
    Route("/api/pots", post_pots, methods=["POST"]),
    Route("/api/rulebook", get_rulebook, methods=["GET"]),
    Route("/api/rulebook/{rule}", get_rule, methods=["GET"]),
]
