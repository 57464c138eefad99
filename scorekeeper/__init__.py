"""Tabletop Scorekeeper: a phone-first score keeper and trick judge."""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Request
from flask_compress import Compress
from werkzeug.exceptions import BadHost, SecurityError
from werkzeug.routing import MapAdapter

PACKAGE_FOLDER = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_FOLDER.parent

DEFAULTS: dict[str, Any] = {
    "DATABASE_URL": None,
    # Whole requests (an imported session file is the largest thing a user sends).
    "MAX_CONTENT_LENGTH": 512 * 1024,
    "MAX_FORM_MEMORY_SIZE": 512 * 1024,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    # The cookie holds this device's edit rights: it must outlive a games night.
    "PERMANENT_SESSION_LIFETIME": timedelta(days=400),
    # 400 days from its last change, not from every request: an unchanged cookie is not
    # signed and sent again with each page and refresh check.
    "SESSION_REFRESH_EACH_REQUEST": False,
    "WTF_CSRF_TIME_LIMIT": None,
    "SEND_FILE_MAX_AGE_DEFAULT": timedelta(hours=1),
    # How many proxies in front of the app set X-Forwarded-* headers (scorekeeper/web/https.py).
    "PROXY_COUNT": 0,
    # The app's address as phones open it, for every absolute link, share links and QR
    # codes included (scorekeeper/web/addresses.py); unset, the address the page was
    # opened at.
    "PUBLIC_URL": None,
    # The host names the app answers to, any other refused with a 400
    # (scorekeeper/web/hosts.py); unset, every one, so phones open a laptop at home at
    # whatever address the network gave it.
    "TRUSTED_HOSTS": None,
    # Flask-Compress: pages, JSON and CSV exports, scripts and stylesheets, gzip for
    # every client and Brotli or Zstandard for those that take them.
    "COMPRESS_MIMETYPES": [
        "text/html",
        "text/css",
        "text/csv",
        "text/javascript",
        "application/javascript",
        "application/json",
        "image/svg+xml",
    ],
}


class App(Flask):
    """Flask, asking once per function whether it is a coroutine function.

    Flask asks it of every hook and view on every request, through inspect's check, which
    is not free, and the answer never changes.
    Bounded: a callback made for one request (``after_this_request``) comes and goes.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._synced = functools.lru_cache(maxsize=1024)(super().ensure_sync)

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        return self._synced(func)

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        """Flask's, but a request for a host not in ``TRUSTED_HOSTS``, or for a host no URL
        can hold (Werkzeug's BadHost), gets an adapter that refuses it with a 400 page
        (scorekeeper/web/hosts.py)."""
        try:
            return super().create_url_adapter(request)
        except (SecurityError, BadHost) as refused:
            if request is None:
                raise
            # Imported here as create_app imports the web side: the package imports first.
            from scorekeeper.web.hosts import NoHostName, RefusingAdapter, UntrustedHost

            refusal = UntrustedHost if isinstance(refused, SecurityError) else NoHostName
            return RefusingAdapter.of(self, request, refusal)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app: defaults, then instance/config.py, then SCOREKEEPER_* variables.

    ``test_config`` replaces the last two, so tests never read the machine's
    configuration.
    """
    app = App(
        __name__,
        instance_relative_config=True,
        template_folder=str(served_folder("templates")),
        static_folder=str(served_folder("static")),
    )
    app.config.from_mapping(DEFAULTS)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
        app.config.from_prefixed_env("SCOREKEEPER")
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))

    from scorekeeper import announced, backups, db, logs, migrations
    from scorekeeper.web import addresses, hosts, https, register

    logs.init_app(app)
    addresses.checked_public_url(app)
    hosts.checked_trusted_hosts(app)
    https.init_app(app)
    db.init_app(app)
    migrations.init_app(app)
    backups.init_app(app)
    announced.init_app(app)
    register(app)
    https.trust_proxies(app)
    Compress(app)
    return app


def served_folder(name: str) -> Path:
    """templates/ or static/: inside the package when installed from a wheel (setup.py puts
    them there), else beside it, in the checkout (an editable install serves those)."""
    installed = PACKAGE_FOLDER / name
    return installed if installed.is_dir() else PROJECT_ROOT / name


def instance_secret_key(instance: Path) -> str:
    """The key in instance/secret_key, made once: restarts keep everyone's cookies valid."""
    path = instance / "secret_key"
    if not path.exists():
        draft = instance / f"secret_key.{os.getpid()}"
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        # A link either creates the file whole or fails: two workers starting
        # together end up with the same key.
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
        draft.unlink()
    return path.read_text().strip()
