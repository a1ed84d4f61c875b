"""French, Italian and Brazilian Portuguese against English: every screen's texts and the
rulebook's titles.

The texts are JavaScript modules, so node reads them as the browser does
(``scripts/check_translations.mjs``): the same keys as English in every part file, the same
``{placeholders}`` in every form, plural forms holding each category Intl.PluralRules has for
the language (French, Italian and Portuguese: one, many, other). The rulebook's titles are a
data file per language (``docs/glossary/rulebook-titles-<code>.json``), one title for each rule
of each rule set in ``config/rulebook``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The languages written so far; a language joins once every one of its files is written.
LANGUAGES = ("fr", "it", "pt-br")
SCRIPT = ROOT / "scripts" / "check_translations.mjs"


def run_check(*args: str) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    assert node, "node is needed (scripts/install --tests installs it with npm)"
    return subprocess.run(
        [node, str(SCRIPT), *args], capture_output=True, text=True, timeout=60, cwd=ROOT
    )


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_text_has_the_english_keys_placeholders_and_plural_forms(code: str) -> None:
    done = run_check(code)

    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{code}: " in done.stdout and " 0 faults" in done.stdout


def test_the_check_finds_a_lost_placeholder_a_missing_key_a_plural_form_and_a_citation(
    tmp_path: Path,
) -> None:
    """The check itself, on a copy of the French texts spoiled four ways: each is named."""
    lang = ROOT / "web" / "js" / "lang"
    source = (lang / "fr.js").read_text(encoding="utf-8")
    spoiled = (
        source.replace('"Table {table} · siège {seat}"', '"Table {table}"')
        .replace('  "conn.live": "En direct",\n', "")
        .replace('many: "{n} joueurs", other: "{n} joueurs" },', 'other: "{n} joueurs" },', 1)
        .replace('"PFP 2014 rule 28: dead button":', '"PFP 2014 rule 28: dead buton":')
    )
    assert spoiled.count("\n") < source.count("\n")
    copy = tmp_path / "web" / "js" / "lang"
    copy.mkdir(parents=True)
    for f in lang.glob("*.js"):
        (copy / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    (copy / "fr.js").write_text(spoiled, encoding="utf-8")
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPT, tmp_path / "scripts" / SCRIPT.name)

    node = shutil.which("node")
    assert node
    done = subprocess.run(
        [node, str(tmp_path / "scripts" / SCRIPT.name), "fr"],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert done.returncode == 1
    assert "fr.js timecall.where: lost {seat}" in done.stdout
    assert "fr.js conn.live: missing" in done.stdout
    assert 'fr.js chart.players_left_value: no "many" form' in done.stdout
    assert 'fr.js why: no text for "PFP 2014 rule 28: dead button"' in done.stdout


def rule_ids() -> dict[str, list[str]]:
    books: dict[str, list[str]] = {}
    for path in sorted((ROOT / "config" / "rulebook").glob("*.toml")):
        with path.open("rb") as f:
            books[path.stem] = [rule["id"] for rule in tomllib.load(f)["rules"]]
    return books


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_rule_of_every_rule_set_has_a_title(code: str) -> None:
    titles = json.loads(
        (ROOT / "docs" / "glossary" / f"rulebook-titles-{code}.json").read_text(encoding="utf-8")
    )
    books = rule_ids()

    assert sorted(titles) == sorted(books)
    for book, ids in books.items():
        assert sorted(titles[book]) == sorted(ids), book
        for rule, title in titles[book].items():
            assert isinstance(title, str) and title.strip() == title and title, (book, rule)
