"""A new tournament's settings from a request: a shipped config, or rules and structure.

``POST /api/tournaments`` names shipped files or gives the settings themselves; this turns
either into the rules, the structure and the name the store creates the tournament with,
refusing (naming the field) what cannot be used.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from .. import config as configs
from ..engine.alternates_model import Capacity
from ..engine.errors import ConfigError, RuleError
from ..engine.names import shown_name
from ..engine.prize import AddOn, PayoutRow, Prize, Rebuy, ReEntry
from ..engine.rules import Rules, Structure
from ..errortext import field_names
from .edges import BadRequest


class NewTournament(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/tournaments``: from a shipped tournament config, or rules and structure.

    ``rules`` and ``structure`` are the name of a shipped file or the settings themselves.
    """

    id: str
    name: str | None = None
    config: str | None = None
    rules: str | Rules | None = None
    structure: str | Structure | None = None
    overrides: configs.RuleOverrides | None = None
    #: Buy-in, fee, guarantee, rebuys, add-ons, re-entries and payouts, on top of the
    #: structure (a structure's own ``prize`` is replaced).
    prize: Prize | None = None
    #: How many may play at once and how the alternates are called; None: the config's.
    capacity: Capacity | None = None


def capacity_of(spec: NewTournament) -> Capacity | None:
    """The capacity a new tournament starts with: the request's, else its config's."""
    if spec.capacity is not None or spec.config is None:
        return spec.capacity
    path = configs.tournaments().get(spec.config)
    return None if path is None else configs.load_tournament(path).capacity


def config_keys() -> frozenset[str]:
    """Every field name a ``NewTournament`` body may hold, to name a misspelt one."""
    return field_names(
        NewTournament,
        Rules,
        Structure,
        configs.RuleOverrides,
        Prize,
        Rebuy,
        AddOn,
        ReEntry,
        PayoutRow,
        Capacity,
    )


def tournament_setup(spec: NewTournament) -> tuple[Rules, Structure | None, str]:
    """The rules, the structure and the name ``spec`` asks for."""
    structure: Structure | None
    try:
        if spec.config is not None:
            if spec.rules is not None or spec.structure is not None:
                raise BadRequest("give config, or rules and structure, not both", field="config")
            path = configs.tournaments().get(spec.config)
            if path is None:
                known = ", ".join(sorted(configs.tournaments()))
                raise BadRequest(
                    f"there is no tournament config {spec.config!r}; known: {known}",
                    field="config",
                )
            cfg = configs.load_tournament(path)
            rules, structure = configs.build_tournament(cfg)
            name = spec.name or cfg.name
        else:
            if spec.rules is None:
                raise BadRequest(
                    "give config, or rules (and a structure for the clock)", field="rules"
                )
            rules = (
                configs.resolve_rules(_shipped(spec.rules, configs.rule_sets(), "rules"))
                if isinstance(spec.rules, str)
                else spec.rules
            )
            structure = (
                configs.resolve_structure(
                    _shipped(spec.structure, configs.structures(), "structure")
                )
                if isinstance(spec.structure, str)
                else spec.structure
            )
            name = spec.name or spec.id
        if spec.overrides is not None:
            rules = configs.apply_overrides(rules, spec.overrides)
        if spec.prize is not None:
            if structure is None:
                raise BadRequest("a prize pool needs a structure (levels and chips)", field="prize")
            structure = configs.with_prize(structure, spec.prize)
        # The start page, the console and every screen's heading show it: the rule that
        # keeps a player's name visible keeps the tournament's.
        name = shown_name(name)
    except ConfigError as e:
        raise BadRequest(e.message, field=e.field) from None
    except RuleError as e:
        raise e.recast(BadRequest, "name") from None
    return rules, structure, name


def _shipped(name: str, shipped: dict[str, Path], field: str) -> Path:
    """A shipped rule set or structure named in a request body.

    Only the shipped names: ``config.resolve_rules`` also takes a path to any file, which is
    for the command line. Over HTTP a path let a request read any file the server can (and
    "/dev/zero" read forever); a NUL in it was a 500.
    """
    path = shipped.get(name)
    if path is None:
        known = ", ".join(sorted(shipped))
        raise BadRequest(
            f"there is no shipped {field} {name!r}; known: {known} (or give the settings)",
            field=field,
        )
    return path
