"""The web app: blueprints, CSRF, security headers, error pages."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from flask import Flask, request, url_for
from flask_wtf.csrf import CSRFProtect

from scorekeeper.games import GAMES
from scorekeeper.games.engine import Game
from scorekeeper.web.refresh import RefreshCheck

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

csrf = CSRFProtect()

# Everything the pages need is served by the app itself: no CDN, no inline code.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


SECURITY_HEADERS = [
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    # Join links carry an edit key: never leak a URL to another site. The app's own
    # requests carry it: over HTTPS the CSRF check wants a same-origin Referer.
    ("Referrer-Policy", "same-origin"),
]


class SecurityHeaders:
    """Adds the security headers to every answer, error pages included.

    Set as the answer starts rather than in an ``after_request`` hook: a refresh check
    answers a 304 often, and the hook's header handling cost a tenth of it."""

    def __init__(self, wsgi_app: WSGIApplication) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            return start_response(status, [*headers, *SECURITY_HEADERS], *exc_info)

        return self.wsgi_app(environ, start)


def page_url(endpoint: str, **values: str) -> str:
    """``url_for(endpoint, **values)``, built once for the root the app is served under.

    For the links pages carry again and again: those of every page (a stylesheet, the
    menu: building the ten of them took a fifth of a session page's time) and those of
    a session's own page (seven more)."""
    # root_path: what script_root names, without the property's second look-up.
    return _page_urls(request.root_path, endpoint, **values)


@functools.lru_cache(maxsize=1024)
def _page_urls(_script_root: str, endpoint: str, **values: Any) -> str:
    # Any, not str: mypy holds a ** of str values against url_for's own keywords too
    # (_external takes a bool), which the values of an address never name.
    return url_for(endpoint, **values)


NO_TEMPLATE = "_nothing.html"


def game_templates(app: Flask) -> Callable[[Game, str, str], str]:
    """``game_template(game, part, instead)``: the name of the game's own part of a page
    (``games/<slug>/<part>.html``) if it has one, else ``instead`` (an empty template
    unless given). Jinja keeps the templates it found, not those it did not: an include
    of a missing one searched every template folder on every page."""
    existing = frozenset(app.jinja_env.list_templates())

    def game_template(game: Game, part: str, instead: str = NO_TEMPLATE) -> str:
        name = f"games/{game.slug}/{part}.html"
        return name if name in existing else instead

    return game_template


def register(app: Flask) -> None:
    from scorekeeper.web import (
        access,
        adapters,
        api,
        decks,
        errors,
        export,
        groups,
        inputs,
        judge,
        language,
        play,
        sessions,
        uploads,
    )

    # Before the CSRF check, which reads a page's form: an imported file's own limit first.
    uploads.init_app(app)
    csrf.init_app(app)
    csrf.exempt(api.bp)
    errors.init_app(app)
    language.init_app(app)
    inputs.init_app(app)
    app.before_request(access.upgrade_old_cookie)
    app.url_map.converters["other_than"] = api.OtherThan
    for blueprint in (sessions.bp, play.bp, export.bp, judge.bp, decks.bp, groups.bp, api.bp):
        app.register_blueprint(blueprint)
    for blueprint in adapters.template_blueprints():
        app.register_blueprint(blueprint)
    app.jinja_env.globals["GAMES"] = GAMES
    app.jinja_env.globals["page_url"] = page_url
    # A filter too, which Jinja calls directly: the home page writes three links a row.
    app.jinja_env.filters["page_url"] = page_url
    app.jinja_env.globals["game_template"] = game_templates(app)

    app.wsgi_app = SecurityHeaders(  # type: ignore[method-assign]
        RefreshCheck(app.wsgi_app, app.config["TRUSTED_HOSTS"])
    )
