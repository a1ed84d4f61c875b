"""The languages the server ships (floor/server/languages.py) and what it tells the browser of
them: the pages' list, the service worker's notifications, the shell a phone keeps."""

from __future__ import annotations

import json
import re
from pathlib import Path

from floor.server.languages import LANGUAGES, language_of, shipped
from floor.server.routes_app import _script, manifest, shell
from floor.server.routes_pages import page_with_locale

WEB = Path(__file__).resolve().parents[2] / "web"


def test_a_language_is_shipped_once_its_base_file_is_there(tmp_path: Path) -> None:
    (tmp_path / "js" / "lang").mkdir(parents=True)
    for code in ("en", "de", "pt-br"):
        (tmp_path / "js" / "lang" / f"{code}.js").write_text("export const x = {};\n")
    (tmp_path / "js" / "lang" / "paper-fr.js").write_text("export const x = {};\n")
    # In the picker's order; a part alone ships nothing.
    assert shipped(tmp_path) == ("en", "de", "pt-br")
    assert language_of("pt-BR", tmp_path) == "pt-br"
    assert language_of("pt-PT", tmp_path) == "pt-br"
    assert language_of("de-AT", tmp_path) == "de"
    assert language_of("fr-FR", tmp_path) == "en"


def test_the_repository_ships_english_and_czech_first() -> None:
    assert shipped(WEB)[:2] == ("en", "cs")
    assert set(shipped(WEB)) <= set(LANGUAGES)


def test_every_page_carries_the_languages_shipped() -> None:
    page = page_with_locale("player", "de-AT").decode()
    langs = re.search(r'data-langs="([^"]*)"', page)
    assert langs is not None and langs.group(1).split() == list(shipped(WEB))
    assert 'data-locale="de-AT"' in page


def test_the_shell_keeps_english_and_every_languages_notifications_alone() -> None:
    """A phone precaches the English texts; another language is fetched (and kept) when
    chosen: a phone does not download every language of the field."""
    _, paths = shell(WEB)
    langs = {p for p in paths if p.startswith("/static/js/lang/")}
    assert "/static/js/lang/en.js" in langs and "/static/js/lang/table-en.js" in langs
    assert "/static/js/lang/cs.js" not in langs
    assert "/static/js/lang/table-cs.js" not in langs
    for code in shipped(WEB):
        assert f"/static/js/lang/push-{code}.js" in langs
    others = [p for p in langs if not p.endswith("-en.js") and "/push-" not in p]
    assert others == ["/static/js/lang/en.js"]


def test_the_service_worker_reads_the_notifications_of_every_language_shipped() -> None:
    script = _script(WEB).decode()
    found = re.search(r"importScripts\(\.\.\.(\[[^\]]*\])\)", script)
    assert found is not None
    assert json.loads(found.group(1)) == [f"/static/js/lang/push-{c}.js" for c in shipped(WEB)]


def test_the_home_screen_name_in_each_language() -> None:
    assert manifest("player", "t1", "Main", "de")["short_name"] == "Mein Platz"
    assert manifest("table", "t1", "Main", "pl", 7)["short_name"] == "Stół 7"
    assert manifest("player", "t1", "Main", "es")["lang"] == "es"
