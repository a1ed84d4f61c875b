"""Public answers are built once per version, for their application, within a budget."""

from __future__ import annotations

from floor.server import answers
from floor.server.metrics import Metrics


def test_an_answer_is_built_once_for_its_version_and_again_for_the_next() -> None:
    metrics = Metrics()
    built: list[int] = []

    def build(version: int) -> bytes:
        built.append(version)
        return b"v%d" % version

    for _ in range(3):
        assert answers.answer(metrics, "prizes", "t", 7, lambda: build(7)) == b"v7"
    assert answers.answer(metrics, "prizes", "t", 8, lambda: build(8)) == b"v8"
    assert built == [7, 8]
    assert metrics.answers["prizes"] == 2
    assert 'floor_answers_built_total{answer="prizes"} 2' in metrics.render()


def test_two_applications_never_share_an_answer() -> None:
    one, two = Metrics(), Metrics()
    assert answers.answer(one, "prizes", "t", 1, lambda: b"one") == b"one"
    assert answers.answer(two, "prizes", "t", 1, lambda: b"two") == b"two"


def test_the_answers_kept_stay_within_their_budget() -> None:
    metrics = Metrics()
    big = b"x" * (answers.BUDGET // 4)
    for since in range(10):
        answers.answer(metrics, "events", since, 1, lambda: big)
    assert answers.kept(metrics) <= 4
    # The latest are kept, the first asked for are gone.
    assert answers.answer_kept(metrics, "events", 9, 1) is big
    assert answers.answer_kept(metrics, "events", 0, 1) is None
