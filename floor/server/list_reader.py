"""Player lists read off the event loop: a process of their own, with limits.

A spreadsheet is read by openpyxl, whose cost is what the file says it holds, not its size:
3,000,000 shared strings in 400 KiB of zip froze the server for 36 s and kept 430 MB; a row
of 200,000 cells in 26 KiB, 6.8 s. ``sheet`` now refuses such files before reading them, and
what its bounds miss meets the limits of the process that reads it
(``floor.imports.worker``): ``MEMORY`` bytes of address space, ``SECONDS`` of time, after
which it is killed. The loop only waits for the answer; the memory leaves with the process.

Text of at most ``INLINE`` bytes (a list pasted into the console) is read on the loop: it
costs a few milliseconds, less than starting a process. At most ``AT_ONCE`` lists are read at
once; the others wait for their turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import time
import weakref
from typing import Final

import msgspec

from ..engine.errors import BadValue, refused
from ..imports import sheet
from ..imports.worker import Read, Result

log = logging.getLogger("floor.server")

#: Text up to this size is read at once, on the loop.
INLINE: Final = 64 * 1024
#: The reading process's address space: the interpreter and openpyxl take 40 MB, a list of
#: 10,000 rows in 64 columns 80 MB.
MEMORY: Final = 512 * 1024 * 1024
#: The reading process's time, wall clock (and CPU): an honest list of 10,000 rows is read
#: in a second or two.
SECONDS: Final = 30.0
AT_ONCE: Final = 2

#: The turns of each event loop (one in a server; a test makes many).
_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)
_decode = msgspec.msgpack.Decoder(Result).decode


def _inline(data: bytes, kind: sheet.Kind) -> bool:
    if kind == "xlsx" or (kind == "auto" and data.startswith(b"PK\x03\x04")):
        return False
    return len(data) <= INLINE


async def read_list(data: bytes, kind: sheet.Kind, encoding: sheet.Encoding) -> sheet.Sheet:
    """The rows of the list ``data``; ``BadValue`` naming the problem when there are none."""
    if _inline(data, kind):
        return sheet.read(data, kind, encoding)
    loop = asyncio.get_running_loop()
    turns = _turns.get(loop)
    if turns is None:
        turns = _turns[loop] = asyncio.Semaphore(AT_ONCE)
    async with turns:
        return await _in_worker(data, kind, encoding)


async def _in_worker(data: bytes, kind: sheet.Kind, encoding: sheet.Encoding) -> sheet.Sheet:
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "floor.imports.worker",
        kind,
        encoding,
        str(MEMORY),
        str(SECONDS),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(data), SECONDS)
    except TimeoutError:
        raise _too_slow() from None
    finally:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    if not out:
        # Killed by the kernel: past its CPU time (SIGXCPU), or out of memory in C code.
        log.warning(
            "the list reader died",
            extra={
                "worker": proc.pid,
                "status": proc.returncode,
                "stderr": err[-500:].decode(errors="replace"),
            },
        )
        if proc.returncode == -signal.SIGXCPU:
            raise _too_slow()
        raise _too_much_memory()
    # Up to 10,000 rows of 64 cells: decoded on a worker thread (60 ms).
    result = await asyncio.to_thread(_decode, out)
    if not isinstance(result, Read):
        raise result.error()
    log.info(
        "list read",
        extra={
            "worker": result.pid,
            "kind": result.sheet.kind,
            "rows": len(result.sheet.rows),
            "bytes": len(data),
            "cpu": round(result.cpu, 3),
            "seconds": round(time.monotonic() - started, 3),
        },
    )
    return result.sheet


def _too_slow() -> BadValue:
    return refused(BadValue, "import_too_slow", {"seconds": SECONDS}, field="file")


def _too_much_memory() -> BadValue:
    most = MEMORY // (1024 * 1024)
    return refused(BadValue, "import_too_much_memory", {"most": most}, field="file")
