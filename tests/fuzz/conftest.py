"""Fuzz fixtures: a real ``floor serve`` on a Valkey of the module's own, a director signed in.

Each module counts the inputs it tried (``tally``) and prints the total when it ends (run
with ``-s`` to see it as it happens; the terminal summary repeats it).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from floor.redisdb.embedded import EmbeddedServer
from tests.e2e.conftest import Api, ServerProcess, add_user, sign_in
from tests.fuzz.harness import LogWatch, Tally, alive

DIRECTOR = ("boss", "director-secret")
_TALLIES: list[Tally] = []


@pytest.fixture(scope="module")
def fuzz_valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    server = EmbeddedServer(tmp_path_factory.mktemp("fuzz-valkey"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server(
    fuzz_valkey: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    add_user(fuzz_valkey.url, *DIRECTOR, "director")
    proc = ServerProcess(fuzz_valkey.url, tmp_path_factory.mktemp("fuzz-logs") / "server.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def director(server: ServerProcess) -> Iterator[Api]:
    api = Api(server, sign_in(server, *DIRECTOR))
    yield api
    api.client.close()


@pytest.fixture(scope="module")
def server_log(server: ServerProcess) -> LogWatch:
    return LogWatch(server)


@pytest.fixture
def clean_server(server: ServerProcess, server_log: LogWatch) -> Iterator[LogWatch]:
    """After the test: the server still answers, and logged no error while it ran."""
    server_log.trouble()  # what came before is another test's
    server_log.allow = None
    yield server_log
    alive(server)
    server_log.assert_clean("during this test")


def module_tally(what: str) -> Tally:
    """A counter of the module's inputs, reported at the end of the run."""
    tally = Tally(what)
    _TALLIES.append(tally)
    return tally


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for tally in _TALLIES:
        if tally.total:
            terminalreporter.write_line(tally.report())
