"""The vendored browser libraries are the files the pinned npm packages hold, unchanged."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Each vendored file, the file of the pinned package it copies, and its sha256.
VENDORED = [
    (
        "web/vendor/qrcode/qrcode.mjs",
        "node_modules/qrcode-generator/dist/qrcode.mjs",
        "ea91d7118a5395289170da848b7c6758b996163bfbccf312591ab65a4911b7c0",
    ),
    (
        "web/vendor/jsqr/jsQR.js",
        "node_modules/jsqr/dist/jsQR.js",
        "bc40c8a15196236b2314db0856f72ca0b49980cd5413b8c852a7349f5fee0859",
    ),
]


@pytest.mark.parametrize(("vendored", "package", "digest"), VENDORED)
def test_a_vendored_file_is_the_pinned_packages_own(
    vendored: str, package: str, digest: str
) -> None:
    data = (ROOT / vendored).read_bytes()
    assert hashlib.sha256(data).hexdigest() == digest
    installed = ROOT / package
    if installed.exists():  # after npm ci (scripts/install --check or --tests)
        assert installed.read_bytes() == data
