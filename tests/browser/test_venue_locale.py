"""The venue's locale (``FLOOR_LOCALE``) on the screens: numbers and times as the venue writes
them and the draw sheet in the venue's alphabet, whatever language the screen speaks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DIRECTOR, TOOLS_STRUCTURE, Pages
from tests.e2e.conftest import Api, ServerProcess

pytestmark = pytest.mark.browser

#: Surnames under every Czech letter that sorts apart from its plain twin (Č, Ch, Ř, Š), and
#: an accent that does not (Á under A), in an order the draw must not keep.
CZECH = [
    "Filip Šimek", "Pavel Chalupa", "Jan Čermák", "Tomáš Řezníček", "Eva Adámková",
    "Petr Cibulka", "Ivo Hora", "Lukáš Rybář", "Jana Sýkorová", "Anna Ábelová",
    "Karel Hrubý", "Marie Chlupová",
]  # fmt: skip


@pytest.fixture(scope="module")
def venues(
    valkey: object, servers: list[ServerProcess], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, ServerProcess]]:
    """A server of the same floor per venue locale (the default one is en-GB)."""
    started: dict[str, ServerProcess] = {"en-GB": servers[0]}
    for locale in ("cs-CZ", "en-US"):
        log = tmp_path_factory.mktemp(locale) / "serve.log"
        started[locale] = ServerProcess(servers[0].redis_url, log, FLOOR_LOCALE=locale)
        started[locale].start()
    try:
        yield started
    finally:
        for locale in ("cs-CZ", "en-US"):
            started[locale].stop()


def test_the_draw_sheet_is_sorted_by_surname_in_the_venues_alphabet(
    pages: Pages, director: Api, venues: dict[str, ServerProcess]
) -> None:
    tid = "abeceda"
    r = director.client.post(
        "/api/tournaments",
        json={"id": tid, "name": "Abeceda", "rules": "tda-2024", "structure": TOOLS_STRUCTURE},
    )
    assert r.status_code == 201, r.text
    entries = [{"name": name, "player": f"A{i}"} for i, name in enumerate(CZECH)]
    director.ok(tid, {"type": "register_many", "entries": entries})
    director.ok(tid, {"type": "draw_seats"})

    page = pages.open(venues["cs-CZ"], f"/print/{tid}?what=draw", size="desk", user=DIRECTOR,
                      live=False)  # fmt: skip
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert page.locator(".letter").all_inner_texts() == [
        "A", "C", "Č", "H", "Ch", "R", "Ř", "S", "Š",
    ]  # fmt: skip
    text = page.locator("body").inner_text()
    order = [text.index(name) for name in ("Ábelová", "Adámková", "Hora", "Hrubý", "Chalupa")]
    assert order == sorted(order), text

    # London sorts the same names its own way: Č among the Cs, Ch among the Cs, no Ř heading.
    page = pages.open(venues["en-GB"], f"/print/{tid}?what=draw", size="desk", user=DIRECTOR,
                      live=False)  # fmt: skip
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert page.locator(".letter").all_inner_texts() == ["A", "C", "H", "R", "S"]


@pytest.mark.parametrize(
    ("locale", "chips", "time"),
    [("cs-CZ", "1\u00a0250\u00a0000", "21:07"), ("en-GB", "1,250,000", "21:07"),
     ("en-US", "1,250,000", "09:07 PM")],
)  # fmt: skip
def test_numbers_and_times_are_written_as_the_venue_writes_them(
    pages: Pages, venues: dict[str, ServerProcess], locale: str, chips: str, time: str
) -> None:
    page = pages.open(venues[locale], "/", size="desk", live=False)
    assert page.locator("html").get_attribute("data-locale") == locale
    written = page.evaluate(
        """async () => {
            const fmt = await import("/static/js/format.js");
            const at = new Date(2026, 11, 6, 21, 7).getTime() / 1000;
            return [fmt.chips(1250000), fmt.timeOfDay(at)];
        }"""
    )
    assert written == [chips, time]
