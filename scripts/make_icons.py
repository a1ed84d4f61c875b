#!/usr/bin/env python3
"""Draw the installed app's icons once (they are committed: web/icons/*.png).

A poker chip on the screens' background, one colour per page kind (the player's seat, the
floor phone, the table screen), at the sizes Chromium wants (192 and 512, and a maskable 512
whose chip stays inside the middle 80%, the safe zone) and iOS's home-screen icon (180). Pure
Python (zlib and struct): no imaging library to install for a few pictures.

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "web" / "icons"
BACKGROUND = (0x0B, 0x0F, 0x14)
#: The chip's colour per page kind.
KINDS = {
    "player": (0x2E, 0xB8, 0x72),
    "floor": (0xF2, 0xA9, 0x3B),
    "table": (0x4A, 0x9C, 0xF0),
}
WHITE = (0xF3, 0xF6, 0xFA)
#: Samples per pixel side: the edges are smoothed by averaging them.
SAMPLES = 3


def colour_at(x: float, y: float, chip: tuple[int, int, int], radius: float) -> tuple[int, ...]:
    """The colour at (x, y), the icon's centre at (0, 0), the chip's radius ``radius``."""
    r = math.hypot(x, y) / radius
    if r > 1.0:
        return BACKGROUND
    angle = (math.atan2(y, x) + math.pi) / (2 * math.pi)
    if r > 0.8:
        # The rim: eight white edge spots between the coloured ones.
        return WHITE if int(angle * 16) % 2 == 0 else chip
    if r > 0.72:
        return BACKGROUND
    if r > 0.62:
        return chip
    # The inlay: a white spade-like dot, the middle left plain for the eye.
    return WHITE if r < 0.28 else chip


def draw(size: int, chip: tuple[int, int, int], scale: float) -> bytes:
    radius = size / 2 * scale
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = px + (sx + 0.5) / SAMPLES - size / 2
                    y = py + (sy + 0.5) / SAMPLES - size / 2
                    c = colour_at(x, y, chip, radius)
                    for i in range(3):
                        acc[i] += c[i]
            row += bytes(round(a / SAMPLES**2) for a in acc)
        rows.append(bytes(row))
    return png(size, b"".join(rows))


def png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for kind, chip in KINDS.items():
        for size, scale, suffix in ((192, 0.92, ""), (512, 0.92, ""), (512, 0.72, "-maskable"), (180, 0.84, "")):
            (OUT / f"{kind}-{size}{suffix}.png").write_bytes(draw(size, chip, scale))
    print(f"icons written to {OUT}")


if __name__ == "__main__":
    main()
