"""The day forecaster through the screens: the director asks a what-if on the console and sees
it beside the forecast as it stands (a bad one, a level of 0 minutes, refused with the field
named beside it), shows the wall's line with one tap and the wall says it, in English and in
Czech; the end-of-day report prints the forecasts kept. The console and the wall are kept as
pictures at 1920x1080 and 390x844 (``docs/screens/forecast-*.png``).
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import DIRECTOR, Pages
from tests.e2e.conftest import Api, ServerProcess

pytestmark = pytest.mark.browser

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"


@pytest.fixture(scope="module")
def day(director: Api) -> str:
    """Sixty players of a main event with money, seated, the clock running."""
    tid = "forecast"
    r = director.client.post(
        "/api/tournaments",
        json={"id": tid, "name": "Forecast Cup", "config": "pfp-2014-main-event"},
    )
    assert r.status_code == 201, r.text
    entries = [{"name": f"Player {i}", "player": f"P{i}"} for i in range(60)]
    director.ok(tid, {"type": "register_many", "entries": entries})
    director.ok(tid, {"type": "draw_seats"})
    director.ok(tid, {"type": "clock_start"})
    for i in range(4):
        director.ok(tid, {"type": "bust", "player": f"P{i * 7}"})
    return tid


def console(pages: Pages, server: ServerProcess, tid: str, size: str) -> Page:
    page = pages.open(server, f"/director?t={tid}", size=size, user=DIRECTOR)
    section = page.locator("#s-forecast")
    expect(section.locator("#forecast-change")).to_be_visible()
    return page


def forecast_now(page: Page) -> None:
    """The forecast as it stands, asked from the form (the level's own may come meanwhile)."""
    page.select_option("#forecast-change", "none")
    page.fill("#forecast-runs", "100")
    page.locator("#s-forecast button.primary[type=submit]").click()
    expect(page.locator("#s-forecast .forecast-summary")).to_be_visible(timeout=30_000)
    expect(page.locator("#s-forecast .forecast-progress")).to_have_count(0, timeout=30_000)


def test_a_what_if_is_shown_beside_the_forecast_as_it_stands(
    pages: Pages, servers: list[ServerProcess], director: Api, day: str
) -> None:
    page = console(pages, servers[0], day, "tv")
    forecast_now(page)
    section = page.locator("#s-forecast")
    summary = section.locator(".forecast-summary")
    expect(summary.locator("th.forecast-group")).to_have_text(["As it stands"])
    expect(summary.locator("tbody th").first).to_contain_text("Money reached")
    expect(section.locator(".forecast-chart canvas")).to_be_visible()

    # A level of 0 minutes: refused by the server, the field named beside the form.
    page.select_option("#forecast-change", "level_minutes")
    page.fill("#forecast-level_minutes", "0")
    page.locator("#s-forecast button.primary[type=submit]").click()
    error = page.locator("#forecast-error")
    expect(error).to_have_text("Level minutes: more than 0, at most 240.")
    expect(page.locator("#forecast-level_minutes")).to_have_attribute("aria-invalid", "true")
    before = director.client.get(f"/api/t/{day}/forecast").json()["job"]

    # Twenty-minute levels from the next: played beside the day as it stands.
    page.fill("#forecast-level_minutes", "20")
    page.locator("#s-forecast button.primary[type=submit]").click()
    expect(error).to_have_count(0)
    groups = summary.locator("th.forecast-group")
    expect(groups).to_have_text(
        ["As it stands", "What if: Level length from the next level (minutes): 20"],
        timeout=30_000,
    )
    expect(section.locator(".forecast-progress")).to_have_count(0, timeout=30_000)
    job = director.client.get(f"/api/t/{day}/forecast").json()["job"]
    assert job["id"] != before["id"] and job["what_if"] == {"level_minutes": 20}
    # Each row shows both forecasts' percentiles, the median in bold.
    money = summary.locator("tbody tr").first
    expect(money.locator("td")).to_have_count(6)
    assert money.locator("td.median").count() == 2
    # The dealers per half hour and the tables breaking per hour, from the what-if.
    expect(section.locator(".forecast-slots figcaption")).to_have_text(
        ["Tables breaking per hour", "Dealers needed per half hour"]
    )
    page.locator("#s-forecast").screenshot(path=str(SCREENS / "forecast-console-tv.png"))


def test_the_wall_line_is_shown_and_hidden_with_one_tap(
    pages: Pages, servers: list[ServerProcess], director: Api, day: str
) -> None:
    page = console(pages, servers[0], day, "phone")
    if director.client.get(f"/api/t/{day}/forecast").json()["current"] is None:
        forecast_now(page)
    wall = pages.open(servers[1], f"/wall/{day}", size="tv")
    line = wall.locator(".forecast-line")
    expect(line).to_be_hidden()
    toggle = page.locator("#forecast-wall")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    # The wall reads its line every 20 seconds: a reload reads it at once.
    wall.reload()
    expect(wall.locator(".conn").first).to_have_attribute("data-status", "live")
    expect(line).to_be_visible()
    expect(line).to_have_text(re.compile(r"^Money expected about \d\d:\d\d$"))
    wall.screenshot(path=str(SCREENS / "forecast-wall-tv.png"))
    # In Czech.
    wall.locator(".lang select").select_option("cs")
    expect(line).to_have_text(re.compile(r"^Peníze očekáváme kolem \d\d:\d\d$"))
    expect(page.locator(".toast")).to_have_count(0)  # "saved" gone: the picture is the section
    page.locator("#s-forecast").screenshot(path=str(SCREENS / "forecast-console-phone.png"))
    # One tap hides it again.
    page.locator("#forecast-wall").click()
    expect(page.locator("#forecast-wall")).to_have_attribute("aria-pressed", "false")
    assert httpx.get(f"{servers[0].base}/api/t/{day}/forecast/wall").json() == {"shown": False}
    wall.reload()
    expect(line).to_be_hidden()


def test_the_console_says_the_forecast_in_czech(
    pages: Pages, servers: list[ServerProcess], director: Api, day: str
) -> None:
    page = console(pages, servers[0], day, "tv")
    if director.client.get(f"/api/t/{day}/forecast").json()["current"] is None:
        forecast_now(page)
    page.locator(".lang select").first.select_option("cs")
    section = page.locator("#s-forecast")
    expect(section.locator("h2")).to_have_text("Předpověď")
    expect(section.locator("#forecast-change option").first).to_have_text("Nic: spočítat znovu teď")
    expect(section.locator(".forecast-summary tbody th").first).to_contain_text("Peníze")


def test_the_end_of_day_report_prints_the_forecasts_kept(
    pages: Pages, servers: list[ServerProcess], director: Api, day: str
) -> None:
    if not director.client.get(f"/api/t/{day}/forecast").json()["checked"]:
        r = director.client.post(f"/api/t/{day}/forecast", json={"runs": 50})
        assert r.status_code == 202
    page = pages.open(servers[0], f"/print/{day}?what=day", size="desk", user=DIRECTOR, live=False)
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.locator("h1")).to_have_text("End-of-day report")
    expect(page.locator("table.forecast-report tbody tr").first).to_contain_text("not yet")
