"""The read side: what screens and exports are shown, derived from the state.

Nothing that decides a command, checks an event or folds one imports these (held by
``tests/unit/test_architecture.py``).
"""
