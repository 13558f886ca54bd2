"""Structured logs: one JSON object per line, with the room and game ids when known.

Log aggregators index fields, not prose: `log.info("game finished", extra={"room": code,
"game": game_id})` becomes `{"level": "info", "msg": "game finished", "room": ..., ...}`.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

FIELDS = ("room", "game", "seat", "code", "process")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "at": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str = "INFO") -> None:
    """JSON lines on stderr for the `app` loggers; uvicorn keeps its own access log."""
    logger = logging.getLogger("app")
    if any(isinstance(h.formatter, JsonFormatter) for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False
