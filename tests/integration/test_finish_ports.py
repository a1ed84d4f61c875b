"""The list's status of a tournament (finished, closed, live again), on both backends: the
start page and the console read it there, so the ports hold it like the rest of the list."""

from __future__ import annotations

from floor.store.ports import Summary
from tests.integration.test_ports import Backend, backend, ok

__all__ = ["backend"]


async def test_a_listed_tournament_is_said_finished_closed_or_live_again(
    backend: Backend,
) -> None:
    log = backend.log()
    await log.list_tournament(Summary(id="sunday", name="Sunday", created_at=1.0))

    await log.set_status("sunday", "finished", "Cy Young")
    assert [(s.status, s.winner) for s in await log.summaries()] == [("finished", "Cy Young")]
    await log.set_status("sunday", "live", None)
    assert [(s.status, s.winner) for s in await log.summaries()] == [("live", None)]
    await log.set_status("sunday", "closed", "Bob")

    (summary,) = await backend.log().summaries()  # another process reads it the same
    assert (summary.id, summary.name, summary.status, summary.winner) == (
        "sunday",
        "Sunday",
        "closed",
        "Bob",
    )


async def test_an_archived_or_unlisted_tournament_is_not_listed_by_its_status(
    backend: Backend,
) -> None:
    log = backend.log()
    await log.list_tournament(Summary(id="old", name="Old", created_at=1.0))
    await log.append("old", ok(0, 1, "create-old"))
    await log.archive("old")

    await log.set_status("old", "finished", "Ann")
    await log.set_status("nobody", "finished", "Ann")

    assert await log.summaries() == []
    assert [(s.id, s.status) for s in await log.summaries(archived=True)] == [("old", "archived")]
