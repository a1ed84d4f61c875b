"""The director console's staff section on real Chromium against real servers: a dealer's
PIN and one's own password changed from the console, sign-in delays lifted, the sign-in form
telling when to try again, and a removed account's phone left with only what the public
sees."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from floor.server.signin_limits import FREE_FAILURES
from tests.browser.conftest import DIRECTOR, Pages, new_tournament
from tests.e2e.conftest import Api, ServerProcess, paired


def sign_in(server: ServerProcess, name: str, secret: str) -> httpx.Response:
    return httpx.post(server.base + "/api/signin", json={"username": name, "secret": secret})


def add(director: Api, name: str, secret: str, role: str, **more: object) -> None:
    body = {"username": name, "secret": secret, "role": role, **more}
    r = director.client.post("/api/staff", json=body)
    assert r.status_code == 201, r.text


def at_table(server: ServerProcess, screen: dict[str, str], name: str, pin: str) -> int:
    """``name`` signing in with ``pin`` on the table screen ``screen``: the status."""
    r = httpx.post(
        server.base + "/api/table/signin",
        json={"username": name, "secret": pin},
        headers=screen,
    )
    return r.status_code


def console_path(director: Api) -> str:
    """Where the console settles: with one tournament live and none named, it goes to that
    one (``location.replace``) once everything is read, so a test opens it there, not on a
    page that is about to be left."""
    tournaments = director.client.get("/api/tournaments").json()
    live = [x["id"] for x in tournaments if x.get("status") == "live"]
    return f"/director?t={live[0]}" if len(live) == 1 else "/director"


def test_the_director_sets_a_dealers_pin_from_the_console(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    add(director, "dee", "2468", "dealer", pin=True)
    new_tournament(director, "pins", 9)
    screen = paired(servers[1], director, "pins", 1)
    assert at_table(servers[1], screen, "dee", "2468") == 200
    console = pages.open(servers[0], console_path(director), size="desk", user=DIRECTOR, live=False)
    item = console.locator(".staff-item", has_text="dee")
    expect(item).to_contain_text("Dealer · Signs in with PIN")
    item.get_by_role("button", name="Change the password or PIN of dee").click()
    form = console.get_by_role("form", name="Change the password or PIN of dee")
    expect(form.get_by_label("It is a PIN")).to_be_checked()
    form.get_by_label("New password or PIN").fill("1357")
    form.get_by_label("Once more").fill("1358")
    form.get_by_role("button", name="Set").click()
    expect(form.get_by_role("alert")).to_have_text("The two entries differ: type the same twice.")
    me = httpx.get(servers[0].base + "/api/me", headers=screen).json()
    assert me["username"] == "dee"  # nothing changed

    form.get_by_label("Once more").fill("1357")
    form.get_by_role("button", name="Set").click()
    expect(console.locator(".toast-ok")).to_contain_text("New secret for dee")
    expect(form).to_have_count(0)
    # The dealer is signed out of the table screen, which stays paired.
    me = httpx.get(servers[1].base + "/api/me", headers=screen).json()
    assert (me["role"], me["username"]) == ("table", None)
    assert at_table(servers[0], screen, "dee", "2468") == 401
    assert at_table(servers[0], screen, "dee", "1357") == 200


def test_the_console_offers_a_pin_only_for_a_dealer(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    add(director, "flo", "floor-password", "floor")
    console = pages.open(
        servers[0], console_path(director), size="phone", user=DIRECTOR, live=False
    )
    # The section is drawn again once the accounts are read: its forms are used after that.
    change = console.get_by_role("button", name="Change the password or PIN of flo")
    expect(change).to_be_visible()
    new = console.locator("form.staff-form")
    expect(new.get_by_label("It is a PIN")).to_be_hidden()
    new.get_by_label("Role").select_option("dealer")
    expect(new.get_by_label("It is a PIN")).to_be_visible()
    new.get_by_label("Role").select_option("director")
    expect(new.get_by_label("It is a PIN")).to_be_hidden()
    change.click()
    form = console.get_by_role("form", name="Change the password or PIN of flo")
    expect(form.get_by_label("New password", exact=True)).to_be_visible()
    expect(form.get_by_label("It is a PIN")).to_have_count(0)
    # Asked for anyway, the server says which field is wrong, and why.
    r = director.client.put("/api/staff/flo/secret", json={"secret": "1234", "pin": True})
    assert r.status_code == 422
    assert (r.json()["error"]["field"], r.json()["error"]["reason"]) == ("pin", "pin_dealer_only")


def test_a_director_changes_their_own_password_with_the_current_one(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    add(director, "deputy", "deputy-password", "director")
    elsewhere = sign_in(servers[1], "deputy", "deputy-password").json()["token"]
    console = pages.open(
        servers[0],
        console_path(director),
        size="tv",
        user=("deputy", "deputy-password"),
        live=False,
    )
    expect(console.locator(".staff-item", has_text="deputy")).to_be_visible()
    form = console.locator("form.own-secret-form")
    expect(form).to_contain_text("Your password (deputy)")
    form.get_by_label("Current password").fill("not the password")
    form.get_by_label("New password", exact=True).fill("deputy-new-password")
    form.get_by_label("Once more").fill("deputy-new-password")
    form.get_by_role("button", name="Change your password").click()
    expect(form.get_by_role("alert")).to_have_text("the current password or PIN is wrong")

    form.get_by_label("Current password").fill("deputy-password")
    form.get_by_role("button", name="Change your password").click()
    expect(console.locator(".toast-ok")).to_contain_text("Your password is changed")
    # This page stays signed in; the other session has ended.
    console.reload()
    expect(console.locator(".staff-item", has_text="deputy")).to_contain_text("you")
    gone = httpx.get(servers[1].base + "/api/me", headers={"Authorization": f"Bearer {elsewhere}"})
    assert gone.status_code == 401
    assert sign_in(servers[0], "deputy", "deputy-new-password").status_code == 200


def test_the_director_sees_failed_sign_ins_and_lifts_the_delays(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    add(director, "typist", "typist-password", "floor")
    for _ in range(FREE_FAILURES):
        assert sign_in(servers[0], "typist", "wrong password").status_code == 401
    console = pages.open(servers[0], console_path(director), size="desk", user=DIRECTOR, live=False)
    item = console.locator(".staff-item", has_text="typist")
    expect(item.locator(".staff-failures")).to_contain_text(f"{FREE_FAILURES} failed")
    item.get_by_role("button", name="Lift the sign-in delays of typist").click()
    expect(console.locator(".toast-ok")).to_contain_text("Sign-in delays of typist lifted")
    expect(item.locator(".staff-failures")).to_have_count(0)
    for _ in range(FREE_FAILURES):
        assert sign_in(servers[0], "typist", "wrong password").status_code == 401


def test_the_sign_in_form_says_when_to_try_again(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    add(director, "hasty", "hasty-password", "floor")
    page = pages.open(servers[0], "/director", size="phone", live=False)
    form = page.locator("form.signin")
    alert = form.get_by_role("alert")
    form.get_by_label("User name").fill("hasty")
    # Wrong passwords until one is held back: the sixth, unless the page was slower than the
    # delay (then a later one, each delay being twice the last).
    failed = 0
    for _ in range(FREE_FAILURES + 8):
        form.get_by_label("Password or PIN").fill("wrong password")
        with page.expect_response("**/api/signin") as answered:
            form.get_by_role("button", name="Sign in").click()
        answer = answered.value
        if answer.status == 429:
            break
        assert answer.status == 401
        failed += 1
        expect(alert).to_have_text("Wrong user name, password or PIN.")
        page.evaluate("document.querySelector('form.signin [role=alert]').textContent = ''")
    assert answer.status == 429 and failed >= FREE_FAILURES
    seconds = answer.headers["retry-after"]
    expect(alert).to_have_text(f"Too many failed attempts: try again in {seconds} s.")


def test_a_removed_floor_phone_drops_what_only_staff_see_at_once(
    servers: list[ServerProcess], director: Api, pages: Pages
) -> None:
    new_tournament(director, "leaving", 6, buttons=False)
    director.ok(
        "leaving", {"type": "register", "name": "Eva Wheel", "player": "W1", "special_needs": True}
    )
    add(director, "goner", "goner-password", "floor")
    phone = pages.open(servers[1], "/floor/leaving", user=("goner", "goner-password"))
    needs = "() => window.floorPhone.conn.state.players.W1.special_needs"
    assert phone.evaluate(needs) is True
    assert phone.evaluate("() => window.floorPhone.conn.role") == "floor"

    r = director.client.delete("/api/staff/goner")  # on the other server process
    assert r.status_code == 200, r.text
    phone.wait_for_function("() => window.floorPhone.conn.role === 'public'")
    expect(phone.locator(".conn").first).to_have_attribute("data-status", "live")
    phone.wait_for_function("() => window.floorPhone.conn.staff === null")
    assert phone.evaluate(needs) is False
