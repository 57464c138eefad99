"""HTTPS: the cookie holding a device's edit rights is sent over HTTPS only when it came so.

Behind a TLS-terminating proxy the app sees plain HTTP; ``PROXY_COUNT`` (how many
proxies sit in front of it) makes it trust their ``X-Forwarded-*`` headers, so a
request that reached the proxy over HTTPS counts as secure and the links and QR
codes name the address the phones used.
"""

from __future__ import annotations

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix


class HttpsSessionInterface(SecureCookieSessionInterface):
    """``SESSION_COOKIE_SECURE`` is one setting for every request; this follows each request."""

    def __init__(self) -> None:
        self._serializer: tuple[object, URLSafeTimedSerializer | None] | None = None

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        # Flask builds one per request (a tenth of a refresh check's time); it only
        # changes with the keys.
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        if self._serializer is None or self._serializer[0] != keys:
            self._serializer = (keys, super().get_signing_serializer(app))
        return self._serializer[1]


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
    count = proxy_count(app)
    if count:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_port=count, x_prefix=count
        )
