"""A named screen's voice kept with its layout on the server (issue 29.4): whether the screen
speaks the announcements it captions, its volume and its quiet hours, saved by the director
and read back by the wall; a bad value is refused naming its field and changes nothing."""

from __future__ import annotations

import httpx

from tests.e2e.conftest import Api, ServerProcess


def _screen(server: ServerProcess, tid: str, name: str) -> object:
    r = httpx.get(f"{server.base}/api/t/{tid}/wall", params={"screen": name}, timeout=10.0)
    assert r.status_code == 200, r.text
    return r.json()["screen"]


def test_a_named_screen_keeps_its_voice_and_a_bad_one_is_refused_naming_the_field(
    servers: list[ServerProcess], director: Api
) -> None:
    director.create("voice", 9)
    pages = [{"page": "tables", "seconds": 20}]
    speech = {"on": True, "volume": 65, "quiet_from": "23:30", "quiet_until": "07:00"}
    r = director.client.put("/api/wall/screens/hall-a", json={"pages": pages, "speech": speech})
    assert r.status_code == 200, r.text
    saved = {"pages": pages, "speech": speech}
    # Every process reads it: the wall of another one asks.
    assert _screen(servers[1], "voice", "hall-a") == saved

    refused = [
        ({**speech, "volume": 101}, "speech.volume"),
        ({**speech, "quiet_from": "25:00"}, "speech.quiet_from"),
        ({"on": True, "quiet_from": "22:00"}, "speech.quiet_until"),
        ({"on": True, "quiet_until": "06:00"}, "speech.quiet_from"),
        ({**speech, "loud": True}, "speech"),
        ({**speech, "on": "yes"}, "speech.on"),
    ]
    for bad, field in refused:
        r = director.client.put("/api/wall/screens/hall-a", json={"pages": pages, "speech": bad})
        assert r.status_code in (400, 422), (bad, r.text)
        assert r.json()["error"]["field"] == field, (bad, r.text)
        if "loud" in bad:
            assert "loud" in r.json()["error"]["message"], r.text
    assert _screen(servers[1], "voice", "hall-a") == saved

    # A layout without a voice leaves it to the screen itself.
    r = director.client.put("/api/wall/screens/hall-a", json={"pages": pages})
    assert r.status_code == 200, r.text
    assert _screen(servers[0], "voice", "hall-a") == {"pages": pages}
