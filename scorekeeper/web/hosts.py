"""The host names the app answers to (``TRUSTED_HOSTS``), and a clean refusal of others.

Unless ``PUBLIC_URL`` is set, the links an answer carries name the address its request
was sent to (addresses.py), and a "score with me" link carries an edit key: a request
sent with ``Host: evil.example`` would get links to evil.example. ``TRUSTED_HOSTS``
lists the names the app answers to, and Flask refuses a request for any other. Unset,
every name is answered, so a laptop on a home network works at whatever address the
network gave it; the README's Deployment says when to set it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NoReturn

from flask import Flask, Request
from werkzeug.exceptions import BadRequest, SecurityError
from werkzeug.routing import MapAdapter
from werkzeug.wsgi import get_host

from scorekeeper.games.words import phrase

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

UNTRUSTED_HOST = phrase(
    "web.hosts.untrusted-host",
    "This server does not answer to the host name this request was sent to: open the app "
    "at its own address (its TRUSTED_HOSTS setting lists the names it answers to).",
)()

NO_HOST_NAME = phrase(
    "web.hosts.no-host-name",
    "The Host header of this request names no host a web address can hold: open the app "
    "at its own address.",
)()

# A name as Flask matches it (werkzeug's host_is_trusted): a domain or an IPv4 address,
# with a leading dot for its subdomains too; a port may follow (the match ignores it).
HOST_NAME = re.compile(r"\.?[a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]{1,5})?", re.ASCII)


class UntrustedHost(BadRequest):
    """The 400 of a request for a host not in ``TRUSTED_HOSTS``."""

    description = UNTRUSTED_HOST


class NoHostName(BadRequest):
    """The 400 of a request whose host is no name a URL can hold (".", a label longer than
    63 characters): Werkzeug cannot encode it."""

    description = NO_HOST_NAME


class RefusingAdapter(MapAdapter):
    """The URL adapter of a request for a host not trusted, or for no host name at all.

    Flask leaves such a request no adapter at all, so its error page could build no link
    (its stylesheet) and failed with a 500. This one builds links, and matches no route:
    the request is refused with the 400 before any view runs, and the hooks that look at
    the route (the CSRF check, the input checks) leave it alone.
    """

    refusal: type[BadRequest] = UntrustedHost

    @classmethod
    def of(
        cls, app: Flask, request: Request, refusal: type[BadRequest] = UntrustedHost
    ) -> RefusingAdapter:
        # No absolute link is built for a refused request: no host name is needed.
        adapter = cls(app.url_map, "", request.script_root, "", request.scheme, "/", "GET")
        adapter.refusal = refusal
        return adapter

    def match(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise self.refusal()


def is_trusted(environ: WSGIEnvironment, trusted_hosts: list[str] | None) -> bool:
    """Whether Flask answers a request with this WSGI environ (every one when unset)."""
    if trusted_hosts is None:
        return True
    try:
        get_host(environ, trusted_hosts)
    except SecurityError:
        return False
    return True


def checked_trusted_hosts(app: Flask) -> None:
    """Make ``TRUSTED_HOSTS`` the list of names Flask checks, or stop the start.

    ``SCOREKEEPER_TRUSTED_HOSTS`` arrives as text: names separated by commas or spaces.
    No name at all (unset, or empty) answers every host.
    """
    configured = app.config.get("TRUSTED_HOSTS")
    if configured is None:
        return
    if isinstance(configured, str):
        names = configured.replace(",", " ").split()
    elif isinstance(configured, list | tuple) and all(isinstance(n, str) for n in configured):
        names = [name.strip() for name in configured]
    else:
        raise ValueError(
            f"TRUSTED_HOSTS must list host names, such as scores.example, not {configured!r}."
        )
    for name in names:
        if not HOST_NAME.fullmatch(name.lower()):
            raise ValueError(
                "TRUSTED_HOSTS lists the host names phones open the app at, such as "
                f"scores.example or 192.168.1.20 (no scheme, no path), not {name!r}."
            )
    app.config["TRUSTED_HOSTS"] = [name.lower() for name in names] or None
