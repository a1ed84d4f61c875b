"""Why the engine decides what it does: the rule each decision follows, per rulebook.

Screens show these next to a move, a halt or a break ("why is this player moving?"), so they
name the rule a floorperson can look up. TDA 2024 is the default; the Pardubice 2014 house
rules cite their own numbers and fall back to the TDA for what they do not cover.
"""

from __future__ import annotations

from typing import Literal

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
]

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
    "reported_button": "TDA 2024 rule 7: the button is placed by high card",
    "register": "TDA 2024 rule 8: late entries are seated from the same seat pool",
    "draw": "TDA 2024 rule 7: random seating",
    "redraw": "TDA 2024 rule 10B: a drawn seat that no longer fits is drawn again",
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
    "register": "TDA 2011 rule 5: random seating",
}

_PFP_2014: dict[Decision, str] = {
    **_TDA_2024,
    "balance": "PFP 2014 rule 8: the next big blind moves to the worst position",
    "halt": "PFP 2014 rule 8 (TDA 11D): play halts at a table 3 or more players short",
    "break": "PFP 2014 rule 7: players from a broken table check their new table and seat",
    "final": "PFP 2014 rule 9: the final table is redrawn (9 players; 6-max: 7)",
    "waiting": "PFP 2014 rule 7: no hand between the small blind and the button",
    "dead_button": "PFP 2014 rule 28: dead button",
    "draw": "PFP 2014 rule 5: random correct seating",
}

_BOOKS: dict[Rulebook, dict[Decision, str]] = {
    "tda-2024": _TDA_2024,
    "tda-2011": _TDA_2011,
    "pfp-2014": _PFP_2014,
}


def why(rulebook: Rulebook, decision: Decision) -> str:
    return _BOOKS[rulebook][decision]
