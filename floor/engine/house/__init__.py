"""The house: what spans tournaments, an aggregate of its own beside them.

A tournament is one log, one lock, one cluster slot; a rule that reads or changes several
(a player who bagged in an earlier flight may not enter a later one; later, a ticket used
once, a player registry, a room's dealers) lives here instead, in a state folded from its own
events (``state``), decided by its own commands (``decide``).

A command that changes a tournament and the house at once takes a *hold* in the house first,
under the command's id, then is decided and written in the tournament, then settles the hold:
committed when the tournament acknowledged it, released when it refused. A hold nobody
settled (the process died between the two writes) is settled from the tournament's kept
result for that command id (``floor.store.house``).
"""
