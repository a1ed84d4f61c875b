"""The rules by feature: each module decides its commands and checks its logged events.

``decide`` and ``validate`` dispatch here, one line per command or event. Above the state and
the fold; nothing on the read side is imported here.
"""
