"""Why the engine decides what it does: the rule each decision follows, per rulebook.

Screens show these next to a move, a halt or a break ("why is this player moving?"), so they
name the rule a floorperson can look up. TDA 2024 is the default; the Pardubice 2014 house
rules cite their own numbers and fall back to the TDA for what they do not cover.

Each decision also links to a rule of the rulebook (``config/rulebook/*.toml``) by its id:
``rule_id("balance")`` is ``"balancing"``, the same id in every rule set, so that a screen
opens ``GET /api/rulebook/balancing?set=pfp-2014`` and shows that house's wording of it.
"""

from __future__ import annotations

from typing import Final, Literal

from .model import Rulebook

Decision = Literal[
    "balance",
    "balance_stud",
    "balance_mixed",
    "halt",
    "break",
    "final",
    "waiting",
    "dead_button",
    "reported_button",
    "register",
    "draw",
    "redraw",
    "correction",
    "re_entry",
    "rebuy",
    "add_on",
    "same_hand",
    "dispute",
    "new_level",
    "chip_race",
    "time_call",
    "odd_chip",
    "side_pots",
    "prize_pool",
]

#: The rule a decision follows, by its id in the rulebook files (the same in every rule set).
RULE_IDS: Final[dict[Decision, str]] = {
    "balance": "balancing",
    "balance_stud": "balancing-stud",
    "balance_mixed": "balancing-mixed",
    "halt": "halting",
    "break": "breaking-tables",
    "final": "final-table",
    "waiting": "new-player-waits",
    "dead_button": "dead-button",
    "reported_button": "button-draw",
    "register": "late-registration",
    "draw": "random-seating",
    "redraw": "breaking-tables",
    "correction": "random-seating",
    "re_entry": "late-registration",
    "rebuy": "rebuys",
    "add_on": "add-ons",
    "same_hand": "same-hand-eliminations",
    "dispute": "disputed-hands",
    "new_level": "new-level",
    "chip_race": "chip-race",
    "time_call": "time-call",
    "odd_chip": "odd-chips",
    "side_pots": "side-pots",
    "prize_pool": "prize-pool",
}

_TDA_2024: dict[Decision, str] = {
    "balance": "TDA 2024 rule 11A: the next big blind moves to the worst position",
    "balance_stud": "TDA 2024 rule 11A: in stud, players move by position to the last seat "
    "to open at the short table",
    "balance_mixed": "TDA 2024 rule 11B: in a mixed game during stud, the player who would be "
    "the next big blind in hold'em moves",
    "halt": "TDA 2024 rule 11D: play halts at a table 3 or more players short",
    "break": "TDA 2024 rule 10B: players from a broken table are seated by a 2-step random draw",
    "final": "TDA 2024 RP-9: the final table is redrawn at random",
    "waiting": "TDA 2024 rule 10A: a new player is not dealt in between the button and the "
    "small blind",
    "dead_button": "TDA 2024 rule 32: dead button; nobody skips the big blind",
    "reported_button": "House procedure: the button is placed by a high-card draw",
    "register": "TDA 2024 rule 8: late entries are seated from the same seat pool",
    "draw": "TDA 2024 rule 7: random seating",
    "redraw": "TDA 2024 rule 10B: a drawn seat that no longer fits is drawn again",
    "correction": "TDA 2024 rule 7: a player in the wrong seat moves to the right one with "
    "their chips",
    "re_entry": "TDA 2024 rule 8: a re-entry is a new entry with a new seat from the same pool",
    "rebuy": "Rebuys are declared before the deal: a player may not miss a hand",
    "add_on": "House rule: the add-on is offered once, at the end of the rebuy period",
    "same_hand": "Players out in the same hand: more chips at the start of the hand places "
    "higher, equal stacks share the place",
    "dispute": "TDA 2024 rule 22: the right to dispute a hand ends when the next hand begins",
    "new_level": "TDA 2024 rule 23: a new level applies from the next hand",
    "chip_race": "TDA 2024 rule 24: chips are raced off from seat 1, one chip at most per "
    "player, nobody raced out",
    "time_call": "TDA 2024 rule 29: a clock gives the player a set time, then a short count; "
    "facing a bet, the hand is dead when it ends",
    "odd_chip": "TDA 2024 rule 20: the odd chip goes to the first winner left of the button "
    "(stud: the high card by suit)",
    "side_pots": "TDA 2024 rule 21: each side pot is split separately",
    "prize_pool": "House rule: the prize pool is the buy-ins or the guarantee, fees apart",
}

_TDA_2011: dict[Decision, str] = {
    **_TDA_2024,
    "balance": "TDA 2011 rule 8A: the next big blind moves to the worst position",
    "balance_stud": "TDA 2011 rule 8A: in stud, the last seat to open at the short table is filled",
    "balance_mixed": "TDA 2011 rule 8B: in a mixed game during stud, the player who would be "
    "the next big blind in hold'em moves",
    "halt": "TDA 2011 rule 8A: play halts at a table 3 or more players short",
    "break": "TDA 2011 rule 7: players from a broken table take the rights of the new seat",
    "final": "TDA 2011 rule 9: the final table is redrawn",
    "waiting": "TDA 2011 rule 7: no hand between the button and the small blind",
    "draw": "TDA 2011 rule 5: random correct seating",
    "redraw": "TDA 2011 rule 7: a drawn seat that no longer fits is drawn again",
    "correction": "TDA 2011 rule 5: a player in the wrong seat moves with their chips",
    "dispute": "TDA 2011 rule 19: the right to dispute a hand ends when a new hand begins",
    "time_call": "TDA 2011 rule 20: up to one minute, then a 10-second count",
    "odd_chip": "TDA 2011 rule 17: the odd chip goes left of the button (stud: high card by suit)",
    "side_pots": "TDA 2011 rule 18: each side pot is split separately",
}

_PFP_2014: dict[Decision, str] = {
    **_TDA_2024,
    "balance": "PFP 2014 rule 8: the next big blind moves to the worst position",
    "halt": "PFP 2014 rule 8 (TDA 11D): play halts at a table 3 or more players short",
    "break": "PFP 2014 rule 7: players from a broken table check their new table and seat",
    "redraw": "PFP 2014 rule 7: a drawn seat that no longer fits is drawn again",
    "final": "PFP 2014 rule 9: the final table is redrawn (9 players; 6-max: 7)",
    "waiting": "PFP 2014 rule 7: no hand between the small blind and the button",
    "dead_button": "PFP 2014 rule 28: dead button",
    "draw": "PFP 2014 rule 5: random correct seating",
    "correction": "PFP 2014 rule 5: a player in the wrong seat moves with their stack",
    "rebuy": "PFP 2014 rule 23: a rebuy is declared before the deal; nobody misses a hand",
    "dispute": "PFP 2014 rule 18: the right to dispute a hand ends when the next hand begins",
    "new_level": "PFP 2014 rule 19: a new level applies from the next hand",
    "chip_race": "PFP 2014 rule 20: the race starts at seat 1, one chip at most per player, "
    "nobody raced out",
    "time_call": "PFP 2014 rule 24: as a rule one minute, then a ten-second count",
    "odd_chip": "PFP 2014 rule 16: the odd chip goes to the worse position (left of the button)",
    "side_pots": "PFP 2014 rule 17: each side pot is split separately",
    "prize_pool": "PFP 2014: the buy-in goes to the prize pool, the fee to the house; the "
    "guarantee is the least paid",
}

_BOOKS: dict[Rulebook, dict[Decision, str]] = {
    "tda-2024": _TDA_2024,
    "tda-2011": _TDA_2011,
    "pfp-2014": _PFP_2014,
}


def why(rulebook: Rulebook, decision: Decision) -> str:
    return _BOOKS[rulebook][decision]


def rule_id(decision: Decision) -> str:
    """The id of the rulebook entry a decision follows (the same id in every rule set)."""
    return RULE_IDS[decision]
