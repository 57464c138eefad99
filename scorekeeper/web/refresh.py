"""The live-refresh check, answered before Flask when it can be.

Every open page asks for its session's version every 1.5 s, so this answer is the
app's most frequent by far. An unchanged session costs one read of the version
column by the primary key and a 304 with no body; on PostgreSQL not even that once
the worker has heard the session's version announced (``scorekeeper.announced``).
A plain GET of a session that exists is answered here, without the request
context, the cookie or the hooks of a page: none of them has anything to do for it. It
says its language as every answer of the API does (``Content-Language``, and ``Vary``
naming the headers that chose it), read from those headers alone.
Anything else (another method, a query string, an id of the wrong shape, no such
session, a host not in ``TRUSTED_HOSTS``) goes on to the Flask view, which answers it
the same way, or with its JSON error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from werkzeug.datastructures import ETags
from werkzeug.http import HTTP_STATUS_CODES, parse_etags

from scorekeeper import keys, session_views
from scorekeeper.web.hosts import is_trusted
from scorekeeper.web.language import DEFAULT_LANGUAGE, language_sent

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

VERSION_PATH = re.compile(r"/api/v1/sessions/([^/]+)/version")


def version_answer(version: int, sent: ETags) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of the check: a 304 to the ETag of this version (``sent``:
    the request's If-None-Match)."""
    # The answer may be kept, but asked again every time: the next poll revalidates.
    headers = {"ETag": f'"{version}"', "Cache-Control": "no-cache"}
    # If-None-Match compares weakly (RFC 9110, 13.1.2): a proxy that compresses the answer
    # may have sent our tag on as W/"<version>".
    if sent.contains_weak(str(version)):
        return 304, headers, b""
    body = f'{{"version": {version}}}\n'.encode()
    return 200, headers | {"Content-Type": "application/json"}, body


def newest_tag(sent: ETags) -> int | None:
    """The newest version the client's tags name (None: none): a version's ETag is its
    digits; any other tag (or a huge number) is none of ours. Werkzeug reads an empty tag
    ("") as None."""
    versions = [
        int(tag)
        for tag in sent.as_set(include_weak=True)
        if tag and len(tag) < 19 and tag.isascii() and tag.isdigit()
    ]
    return max(versions, default=None)


class RefreshCheck:
    """WSGI middleware answering a plain GET of an existing session's version."""

    def __init__(self, wsgi_app: WSGIApplication, trusted_hosts: list[str] | None) -> None:
        self.wsgi_app = wsgi_app
        self.trusted_hosts = trusted_hosts

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        match = VERSION_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if (
            match is None
            or environ.get("REQUEST_METHOD") != "GET"
            or environ.get("QUERY_STRING")
            or not keys.is_id(match[1])
            or not is_trusted(environ, self.trusted_hosts)
        ):
            return self.wsgi_app(environ, start_response)
        sent = parse_etags(environ.get("HTTP_IF_NONE_MATCH"))
        version = session_views.checked_version(match[1], newest_tag(sent))
        if version is None:
            return self.wsgi_app(environ, start_response)
        status, headers, body = version_answer(version, sent)
        start_response(
            f"{status} {HTTP_STATUS_CODES[status]}",
            [*headers.items(), *said_in(environ), ("Content-Length", str(len(body)))],
        )
        return [body]


# The language headers of the answer to a request that names no language.
ENGLISH_ANSWER = (("Content-Language", DEFAULT_LANGUAGE),)


def said_in(environ: WSGIEnvironment) -> tuple[tuple[str, str], ...]:
    """The answer's ``Content-Language`` and, for a request that sent Accept-Language or a
    cookie, the ``Vary`` naming them: as every answer of the API says them
    (scorekeeper.web.asked_language), read from the headers alone."""
    accept_language = environ.get("HTTP_ACCEPT_LANGUAGE")
    cookie = environ.get("HTTP_COOKIE")
    if accept_language is None and cookie is None:
        return ENGLISH_ANSWER
    chosen_by = ", ".join(
        name
        for name, sent in (("Accept-Language", accept_language), ("Cookie", cookie))
        if sent is not None
    )
    return (
        ("Content-Language", language_sent(accept_language, cookie)),
        ("Vary", chosen_by),
    )
