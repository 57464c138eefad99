"""Keys stay out of logs: the join links carry a key that grants edit rights.

Every key-bearing address ends in ``/join/<key>`` (a session's "score with me"
link, a deck profile's link), so whatever follows ``/join/`` is treated as a key.
"""

from __future__ import annotations

import logging
import re

from flask import Flask

# A key ends where a path segment, a query, a fragment, a word or a quoted string does.
JOIN_KEY = re.compile(r"(/join/)[^/?#\s\"']+")
REDACTED_KEY = "[key]"


def redact(text: str) -> str:
    """``text`` with the key of every join link replaced by ``[key]``."""
    return JOIN_KEY.sub(rf"\g<1>{REDACTED_KEY}", text)


class RedactKeys(logging.Filter):
    """Replaces the keys in a record's message and traceback before any handler formats it."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = ()
        if record.exc_info:
            # Handlers reuse exc_text once set: an exception's message may quote the key.
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return True


# One instance: a logger keeps a filter once, however many apps are created.
REDACT_KEYS = RedactKeys()


def init_app(app: Flask) -> None:
    """Redact the request lines ``flask run`` logs (werkzeug) and the app's own messages."""
    for logger in (logging.getLogger("werkzeug"), app.logger):
        logger.addFilter(REDACT_KEYS)
