"""Every environment variable floor reads is listed by --help and in the README's table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from floor.server.settings import VARIABLES, from_env

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_table_lists_exactly_the_variables_floor_reads() -> None:
    readme = (ROOT / "README.md").read_text()
    table = [line for line in readme.splitlines() if line.startswith("| `")]
    listed = {
        name for line in table for name in re.findall(r"`([A-Z][A-Z_]+)`", line.split("|")[1])
    }
    assert listed == {name for name, _, _ in VARIABLES}


def test_serve_help_lists_every_variable() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "floor", "serve", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for name, _, _ in VARIABLES:
        assert f"  {name} " in out


def test_a_setting_that_is_not_a_number_is_refused_naming_it() -> None:
    with pytest.raises(SystemExit, match="FLOOR_PORT must be a number, not 'eighty'"):
        from_env({"FLOOR_PORT": "eighty"})


def test_trusted_proxies_and_allowed_hosts_are_read_as_lists() -> None:
    settings = from_env(
        {
            "FLOOR_TRUSTED_PROXIES": " 127.0.0.1, 172.30.87.0/24 ,::1,",
            "FLOOR_ALLOWED_HOSTS": "Floor.Local., floor.example.org",
        }
    )
    assert settings.trusted_proxies == ("127.0.0.1/32", "172.30.87.0/24", "::1/128")
    assert settings.allowed_hosts == ("floor.local", "floor.example.org")


def test_by_default_no_proxy_is_trusted_and_metrics_need_a_sign_in() -> None:
    settings = from_env({})
    assert settings.trusted_proxies == ()
    assert settings.allowed_hosts == ()
    assert settings.metrics_token == ""


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("FLOOR_TRUSTED_PROXIES", "127.0.0.1,nginx", "FLOOR_TRUSTED_PROXIES: 'nginx' is not an IP"),
        ("FLOOR_TRUSTED_PROXIES", "*", "FLOOR_TRUSTED_PROXIES: '\\*' is not an IP"),
        ("FLOOR_TRUSTED_PROXIES", "10.0.0.0/33", "FLOOR_TRUSTED_PROXIES: '10.0.0.0/33'"),
        ("FLOOR_ALLOWED_HOSTS", "https://floor.local", "FLOOR_ALLOWED_HOSTS: 'https://floor"),
        ("FLOOR_ALLOWED_HOSTS", "floor.local:443", "FLOOR_ALLOWED_HOSTS: 'floor.local:443'"),
        ("FLOOR_ALLOWED_HOSTS", "*", "FLOOR_ALLOWED_HOSTS: '\\*' is not a host name"),
        ("FLOOR_METRICS_TOKEN", "short", "FLOOR_METRICS_TOKEN must be at least 24 characters"),
    ],
)
def test_a_bad_list_entry_is_refused_naming_the_variable(
    name: str, value: str, message: str
) -> None:
    with pytest.raises(SystemExit, match=message):
        from_env({name: value})


def test_uvicorns_forwarded_allow_ips_is_not_a_setting_any_more() -> None:
    """FORWARDED_ALLOW_IPS=* in the image let every client choose its address."""
    assert "FORWARDED_ALLOW_IPS" not in {name for name, _, _ in VARIABLES}
    for path in [*(ROOT / "deploy").rglob("*"), ROOT / "floor" / "serve.py"]:
        if path.is_file():
            assert "FORWARDED_ALLOW_IPS" not in path.read_text(), path


def test_a_process_serves_everyone_unless_made_a_public_edge() -> None:
    assert from_env({}).serves == "everyone"
    assert from_env({"FLOOR_SERVES": "Public"}).serves == "public"
    with pytest.raises(SystemExit, match="FLOOR_SERVES must be everyone or public, not 'staff'"):
        from_env({"FLOOR_SERVES": "staff"})


@pytest.mark.parametrize(
    ("raw", "locale"),
    [("", "en-GB"), ("cs-CZ", "cs-CZ"), ("cs_cz", "cs-CZ"), ("de", "de"), ("es-419", "es-419")],
)
def test_the_venue_locale_is_read_as_bcp_47_writes_it(raw: str, locale: str) -> None:
    assert from_env({"FLOOR_LOCALE": raw} if raw else {}).locale == locale


@pytest.mark.parametrize("raw", ["czech", "cs-CZE", "c", 'cs-CZ"><script>', "en GB"])
def test_a_venue_locale_that_is_not_one_is_refused_naming_the_variable(raw: str) -> None:
    with pytest.raises(SystemExit, match="FLOOR_LOCALE must be a language and a region"):
        from_env({"FLOOR_LOCALE": raw})
