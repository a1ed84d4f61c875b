"""The configuration files: the shipped ones load, and a bad one gets one clear error."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from floor import config
from floor.config import RuleOverrides, TournamentConfig
from floor.engine.errors import ConfigError
from floor.engine.rules import Break, Level, ReservedSeat, Rules, Structure

Write = Callable[[str, str], Path]

GOOD_RULES = 'name = "house"\ngame = "holdem"\nseats = 9\nfinal_table = 9\n'
GOOD_STRUCTURE = """\
name = "house"
starting_stack = 10000
chips = [25, 100]

[[levels]]
type = "level"
small_blind = 25
big_blind = 50
minutes = 20

[[levels]]
type = "break"
minutes = 10
color_up = [25]

[[levels]]
type = "level"
small_blind = 100
big_blind = 200
minutes = 20
"""


@pytest.fixture
def write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Write:
    """Writes a file into a fresh working folder, so that errors name it as written."""
    monkeypatch.chdir(tmp_path)

    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return write


def error_of(load: Callable[[Path], object], path: Path) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load(path)
    return caught.value


# --- the shipped files --------------------------------------------------------------------------


def test_the_shipped_rule_sets_are_the_expected_ones() -> None:
    assert set(config.rule_sets()) == {
        "tda-2011",
        "tda-2011-stud",
        "tda-2024",
        "tda-2024-mixed",
        "pfp-2014",
        "pfp-2014-6max",
        "pfp-2014-omaha-8max",
    }


def test_the_shipped_structures_are_the_expected_ones() -> None:
    assert set(config.structures()) == {
        "club-night-turbo",
        "pfp-2014-main-event",
        "deepstack-daily",
        "horse-mixed",
        "stud-classic",
        "demo-fast",
    }


def test_the_shipped_tournaments_include_the_demo() -> None:
    assert {"demo", "club-night", "pfp-2014-main-event"} <= set(config.tournaments())


@pytest.mark.parametrize("name", sorted(config.rule_sets()))
def test_every_shipped_rule_set_loads_and_names_itself_and_its_rulebook(name: str) -> None:
    path = config.rule_sets()[name]
    rules = config.load_rules(path)
    assert rules.name == name
    written = tomllib.loads(path.read_text(encoding="utf-8"))
    assert {"name", "rulebook", "game", "seats", "final_table"} <= set(written)
    assert "#" in path.read_text(encoding="utf-8"), "each value cites the rule it comes from"


@pytest.mark.parametrize(
    ("name", "game", "seats", "final_table"),
    [
        ("tda-2011", "holdem", 10, 10),
        ("tda-2011-stud", "stud", 8, 9),
        ("tda-2024", "holdem", 9, 9),
        ("tda-2024-mixed", "mixed", 8, 8),
        ("pfp-2014", "holdem", 9, 9),
        ("pfp-2014-6max", "holdem", 6, 7),
        ("pfp-2014-omaha-8max", "omaha", 8, 9),
    ],
)
def test_every_shipped_rule_set_seats_its_tables_as_its_rulebook_says(
    name: str, game: str, seats: int, final_table: int
) -> None:
    rules = config.resolve_rules(name)
    assert (rules.game, rules.seats, rules.final_table) == (game, seats, final_table)


@pytest.mark.parametrize("name", sorted(config.structures()))
def test_every_shipped_structure_loads_and_is_named_after_its_file(name: str) -> None:
    structure = config.resolve_structure(name)
    assert structure.name == name
    assert structure.late_registration_until is not None
    assert structure.late_registration_until <= sum(isinstance(s, Level) for s in structure.levels)


@pytest.mark.parametrize("name", sorted(config.structures()))
def test_every_amount_of_a_shipped_structure_is_payable_with_the_chips_in_play(name: str) -> None:
    structure = config.resolve_structure(name)
    assert structure.starting_stack % structure.chips[0] == 0
    for i, step in enumerate(structure.levels):
        if isinstance(step, Level):
            smallest = structure.chips_in_play(i)[0]
            for amount in (step.small_blind, step.big_blind, step.ante, step.bring_in):
                assert amount % smallest == 0, f"{name} levels[{i}]: {amount} with {smallest}s"


@pytest.mark.parametrize("name", sorted(config.structures()))
def test_every_shipped_structure_only_raises_the_stakes(name: str) -> None:
    structure = config.resolve_structure(name)
    levels = [s for s in structure.levels if isinstance(s, Level)]
    for game in {level.game for level in levels}:
        bets = [level.big_blind for level in levels if level.game == game]
        assert bets == sorted(bets), f"{name}: {game} levels go down"


def test_horse_rotates_holdem_omaha_razz_stud_stud_with_stud_antes_and_bring_ins() -> None:
    structure = config.resolve_structure("horse-mixed")
    levels = [s for s in structure.levels if isinstance(s, Level)]
    assert [level.game for level in levels[:5]] == ["holdem", "omaha", "razz", "stud", "stud"]
    assert [level.game for level in levels] == [level.game for level in levels[:5]] * 4
    for level in levels:
        if level.game in ("stud", "razz"):
            assert level.ante > 0
            assert level.bring_in > 0
            assert level.big_blind == 2 * level.small_blind  # the limits: small bet, big bet
        else:
            assert level.ante == level.bring_in == 0
        assert level.minutes == 30


def test_stud_classic_posts_antes_and_a_bring_in_at_every_level() -> None:
    structure = config.resolve_structure("stud-classic")
    levels = [s for s in structure.levels if isinstance(s, Level)]
    assert all(level.ante > 0 and level.bring_in > 0 for level in levels)


def test_club_night_turbo_has_a_big_blind_ante_from_level_five() -> None:
    structure = config.resolve_structure("club-night-turbo")
    levels = [s for s in structure.levels if isinstance(s, Level)]
    assert structure.starting_stack == 10000
    assert [level.big_blind_ante for level in levels[:5]] == [False] * 4 + [True]
    assert all(level.big_blind_ante for level in levels[4:])
    assert all(level.minutes == 15 for level in levels)
    assert any(isinstance(s, Break) and s.color_up == (25,) for s in structure.levels)


def test_the_main_event_colours_up_25_then_100_then_500() -> None:
    structure = config.resolve_structure("pfp-2014-main-event")
    colour_ups = [s.color_up for s in structure.levels if isinstance(s, Break) and s.color_up]
    assert colour_ups[:3] == [(25,), (100,), (500,)]
    assert structure.starting_stack == 30000
    assert all(s.minutes == 40 for s in structure.levels if isinstance(s, Level))


def test_the_demo_plays_300_players_nine_handed_at_one_minute_a_level() -> None:
    cfg = config.load_tournament(config.tournaments()["demo"])
    rules, structure = config.build_tournament(cfg)
    assert cfg.players == 300
    assert (rules.name, rules.seats, rules.final_table) == ("tda-2024", 9, 9)
    assert structure.name == "demo-fast"
    levels = [s for s in structure.levels if isinstance(s, Level)]
    breaks = [s for s in structure.levels if isinstance(s, Break)]
    assert 18 <= len(levels) <= 24
    assert all(level.minutes == 1.0 for level in levels)
    assert breaks
    assert all(b.minutes < 1 and b.color_up for b in breaks)


@pytest.mark.parametrize("name", sorted(config.tournaments()))
def test_every_shipped_tournament_loads_and_builds(name: str) -> None:
    cfg = config.load_tournament(config.tournaments()[name])
    rules, structure = config.build_tournament(cfg)
    assert isinstance(rules, Rules)
    assert isinstance(structure, Structure)


def test_the_mixed_rule_set_plays_the_horse_structure() -> None:
    cfg = TournamentConfig(name="HORSE", rules="tda-2024-mixed", structure="horse-mixed")
    rules, structure = config.build_tournament(cfg)
    assert rules.game == "mixed"
    assert structure.name == "horse-mixed"


def test_the_stud_rule_set_plays_the_stud_structure() -> None:
    cfg = TournamentConfig(name="Stud", rules="tda-2011-stud", structure="stud-classic")
    assert config.build_tournament(cfg)[0].game == "stud"


def test_the_config_folder_can_be_moved_with_an_environment_variable(
    write: Write, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write("elsewhere/rules/house.toml", GOOD_RULES)
    monkeypatch.setenv("FLOOR_CONFIG_DIR", str(tmp_path / "elsewhere"))
    assert config.config_dir() == tmp_path / "elsewhere"
    assert set(config.rule_sets()) == {"house"}
    assert config.structures() == {}
    assert config.resolve_rules("house").seats == 9


# --- tournaments and overrides ------------------------------------------------------------------


def test_overrides_apply_on_top_of_the_rule_set(write: Write) -> None:
    path = write(
        "t.toml",
        'name = "T"\nrules = "pfp-2014"\nstructure = "demo-fast"\n'
        "[overrides]\nseats = 8\nhalt_short = 0\nbreak_fill = 7\n"
        "reserved_seats = [{table = 2, seat = 1}]\n",
    )
    rules, _ = config.build_tournament(config.load_tournament(path))
    base = config.resolve_rules("pfp-2014")
    assert rules == msgspec.structs.replace(
        base,
        seats=8,
        halt_short=0,
        break_fill=7,
        reserved_seats=(ReservedSeat(table=2, seat=1),),
    )


def test_applying_no_overrides_gives_the_rule_set_unchanged() -> None:
    rules = config.resolve_rules("tda-2024")
    assert config.apply_overrides(rules, RuleOverrides()) is rules


def test_overrides_made_in_code_are_validated_too() -> None:
    rules = config.resolve_rules("tda-2024")
    with pytest.raises(ConfigError) as caught:
        config.apply_overrides(rules, RuleOverrides(seats=1))
    assert caught.value.field == "overrides"
    assert caught.value.message == "seats: Expected int >= 2, got 1 (on top of rule set 'tda-2024')"


def test_rule_overrides_mirror_every_field_of_rules() -> None:
    def fields(t: type[msgspec.Struct]) -> tuple[msgspec.inspect.Field, ...]:
        info = msgspec.inspect.type_info(t)
        assert isinstance(info, msgspec.inspect.StructType)
        return info.fields

    assert [(f.name, f.type) for f in fields(RuleOverrides)] == [
        (f.name, f.type) for f in fields(Rules)
    ]
    assert not any(f.required for f in fields(RuleOverrides))


def test_an_override_out_of_range_names_the_tournament_file_and_the_key(write: Write) -> None:
    path = write(
        "t.toml",
        'name = "T"\nrules = "tda-2024"\nstructure = "demo-fast"\n[overrides]\nseats = 1\n',
    )
    assert str(error_of(config.load_tournament, path)) == (
        "t.toml: overrides.seats: Expected int >= 2, got 1"
    )


def test_overrides_that_break_the_rule_set_are_refused_naming_the_tournament_file(
    write: Write,
) -> None:
    path = write(
        "t.toml",
        'name = "T"\nrules = "pfp-2014"\nstructure = "demo-fast"\n[overrides]\nbreak_fill = 10\n',
    )
    # 10 is a seat count, so the override itself is fine; with 9 seats it is not.
    assert str(error_of(config.load_tournament, path)) == (
        "t.toml: overrides: break_fill: cannot exceed seats (on top of rule set 'pfp-2014')"
    )


def test_a_tournament_finds_rules_and_structure_files_beside_it(write: Write) -> None:
    write("house/rules.toml", GOOD_RULES)
    write("house/blinds.toml", GOOD_STRUCTURE)
    path = write("house/t.toml", 'name = "T"\nrules = "rules.toml"\nstructure = "./blinds.toml"\n')
    rules, structure = config.build_tournament(config.load_tournament(path))
    assert rules.name == structure.name == "house"


def test_a_tournament_naming_an_unknown_rule_set_lists_the_known_ones(write: Write) -> None:
    path = write("t.toml", 'name = "T"\nrules = "pfp-2015"\nstructure = "demo-fast"\n')
    message = str(error_of(config.load_tournament, path))
    assert message.startswith("t.toml: rules: unknown rule set 'pfp-2015' (known: ")
    assert "pfp-2014" in message
    assert "tda-2024-mixed" in message


def test_an_unknown_rule_set_name_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown rule set 'tda-2025' \(known: .*tda-2024"):
        config.resolve_rules("tda-2025")


def test_an_unknown_structure_name_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown structure 'nightly' \(known: .*demo-fast"):
        config.resolve_structure("nightly")


def test_a_tournament_whose_rules_file_is_bad_reports_the_rules_file(write: Write) -> None:
    write("bad-rules.toml", GOOD_RULES.replace("seats = 9", "seats = 0"))
    path = write("t.toml", 'name = "T"\nrules = "bad-rules.toml"\nstructure = "demo-fast"\n')
    assert str(error_of(config.load_tournament, path)) == (
        "bad-rules.toml: seats: Expected int >= 2, got 0"
    )


def test_a_structure_dealing_another_game_than_the_rule_set_is_refused(write: Write) -> None:
    path = write("t.toml", 'name = "T"\nrules = "pfp-2014"\nstructure = "horse-mixed"\n')
    assert str(error_of(config.load_tournament, path)) == (
        "t.toml: structure: horse-mixed levels[1] deals omaha, but rule set 'pfp-2014' is for"
        " holdem"
    )


def test_a_mixed_rule_set_needs_every_level_to_name_its_game() -> None:
    cfg = TournamentConfig(name="Mixed", rules="tda-2024-mixed", structure="demo-fast")
    with pytest.raises(ConfigError) as caught:
        config.build_tournament(cfg)
    assert caught.value.field == "tournament 'Mixed': structure"
    assert "levels[0] names no game" in caught.value.message


def test_a_tournament_without_a_name_is_refused(write: Write) -> None:
    path = write("t.toml", 'name = ""\nrules = "pfp-2014"\nstructure = "demo-fast"\n')
    assert str(error_of(config.load_tournament, path)) == (
        't.toml: name: Expected str of length >= 1, got ""'
    )


# --- bad files: one clear error each, naming the file and the key -------------------------------


def test_a_value_of_the_wrong_type_names_the_key_and_both_types(write: Write) -> None:
    path = write("x.toml", GOOD_RULES.replace("seats = 9", 'seats = "nine"'))
    error = error_of(config.load_rules, path)
    assert str(error) == "x.toml: seats: Expected int, got str"
    assert error.field == "x.toml: seats"
    assert error.message == "Expected int, got str"


def test_a_value_out_of_range_names_the_key_the_limit_and_the_value(write: Write) -> None:
    path = write("x.toml", GOOD_RULES.replace("seats = 9", "seats = 1"))
    assert str(error_of(config.load_rules, path)) == "x.toml: seats: Expected int >= 2, got 1"


def test_an_unknown_key_is_named(write: Write) -> None:
    path = write("x.toml", GOOD_RULES + "sets = 9\n")
    assert str(error_of(config.load_rules, path)) == (
        "x.toml: Object contains unknown field `sets`"
    )


def test_an_unknown_key_in_a_level_names_the_level(write: Write) -> None:
    path = write("s.toml", GOOD_STRUCTURE.replace("minutes = 20\n", "minutes = 20\nblind = 1\n", 1))
    assert str(error_of(config.load_structure, path)) == (
        "s.toml: levels[0]: Object contains unknown field `blind`"
    )


def test_a_toml_syntax_error_gives_its_line(write: Write) -> None:
    path = write("x.toml", 'name = "house"\ngame = "holdem"\nseats = \nfinal_table = 9\n')
    message = str(error_of(config.load_rules, path))
    assert message.startswith("x.toml: TOML syntax error: ")
    assert "line 3" in message


def test_a_missing_required_key_is_named(write: Write) -> None:
    path = write("x.toml", GOOD_RULES.replace("final_table = 9\n", ""))
    assert str(error_of(config.load_rules, path)) == (
        "x.toml: Object missing required field `final_table`"
    )


def test_a_missing_level_type_names_the_level(write: Write) -> None:
    path = write("s.toml", GOOD_STRUCTURE.replace('type = "level"\n', "", 1))
    assert str(error_of(config.load_structure, path)) == (
        "s.toml: levels[0]: Object missing required field `type`"
    )


def test_an_unknown_level_type_is_named(write: Write) -> None:
    path = write("s.toml", GOOD_STRUCTURE.replace('type = "break"', 'type = "pause"'))
    assert str(error_of(config.load_structure, path)) == (
        "s.toml: levels[1].type: Invalid value 'pause'"
    )


def test_a_nested_value_of_the_wrong_type_names_its_key_path(write: Write) -> None:
    path = write("s.toml", GOOD_STRUCTURE.replace("big_blind = 200", 'big_blind = "200"'))
    assert str(error_of(config.load_structure, path)) == (
        "s.toml: levels[2].big_blind: Expected int, got str"
    )


def test_a_big_blind_below_the_small_blind_names_the_level(write: Write) -> None:
    path = write("s.toml", GOOD_STRUCTURE.replace("big_blind = 200", "big_blind = 50"))
    assert str(error_of(config.load_structure, path)) == (
        "s.toml: levels[2].small_blind: cannot exceed big_blind"
    )


def test_a_colour_up_of_a_denomination_not_in_play_names_the_break(write: Write) -> None:
    path = write("s.toml", GOOD_STRUCTURE.replace("color_up = [25]", "color_up = [5]"))
    assert str(error_of(config.load_structure, path)) == (
        "s.toml: levels[1].color_up: 5 is not in play then"
    )


def test_a_reserved_seat_outside_the_table_is_refused(write: Write) -> None:
    path = write("x.toml", GOOD_RULES + "reserved_seats = [{table = 1, seat = 12}]\n")
    assert str(error_of(config.load_rules, path)) == (
        "x.toml: reserved_seats[0].seat: seat 12 does not exist at table 1"
    )


def test_a_reserved_seat_numbered_zero_names_its_key_path(write: Write) -> None:
    path = write("x.toml", GOOD_RULES + "reserved_seats = [{table = 1, seat = 0}]\n")
    assert str(error_of(config.load_rules, path)) == (
        "x.toml: reserved_seats[0].seat: Expected int >= 1, got 0"
    )


def test_a_table_listed_twice_in_break_order_names_the_key(write: Write) -> None:
    path = write("x.toml", GOOD_RULES + "break_order = [3, 2, 3, 1]\n")
    assert str(error_of(config.load_rules, path)) == "x.toml: break_order: lists a table twice"


def test_an_unknown_game_is_named_with_its_value(write: Write) -> None:
    path = write("x.toml", GOOD_RULES.replace('"holdem"', '"poker"'))
    assert str(error_of(config.load_rules, path)) == "x.toml: game: Invalid enum value 'poker'"


def test_a_file_that_does_not_exist_is_named(write: Write) -> None:
    message = str(error_of(config.load_rules, Path("missing.toml")))
    assert message.startswith("missing.toml: cannot read the file: ")


def test_a_file_that_is_not_utf8_is_refused(write: Write, tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_bytes(b"\xff\xfe seats = 9\n")
    assert str(error_of(config.load_rules, path)).startswith("x.toml: TOML syntax error: ")


def test_a_file_outside_the_working_folder_is_named_by_its_full_path(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text(GOOD_RULES.replace("seats = 9", "seats = 1"), encoding="utf-8")
    assert str(error_of(config.load_rules, path)).startswith(f"{path}: seats: ")


@pytest.mark.parametrize(
    ("build", "problem"),
    [
        (lambda: Rules(game="holdem", seats=40, final_table=9), "<= 12 - at `$.seats`"),
        (lambda: Rules(game="poker", seats=9, final_table=9), "'poker' - at `$.game`"),
        (lambda: Rules(game="holdem", seats=9, final_table=9, time_call_seconds=1), "time_call"),
        (lambda: Level(small_blind=25, big_blind=50, minutes=0), "> 0.0 - at `$.minutes`"),
        (lambda: Break(minutes=10, color_up=(0,)), ">= 1 - at `$.color_up[0]`"),
        (lambda: ReservedSeat(0, 1), ">= 1 - at `$.table`"),
    ],
    ids=["seats", "game", "time-call", "minutes", "color-up", "reserved-seat"],
)
def test_config_built_in_code_is_held_to_the_limits_a_file_is(
    build: Callable[[], object], problem: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        build()
