"""Paper and files: player lists read from every format (hostile rows too), registered as one
batch; the money and the structure changed after creation; the files written out."""

from __future__ import annotations

import csv
import io
import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from openpyxl import Workbook

from floor import config
from floor.engine import commands as cmd
from floor.engine.calc.payout_curve import standard_table
from floor.engine.decide import decide
from floor.engine.errors import BadValue, RuleError
from floor.engine.events import PrizeChanged, StructureChanged, TournamentCreated
from floor.engine.prize import Prize
from floor.engine.read.seat_cards import check as check_card
from floor.engine.read.seat_cards import player_code
from floor.engine.state import Tournament
from floor.engine.validate import InvalidEvent, replay
from floor.exports.results import hendon_csv, payouts_csv, results_csv
from floor.exports.structure_file import toml
from floor.imports import sheet
from floor.imports.preview import build
from floor.imports.sheet import MAX_ROWS
from floor.server.redact import for_public

NOW = 1_700_000_000.0
LANG = Path(__file__).resolve().parents[2] / "web" / "js" / "lang"


def tournament(prize: bool = True) -> tuple[Tournament, list[Any]]:
    rules = config.resolve_rules("tda-2024")
    structure = config.resolve_structure("demo-fast")
    if prize:
        cfg = config.load_tournament(config.tournaments()["club-night"])
        rules, structure = config.build_tournament(cfg)
    created = TournamentCreated(id="t", name="T", rules=rules, structure=structure, created_at=NOW)
    return Tournament.create(created), [created]


def do(t: Tournament, log: list[Any], command: cmd.Command, now: float = NOW) -> list[Any]:
    events = decide(t, command, now, random.Random(7))
    log.extend(events)
    return events


def preview(data: bytes, t: Tournament | None = None, **kw: Any) -> Any:
    return build(sheet.read(data, **{k: kw.pop(k) for k in ("kind", "encoding") if k in kw}),
                 t or tournament()[0], NOW, **kw)  # fmt: skip


# Reading lists ------------------------------------------------------------------------------


def test_a_czech_excel_csv_in_windows_1250_with_semicolons_is_read_with_its_header() -> None:
    data = 'Jméno;Příjmení;Karta;Země\nJiří;Dvořák;1001;CZ\n"Šimek";Filip;1002;SK\n'
    p = preview(data.encode("windows-1250"))
    assert (p.kind, p.encoding, p.guessed, p.header) == ("csv", "windows-1250", True, True)
    assert [c.field for c in p.columns] == ["first_name", "last_name", "player", "country"]
    assert [(r.name, r.surname, r.player, r.country) for r in p.rows] == [
        ("Jiří Dvořák", "Dvořák", "1001", "CZ"),
        ("Šimek Filip", "Filip", "1002", "SK"),
    ]


def test_a_wrong_encoding_said_by_the_director_is_refused_naming_it() -> None:
    with pytest.raises(BadValue) as e:
        sheet.read("Jiří Dvořák\n".encode("windows-1250"), encoding="utf-8")
    assert (e.value.reason, e.value.params) == ("import_unreadable", {"format": "text in utf-8"})
    # UTF-8 with its mark, and UTF-16 from "Unicode text", read as they are.
    assert sheet.read("\ufeffJiří\n".encode()).rows == [["Jiří"]]
    assert sheet.read("Jiří\tCZ\n".encode("utf-16")).rows == [["Jiří", "CZ"]]


def test_pasted_spreadsheet_cells_are_columns_not_one_name_and_lose_their_quotes() -> None:
    p = preview(b'"Jan Nov\xc3\xa1k"\t1001\tCZ\tx\n"Eva Svobodov\xc3\xa1"\t1002\tCZ\t\n')
    assert not p.header
    # A column of marks may say who paid: no seat is reserved from the values alone.
    assert [c.field for c in p.columns] == ["name", "player", "country", None]
    assert [(r.name, r.special_needs) for r in p.rows] == [
        ("Jan Novák", False),
        ("Eva Svobodová", False),
    ]
    assert p.special_needs == 0
    # The director says the column holds the special needs: the preview counts them.
    said = preview(
        b'"Jan Nov\xc3\xa1k"\t1001\tCZ\tx\n"Eva Svobodov\xc3\xa1"\t1002\tCZ\t\n',
        mapping="name=0,player=1,country=2,special_needs=3",
    )
    assert [r.special_needs for r in said.rows] == [True, False] and said.special_needs == 1


def test_a_header_alone_is_no_list() -> None:
    p = preview(b"Name,Player ID,Country\n")
    assert p.problem is not None and p.problem.reason == "import_no_rows"
    with pytest.raises(BadValue, match="no rows"):
        preview(b"\n\n  \n")


def test_blanks_duplicates_and_names_already_in_are_flagged_before_anything_is_registered() -> None:
    t, log = tournament()
    do(t, log, cmd.Register(name="Petr Černý", player="900"))
    data = "Name,ID\nJan Novák,1\n,2\nJan Novák,3\nEva,1\nPetr Černý,\n".encode()
    p = preview(data, t)
    flags = {r.line: [f.code for f in r.flags] for r in p.rows}
    assert flags == {
        2: [],
        3: ["blank"],
        4: ["duplicate_name"],
        5: ["duplicate_id"],
        6: ["registered_name"],
    }
    # The same name twice in one list is left for the director to tick.
    assert [r.line for r in p.rows if r.include] == [2]
    assert t.state.entries == 1  # nothing registered by a preview


def test_a_row_the_rules_refuse_says_the_rules_reason() -> None:
    t, log = tournament()
    do(t, log, cmd.Register(name="Ann", player="7"))
    p = preview(b"name,card\nBob,7\nEve\xe2\x80\xaeX,8\n", t)
    refused = [(r.line, f.reason) for r in p.rows for f in r.flags if f.code == "refused"]
    assert refused == [(2, "player_exists"), (3, "name_hidden_marks")]


def test_formula_cells_are_kept_as_text_flagged_and_neutralised_in_every_export() -> None:
    t, log = tournament()
    data = b'name,card,note\n=HYPERLINK("http://x"),+1,@SUM(A1)\n-2+3,1002,ok\n'
    p = preview(data, t)
    assert [[f.code for f in r.flags] for r in p.rows] == [["formula"], ["formula"]]
    entries = tuple(r.entry for r in p.rows if r.entry)
    do(t, log, cmd.RegisterMany(entries=entries))
    do(t, log, cmd.DrawSeats())
    do(t, log, cmd.Bust(player="+1"))
    rows = list(csv.reader(io.StringIO(results_csv(t).decode("utf-8-sig"))))
    cells = [c for row in rows[1:] for c in row]
    assert '\'=HYPERLINK("http://x")' in cells and "'+1" in cells and "'-2+3" in cells
    for data in (results_csv(t), hendon_csv(t), payouts_csv(t)):
        for row in csv.reader(io.StringIO(data.decode("utf-8-sig"))):
            assert not any(c.startswith(("=", "+", "@")) or re.match(r"-\D", c) for c in row)


def test_ten_thousand_rows_are_read_and_one_more_is_refused() -> None:
    rows = "\n".join(f"Player {i},{i}" for i in range(MAX_ROWS))
    p = preview(("name,card\n" + rows).encode())
    assert (p.total, p.included) == (MAX_ROWS, MAX_ROWS)
    with pytest.raises(BadValue) as e:
        sheet.read(("name\n" + rows + "\nOne more\nAnd another").encode())
    assert e.value.reason == "import_too_many_rows"


def test_an_xlsx_sheet_is_read_with_card_numbers_as_numbers_show() -> None:
    book = Workbook()
    ws = book.active
    ws.append(["Player", "Card number", "Nationality", "Wheelchair", "Notes"])
    ws.append(["Jiří Dvořák", 1001, "CZ", "yes", "=cmd|' /c calc'!A1"])
    ws.append(["Petr Černý", 1003, "CZ", "", "+420 777 123 456"])
    ws.append([None, None, None, None, None])
    ws.append(["Eva Svobodová", 1002.0, "SK", None, None])
    out = io.BytesIO()
    book.save(out)
    p = preview(out.getvalue())
    assert (p.kind, p.header) == ("xlsx", True)
    assert [(r.line, r.name, r.player, r.special_needs) for r in p.rows] == [
        (2, "Jiří Dvořák", "1001", True),
        (3, "Petr Černý", "1003", False),
        (5, "Eva Svobodová", "1002", False),
    ]
    # A formula is read as its value (none, never calculated); text that starts like one
    # is kept as text, flagged.
    assert p.rows[0].note is None
    assert [f.code for f in p.rows[1].flags] == ["formula"]


@pytest.mark.parametrize(
    ("data", "format_"),
    [
        (b"PK\x03\x04not a zip at all", "xlsx"),
        (b"\xd0\xcf\x11\xe0old", "xls (save it as .xlsx or CSV)"),
    ],
)
def test_what_is_no_sheet_is_refused_naming_the_format(data: bytes, format_: str) -> None:
    with pytest.raises(BadValue) as e:
        sheet.read(data)
    assert (e.value.reason, e.value.params) == ("import_unreadable", {"format": format_})


def test_the_director_maps_the_columns_and_a_column_that_is_not_there_is_refused() -> None:
    data = b"1001;Nov\xc3\xa1k Jan;CZ\n1002;Svobodov\xc3\xa1 Eva;SK\n"
    p = preview(data, mapping="name=1,player=0")
    assert (p.rows[0].name, p.rows[0].player, p.rows[0].country) == ("Novák Jan", "1001", None)
    with pytest.raises(BadValue) as e:
        preview(data, mapping="name=5")
    assert e.value.reason == "import_column_unknown"


# One batch ----------------------------------------------------------------------------------


def test_thirteen_hundred_entries_are_one_command_and_a_refused_row_refuses_the_list() -> None:
    t, log = tournament()
    entries = tuple(
        cmd.NewEntry(name=f"Hráč {i}", player=f"C{i}", country="CZ") for i in range(1000)
    )
    events = do(t, log, cmd.RegisterMany(entries=entries))
    assert len(events) == 1000 and t.state.entries == 1000
    bad = (cmd.NewEntry(name="New"), cmd.NewEntry(name="Twice", player="C5"))
    with pytest.raises(RuleError) as e:
        do(t, log, cmd.RegisterMany(entries=bad))
    assert (e.value.field, e.value.reason) == ("entries[1].player", "player_exists")
    assert t.state.entries == 1000
    do(t, log, cmd.DrawSeats())
    late = tuple(cmd.NewEntry(name=f"Late {i}") for i in range(300))
    do(t, log, cmd.RegisterMany(entries=late))
    assert t.state.entries == 1300
    assert all(p.table is not None for p in t.state.players.values())
    # The log, with its country and its batches, is one an import accepts.
    assert replay(log).state.players["C7"].country == "CZ"


def test_a_note_is_the_staffs_and_never_reaches_the_room() -> None:
    t, log = tournament()
    events = do(t, log, cmd.Register(name="Ann", note="pays at the cage", country="CZ"))
    message = msgspec.json.encode({"events": [{"seq": 2, "event": e} for e in events]})
    public = msgspec.json.decode(for_public(message))
    said = public["events"][0]["event"]
    assert (said["note"], said["country"]) == (None, "CZ")


# Money and structure ------------------------------------------------------------------------


def _prize(t: Tournament, **change: Any) -> Prize:
    assert t.state.structure is not None and t.state.structure.prize is not None
    return msgspec.structs.replace(t.state.structure.prize, **change)


def test_the_money_changes_but_what_was_sold_keeps_its_price() -> None:
    t, log = tournament()
    do(t, log, cmd.SetPrize(prize=_prize(t, buy_in=800)))
    do(t, log, cmd.Register(name="Ann"))
    with pytest.raises(RuleError) as e:
        do(t, log, cmd.SetPrize(prize=_prize(t, buy_in=900)))
    assert (e.value.reason, e.value.params) == ("prize_entries_sold", {"entries": 1})
    (changed,) = do(t, log, cmd.SetPrize(prize=_prize(t, guarantee=50_000)))
    assert isinstance(changed, PrizeChanged)
    with pytest.raises(RuleError) as e:
        do(t, log, cmd.SetPrize(prize=_prize(t, guarantee=50_000)))
    assert e.value.reason == "prize_unchanged"
    rows = standard_table(200)
    do(t, log, cmd.SetPrize(prize=_prize(t, payouts=rows)))
    assert replay(log).state.structure == t.state.structure


def test_the_structure_changes_ahead_of_the_clock_not_behind_it() -> None:
    t, log = tournament()
    s = t.state.structure
    assert s is not None
    bare = msgspec.structs.replace(s, prize=None)
    longer = msgspec.structs.replace(bare, levels=(*bare.levels, bare.levels[-1]))
    do(t, log, cmd.Register(name="Ann"))
    do(t, log, cmd.Register(name="Bob"))
    do(t, log, cmd.DrawSeats())
    do(t, log, cmd.ClockStart())
    (changed,) = do(t, log, cmd.SetStructure(structure=longer))
    assert isinstance(changed, StructureChanged) and changed.remaining is None
    assert t.state.structure is not None and t.state.structure.prize == s.prize
    first = msgspec.structs.replace(bare.levels[0], minutes=99)
    with pytest.raises(RuleError) as e:
        do(
            t,
            log,
            cmd.SetStructure(
                structure=msgspec.structs.replace(longer, levels=(first, *longer.levels[1:]))
            ),
        )
    assert (e.value.reason, e.value.params) == ("structure_step_played", {"step": 1})
    with pytest.raises(RuleError) as e:
        do(
            t,
            log,
            cmd.SetStructure(structure=msgspec.structs.replace(longer, starting_stack=20_000)),
        )
    assert e.value.reason in ("structure_chips_started", "structure_stack_entered")
    with pytest.raises(RuleError) as e:
        do(
            t,
            log,
            cmd.SetStructure(
                structure=msgspec.structs.replace(
                    longer, levels=longer.levels[:2], late_registration_until=None
                )
            ),
        )
    assert e.value.reason == "no_level"  # the rebuys and the add-on name later levels
    assert replay(log).state.structure == t.state.structure
    forged = StructureChanged(structure=msgspec.structs.replace(s, levels=(first, *s.levels[1:])))
    with pytest.raises(InvalidEvent):
        replay([*log, forged])


def test_a_standard_payout_table_is_one_every_prize_check_accepts() -> None:
    rows = standard_table(10_000)
    Prize(currency="CZK", buy_in=1000, payouts=rows)
    for r in rows:
        assert round(sum(r.percents) * 100) == 10_000
        assert list(r.percents) == sorted(r.percents, reverse=True)
        assert all(round(p, 2) == p for p in r.percents)


def test_every_shipped_structure_saved_as_a_file_reads_back_the_same() -> None:
    for name in config.structures():
        s = config.resolve_structure(name)
        assert config.parse_structure(toml(s).encode()) == s
    _, structure = config.build_tournament(
        config.load_tournament(config.tournaments()["club-night"])
    )
    assert config.parse_structure(toml(structure).encode()) == structure


# Files and cards ------------------------------------------------------------------------------


def test_the_results_say_where_and_when_each_player_went_out() -> None:
    t, log = tournament()
    do(
        t,
        log,
        cmd.RegisterMany(
            entries=tuple(
                cmd.NewEntry(name=f"P {i}", player=f"{i}", country="CZ") for i in range(12)
            )
        ),
    )
    do(t, log, cmd.DrawSeats())
    do(t, log, cmd.ClockStart())
    p = t.state.players["3"]
    table = p.table
    do(t, log, cmd.Bust(player="3"), NOW + 60)
    rows = list(csv.DictReader(io.StringIO(results_csv(t).decode("utf-8-sig"))))
    (row,) = rows
    said = [row[k] for k in ("place", "name", "player", "country", "level", "table")]
    assert said == ["12", "P 3", "3", "CZ", "1", str(table)]
    assert row["out_at"].startswith("2023-11-14")
    assert row["entries"] == "1" and row["currency"] == "CZK"
    hendon = list(csv.DictReader(io.StringIO(hendon_csv(t).decode("utf-8-sig"))))
    assert hendon == []  # 12th is not paid
    payouts = list(csv.DictReader(io.StringIO(payouts_csv(t).decode("utf-8-sig"))))
    assert [r["place"] for r in payouts] == [str(i) for i in range(1, len(payouts) + 1)]


def test_a_seat_card_checks_until_the_player_moves() -> None:
    t, log = tournament()
    do(t, log, cmd.RegisterMany(entries=(cmd.NewEntry(name="Ann"), cmd.NewEntry(name="Bob"))))
    do(t, log, cmd.DrawSeats())
    ann = next(p for p in t.state.players.values() if p.name == "Ann")
    assert ann.table is not None and ann.seat is not None
    code = player_code(t, ann)
    assert code is not None and len(code) == 4
    assert check_card(t, ann.table, ann.seat, code.lower()).valid
    free = next(s for s in range(1, 10) if s not in t.state.tables[ann.table].occupants)
    do(t, log, cmd.CorrectSeat(player=ann.id, table=ann.table, seat=free))
    assert not check_card(t, ann.table, free, code).valid


def test_the_paper_texts_are_in_english_and_czech() -> None:
    key = re.compile(r'^\s*"([a-z0-9_]+(?:\.[a-z0-9_]+)+)":', re.MULTILINE)
    en = set(key.findall((LANG / "paper-en.js").read_text(encoding="utf-8")))
    cs = set(key.findall((LANG / "paper-cs.js").read_text(encoding="utf-8")))
    assert len(en) > 150 and en == cs
