"""A player's language known to the server (issue 29.3): registered with the player (the desk's
``register`` and an import's language column), kept through a re-entry, in old logs none, and
the venue's locale's where a player has none."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import msgspec
import pytest

from floor.engine import commands as cmd
from floor.engine import entry_list
from floor.engine.events import PlayerRegistered
from floor.imports import sheet
from floor.imports.languages import language_code
from floor.imports.preview import build
from floor.server.languages import player_language
from tests.unit.test_paper_files import NOW, do, tournament

WEB = Path(__file__).resolve().parents[2] / "web"


def test_a_player_is_registered_with_their_language_and_keeps_it_on_a_re_entry() -> None:
    t, log = tournament()
    do(t, log, cmd.Register(name="Hans Müller", player="p1", lang="de"))
    do(t, log, cmd.Register(name="Ana García", player="p2"))
    do(t, log, cmd.Register(name="Jan Novák", player="p3", lang="cs"))
    assert t.state.players["p1"].lang == "de"
    assert t.state.players["p2"].lang is None
    # A re-entry that says no language keeps the player's; one that says one changes it.
    hans = t.state.players["p1"]
    assert entry_list.language(cmd.Register(name="Hans Müller", player="p1"), hans) == "de"
    assert entry_list.language(cmd.Register(name="H", player="p1", lang="en"), hans) == "en"
    assert entry_list.language(cmd.Register(name="New"), None) is None
    # Folded from the log as it was written, the state says the same.
    assert [e.lang for e in log if isinstance(e, PlayerRegistered)] == ["de", None, "cs"]


def test_a_language_is_a_code_or_the_command_is_refused() -> None:
    with pytest.raises(msgspec.ValidationError, match="lang"):
        msgspec.convert({"type": "register", "name": "X", "lang": "Deutsch!"}, cmd.Command)
    ok = msgspec.convert({"type": "register", "name": "X", "lang": "pt-br"}, cmd.Command)
    assert isinstance(ok, cmd.Register) and ok.lang == "pt-br"


def test_an_old_log_decodes_with_no_language() -> None:
    old = b'{"type":"player_registered","player":"p1","name":"Jan Novak","seq":3}'
    event = msgspec.json.decode(old, type=PlayerRegistered)
    assert event.lang is None


@pytest.mark.parametrize(
    ("cell", "code"),
    [("de", "de"), ("DE", "de"), ("de-AT", "de"), ("pt-BR", "pt-br"), ("pt", "pt-br"),
     ("Deutsch", "de"), ("German", "de"), ("němčina", "de"), ("Polski", "pl"),
     ("Español", "es"), ("castellano", "es"), ("Čeština", "cs"), ("Włoski", "it"),
     ("Klingon", None), ("", None), ("xx", None)],
)  # fmt: skip
def test_a_list_writes_a_language_as_a_code_or_a_name(cell: str, code: str | None) -> None:
    assert language_code(cell) == code


def test_an_imported_language_column_registers_each_players_language() -> None:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["Name", "Country", "Language"])
    w.writerow(["Hans Müller", "DE", "Deutsch"])
    w.writerow(["Ana García", "ES", "es"])
    w.writerow(["Jan Novák", "CZ", ""])
    w.writerow(["Worf", "KL", "Klingon"])
    t, _ = tournament()
    p = build(sheet.read(out.getvalue().encode()), t, NOW)
    assert [c.field for c in p.columns] == ["name", "country", "language"]
    assert [r.lang for r in p.rows] == ["de", "es", None, None]
    assert [r.entry.lang if r.entry else "-" for r in p.rows] == ["de", "es", None, None]
    # A language not known is said, and the player registered all the same (the venue's).
    worf = p.rows[3]
    assert [f.code for f in worf.flags] == ["language_unknown"]
    assert worf.include and worf.entry is not None


def test_a_player_without_a_language_is_spoken_to_in_the_venues() -> None:
    assert player_language("pl", "cs-CZ", WEB) == "pl"
    assert player_language(None, "cs-CZ", WEB) == "cs"
    assert player_language(None, "de-AT", WEB) == "de"
    # A language the screens do not speak (yet): the venue's.
    assert player_language("ja", "es-ES", WEB) == "es"
    assert player_language(None, "ja-JP", WEB) == "en"
