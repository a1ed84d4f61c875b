"""Structured logs: one JSON object per line on stderr, with the fields a log search needs."""

from __future__ import annotations

import logging
import sys
import time
from typing import Any

import msgspec

_RESERVED = set(vars(logging.makeLogRecord({})))
_encoder = msgspec.json.Encoder(enc_hook=repr)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            # Under `floor serve --workers N` the processes share one stderr.
            "pid": record.process,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _RESERVED and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return _encoder.encode(entry).decode()


def configure(level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    # One line per request is noise at a few requests a second per phone; commands are logged.
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
    # So are uvicorn's two lines per websocket ("accepted", "connection open"): a storm of
    # 5,000 phones reconnecting wrote 10,000 lines from the loop the staff's commands share.
    # Its warnings and errors stay; ``floor serve`` says where it listens itself.
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
