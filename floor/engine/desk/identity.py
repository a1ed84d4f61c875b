"""What the venue records about a player's identity, kept apart from every tournament's log.

A document's type and number, the birth date and the country live in a key of their own that
expires after the venue's retention (``expires_at``); no event, export, log line or backup
holds them. The dealer (and the cashier's slip) is shown the name, the document's type and
its last characters (``shown``), enough to compare with the document in the player's hand.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from ..errors import BadValue, refused

DocType = Literal["id_card", "passport", "driving_licence", "residence_permit"]
#: How many of the document number's last characters the dealer is shown.
SHOWN: Final = 3
#: The oldest and youngest birth dates a desk accepts (a typo of the century, a child).
OLDEST: Final = datetime.date(1900, 1, 1)
#: Days in a year, for the retention (a venue sets it in days).
DAY: Final = 86400.0

DocNumber = Annotated[str, Meta(min_length=3, max_length=32, pattern=r"^[0-9A-Za-z -]+$")]
Country = Annotated[str, Meta(min_length=2, max_length=3, pattern=r"^[A-Z]{2,3}$")]


class Identity(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The identity a venue records: never in a tournament's log."""

    doc_type: DocType
    doc_number: DocNumber
    #: ISO date, YYYY-MM-DD.
    birth_date: datetime.date
    #: ISO 3166 code of the issuing country (CZ, DE, AUT).
    country: Country


class Shown(msgspec.Struct, frozen=True, kw_only=True):
    """What the dealer and the payout slip show: the name, the type, the last characters."""

    name: str
    doc_type: DocType
    last: str


def shown(name: str, identity: Identity) -> Shown:
    digits = identity.doc_number.replace(" ", "").replace("-", "")
    return Shown(name=name, doc_type=identity.doc_type, last=digits[-SHOWN:])


def check(identity: Identity, today: datetime.date, min_age: int) -> Identity:
    """``identity`` if its birth date is a date of a person of ``min_age`` or older, else
    ``BadValue`` naming the field."""
    born = identity.birth_date
    if born < OLDEST or born > today:
        raise refused(
            BadValue,
            "desk_birth_date",
            {"date": born.isoformat(), "oldest": OLDEST.isoformat()},
            field="identity.birth_date",
        )
    years = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    if years < min_age:
        raise refused(
            BadValue,
            "desk_too_young",
            {"age": years, "least": min_age},
            field="identity.birth_date",
        )
    return identity


def expires_at(now: float, retention_days: int) -> float:
    """When an identity recorded at ``now`` is deleted."""
    return now + retention_days * DAY
