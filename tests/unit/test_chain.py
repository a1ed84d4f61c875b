"""The hash chain over a log (``engine.chain``): each link follows from the one before, the
event as the public sees it and the whole event; a changed event is the first to break."""

from __future__ import annotations

import hashlib

import msgspec

from floor.engine import chain, public_form
from floor.engine import events as ev
from floor.protocol import encode_event


def log() -> list[tuple[int, bytes]]:
    return [
        (1, b'{"type":"tournament_created","id":"spring","name":"Spring"}'),
        (2, b'{"type":"player_registered","player":"P1","name":"Ana","special_needs":true}'),
        (3, b'{"type":"player_registered","player":"P2","name":"Bo"}'),
    ]


def test_each_link_is_the_hash_of_the_one_before_the_public_part_and_the_whole() -> None:
    links = chain.links(chain.genesis("spring"), log())
    prev = chain.genesis("spring")
    for (_, data), link in zip(log(), links, strict=True):
        public = hashlib.sha256(public_form.event(data)).digest()
        whole = hashlib.sha256(data).digest()
        assert link.public == public.hex() and link.staff == whole.hex()
        prev = hashlib.sha256(prev + public + whole).digest()
        assert link.link == prev.hex()
    assert chain.head(chain.genesis("spring"), [d for _, d in log()]).hex() == links[-1].link


def test_the_public_part_leaves_out_what_only_the_staff_see() -> None:
    staff = log()[1][1]
    public = public_form.event(staff)
    assert b'"special_needs":false' in public and b"true" not in public
    assert public_form.event(log()[2][1]) is log()[2][1]  # nothing to hide: the same bytes
    # A staff-only value changed: the public part is the same, the whole is not.
    other = staff.replace(b'"special_needs":true', b'"special_needs":false')
    assert public_form.event(other) == public
    a = chain.step(b"", staff)
    b = chain.step(b"", other)
    assert a[0] == b[0] and a[1] != b[1] and a[2] != b[2]


def test_a_break_draw_is_public_without_its_seats() -> None:
    event = ev.SeatsAssigned(reason="break", seats=(ev.Seated(player="P1", table=2, seat=3),))
    data = encode_event(event)
    public = msgspec.json.decode(public_form.event(data))
    assert public["seats"] == [] and public["type"] == "seats_assigned"


def test_every_chain_starts_from_its_own_tournament() -> None:
    assert chain.genesis("spring") != chain.genesis("summer")
    first = log()[:1]
    assert chain.links(chain.genesis("spring"), first) != chain.links(
        chain.genesis("summer"), first
    )


def claimed(events: list[tuple[int, bytes]]) -> list[tuple[int, bytes, str | None]]:
    links = chain.links(chain.genesis("spring"), events)
    return [(seq, data, link.link) for (seq, data), link in zip(events, links, strict=True)]


def test_a_whole_chain_follows() -> None:
    assert chain.first_break("spring", claimed(log())) is None


def test_one_changed_byte_names_its_event() -> None:
    lines = claimed(log())
    seq, data, link = lines[1]
    lines[1] = (seq, data.replace(b"Ana", b"Anb"), link)
    found = chain.first_break("spring", lines)
    assert found is not None and found.seq == 2 and "does not follow" in found.why


def test_a_changed_link_an_event_out_of_place_or_a_missing_link_are_named() -> None:
    lines = claimed(log())
    lines[2] = (3, lines[2][1], "00" * 32)
    found = chain.first_break("spring", lines)
    assert found is not None and found.seq == 3 and "0000000000000000…" in found.why
    swapped = claimed(log())
    swapped[1], swapped[2] = swapped[2], swapped[1]
    found = chain.first_break("spring", swapped)
    assert found is not None and found.seq == 3 and "should be" in found.why
    bare = [(seq, data, None) for seq, data in log()]
    found = chain.first_break("spring", bare)
    assert found == chain.Break(1, "has no link written beside it")
