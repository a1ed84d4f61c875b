"""The walls' images (issue 29, part 1): PNG, JPEG and WebP taken by their first bytes, SVG
never, nothing over the cap; each named by its content."""

from __future__ import annotations

import pytest

from floor.engine.errors import FloorError
from floor.server.walls import MOST_IMAGE, image_kind, image_name
from tests.unit.test_error_codes import assert_said

PNG = b"\x89PNG\r\n\x1a\n" + bytes(40)
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(40)
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + bytes(40)


@pytest.mark.parametrize(("data", "kind"), [(PNG, "png"), (JPEG, "jpg"), (WEBP, "webp")])
def test_an_image_is_known_by_its_first_bytes(data: bytes, kind: str) -> None:
    assert image_kind(data) == kind


@pytest.mark.parametrize(
    "data",
    [
        b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
        b"\xef\xbb\xbf  <?xml version='1.0'?><svg/>",
        b"<!DOCTYPE svg><svg></svg>",
        b"<!-- made by hand -->\n<svg onload='alert(1)'/>",
    ],
)
def test_an_svg_is_refused_whatever_it_starts_with(data: bytes) -> None:
    with pytest.raises(FloorError) as caught:
        image_kind(data)
    assert_said(caught.value, "image_svg", {})
    assert caught.value.field == "body"


@pytest.mark.parametrize(
    "data", [b"", b"GIF89a" + bytes(20), b"RIFF\x00\x00\x00\x00WAVEfmt ", b"%PDF-1.7"]
)
def test_anything_else_is_refused(data: bytes) -> None:
    with pytest.raises(FloorError) as caught:
        image_kind(data)
    assert_said(caught.value, "image_unknown_type", {})


def test_an_image_over_the_cap_is_refused_before_it_is_read() -> None:
    big = PNG + bytes(MOST_IMAGE - len(PNG) + 1)
    with pytest.raises(FloorError) as caught:
        image_kind(big)
    assert caught.value.code == "too_large"
    assert_said(caught.value, "image_too_large", {"bytes": MOST_IMAGE + 1, "most": MOST_IMAGE})
    assert image_kind(big[:-1]) == "png"


def test_an_image_is_named_by_its_content() -> None:
    assert image_name(PNG, "png") == image_name(bytes(PNG), "png")
    assert image_name(PNG, "png") != image_name(PNG + b"\x00", "png")
    assert image_name(PNG, "png").endswith(".png")
