"""The ``Host`` names answered (DNS rebinding) and the policy every answer carries."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from floor.server.origins import host_allowed, origin_allowed
from floor.server.security import allowed_hosts, policy, style_hashes

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "host",
    [
        None,
        "",
        "localhost",
        "LOCALHOST:8000",
        "127.0.0.1:8000",
        "192.168.1.10",
        "[::1]:8000",
        "floor.local",
        "Floor.Local.:443",
    ],
)
def test_localhost_addresses_and_the_names_given_are_answered(host: str | None) -> None:
    assert host_allowed(host, {"floor.local"})


@pytest.mark.parametrize(
    "host",
    ["evil.example", "evil.example:8000", "floor.local.evil.example", "localhost.evil", "a b"],
)
def test_any_other_host_is_not(host: str) -> None:
    assert not host_allowed(host, {"floor.local"})


def test_a_rebound_name_passes_the_origin_check_but_not_the_host_check() -> None:
    """The finding: a foreign host name with a matching Origin passed."""
    origin, host = "http://evil.example:8000", "evil.example:8000"
    assert origin_allowed(origin, host, ())
    assert not host_allowed(host, allowed_hosts((), "127.0.0.1"))


def test_the_name_floor_listens_on_is_answered_but_not_a_wildcard() -> None:
    assert allowed_hosts(("floor.local",), "Floor-Box") == {"floor.local", "floor-box"}
    assert allowed_hosts((), "0.0.0.0") == frozenset()
    assert allowed_hosts((), "::") == frozenset()


def test_the_policy_keeps_pages_out_of_other_sites_frames_and_to_their_own_server() -> None:
    csp = dict(
        part.split(" ", 1) for part in policy("floor.local:8443", ["'sha256-x'"]).split("; ")
    )
    assert csp["frame-ancestors"] == "'self'"
    assert csp["default-src"] == "'self'"
    assert csp["script-src"] == "'self'"
    assert csp["style-src"] == "'self' 'sha256-x'"
    assert csp["object-src"] == "'none'"
    assert csp["connect-src"] == "'self' ws://floor.local:8443 wss://floor.local:8443"
    assert "unsafe" not in policy("floor.local", style_hashes())


def test_a_host_that_could_break_the_policy_is_not_repeated_in_it() -> None:
    assert policy("x; script-src *", []).count("script-src") == 1
    assert "connect-src 'self';" in policy("x; script-src *", [])


def test_every_inline_style_of_the_pages_is_allowed_by_its_hash(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text("<style>\n  .x { color: red; }\n</style><p>")
    (tmp_path / "b.html").write_text("<p>no style</p>")
    digest = base64.b64encode(hashlib.sha256(b"\n  .x { color: red; }\n").digest()).decode()
    assert style_hashes(tmp_path) == (f"'sha256-{digest}'",)
    # The shipped pages: the start page and the not-found page each hold one.
    assert len(style_hashes(ROOT / "web")) == 2
