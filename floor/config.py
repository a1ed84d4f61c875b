"""Configuration files: rule sets, structures and tournaments, from TOML into the engine Structs.

The shipped files live in the repository's ``config/`` folder (the environment variable
``FLOOR_CONFIG_DIR`` names another one)::

    config/rules/*.toml          a Rules each: the house rule set
    config/structures/*.toml     a Structure each: blind levels, breaks and chips
    config/tournaments/*.toml    a TournamentConfig each: names a rule set and a structure,
                                 with the house's overrides and its prize settings
    config/rulebook/*.toml       a RulebookFile each: the rules in English and Czech

A rule set or structure is named by its file name without ``.toml`` ("pfp-2014"), or given as a
path to a file ("house/rules.toml"; in a tournament file, relative to that file's folder).

Every problem with a file is one ``ConfigError`` whose text names the file, the key and the
problem, for example ``config/rules/x.toml: seats: Expected int >= 2, got 1``. Its ``field`` is
the place (file and key), its ``message`` the problem.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Final, TypeVar

import msgspec
from msgspec import UNSET, Meta, UnsetType

from .engine.alternates_model import Capacity
from .engine.amendments import games_mismatch
from .engine.errors import ConfigError
from .engine.model import Game, Rulebook
from .engine.prize import AddOn, PayoutRow, Prize, Rebuy, ReEntry
from .engine.rulebook import Book, RulebookFile, RuleText, build
from .engine.rules import (
    Break,
    Level,
    NonNegativeInt,
    PositiveInt,
    ReservedSeat,
    Rules,
    SeatCount,
    Structure,
)
from .errortext import explain, field_names

__all__ = [
    "RuleOverrides",
    "TournamentConfig",
    "apply_overrides",
    "build_tournament",
    "config_dir",
    "load_rulebook",
    "load_rules",
    "load_structure",
    "load_tournament",
    "parse_structure",
    "resolve_rules",
    "resolve_structure",
    "rule_sets",
    "rulebooks",
    "structures",
    "tournaments",
    "with_prize",
]

CONFIG_DIR_ENV: Final = "FLOOR_CONFIG_DIR"

NonEmptyStr = Annotated[str, Meta(min_length=1)]

T = TypeVar("T")


class RuleOverrides(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """House changes to a rule set for one tournament: any field of ``Rules``, each optional.

    A field left unset keeps the rule set's value. The types mirror ``Rules`` one for one.
    """

    game: Game | UnsetType = UNSET
    seats: SeatCount | UnsetType = UNSET
    final_table: SeatCount | UnsetType = UNSET
    balance_trigger: Annotated[int, Meta(ge=2)] | UnsetType = UNSET
    halt_short: NonNegativeInt | UnsetType = UNSET
    break_order: tuple[PositiveInt, ...] | UnsetType | None = UNSET
    balance_order: tuple[PositiveInt, ...] | UnsetType | None = UNSET
    break_fill: SeatCount | UnsetType | None = UNSET
    reserved_seats: tuple[ReservedSeat, ...] | UnsetType = UNSET
    final_table_number: PositiveInt | UnsetType | None = UNSET
    rulebook: Rulebook | UnsetType = UNSET
    name: str | UnsetType = UNSET
    time_call_seconds: Annotated[int, Meta(ge=5, le=600)] | UnsetType = UNSET
    time_call_count: Annotated[int, Meta(ge=0, le=60)] | UnsetType = UNSET
    spare_next_break: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    undo_minutes: Annotated[int, Meta(ge=0, le=1440)] | UnsetType = UNSET
    hand_for_hand_seconds: Annotated[int, Meta(ge=0, le=600)] | UnsetType = UNSET


class TournamentConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One tournament: which rule set and structure it plays, and the house's changes."""

    name: NonEmptyStr
    #: A shipped rule set's name ("pfp-2014") or the path of a rules file.
    rules: NonEmptyStr
    #: A shipped structure's name ("demo-fast") or the path of a structure file.
    structure: NonEmptyStr
    overrides: RuleOverrides = RuleOverrides()
    #: Buy-in, fee, guarantee, rebuys, add-ons, re-entries and payouts; replaces the
    #: structure's own ``prize`` when given.
    prize: Prize | None = None
    #: The number of players expected (the demo registers this many).
    players: PositiveInt | None = None
    #: When play starts, as the organiser writes it (ISO 8601 recommended).
    starts_at: str | None = None
    #: How many may play at once, and how the alternates are called (``[capacity]``);
    #: None: no limit, a full room opens another table.
    capacity: Capacity | None = None


# ---------------------------------------------------------------------------------------------
# Loading one file


def load_rules(path: Path | str) -> Rules:
    """The rule set in the TOML file at ``path``."""
    return _decode(path, Rules)


def load_structure(path: Path | str) -> Structure:
    """The structure in the TOML file at ``path``."""
    return _decode(path, Structure)


def parse_structure(data: bytes, where: str = "structure") -> Structure:
    """The structure in the TOML text ``data`` (a file brought to the console), checked as a
    shipped file is; a ``ConfigError`` names ``where`` and the key."""
    return _decode_bytes(data, Structure, where)


def load_tournament(path: Path | str) -> TournamentConfig:
    """The tournament in the TOML file at ``path``, checked with what it names.

    Relative paths to rules or structure files are taken from the tournament file's folder.
    The rule set, the overrides applied to it and the structure are checked here, so that a
    problem with any of them is reported when the file is loaded.
    """
    cfg = _decode(path, TournamentConfig)
    folder = Path(path).resolve().parent
    cfg = msgspec.structs.replace(
        cfg, rules=_beside(folder, cfg.rules), structure=_beside(folder, cfg.structure)
    )
    _build(cfg, where=_shown(path))
    return cfg


# ---------------------------------------------------------------------------------------------
# The shipped files


def config_dir() -> Path:
    """The folder of shipped configuration: ``$FLOOR_CONFIG_DIR``, else the repository's."""
    env = os.environ.get(CONFIG_DIR_ENV)
    return Path(env) if env else Path(__file__).resolve().parent.parent / "config"


def rule_sets() -> dict[str, Path]:
    """The shipped rule sets by name."""
    return _shipped("rules")


def structures() -> dict[str, Path]:
    """The shipped structures by name."""
    return _shipped("structures")


def tournaments() -> dict[str, Path]:
    """The shipped tournament files by name."""
    return _shipped("tournaments")


def resolve_rules(name_or_path: str | Path) -> Rules:
    """A shipped rule set by name, or the rule set in a file."""
    return load_rules(_locate(name_or_path, rule_sets(), "rule set"))


def resolve_structure(name_or_path: str | Path) -> Structure:
    """A shipped structure by name, or the structure in a file."""
    return load_structure(_locate(name_or_path, structures(), "structure"))


def build_tournament(cfg: TournamentConfig) -> tuple[Rules, Structure]:
    """The rules (with the overrides applied) and the structure a tournament plays, the
    tournament's prize settings carried in the structure."""
    return _build(cfg, where=f"tournament {cfg.name!r}")


def with_prize(structure: Structure, prize: Prize) -> Structure:
    """``structure`` paying ``prize``, checked against its levels and chips.

    Raises ``ConfigError`` (field ``prize.<key>``) when they do not fit, for example a rebuy
    until a level the structure does not have.
    """
    try:
        return msgspec.structs.replace(structure, prize=prize)
    except ValueError as e:
        key, problem = explain(str(e), msgspec.to_builtins(structure), _KEYS)
        raise ConfigError(problem, field=key or "prize") from e


def apply_overrides(rules: Rules, overrides: RuleOverrides) -> Rules:
    """``rules`` with every field set in ``overrides`` replaced, validated again as a whole.

    Raises ``ConfigError`` (field ``overrides``) when the result breaks a rule, for example a
    ``break_fill`` above the new ``seats``.
    """
    changes = msgspec.to_builtins(overrides)  # unset fields are left out
    if not changes:
        return rules
    merged = {**msgspec.to_builtins(rules), **changes}
    try:
        return msgspec.convert(merged, type=Rules)
    except msgspec.ValidationError as e:
        key, problem = explain(str(e), merged, _KEYS)
        shown = f"{key}: {problem}" if key else problem
        raise ConfigError(f"{shown} (on top of rule set {rules.name!r})", field="overrides") from e


def _build(cfg: TournamentConfig, *, where: str) -> tuple[Rules, Structure]:
    rules = load_rules(_locate(cfg.rules, rule_sets(), "rule set", field=f"{where}: rules"))
    try:
        rules = apply_overrides(rules, cfg.overrides)
    except ConfigError as e:
        raise ConfigError(e.message, field=f"{where}: {e.field}") from e
    structure = load_structure(
        _locate(cfg.structure, structures(), "structure", field=f"{where}: structure")
    )
    problem = _games_mismatch(rules, structure)
    if problem:
        raise ConfigError(problem, field=f"{where}: structure")
    if cfg.prize is not None:
        try:
            structure = with_prize(structure, cfg.prize)
        except ConfigError as e:
            raise ConfigError(e.message, field=f"{where}: {e.field}") from e
    return rules, structure


def _games_mismatch(rules: Rules, structure: Structure) -> str | None:
    """Why the structure's levels do not fit the rule set's game, or None when they do
    (the check ``set_structure`` makes too)."""
    return games_mismatch(rules, structure)


# ---------------------------------------------------------------------------------------------
# The rulebook


def rulebooks() -> dict[str, Path]:
    """The shipped rulebooks by name ("tda-2024", "pfp-2014")."""
    return _shipped("rulebook")


def load_rulebook(name: str) -> Book:
    """The rulebook ``name`` with what it extends resolved; ``ConfigError`` if it is unknown
    or a file is bad. Files are read again only when they change."""
    path = _locate(name, rulebooks(), "rulebook")
    return _rulebook(str(path), _stamp(path))


def _stamp(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


@lru_cache(maxsize=16)
def _rulebook(path: str, stamp: int, chain: tuple[str, ...] = ()) -> Book:
    file = _decode(path, RulebookFile)
    if file.extends is None:
        return _built(path, file, None)
    if file.extends in chain or file.extends == file.name:
        raise ConfigError(f"{file.extends!r} extends itself in a loop", field=f"{path}: extends")
    folder = Path(path).parent
    base_path = folder / f"{file.extends}.toml"
    if not base_path.exists():
        known = ", ".join(sorted(p.stem for p in folder.glob("*.toml"))) or "none"
        raise ConfigError(
            f"unknown rulebook {file.extends!r} (known: {known})", field=f"{_shown(path)}: extends"
        )
    base = _rulebook(str(base_path), _stamp(base_path), (*chain, file.name))
    return _built(path, file, base)


def _built(path: str, file: RulebookFile, base: Book | None) -> Book:
    try:
        return build(file, base)
    except ConfigError as e:
        where = f"{_shown(path)}: {e.field}" if e.field else _shown(path)
        raise e.recast(ConfigError, where) from e


def _shipped(kind: str) -> dict[str, Path]:
    return {p.stem: p for p in sorted((config_dir() / kind).glob("*.toml"))}


def _is_path(value: str) -> bool:
    return value.endswith(".toml") or "/" in value or os.sep in value


def _locate(
    name_or_path: str | Path, shipped: dict[str, Path], what: str, *, field: str | None = None
) -> Path:
    """The file a rule-set or structure name stands for, or the path itself."""
    if isinstance(name_or_path, Path):
        return name_or_path
    if name_or_path in shipped:
        return shipped[name_or_path]
    if _is_path(name_or_path):
        return Path(name_or_path)
    known = ", ".join(shipped) or "none"
    raise ConfigError(f"unknown {what} {name_or_path!r} (known: {known})", field=field)


def _beside(folder: Path, value: str) -> str:
    """A relative file path in a tournament file, made relative to that file's folder."""
    if _is_path(value) and not Path(value).is_absolute():
        return str(folder / value)
    return value


# ---------------------------------------------------------------------------------------------
# Decoding and explaining what is wrong


_KEYS: Final = field_names(
    Rules,
    ReservedSeat,
    Structure,
    Level,
    Break,
    TournamentConfig,
    RuleOverrides,
    Prize,
    Rebuy,
    AddOn,
    ReEntry,
    PayoutRow,
    RulebookFile,
    RuleText,
)


def _decode(path: Path | str, type_: type[T]) -> T:
    where = _shown(path)
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ConfigError(f"cannot read the file: {e.strerror or e}", field=where) from e
    return _decode_bytes(data, type_, where)


def _decode_bytes(data: bytes, type_: type[T], where: str) -> T:
    try:
        return msgspec.toml.decode(data, type=type_)
    except msgspec.ValidationError as e:
        # The file is good TOML, so decoding it untyped gives the values to quote.
        key, problem = explain(str(e), msgspec.toml.decode(data), _KEYS)
        raise ConfigError(problem, field=f"{where}: {key}" if key else where) from e
    except msgspec.DecodeError as e:
        raise ConfigError(f"TOML syntax error: {e}", field=where) from e


def _shown(path: Path | str) -> str:
    """The path as a person would type it: relative to the working folder when inside it."""
    p = Path(path)
    if p.is_absolute():
        try:
            return str(p.relative_to(Path.cwd()))
        except (ValueError, OSError):
            pass
    return str(p)
