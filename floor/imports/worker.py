"""A player list read in a process of its own, with limits on its memory and its time.

``python -m floor.imports.worker KIND ENCODING MEMORY SECONDS`` reads a list's bytes on its
standard input and writes what ``sheet.read`` made of them on its standard output, as
msgpack: ``Read`` (the rows, with this process's id and the CPU it spent) or ``Refused``
(the refusal, naming the problem and what to do). Before it reads anything it limits its own
address space to MEMORY bytes and its CPU time to SECONDS: a workbook made to explode when
read (a table of three million shared strings, a row of 200,000 cells) fails here, with a
``MemoryError`` or the kernel's SIGXCPU, and the memory goes back to the system with the
process. The server starts one for each list it is sent (``floor.server.list_reader``) and
waits for it without holding its event loop.
"""

from __future__ import annotations

import resource
import sys
import time
from typing import Any, cast, get_args

import msgspec

from ..engine.errors import BadValue, Reason
from .sheet import ENCODINGS, Kind, Sheet, read


class Read(msgspec.Struct, frozen=True, tag="read"):
    sheet: Sheet
    #: The process that read it, and the CPU seconds it took.
    pid: int
    cpu: float


class Refused(msgspec.Struct, frozen=True, tag="refused"):
    message: str
    field: str | None
    reason: str
    params: dict[str, Any]

    def error(self) -> BadValue:
        """The refusal as ``sheet.read`` raised it in the worker (its reason was checked
        against the catalogue there, where it is written as a literal)."""
        error = BadValue(self.message, field=self.field, params=self.params)
        error._reason = cast(Reason, self.reason)
        return error


Result = Read | Refused


def memory_refusal(memory: int) -> Refused:
    most = memory // (1024 * 1024)
    return Refused(
        message=f"reading the list needs more than {most:,} MB: save it as CSV, or split the list",
        field="file",
        reason="import_too_much_memory",
        params={"most": most},
    )


def run(data: bytes, kind: Kind, encoding: str, memory: int) -> Result:
    import os

    try:
        sheet = read(data, kind, encoding)  # type: ignore[arg-type]
    except BadValue as e:
        return Refused(message=e.message, field=e.field, reason=e.reason, params=dict(e.params))
    except MemoryError:
        return memory_refusal(memory)
    return Read(sheet=sheet, pid=os.getpid(), cpu=time.process_time())


def main(argv: list[str]) -> int:
    kind, encoding, memory, seconds = argv
    if kind not in get_args(Kind) or encoding not in ENCODINGS:
        print(f"usage: KIND ENCODING MEMORY SECONDS, not {argv}", file=sys.stderr)
        return 2
    limit = int(memory)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cpu = int(float(seconds)) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    data = sys.stdin.buffer.read()
    try:
        out = msgspec.msgpack.encode(run(data, kind, encoding, limit))  # type: ignore[arg-type]
    except MemoryError:
        out = msgspec.msgpack.encode(memory_refusal(limit))
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
