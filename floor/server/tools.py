"""Floor tools beyond seating (prize pool and results, chip race, pots, the rulebook)."""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
