"""The director's announcements to the room: one message at a time, a line across the wall
and the player screens or the whole wall, from the console until cleared or replaced.

The message is part of the public state (``TournamentState.announcement``), so it reaches
every screen as a patch and stands in the log like any other event.
"""

from __future__ import annotations

from .commands import Announce, ClearAnnouncement
from .dispatch import decides, folds, validates
from .errors import BadValue, NotAllowed, refused
from .events import Announced, AnnouncementCleared, Event
from .state import Tournament


def _blank() -> BadValue:
    return refused(BadValue, "announcement_blank", {}, field="text")


def _none() -> NotAllowed:
    return refused(NotAllowed, "announcement_none", {})


def _shown(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


def say(t: Tournament, c: Announce, now: float) -> list[Event]:
    text = c.text.strip()
    if not _shown(text):
        raise _blank()
    return [Announced(text=text, full=c.full, at=now)]


def clear(t: Tournament, c: ClearAnnouncement, now: float) -> list[Event]:
    if t.state.announcement is None:
        raise _none()
    return [AnnouncementCleared(at=now)]


def check(t: Tournament, event: Announced | AnnouncementCleared) -> None:
    """Refuses an imported log's event no command could have written here (``validate``)."""
    match event:
        case Announced():
            if not _shown(event.text) or len(event.text) > 280:
                raise _blank()
        case AnnouncementCleared():
            if t.state.announcement is None:
                raise _none()


# Dispatch (``floor.engine.registry``) ------------------------------------------------------


def _announced(t: Tournament, e: Announced) -> None:
    t.state.announcement = e


def _cleared(t: Tournament, e: AnnouncementCleared) -> None:
    t.state.announcement = None


DECIDES = (
    decides(Announce, lambda t, c, now, rng: say(t, c, now)),
    decides(ClearAnnouncement, lambda t, c, now, rng: clear(t, c, now)),
)
CHECKS = (
    validates(Announced, check),
    validates(AnnouncementCleared, check),
)
FOLDS = (
    folds(Announced, _announced),
    folds(AnnouncementCleared, _cleared),
)
