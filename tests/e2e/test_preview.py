"""``POST /api/t/{id}/preview`` against real servers on a real Valkey: what a command would do,
for the staff who may send it, refused as the command would be, and nothing written."""

from __future__ import annotations

import httpx

from tests.e2e.conftest import Api, ServerProcess, dealer_on, paired, sign_in


def preview(client: httpx.Client, tid: str, command: dict[str, object]) -> httpx.Response:
    return client.post(f"/api/t/{tid}/preview", json={"command": command})


def test_a_preview_of_players_out_in_one_hand_places_them_and_writes_nothing(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("preview", 12)
    floor = Api(servers[1], sign_in(servers[1], "fred", "floor-secret"))
    before = director.state("preview")
    same = {
        "type": "bust_same_hand",
        "players": [{"player": "P1", "stack": 4_000}, {"player": "P2", "stack": 4_000}],
    }

    r = preview(floor.client, "preview", same)

    assert r.status_code == 200, r.text
    shown = r.json()
    # A shared place, in the order they sat (the draw's): either may come first.
    assert sorted((f["player"], f["place"], f["tied"]) for f in shown["finishes"]) == [
        ("P1", 11, 2),
        ("P2", 11, 2),
    ]
    assert shown["left"] == 10
    after = director.state("preview")
    assert after["state"] == before["state"]  # nothing written
    floor.client.close()


def test_a_preview_is_refused_as_the_command_would_be(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("preview-refused", 6)
    public = httpx.Client(base_url=servers[0].base)
    dealer = Api(
        servers[0], dealer_on(servers[0], paired(servers[0], director, "preview-refused", 1))
    )
    same = {"type": "bust_same_hand", "players": [{"player": "P1"}, {"player": "P2"}]}

    # As the command itself is answered: the public may not; the dealer of their own table
    # may (a table screen reports several out in one hand), and is refused as the command is.
    command = public.post("/api/t/preview-refused/commands", json={"command": same})
    assert command.status_code in (401, 403)
    assert preview(public, "preview-refused", same).status_code == command.status_code
    by_dealer = dealer.command("preview-refused", same)
    assert by_dealer.status_code == 409
    dealt = preview(dealer.client, "preview-refused", same)
    assert (dealt.status_code, dealt.json()["error"]) == (409, by_dealer.json()["error"])
    unknown = preview(director.client, "preview-refused", same)
    assert unknown.status_code == 409
    error = unknown.json()["error"]
    assert (error["field"], error["reason"]) == ("players[0].stack", "start_stack_needed")
    bad = director.client.post("/api/t/preview-refused/preview", json={"command": {"type": "x"}})
    assert (bad.status_code, bad.json()["error"]["field"]) == (422, "command.type")
    public.close()
    dealer.client.close()
