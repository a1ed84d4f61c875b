"""A new tournament's name follows the rule a player's name does: visible, nothing hidden."""

from __future__ import annotations

import msgspec
import pytest

from floor.engine.commands import SetStack
from floor.engine.model import MAX_CHIPS
from floor.server.edges import BadRequest
from floor.server.tournament_setup import NewTournament, tournament_setup


@pytest.mark.parametrize(
    "name",
    ["\u2800", "\u3164", "Main\u202eevent", "  ", "Main\U000e0041 event", "\u061c"],
    ids=["braille-blank", "hangul-filler", "bidi-override", "blank", "tag-char", "alm"],
)
def test_a_tournament_name_nobody_can_read_is_refused_naming_the_field(name: str) -> None:
    with pytest.raises(BadRequest) as caught:
        tournament_setup(NewTournament(id="t1", name=name, rules="tda-2024"))
    assert caught.value.field == "name"


def test_a_tournament_name_is_shown_with_its_spaces_folded() -> None:
    _, _, name = tournament_setup(NewTournament(id="t1", name="  Main   Event ", rules="tda-2024"))
    assert name == "Main Event"


def test_a_stack_larger_than_a_stack_may_hold_is_refused_by_the_command_itself() -> None:
    # Whatever path a command arrives by (HTTP, websocket, the command line): the type holds it.
    too_big = f'{{"type": "set_stack", "player": "P1", "stack": {MAX_CHIPS + 1}}}'.encode()
    with pytest.raises(msgspec.ValidationError, match="stack"):
        msgspec.json.decode(too_big, type=SetStack)
    most = f'{{"type": "set_stack", "player": "P1", "stack": {MAX_CHIPS}}}'.encode()
    assert msgspec.json.decode(most, type=SetStack).stack == MAX_CHIPS
