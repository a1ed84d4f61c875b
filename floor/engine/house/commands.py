"""The house's commands: the holds, which the store sends for a tournament command that
claims something in the house (``decide.claim_of``), and the dealer room's
(``dealers_commands``)."""

from __future__ import annotations

import msgspec

from .dealers_commands import RoomCommand, ServerRoomCommand
from .events import Claim
from .tickets_commands import TicketCommand


class _Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class TakeHold(_Command, frozen=True, tag="take_hold"):
    hold: str
    tournament: str
    command_id: str
    claim: Claim


class SettleHold(_Command, frozen=True, tag="settle_hold"):
    hold: str
    committed: bool


HouseCommand = TakeHold | SettleHold | RoomCommand | ServerRoomCommand | TicketCommand
