"""The rules by feature: each module decides its commands and checks its logged events.

Each declares its entries (``DECIDES``, ``CHECKS``, ``FOLDS``: ``dispatch``), which
``registry`` gathers into the tables ``decide``, ``validate`` and ``Tournament.apply`` look
up. Above the state and the fold; nothing on the read side is imported here.
"""
