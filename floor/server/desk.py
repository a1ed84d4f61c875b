"""The front desk's service: a player taken at a desk in one command (the exclusion check,
the registry, the registration through the usual path, the sale, the identity kept apart),
voids and refunds, shifts and their reports, the cashier's payments.

Every command carries its id: a retry finds the sale written under it and answers with the
same seat, and the registration itself is the tournament's idempotent ``Register`` under the
same id. The seat is drawn by the engine in the tournament's lock, so two desks never give
one seat twice.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import logging
import uuid
from typing import Annotated, Literal, Protocol

import msgspec
from msgspec import Meta

from ..engine import commands as tc
from ..engine.desk import exclusion
from ..engine.desk.cashier import Cashier, to_pay
from ..engine.desk.identity import Identity, Shown, expires_at, shown
from ..engine.desk.identity import check as check_identity
from ..engine.desk.ledger import Amount, Entry, Method, Report, Shift, report
from ..engine.desk.settings import DeskSettings
from ..engine.errors import BadValue, FloorError, NotAllowed, UnknownPlayer, refused
from ..engine.events import Event, PlayerRegistered, PlayerSeated
from ..engine.house.registry import (
    MOST_FOUND,
    Language,
    Record,
    RegistryId,
    registry_id,
    search_key,
)
from ..engine.read import seat_cards
from ..engine.state import Tournament
from ..store.desk_port import (
    Asked,
    Check,
    DeskStorage,
    ExclusionList,
    ExclusionRegister,
    ListInfo,
    Payment,
)
from ..store.errors import NotFound, StoreError, Unavailable
from ..store.outcome import Outcome
from .principal import Principal

log = logging.getLogger("floor.server")


class Tournaments(Protocol):
    """The tournaments as the desk reaches them: a command sent through the usual path (in
    the tournament's lock, authorized, logged, idempotent by its id) and a tournament read."""

    async def run(
        self,
        tid: str,
        command: tc.Command,
        command_id: str,
        decided: list[Event] | None = None,
    ) -> Outcome:
        """The command's outcome; ``decided`` is handed the events it wrote (none for a
        retry answered with the first outcome)."""
        ...

    async def read(self, tid: str) -> Tournament: ...
    async def events(self, tid: str, outcome: Outcome) -> list[Event] | None: ...
    async def ticket_value(self, ticket: str, tid: str, player: str, now: float) -> int:
        """The value of ``ticket`` if ``player`` may enter ``tid`` with it now (the house's
        rule, ``house.tickets.may_use``), else the house's refusal raised. The house holds
        the ticket again when the registration is decided: this is the desk's early word."""
        ...


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """What the 80 mm seat card prints, and the desk shows."""

    tournament: str
    tournament_name: str
    player: str
    name: str
    entry: int
    table: int | None
    seat: int | None
    code: str | None
    language: str


class Taken(msgspec.Struct, frozen=True, kw_only=True):
    card: Card
    entry: Entry
    check: exclusion.Result
    duplicate: bool = False


def _refused(outcome: Outcome) -> FloorError:
    """The tournament's refusal of the desk's command, relayed as the engine gave it."""
    assert outcome.error is not None
    e = outcome.error
    error = FloorError(e.message, field=e.field, params=dict(e.params))
    error.code = e.code
    error._reason = e.reason  # type: ignore[assignment]  # a reason the engine raised
    return error


class Desk:
    def __init__(
        self, storage: DeskStorage, register: ExclusionRegister, lists: ExclusionList
    ) -> None:
        self.storage = storage
        #: Asked at each buy-in: the imported list, or a live register's client.
        self.register = register
        #: Where an imported list is written (the list the register reads, when it is one).
        self.lists = lists
        #: Tournaments' names, for the cards (read once).
        self._names: dict[str, str] = {}

    # Shifts --------------------------------------------------------------------------------

    async def open_shift(self, principal: Principal, desk: str, float_: int, now: float) -> Shift:
        shift = Shift(
            id=f"s-{uuid.uuid4().hex[:12]}",
            desk=desk,
            by=principal.username or "",
            opened_at=now,
            float_=float_,
        )
        await self.storage.open_shift(shift)
        return shift

    async def shift(self, sid: str) -> Shift:
        shift = await self.storage.shift(sid)
        if shift is None:
            raise NotFound(f"no shift {sid!r}", field="shift")
        return shift

    async def open_only(self, sid: str) -> Shift:
        return self._open(sid, await self.storage.shift(sid))

    def _open(self, sid: str, shift: Shift | None) -> Shift:
        if shift is None:
            raise NotFound(f"no shift {sid!r}", field="shift")
        if shift.closed_at is not None:
            raise refused(NotAllowed, "desk_shift_closed", {}, field="shift")
        return shift

    async def report(self, sid: str) -> Report:
        shift = await self.shift(sid)
        return report(shift, await self.storage.entries(sid))

    async def close(self, sid: str, counted: int, now: float) -> Report:
        await self.shift(sid)
        shift = await self.storage.close_shift(sid, counted, now)
        assert shift is not None
        return report(shift, await self.storage.entries(sid))

    # The exclusion check -------------------------------------------------------------------

    async def _ask(self, person: exclusion.Person) -> Asked:
        try:
            return await self.register.answer(person)
        except Unavailable:
            return None

    def _judge(
        self,
        asked: Asked,
        principal: Principal,
        desk: str,
        tid: str,
        cid: str,
        override: str | None,
        now: float,
        settings: DeskSettings,
    ) -> Check:
        """The register's verdict, as the log keeps it; a director may override a check that
        could not answer (never a match: the law excludes them)."""
        answer, info = asked if asked is not None else (None, None)
        result = exclusion.verdict(
            answer, info.imported_at if info else None, now, settings.list_max_age_hours
        )
        reason = ""
        if not exclusion.lets_through(result) and override:
            if principal.role != "director":
                raise refused(NotAllowed, "desk_override_director", {}, field="override")
            if result != "excluded":
                result, reason = "overridden", override
        by = principal.username or ""
        if result != "clear":
            # What an operator must notice; every check, clear ones too, is in the checks'
            # log in Valkey (written with the sale), so a clear one costs no line here.
            log.info("exclusion check", extra={"by": by, "desk": desk, "result": result})
        return Check(
            at=now, by=by, desk=desk, tournament=tid, command=cid, result=result, reason=reason
        )

    async def _log_refused(self, check: Check) -> None:
        """A check that lets nobody through, logged, and refused."""
        await self.storage.log_check(check)
        match check.result:
            case "excluded":
                raise refused(NotAllowed, "desk_excluded", {}, field="exclusion")
            case "unavailable":
                raise refused(NotAllowed, "desk_check_unavailable", {}, field="exclusion")
            case _:
                raise refused(NotAllowed, "desk_list_stale", {}, field="exclusion")

    async def list_info(self) -> ListInfo | None:
        try:
            return await self.register.info()
        except Unavailable:
            return None

    # Taking a player -------------------------------------------------------------------------

    async def take(
        self,
        ts: Tournaments,
        principal: Principal,
        body: TakeBody,
        now: float,
    ) -> Taken:
        """Round trips to Valkey besides the registration's own: the entry kept under the
        id, the shift, the settings and (the imported list being the register) the check's
        answer in one; the check's log line, the registry record, the identity and the sale
        written in one script. The card is made from the events the registration wrote,
        handed back by the service (read from the log only for a registration decided
        before, by a retry). A refusal logs its check on its own."""
        cid = body.id
        person = exclusion.Person(
            surname=body.surname,
            given_names=body.given_names,
            birth_date=body.identity.birth_date,
            doc_number=body.identity.doc_number,
        )
        asking = self.storage.answers is self.register
        if asking:
            kept, shift_kept, settings, asked = await self.storage.begin_asking(
                cid, body.shift, person
            )
        else:
            kept, shift_kept, settings = await self.storage.begin(cid, body.shift)
        if kept is not None:
            if kept.kind != "sale" or kept.tournament != body.tournament:
                raise refused(NotAllowed, "desk_id_reused", {}, field="id")
            card = await self._card(ts, kept.tournament, kept.player, None)
            return Taken(card=card, entry=kept, check="clear", duplicate=True)
        shift = self._open(body.shift, shift_kept)
        today = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
        identity = check_identity(body.identity, today, settings.min_age)
        if (body.method == "ticket") != (body.ticket is not None):
            raise refused(BadValue, "desk_ticket_method", {}, field="ticket")
        record: Record | None = None
        if body.player is not None:
            record = await self.storage.player(body.player)
            if record is None:
                raise refused(
                    UnknownPlayer,
                    "registry_player_unknown",
                    {"player": body.player},
                    field="player",
                )
        pid = record.id if record is not None else registry_id(cid)
        amount = body.amount
        if body.ticket is not None:
            # The ticket pays its value (the ledger's, never a figure typed at the desk).
            amount = await ts.ticket_value(body.ticket, body.tournament, pid, now)
            if body.amount not in (0, amount):
                raise refused(BadValue, "desk_ticket_value", {"value": amount}, field="amount")
        if not asking:
            asked = await self._ask(person)
        check = self._judge(
            asked, principal, shift.desk, body.tournament, cid, body.override, now, settings
        )
        if not exclusion.lets_through(check.result):
            await self._log_refused(check)
        name = record.name if record is not None else f"{body.given_names} {body.surname}"
        language = body.language if record is None else record.language
        new = (
            Record(
                id=pid,
                name=name,
                language=body.language,
                consent_at=now,
                created_at=now,
                consent_by=principal.username or "",
            )
            if record is None and body.consent
            else None
        )
        written = False
        try:
            # The tournament keeps the player's language too (screens, announcements), as
            # main's commands spell it (pt-br).
            register = tc.Register(name=name, player=pid, lang=language.lower(), ticket=body.ticket)
            decided: list[Event] = []
            outcome = await ts.run(body.tournament, register, cid, decided)
            if not outcome.ok:
                raise _refused(outcome)
            card = await self._card_of(ts, body.tournament, pid, language, outcome, decided)
            entry = Entry(
                id=cid,
                kind="sale",
                shift=shift.id,
                desk=shift.desk,
                by=principal.username or "",
                tournament=body.tournament,
                player=pid,
                name=card.name,
                method=body.method,
                amount=amount,
                at=now,
                table=card.table,
                seat=card.seat,
                code=card.code,
                ticket=body.ticket,
            )
            expires = expires_at(now, settings.retention_days)
            kept_as = await self.storage.write_take(check, new, identity, expires, entry)
            written = True
            if kept_as == "closed":
                # The shift was closed (its drawer counted) while the player was being
                # registered: no sale may go into it, so the entry is withdrawn and the take
                # refused, as a take into a closed shift is before registering.
                await self._withdraw(ts, body.tournament, pid, cid)
                raise refused(NotAllowed, "desk_shift_closed", {}, field="shift")
        finally:
            if not written:
                # The check was made: its line is logged whatever became of the buy-in.
                with contextlib.suppress(StoreError):
                    await self.storage.log_check(check)
        return Taken(card=card, entry=entry, check=check.result, duplicate=outcome.duplicate)

    async def _withdraw(self, ts: Tournaments, tid: str, pid: str, cid: str) -> None:
        # Under an id made from the take's, so that a retry withdraws it once.
        wid = "withdraw-" + hashlib.sha256(cid.encode()).hexdigest()[:32]
        outcome = await ts.run(tid, tc.Unregister(player=pid), wid)
        if not outcome.ok:
            raise _refused(outcome)

    async def _card_of(
        self,
        ts: Tournaments,
        tid: str,
        pid: str,
        language: str,
        outcome: Outcome,
        decided: list[Event],
    ) -> Card:
        """The card from the registration's own events: those the service wrote, handed back
        with its outcome; a retry answered with the first outcome reads them from the log.
        Never from the tournament, whose lock the next desks' commands hold (a read there
        waits for them)."""
        events = decided if decided else await ts.events(tid, outcome)
        registered = next(
            (e for e in events or () if isinstance(e, PlayerRegistered) and e.player == pid), None
        )
        if registered is None:
            return await self._card(ts, tid, pid, language)
        seated = next(
            (e for e in events or () if isinstance(e, PlayerSeated) and e.player == pid), None
        )
        name = self._names.get(tid)
        if name is None:
            name = self._names[tid] = (await ts.read(tid)).state.name
        return Card(
            tournament=tid,
            tournament_name=name,
            player=pid,
            name=registered.name,
            entry=registered.entry,
            table=None if seated is None else seated.table,
            seat=None if seated is None else seated.seat,
            code=None
            if seated is None
            else seat_cards.code(tid, pid, registered.entry, seated.table, seated.seat),
            language=language,
        )

    async def _card(self, ts: Tournaments, tid: str, pid: str, language: str | None) -> Card:
        t = await ts.read(tid)
        p = t.state.players.get(pid)
        if p is None:
            raise refused(UnknownPlayer, "player_unknown", {"player": pid}, field="player")
        if language is None:
            record = await self.storage.player(pid)
            language = record.language if record is not None else "en"
        seated = p.table is not None and p.seat is not None and not p.busted
        return Card(
            tournament=tid,
            tournament_name=t.state.name,
            player=pid,
            name=p.name,
            entry=p.entries,
            table=p.table if seated else None,
            seat=p.seat if seated else None,
            code=seat_cards.code(tid, pid, p.entries, p.table, p.seat)
            if seated and p.table is not None and p.seat is not None
            else None,
            language=language,
        )

    # Voids and refunds -----------------------------------------------------------------------

    async def undo(
        self, ts: Tournaments, principal: Principal, body: UndoBody, now: float
    ) -> Entry:
        kept = await self.storage.entry(body.id)
        if kept is not None:
            return kept
        shift = await self.open_only(body.shift)
        sale = await self.storage.entry(body.sale)
        if sale is None or sale.kind != "sale":
            raise NotFound(f"no sale {body.sale!r}", field="sale")
        if body.kind == "void" and sale.shift != shift.id:
            raise refused(NotAllowed, "desk_void_other_shift", {}, field="sale")
        if sale.method == "ticket":
            # Unregistered here, the ticket would stay used in the house's ledger: the
            # director undoes it there (the console's registration and the ledger's refund).
            raise refused(NotAllowed, "desk_ticket_undo", {}, field="sale")
        if await self.storage.undone_by(sale.id) is not None:
            raise refused(NotAllowed, "desk_sale_undone", {}, field="sale")
        outcome = await ts.run(sale.tournament, tc.Unregister(player=sale.player), body.id)
        if not outcome.ok:
            raise _refused(outcome)
        entry = msgspec.structs.replace(
            sale,
            id=body.id,
            kind=body.kind,
            shift=shift.id,
            desk=shift.desk,
            by=principal.username or "",
            at=now,
            of=sale.id,
            reason=body.reason,
        )
        written = await self.storage.write_entry(entry)
        if written == "undone":
            raise refused(NotAllowed, "desk_sale_undone", {}, field="sale")
        return entry

    # The registry ----------------------------------------------------------------------------

    async def find(self, query: str) -> list[Record]:
        key = search_key(query)
        if not key:
            return []
        return await self.storage.find_players(key, MOST_FOUND)

    async def access(self, pid: str) -> tuple[Record | None, Identity | None]:
        """What the house keeps about a player: their right of access."""
        return await self.storage.player(pid), await self.storage.identity(pid)

    async def shown(self, name: str, pid: str) -> Shown | None:
        identity = await self.storage.identity(pid)
        return None if identity is None else shown(name, identity)

    # The cashier -------------------------------------------------------------------------------

    async def cashier(self, ts: Tournaments, tid: str) -> Cashier:
        t = await ts.read(tid)
        paid = [(p.player, p.at, p.by) for p in await self.storage.payments(tid)]
        return to_pay(t, paid)

    async def pay(
        self, ts: Tournaments, principal: Principal, tid: str, pid: str, now: float
    ) -> Cashier:
        sheet = await self.cashier(ts, tid)
        row = next((r for r in sheet.rows if r.player == pid), None)
        if row is None:
            raise refused(NotAllowed, "desk_nothing_owed", {"player": pid}, field="player")
        if row.bounty_owed > 0 and not row.paid:
            # The bounties owed go with the prize, recorded by the tournament (``PayBounty``:
            # its bounty book); the id is the row's, so a retry pays nothing twice.
            digest = hashlib.sha256(f"{tid}\x1f{pid}\x1f{row.bounty}".encode()).hexdigest()
            outcome = await ts.run(tid, tc.PayBounty(player=pid), f"cashier-bounty-{digest[:24]}")
            if not outcome.ok and (
                outcome.error is None or outcome.error.reason != "bounty_nothing_owed"
            ):
                raise _refused(outcome)
        await self.storage.pay(
            Payment(
                tournament=tid,
                player=pid,
                place=row.place,
                amount=row.amount,
                by=principal.username or "",
                at=now,
                bounty=row.bounty_owed,
                ticket=row.ticket,
            )
        )
        return await self.cashier(ts, tid)


# Bodies ------------------------------------------------------------------------------------------

NamePart = Annotated[str, Meta(min_length=1, max_length=40)]
WhyText = Annotated[str, Meta(min_length=3, max_length=200)]


class TakeBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    shift: str
    tournament: str
    given_names: NamePart
    surname: NamePart
    identity: Identity
    method: Method
    amount: Amount
    language: Language = "en"
    #: A returning player's registry id.
    player: RegistryId | None = None
    #: The player agrees to be kept in the registry.
    consent: bool = False
    #: A director's reason to let the buy-in through a check that could not answer.
    override: WhyText | None = None
    #: The ticket paying the buy-in (the house's ledger), with the method ``ticket``.
    ticket: Annotated[str, Meta(min_length=1, max_length=80)] | None = None


class UndoBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    shift: str
    sale: str
    kind: Literal["void", "refund"]
    reason: Annotated[str, Meta(max_length=200)] = ""
