"""Gunicorn settings: ``gunicorn --config python:scorekeeper.gunicorn_conf``, or
gunicorn.conf.py when it starts in the repository folder.

The server and its workers come from the command line (see the README's
Deployment); this module only keeps join keys out of gunicorn's logs. Only gunicorn
imports it, never the app: gunicorn runs on Unix only, and the app must import anywhere.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from scorekeeper.logs import REDACT_KEYS, redact


class RedactingLogger(Logger):
    """Gunicorn's logger with every join key replaced by ``[key]``."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        # The error log names requests too: each one's path at debug level, a failed one's
        # address always.
        self.error_log.addFilter(REDACT_KEYS)

    # types-gunicorn's TypedDict for atoms leaves out the key gunicorn adds for each request
    # header ("{name}i"), response header ("{name}o") and environ value ("{name}e").
    def atoms(  # type: ignore[override]
        self, resp: Any, req: Any, environ: Any, request_time: Any
    ) -> dict[str, Any]:
        """The access log's values, each text redacted: the request line, the path, the
        referrer, any header or environ value a log format names."""
        return {
            name: redact(value) if isinstance(value, str) else value
            for name, value in super().atoms(resp, req, environ, request_time).items()
        }


logger_class = RedactingLogger
