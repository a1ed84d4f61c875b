"""Domain errors: what the rules refuse, as a code with parameters and a sentence in English.

Tree::

    FloorError
    ├── ConfigError          a rule set, structure or scenario that cannot be used
    │   └── ConfigValueError a config Struct's own check (raised in ``__post_init__``)
    └── RuleError            a command the rules refuse; the state is unchanged
        ├── UnknownPlayer
        ├── UnknownTable
        ├── BadSeat          a seat that does not exist or is not free
        ├── NotAllowed       the command does not fit the tournament as it stands
        ├── BadValue         a value no screen can use (a blank name, a bad player id)
        └── NoPlannedMove

Every error says three things:

- ``code``, the error's *kind*, a class attribute (``not_allowed``, ``bad_seat``...): the edges
  pick the HTTP status by it;
- ``reason``, *which* refusal it is (``player_out``, ``late_registration_closed``...), with
  ``params``, the values it is about as plain JSON (player ids, table and seat numbers,
  levels, chips): each language renders the reason from these (``web/js/lang/errors-*.js``),
  so no screen reads the English;
- ``message``, the English sentence, for the CLI, the logs and API clients;

and ``field``, the part of the request it is about when there is one, so that the edges can
name it: HTTP 4xx bodies, websocket replies, ``floor scenario`` on stderr.

``PARAMS`` is the catalogue of reasons: each one with the names of its parameters. A test
checks that every reason raised anywhere is listed with the parameters it is raised with, and
that every reason has an English and a Czech template naming only those.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, Literal, TypeVar, cast

#: A parameter value: what JSON carries and every language can format.
Param = str | int | float | bool | None | list[int] | list[str]
Params = dict[str, Param]

Reason = Literal[
    # Players, tables and seats.
    "player_unknown",
    "player_out",
    "player_is_out",
    "player_unseated",
    "player_exists",
    "player_not_out",
    "player_listed_twice",
    "table_unknown",
    "table_exists",
    "table_listed_twice",
    "table_not_open",
    "table_broken",
    "table_halted",
    "table_short",
    "seat_unknown",
    "seat_empty",
    "player_not_at_seat",
    "seat_taken",
    "seat_taken_floor",
    "seat_now_taken",
    "seat_planned",
    "seat_reserved",
    # Names and ids.
    "name_blank",
    "name_hidden_marks",
    "player_id_unshown",
    "required",
    # A player after registration (players.py).
    "name_unchanged",
    "special_needs_already",
    "special_needs_not_marked",
    "unregister_out",
    "unregister_closed",
    "unregister_re_entry",
    # Entries and the draw.
    "late_registration_closed",
    "re_entry_late_closed",
    "re_entry_none",
    "re_entry_closed",
    "re_entry_limit",
    "final_table_full",
    "seats_drawn",
    "draw_too_few",
    "draw_too_small",
    "draw_table_not_free",
    "draw_table_no_room",
    "table_would_break",
    # Bust-outs.
    "bust_wrong_seat",
    "bust_who",
    "last_player",
    "start_stack_needed",
    "all_out",
    "dispute_over",
    "undo_level_over",
    "undo_expired",
    "no_seat_to_return",
    "final_drawn",
    # Hands and buttons.
    "positions_unknown",
    "stud_no_button",
    # Moves.
    "no_planned_move",
    "no_planned_moves",
    "move_no_seat",
    "move_incomplete",
    "move_called",
    "move_already_called",
    "move_already_called_seat",
    "no_moves_to_call",
    "already_there",
    # Tables and the final.
    "halt_already_waived",
    "halt_not_waived",
    "last_table",
    "break_no_room",
    "final_formed",
    "final_too_few",
    "final_too_many",
    "not_mixed",
    # Rebuys and add-ons.
    "rebuy_busted",
    "add_on_busted",
    "no_rebuys",
    "rebuys_closed",
    "rebuy_limit",
    "rebuy_stack_unknown",
    "rebuy_stack_too_big",
    "no_add_on",
    "add_on_at_break_only",
    "add_on_during_level",
    "add_on_limit",
    "stack_limit",
    # The chip race.
    "no_chip_set",
    "not_colour_up",
    "colour_up_which",
    "chip_not_in_play",
    "no_larger_chip",
    "already_raced",
    "race_stack_unknown",
    "race_deck",
    "chip_not_positive",
    "next_up_not_multiple",
    "smallest_out_of_range",
    "smallest_leaves",
    "race_nobody",
    "chips_negative",
    "seat_no_chips",
    "stack_below_chips",
    # Chip counts.
    "count_not_at_table",
    "count_in_future",
    "count_older",
    # The clock and time calls.
    "no_structure",
    "clock_started",
    "clock_not_running",
    "clock_not_started",
    "clock_running",
    "no_step",
    "step_or_to",
    "time_already_called",
    "no_time_call",
    # The end of the tournament.
    "tournament_finished",
    "tournament_closed",
    "tournament_not_finished",
    # Money and structure changed (amendments.py).
    "prize_unchanged",
    "prize_entries_sold",
    "prize_rebuys_sold",
    "prize_add_ons_sold",
    "structure_unchanged",
    "structure_has_prize",
    "structure_step_played",
    "structure_chips_started",
    "structure_stack_entered",
    "level_no_game",
    "level_other_game",
    # A player list brought in (floor.imports).
    "import_unreadable",
    "import_too_many_rows",
    "import_no_rows",
    "import_no_name_column",
    "import_column_unknown",
    "import_map_part",
    # A log brought in (floor import): events no command could have written.
    "log_start",
    "out_of_range",
    "not_as_recorded",
    "place_wrong",
    "shares_incomplete",
    "break_unfinished",
    # The pot calculator.
    "seat_not_exist",
    "seat_listed_twice",
    "pot_too_many_seats",
    "pot_unit_not_positive",
    "pot_nobody",
    "contribution_negative",
    "contribution_not_multiple",
    "contributions_total",
    "everybody_folded",
    "nobody_can_win",
    "stud_no_button_pot",
    "seat_not_in_hand",
    "not_a_card",
    "card_twice",
    "button_needed",
    "cards_in_flop",
    "no_low",
    "ranks_too_many",
    "tie_group_empty",
    "seat_folded",
    "seat_ranked_twice",
    "not_ranked",
    "high_card_needed",
    # Rulings and penalties.
    "ruling_in_future",
    "ruling_empty",
    "rule_unknown",
    "sit_out_length",
    "penalty_length",
    "penalty_chips",
    "sit_out_running",
    "no_sit_out",
    "no_sit_out_ruling",
    "disqualify_all",
    "player_disqualified",
    # Rule sets and structures.
    "order_table_twice",
    "break_fill_too_big",
    "reserved_seat_unknown",
    "reserved_seat_twice",
    "small_blind_too_big",
    "big_blind_ante_needs_ante",
    "no_levels",
    "chips_order",
    "not_made_of",
    "colour_up_not_in_play",
    "colour_up_leaves_none",
    "blind_not_payable",
    "no_level",
    "add_on_no_break",
    "payout_rows_order",
    "payout_too_many_places",
    "payout_total",
    "payout_rising",
    "out_of_limits",
    "rule_id_twice",
    "rule_text_one_language",
    "rule_replaces_own",
    "rule_replaced_twice",
    "rule_replaces_unknown",
    # Accounts.
    "pin_digits",
    "account_exists",
    "own_account",
    "only_director",
    "pin_dealer_only",
    "own_secret",
    "current_secret_wrong",
    "signin_wait",
    "too_many_requests",
    # Hand-for-hand (``hand_for_hand``).
    "h4h_on",
    "h4h_off",
    "h4h_one_table",
    "h4h_dealt",
    "h4h_reported",
    "h4h_bust_with_hand",
    "h4h_table_all_out",
    "h4h_round",
    # Table screens (``server.tablets``).
    "account_table",
    "no_such_tablet",
    # Flights, bag and tag, Day 2.
    "day_not_over",
    "day_ended",
    "day_not_ended",
    "flight_after_bag",
    "flight_twice",
    "flight_not_bagged",
    "day2_no_flights",
    "day2_check_failed",
    "day2_ack_reason",
    "bags_correction_reason",
    "bag_empty",
    "bag_number_twice",
    "bag_missing",
    # The dealer room (``house.dealers_decide``).
    "dealer_unknown",
    "dealer_clocked_in",
    "dealer_not_clocked_in",
    "dealer_unavailable",
    "dealer_busy",
    "dealer_game",
    "dealer_listed_twice",
    "room_table_unknown",
    "swap_same",
    "swap_no_dealer",
    "rest_longer_than_break",
    "zone_unknown",
    "dealer_room_full",
    # Bounds on what one request may ask for (the work it costs the server).
    "payout_table_too_large",
    "import_file_too_large",
    "import_sheet_too_large",
    "import_row_too_wide",
    "import_too_many_cells",
    "import_too_slow",
    "import_too_much_memory",
    # A deal at the final table (deal.py).
    "deal_no_prize",
    "deal_made",
    "deal_not_final",
    "deal_not_counted",
    "deal_count_old",
    "deal_left_too_much",
    "deal_share_player",
    "deal_share_missing",
    "deal_shares_total",
    "deal_no_offer",
    "deal_not_agreed",
    # The front desk (``engine.desk``, ``server.desk``).
    "desk_birth_date",
    "desk_too_young",
    "desk_list_too_long",
    "desk_excluded",
    "desk_check_unavailable",
    "desk_list_stale",
    "desk_override_director",
    "desk_shift_closed",
    "desk_id_reused",
    "desk_ticket_method",
    "desk_ticket_value",
    "desk_ticket_undo",
    "desk_void_other_shift",
    "desk_sale_undone",
    "desk_nothing_owed",
    "registry_player_unknown",
    # Bounties (``bounty``).
    "bounty_part_too_big",
    "bounty_eliminator_self",
    "bounty_eliminator_elsewhere",
    "bounty_eliminator_out",
    "bounty_eliminator_out_before",
    "bounty_eliminator_twice",
    "bounty_none",
    "bounty_nothing_owed",
    "bounty_undo_eliminator_out",
    # Mystery bounties (``bounty_rules``, ``mystery``).
    "bounty_envelopes",
    "bounty_envelopes_twice",
    "bounty_mystery_level",
    "deal_bounties_none",
    # A flight's capacity and its alternates (alternates.py).
    "capacity_seats_and_tables",
    "capacity_unchanged",
    "alternates_not_full",
    "alternates_line_full",
    "alternate_in_line",
    "alternate_unknown",
    "alternate_called",
    "alternate_not_called",
    # The director's announcements (``announce``).
    "announcement_blank",
    "announcement_none",
    "image_too_large",
    "image_svg",
    "image_unknown_type",
    # Satellites and the ticket ledger (satellite.py, house/tickets.py).
    "deal_at_satellite",
    "satellite_ended",
    "satellite_not_ended",
    "satellite_players_left",
    "seats_issued",
    # A milestone satellite (``milestone``).
    "milestone_none",
    "milestone_uncounted",
    "milestone_not_reached",
    "ticket_unknown",
    "ticket_other_event",
    "ticket_bound",
    "ticket_exists",
    "ticket_not_issued",
    "ticket_held",
    "ticket_no_id",
    # A deal undone (deal_undo.py).
    "deal_none",
    "deal_undo_reason",
    "deal_played_on",
    # Draws anyone can check (fair.py).
    "witness_blank",
    "draws_uncommitted",
    "draws_committed_twice",
    "draws_committed_late",
    "draws_spec_unknown",
    "draw_out_of_order",
    "draw_seed_wrong",
]

#: Every reason and the names of the parameters it carries.
PARAMS: Final[dict[Reason, tuple[str, ...]]] = {
    "player_unknown": ("player",),
    "player_out": ("player",),
    "player_is_out": ("player",),
    "player_unseated": ("player",),
    "player_exists": ("player",),
    "player_not_out": ("player",),
    "player_listed_twice": ("player",),
    "table_unknown": ("table",),
    "table_exists": ("table",),
    "table_listed_twice": (),
    "table_not_open": ("table", "status"),
    "table_broken": ("table",),
    "table_halted": ("table",),
    "table_short": ("table",),
    "seat_unknown": ("table", "seat"),
    "seat_empty": ("table", "seat"),
    "player_not_at_seat": ("player", "table", "seat"),
    "seat_taken": ("table", "seat", "holder"),
    "seat_taken_floor": ("table", "seat", "holder"),
    "seat_now_taken": ("table", "seat", "holder"),
    "seat_planned": ("table", "seat"),
    "seat_reserved": ("table", "seat"),
    "name_blank": (),
    "name_hidden_marks": (),
    "player_id_unshown": ("player",),
    "required": ("name",),
    "name_unchanged": ("player",),
    "special_needs_already": ("player",),
    "special_needs_not_marked": ("player",),
    "unregister_out": ("player",),
    "unregister_closed": ("player", "until"),
    "unregister_re_entry": ("player", "entries"),
    "late_registration_closed": ("until",),
    "re_entry_late_closed": ("player", "until", "level"),
    "re_entry_none": ("player",),
    "re_entry_closed": ("player", "until", "level"),
    "re_entry_limit": ("player", "made"),
    "final_table_full": (),
    "seats_drawn": (),
    "draw_too_few": (),
    "draw_too_small": ("tables", "seats", "room", "players"),
    "draw_table_not_free": ("table",),
    "draw_table_no_room": ("table", "free", "players"),
    "table_would_break": ("players", "tables", "room", "table"),
    "bust_wrong_seat": ("player", "table", "seat", "at_table", "at_seat"),
    "bust_who": (),
    "last_player": ("player",),
    "start_stack_needed": ("player",),
    "all_out": ("busted", "left"),
    "dispute_over": ("table", "player"),
    "undo_level_over": ("player",),
    "undo_expired": ("player", "minutes"),
    "no_seat_to_return": ("table", "status", "player"),
    "final_drawn": (),
    "positions_unknown": ("table",),
    "stud_no_button": (),
    "no_planned_move": ("player",),
    "no_planned_moves": ("reason",),
    "move_no_seat": ("player", "table"),
    "move_incomplete": ("table", "missing"),
    "move_called": ("player", "table", "seat", "to"),
    "move_already_called": ("player", "table", "seat"),
    "move_already_called_seat": ("player", "table", "seat"),
    "no_moves_to_call": ("reason",),
    "already_there": ("player", "table", "seat"),
    "halt_already_waived": ("table",),
    "halt_not_waived": ("table",),
    "last_table": ("table",),
    "break_no_room": ("room", "players"),
    "final_formed": ("table",),
    "final_too_few": (),
    "final_too_many": ("players", "size"),
    "not_mixed": ("game",),
    "rebuy_busted": ("player",),
    "add_on_busted": ("player",),
    "no_rebuys": (),
    "rebuys_closed": ("until", "level"),
    "rebuy_limit": ("player", "made"),
    "rebuy_stack_unknown": ("player", "most"),
    "rebuy_stack_too_big": ("player", "stack", "most"),
    "no_add_on": (),
    "add_on_at_break_only": ("offered", "level", "at_break"),
    "add_on_during_level": ("offered", "level", "at_break"),
    "add_on_limit": ("player", "taken"),
    "stack_limit": ("player", "stack", "most"),
    "no_chip_set": (),
    "not_colour_up": (),
    "colour_up_which": ("chips",),
    "chip_not_in_play": ("chip", "chips"),
    "no_larger_chip": ("chip",),
    "already_raced": ("table", "chip"),
    "race_stack_unknown": ("player", "seat"),
    "race_deck": ("cards", "deck"),
    "chip_not_positive": ("chip",),
    "next_up_not_multiple": ("next_up", "chip"),
    "smallest_out_of_range": ("most",),
    "smallest_leaves": ("chip",),
    "race_nobody": (),
    "count_not_at_table": ("player", "table", "at_table"),
    "count_in_future": ("seconds",),
    "count_older": ("player",),
    "chips_negative": ("chips",),
    "seat_no_chips": ("seat",),
    "stack_below_chips": ("stack", "chips", "chip", "value"),
    "no_structure": (),
    "clock_started": (),
    "clock_not_running": (),
    "clock_not_started": (),
    "clock_running": (),
    "no_step": ("step", "last"),
    "step_or_to": (),
    "time_already_called": ("table", "seat"),
    "no_time_call": ("table", "seat"),
    "tournament_finished": ("player",),
    "tournament_closed": (),
    "tournament_not_finished": ("left",),
    "prize_unchanged": (),
    "prize_entries_sold": ("entries",),
    "prize_rebuys_sold": ("rebuys",),
    "prize_add_ons_sold": ("add_ons",),
    "structure_unchanged": (),
    "structure_has_prize": (),
    "structure_step_played": ("step",),
    "structure_chips_started": (),
    "structure_stack_entered": ("stack", "entries"),
    "level_no_game": ("step",),
    "level_other_game": ("step", "game", "dealt"),
    "import_unreadable": ("format",),
    "import_too_many_rows": ("rows", "most"),
    "import_no_rows": (),
    "import_no_name_column": (),
    "import_column_unknown": ("column", "columns"),
    "import_map_part": ("part",),
    "log_start": (),
    "out_of_range": ("name", "value", "least", "most"),
    "not_as_recorded": ("name", "value", "expected"),
    "place_wrong": ("player", "place", "shares", "left"),
    "shares_incomplete": ("place", "shares", "busted"),
    "break_unfinished": ("table", "status", "players"),
    "seat_not_exist": ("seat",),
    "seat_listed_twice": ("seat",),
    "pot_too_many_seats": ("seats", "most"),
    "pot_unit_not_positive": ("unit",),
    "pot_nobody": (),
    "contribution_negative": ("amount",),
    "contribution_not_multiple": ("amount", "unit"),
    "contributions_total": ("sum", "total"),
    "everybody_folded": (),
    "nobody_can_win": ("amount",),
    "stud_no_button_pot": (),
    "seat_not_in_hand": ("seat",),
    "not_a_card": ("card",),
    "card_twice": ("card",),
    "button_needed": (),
    "cards_in_flop": (),
    "no_low": ("game",),
    "ranks_too_many": ("listed", "live"),
    "tie_group_empty": (),
    "seat_folded": ("seat",),
    "seat_ranked_twice": ("seat",),
    "not_ranked": ("seats",),
    "high_card_needed": ("seats", "missing"),
    "ruling_in_future": ("seconds",),
    "ruling_empty": (),
    "rule_unknown": ("rule", "book"),
    "sit_out_length": (),
    "penalty_length": ("kind",),
    "penalty_chips": ("kind",),
    "sit_out_running": ("player", "ruling"),
    "no_sit_out": ("player",),
    "no_sit_out_ruling": ("player", "ruling"),
    "disqualify_all": ("players", "left"),
    "player_disqualified": ("player", "ruling"),
    "order_table_twice": ("key",),
    "break_fill_too_big": (),
    "reserved_seat_unknown": ("table", "seat"),
    "reserved_seat_twice": ("table", "seat"),
    "small_blind_too_big": (),
    "big_blind_ante_needs_ante": (),
    "no_levels": (),
    "chips_order": (),
    "not_made_of": ("amount", "chip"),
    "colour_up_not_in_play": ("chip",),
    "colour_up_leaves_none": (),
    "blind_not_payable": ("amount", "chip"),
    "no_level": ("level", "levels"),
    "add_on_no_break": ("level",),
    "payout_rows_order": ("entries", "previous"),
    "payout_too_many_places": ("places", "entries"),
    "payout_total": ("total",),
    "payout_rising": ("place", "above"),
    "out_of_limits": ("problem",),
    "rule_id_twice": ("id",),
    "rule_text_one_language": ("name",),
    "rule_replaces_own": ("id",),
    "rule_replaced_twice": ("id",),
    "rule_replaces_unknown": ("id", "base"),
    "pin_digits": (),
    "account_exists": ("name",),
    "own_account": (),
    "only_director": ("name",),
    "pin_dealer_only": ("role",),
    "own_secret": (),
    "current_secret_wrong": (),
    "signin_wait": ("seconds",),
    "too_many_requests": ("seconds",),
    "h4h_on": (),
    "h4h_off": (),
    "h4h_one_table": ("tables",),
    "h4h_dealt": ("table", "round"),
    "h4h_reported": ("table", "round"),
    "h4h_bust_with_hand": (),
    "h4h_table_all_out": ("table",),
    "h4h_round": ("round", "next"),
    "account_table": (),
    "no_such_tablet": ("device",),
    "day_not_over": (),
    "day_ended": (),
    "day_not_ended": (),
    "flight_after_bag": ("player", "flight"),
    "flight_twice": ("flight",),
    "flight_not_bagged": ("flight", "players"),
    "day2_no_flights": (),
    "day2_check_failed": ("flight", "difference", "tolerance", "flights"),
    "day2_ack_reason": (),
    "bags_correction_reason": ("table",),
    "bag_empty": ("player",),
    "bag_number_twice": ("bag", "player"),
    "bag_missing": ("player", "table"),
    "dealer_unknown": ("dealer",),
    "dealer_clocked_in": ("dealer",),
    "dealer_not_clocked_in": ("dealer",),
    "dealer_unavailable": ("dealer",),
    "dealer_busy": ("dealer", "state"),
    "dealer_game": ("dealer", "game"),
    "dealer_listed_twice": ("dealer",),
    "room_table_unknown": ("table",),
    "swap_same": (),
    "swap_no_dealer": ("table",),
    "rest_longer_than_break": (),
    "zone_unknown": ("zone",),
    "dealer_room_full": ("most",),
    "payout_table_too_large": ("entries", "paid", "places", "most", "most_entries"),
    "import_file_too_large": ("bytes", "most"),
    "import_sheet_too_large": ("bytes", "most"),
    "import_row_too_wide": ("line", "cells", "most"),
    "import_too_many_cells": ("cells", "most"),
    "import_too_slow": ("seconds",),
    "import_too_much_memory": ("most",),
    "deal_no_prize": (),
    "deal_made": (),
    "deal_not_final": ("left",),
    "deal_not_counted": ("player",),
    "deal_count_old": ("player",),
    "deal_left_too_much": ("left", "most"),
    "deal_share_player": ("player",),
    "deal_share_missing": ("player",),
    "deal_shares_total": ("total", "expected"),
    "deal_no_offer": (),
    "deal_not_agreed": ("player",),
    "desk_birth_date": ("date", "oldest"),
    "desk_too_young": ("age", "least"),
    "desk_list_too_long": ("most",),
    "desk_excluded": (),
    "desk_check_unavailable": (),
    "desk_list_stale": (),
    "desk_override_director": (),
    "desk_shift_closed": (),
    "desk_id_reused": (),
    "desk_ticket_method": (),
    "desk_ticket_value": ("value",),
    "desk_ticket_undo": (),
    "desk_void_other_shift": (),
    "desk_sale_undone": (),
    "desk_nothing_owed": ("player",),
    "registry_player_unknown": ("player",),
    "bounty_part_too_big": ("name", "part", "price"),
    "bounty_eliminator_self": ("player",),
    "bounty_eliminator_elsewhere": ("player", "busted", "table"),
    "bounty_eliminator_out": ("player",),
    "bounty_eliminator_out_before": ("player", "busted"),
    "bounty_eliminator_twice": ("player",),
    "bounty_none": (),
    "bounty_nothing_owed": ("player",),
    "bounty_undo_eliminator_out": ("player", "eliminator"),
    "bounty_envelopes": ("kind",),
    "bounty_envelopes_twice": (),
    "bounty_mystery_level": (),
    "deal_bounties_none": (),
    "capacity_seats_and_tables": (),
    "capacity_unchanged": (),
    "alternates_not_full": (),
    "alternates_line_full": ("most",),
    "alternate_in_line": ("alternate", "name"),
    "alternate_unknown": ("alternate",),
    "alternate_called": ("alternate",),
    "alternate_not_called": ("alternate",),
    "announcement_blank": (),
    "announcement_none": (),
    "image_too_large": ("bytes", "most"),
    "image_svg": (),
    "image_unknown_type": (),
    "deal_at_satellite": (),
    "satellite_ended": (),
    "satellite_not_ended": (),
    "satellite_players_left": ("left", "seats"),
    "seats_issued": (),
    "milestone_none": (),
    "milestone_uncounted": ("player",),
    "milestone_not_reached": ("player", "stack", "milestone"),
    "ticket_unknown": ("ticket",),
    "ticket_other_event": ("ticket", "target"),
    "ticket_bound": ("ticket", "holder"),
    "ticket_exists": ("ticket",),
    "ticket_not_issued": ("ticket", "ticket_status"),
    "ticket_held": ("ticket",),
    "ticket_no_id": (),
    "deal_none": (),
    "deal_undo_reason": (),
    "deal_played_on": ("player",),
    "witness_blank": (),
    "draws_uncommitted": (),
    "draws_committed_twice": (),
    "draws_committed_late": (),
    "draws_spec_unknown": ("spec",),
    "draw_out_of_order": ("index", "used"),
    "draw_seed_wrong": ("index", "seed", "before"),
}


_E = TypeVar("_E", bound="FloorError")


class FloorError(Exception):
    """Base of every error the engine raises on purpose."""

    #: The kind of error, for the edges (HTTP status) and clients that only tell kinds apart.
    code: str = "refused"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        reason: Reason | None = None,
        params: Params | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self._reason = reason
        self.params: Params = params if params is not None else {}

    @property
    def reason(self) -> str:
        """Which refusal this is (a key of ``PARAMS``); the kind when nothing more is known."""
        # Read late: a subclass may set ``code`` on the instance after this constructor.
        return self._reason if self._reason is not None else self.code

    def recast(self, kind: type[_E], field: str | None, message: str | None = None) -> _E:
        """This refusal as another kind of error about ``field``: the same reason and params,
        and the same message unless one is given (a check made on a part of a request, or
        inside a decoder, answered for the whole request)."""
        said = self.message if message is None else message
        return kind(said, field=field, reason=self._reason, params=self.params)

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class ConfigError(FloorError):
    """A configuration (rule set, structure, scenario) that cannot be used."""


class ConfigValueError(ConfigError, ValueError):
    """A config Struct's own check, raised from ``__post_init__``: msgspec reports it as a
    ``ValidationError`` naming where it is, with this error (and its reason) as the cause."""

    code = "invalid"


class RuleError(FloorError):
    """A command the rules refuse. Raised before anything changes."""


class UnknownPlayer(RuleError):
    code = "unknown_player"


class UnknownTable(RuleError):
    code = "unknown_table"


class BadSeat(RuleError):
    code = "bad_seat"


class NotAllowed(RuleError):
    code = "not_allowed"


class BadValue(RuleError):
    code = "invalid"


class NoPlannedMove(RuleError):
    code = "no_planned_move"


# Refusals raised in more than one place ------------------------------------------------------


def seat_not_exist(seat: int, field: str) -> RuleError:
    return refused(RuleError, "seat_not_exist", {"seat": seat}, field=field)


def seat_listed_twice(seat: int, field: str) -> RuleError:
    return refused(RuleError, "seat_listed_twice", {"seat": seat}, field=field)


# Saying a refusal ----------------------------------------------------------------------------


def _code_only(reason: str, params: Params) -> str:
    return reason


#: Renders a refusal's code and parameters in English: the screens' own template, which the
#: shell installs (``floor.refusals``; the engine reads no file). Until then, the code.
_say: Callable[[str, Params], str] = _code_only


def install_templates(say: Callable[[str, Params], str]) -> None:
    """Say every refusal ``refused`` builds with ``say`` (``floor/__init__.py`` installs it)."""
    global _say
    _say = say


def refused(
    kind: type[_E], reason: Reason, params: Mapping[str, object], field: str | None = None
) -> _E:
    """The refusal ``reason`` with its parameters (those of ``PARAMS``), about ``field``; its
    English is the template's, so a check states only its code and its fields."""
    said: Params = {name: cast(Param, params[name]) for name in PARAMS[reason] if name in params}
    return kind(_say(reason, said), field=field, reason=reason, params=said)
