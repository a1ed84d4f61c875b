"""What each role may send: pure decisions over the engine's commands and state.

``sender`` names, for every command, the least role that may send it, as the command
declares it (``may_send`` in ``floor.engine.commands``); a command declared without one
fails its import, so nobody gets a command by default. Call ``authorize`` with the state the
command will be decided against, under the same lock: a table's right to bust a player
depends on where the player sits at that moment.

A table screen (and the dealer signed in on it) is bound to one table of one tournament:
whatever it sends about another tournament, or another table, is refused here, as is any
read of the staff's beyond its own table (``require_floor``; its view: ``redact``).
"""

from __future__ import annotations

from typing import Final

from ..engine import commands as cmd
from ..engine.commands import Command, Sender
from ..engine.state import Tournament
from .principal import Forbidden, Principal


def sender(command: Command) -> Sender:
    """The least role that may send ``command``, as the command declares it."""
    return command.may_send


_FLOOR_MAY: Final = (
    "floor staff may bust players and undo bust-outs, report hands and buttons, call, "
    "confirm and cancel moves, call time, correct and lock seats, "
    "register players (and re-entries), "
    "correct names, mark special needs, unregister and refund, "
    "sell rebuys and add-ons, set and count stacks, run chip races, record rulings "
    "pay bounties and award a milestone satellite's seats"
)


def _name(command: Command) -> str:
    return str(type(command).__struct_config__.tag)


def require_director(principal: Principal, what: str = "manages staff accounts") -> None:
    """Staff accounts and new tournaments (what is outside the commands) are the director's."""
    if principal.role != "director":
        raise Forbidden(f"only the director {what}")


def require_floor(principal: Principal, what: str) -> None:
    """What the floor reads and the room does not (the printables and their check codes, the
    counts, the metrics, pairing a table screen): the floor and the director, no table
    screen (nor a dealer on one), whose business is its own table alone."""
    if principal.role not in ("director", "floor"):
        raise Forbidden(f"only the floor and the director {what}")


def require_room(principal: Principal) -> None:
    """The dealer room (its dealers, their rotation and downs): the director and the
    dealer room's coordinator."""
    if principal.role not in ("director", "coordinator"):
        raise Forbidden("only the dealer room's coordinator and the director run the dealer room")


def require_desk(principal: Principal, what: str = "take players at the desk") -> None:
    """The front desk and the cashier (``routes_desk``): the desk's staff and the director.
    One role for both: each handles the venue's cash at a counter against a player's
    document, with the same trust; a venue that keeps them apart gives each its own account,
    and the shift report names the account."""
    if principal.role not in ("director", "desk"):
        raise Forbidden(f"only the desk's staff and the director {what}")


def authorize(principal: Principal, command: Command, t: Tournament | None) -> None:
    """Raise ``Forbidden`` unless ``principal`` may send ``command`` (over HTTP or a websocket).

    ``t`` is the tournament the command is decided against: a dealer's bust-out of a named
    player is checked against the player's table there. A dealer may bust only a player
    seated at their table; a player who is unknown, or not seated there, is refused here as
    not the dealer's business (it names nothing about the rest of the floor). One who already
    busted at the dealer's table passes, so that a second tap gets the engine's "already out".
    """
    least = sender(command)
    if least == "server":
        raise Forbidden(f"{_name(command)} is the server's own command: it cannot be sent")
    role = principal.role
    if role == "director":
        return
    if role == "floor":
        if least in ("dealer", "floor"):
            return
        raise Forbidden(f"{_FLOOR_MAY}; {_name(command)} is for the director")
    if role in ("table", "dealer"):
        authorize_table(principal, command, t)
        return
    if role == "coordinator":
        raise Forbidden("the dealer room's coordinator runs the dealers, not the tournament")
    if role == "desk":
        # Never bare: a registration at the desk passes the exclusion check first, in the
        # desk's own service (``server.desk``), which sends it with the floor's right.
        raise Forbidden(
            "the desk takes players at /api/desk/take, where the exclusion check runs; "
            "the tournament's commands are the floor's"
        )
    raise Forbidden("the public view is read-only: sign in as staff to change the tournament")


def authorize_table(principal: Principal, command: Command, t: Tournament | None) -> None:
    """A table screen's command (a dealer's on it too): at its own table of its own
    tournament only, and a bust-out of a player seated there."""
    own = principal.table
    may = f"a table screen reports hands, the button and bust-outs at its own table ({own}) only"
    if own is None or principal.tournament is None or principal.device is None:
        raise Forbidden("a dealer sends from a paired table screen only")
    if t is None or t.state.id != principal.tournament:
        raise Forbidden(
            f"this screen belongs to table {own} of {principal.tournament!r}, "
            "not to this tournament: the director moves it",
            field="tournament",
        )
    if isinstance(command, cmd.Hand | cmd.HandDone | cmd.Button):
        if command.table != own:
            raise Forbidden(f"table {command.table} is not yours: {may}", field="table")
        return
    if isinstance(command, cmd.BustSameHand):
        # The table screen's players out in one hand: every one of them at this table.
        for i, b in enumerate(command.players):
            if not _sits_at(t, b.player, own):
                raise Forbidden(
                    f"{b.player} is not at your table {own}: {may}", field=f"players[{i}].player"
                )
        return
    if not isinstance(command, cmd.Bust):
        raise Forbidden(f"{may}; {_name(command)} is for the floor or the director")
    if command.table is None and command.player is None:
        raise Forbidden(f"name the seat at your table, or the player: {may}", field="table")
    if command.table is not None and command.table != own:
        raise Forbidden(f"table {command.table} is not yours: {may}", field="table")
    if command.player is not None and not _sits_at(t, command.player, own):
        raise Forbidden(f"{command.player} is not at your table {own}: {may}", field="player")


def _sits_at(t: Tournament | None, pid: str, own: int) -> bool:
    p = None if t is None else t.state.players.get(pid)
    return p is not None and (
        p.table == own or (p.busted and p.bust is not None and p.bust.table == own)
    )
