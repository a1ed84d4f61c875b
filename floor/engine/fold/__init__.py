"""The fold: how each event changes the state, by feature (``Tournament`` is made of these).

Below the state: nothing here imports the rules, the decisions or the read side.
"""
