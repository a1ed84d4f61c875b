"""The client's address: forwarding headers believed only from the proxies configured."""

from __future__ import annotations

import pytest

from floor.server.proxies import address, client_of, networks

NGINX = networks(["127.0.0.1"])
TWO_PROXIES = networks(["10.0.0.0/8", "::1"])


def headers(**values: str) -> list[tuple[bytes, bytes]]:
    return [(k.replace("_", "-").encode(), v.encode()) for k, v in values.items()]


def test_with_no_trusted_proxy_every_peer_is_the_client_whatever_it_claims() -> None:
    spoofed = headers(x_forwarded_for="203.0.113.9", x_real_ip="203.0.113.9")
    assert client_of("127.0.0.1", spoofed, ()) is None
    assert client_of("127.0.0.1", spoofed, networks(["10.0.0.0/8"])) is None


def test_a_trusted_proxy_names_the_client() -> None:
    told = client_of("127.0.0.1", headers(x_forwarded_for="192.168.1.23"), NGINX)
    assert told == ("192.168.1.23", None)


def test_what_the_client_wrote_left_of_the_trusted_proxies_is_ignored() -> None:
    # The phone sent "X-Forwarded-For: 1.1.1.1"; nginx appended the address it saw.
    told = client_of("127.0.0.1", headers(x_forwarded_for="1.1.1.1, 192.168.1.23"), NGINX)
    assert told == ("192.168.1.23", None)


def test_the_rightmost_address_that_is_not_a_trusted_proxy_is_the_client() -> None:
    chain = headers(x_forwarded_for="6.6.6.6, 192.168.1.23, 10.1.2.3, 10.9.9.9")
    assert client_of("10.0.0.5", chain, TWO_PROXIES) == ("192.168.1.23", None)


def test_forwarded_for_over_several_header_lines_is_one_list() -> None:
    lines = [(b"x-forwarded-for", b"6.6.6.6"), (b"X-Forwarded-For", b"192.168.1.23, 10.1.2.3")]
    assert client_of("10.0.0.5", lines, TWO_PROXIES) == ("192.168.1.23", None)


def test_a_chain_of_trusted_proxies_only_gives_the_first_of_them() -> None:
    assert client_of("10.0.0.5", headers(x_forwarded_for="10.1.1.1, 10.2.2.2"), TWO_PROXIES) == (
        "10.1.1.1",
        None,
    )


def test_a_value_that_is_no_address_stops_the_walk_at_the_last_proxy_known() -> None:
    told = client_of("10.0.0.5", headers(x_forwarded_for="unknown, 10.2.2.2"), TWO_PROXIES)
    assert told == ("10.2.2.2", None)
    assert client_of("127.0.0.1", headers(x_forwarded_for="<script>"), NGINX) == (
        "127.0.0.1",
        None,
    )


def test_x_real_ip_is_read_when_there_is_no_forwarded_for() -> None:
    assert client_of("127.0.0.1", headers(x_real_ip="192.168.1.23"), NGINX) == (
        "192.168.1.23",
        None,
    )
    assert client_of("127.0.0.1", headers(x_real_ip="nonsense"), NGINX) == ("127.0.0.1", None)


@pytest.mark.parametrize(
    ("proto", "scheme"), [("https", "https"), ("HTTP", "http"), ("http, https", "https")]
)
def test_the_scheme_comes_from_a_trusted_proxy(proto: str, scheme: str) -> None:
    told = client_of("127.0.0.1", headers(x_forwarded_proto=proto), NGINX)
    assert told == ("127.0.0.1", scheme)


def test_an_odd_scheme_is_not_taken() -> None:
    assert client_of("127.0.0.1", headers(x_forwarded_proto="javascript"), NGINX) == (
        "127.0.0.1",
        None,
    )


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("192.168.1.23", "192.168.1.23"),
        (" 192.168.1.23:5123 ", "192.168.1.23"),
        ("[2001:db8::1]:443", "2001:db8::1"),
        ("2001:db8::1", "2001:db8::1"),
        ("::ffff:127.0.0.1", "127.0.0.1"),
        ("[2001:db8::1", None),
        ("unknown", None),
        ("", None),
    ],
)
def test_addresses_in_forwarding_headers(text: str, found: str | None) -> None:
    result = address(text)
    assert (None if result is None else str(result)) == found


def test_an_ipv4_mapped_peer_is_matched_against_ipv4_networks() -> None:
    told = client_of("::ffff:127.0.0.1", headers(x_forwarded_for="192.168.1.23"), NGINX)
    assert told == ("192.168.1.23", None)
