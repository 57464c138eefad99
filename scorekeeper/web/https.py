"""HTTPS: the cookie holding a device's edit rights is sent over HTTPS only when it came so.

Behind a TLS-terminating proxy the app sees plain HTTP; ``PROXY_COUNT`` (how many
proxies sit in front of it) makes it trust their ``X-Forwarded-*`` headers, so a
request that reached the proxy over HTTPS counts as secure and the links and QR
codes name the address the phones used.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click
from flask import Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper import certificate
from scorekeeper.web import addresses

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


class HttpsSessionInterface(SecureCookieSessionInterface):
    """``SESSION_COOKIE_SECURE`` is one setting for every request; this follows each request."""

    def __init__(self) -> None:
        self._serializer: tuple[object, URLSafeTimedSerializer | None] | None = None

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not sends_cookies(request) and self.get_signing_serializer(app) is not None:
            return self.session_class()  # what Flask gives a request without this cookie
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        # An empty session nothing read or changed needs nothing (Flask works out every
        # setting of the cookie first): an API request's.
        if session or session.modified or session.accessed:
            super().save_session(app, session, response)

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        # Flask builds one per request (a tenth of a refresh check's time); it only
        # changes with the keys.
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        if self._serializer is None or self._serializer[0] != keys:
            self._serializer = (keys, super().get_signing_serializer(app))
        return self._serializer[1]


def sends_cookies(sent: Request) -> bool:
    """Whether the request carries a Cookie header. Asked before ``request.cookies``, which
    walks every header of the request to find the Cookie ones (API clients send none)."""
    return "HTTP_COOKIE" in sent.environ


def proxy_count(app: Flask) -> int:
    count = app.config["PROXY_COUNT"]
    # A bool is an int to Python, but "true" is no number of proxies.
    if type(count) is not int or count < 0:
        raise ValueError(
            f"PROXY_COUNT must be the number of proxies in front of the app (0 or more), "
            f"not {count!r}."
        )
    return count


def init_app(app: Flask) -> None:
    app.session_interface = HttpsSessionInterface()
    add_certificate_command(app)
    proxy_count(app)  # a wrong count stops the start before the database is opened


def trust_proxies(app: Flask) -> None:
    """Read the proxies' ``X-Forwarded-*`` headers, if ``PROXY_COUNT`` says there are any.

    Called once the web side has its own WSGI layers: the headers are read before any of
    them, so the refresh check answering before Flask sees the host the phones used (it
    answers only the hosts Flask answers)."""
    count = proxy_count(app)
    if count:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            PlainPrefix(app.wsgi_app),
            x_for=count,
            x_proto=count,
            x_host=count,
            x_port=count,
            x_prefix=count,
        )


# A path prefix of plain segments, a slash at its end or not: no empty segment ("//x" is
# another host to a browser), no backslash, space or control character (a browser reads
# "/\x" or "/<tab>/x" as "//x").
PLAIN_PREFIX = re.compile(r"(/[A-Za-z0-9._~%!$&'()*+,;=:@-]+)*/?", re.ASCII)


class PlainPrefix:
    """Below ProxyFix: an ``X-Forwarded-Prefix`` that is no plain path is left unused.

    A proxy passes on the header as the phone sent it unless it sets its own, and every
    link of the page starts with the prefix: "//evil.example" would send its forms and
    links to another site."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        script_name = environ.get("SCRIPT_NAME", "")
        if not PLAIN_PREFIX.fullmatch(script_name):
            original = environ.get("werkzeug.proxy_fix.orig", {})
            environ["SCRIPT_NAME"] = original.get("SCRIPT_NAME", "")
        return self.app(environ, start_response)


def add_certificate_command(app: Flask) -> None:
    @app.cli.command("https-cert")
    def https_cert_command() -> None:
        """Make the certificate that `make run HTTPS=1` serves, for this computer's
        addresses (kept while it still names them all)."""
        lan = addresses.lan_address()
        folder = Path(app.instance_path)
        made = certificate.ensure(folder, socket.gethostname(), [lan] if lan else [])
        files = certificate.Files(folder)
        click.echo(
            f"{'Made' if made else 'Kept'} {files.server} for {lan or 'this computer only'}. "
            f"A phone that installs {files.authority} as trusted opens the app without a warning."
        )
