"""The reader's language: chosen for each request, and the words of what engines say.

A phone's ``Accept-Language`` picks English, French or Japanese; the switch at the foot
of every page overrides it for that phone, remembered in a cookie of its own (not the
signed session cookie, so choosing a language is never a write of edit rights). Pages,
rulings and refusals are then read in that language: templates through Flask-Babel's
gettext, an engine's ``Text`` through ``reader()`` (the catalog with the phrase's code
as its context, and the locale's CLDR data), which Jinja applies to every ``Text`` a page
writes (its ``finalize``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from babel import Locale
from flask import Blueprint, Flask, redirect, request
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.wrappers import Response

from scorekeeper.games.words import ENGLISH, Reader, Text

# The languages the app speaks, each with its name as its readers write it (the switch).
LANGUAGES = {"en": "English", "fr": "Français", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"
COOKIE = "language"
COOKIE_LIFETIME = timedelta(days=400)

bp = Blueprint("language", __name__)

# Whatever a page or a view has a language's words of: a Text, or a value kept as it is.
Written = TypeVar("Written")


def chosen_language() -> str:
    """The phone's own choice (the switch), else the best of its Accept-Language."""
    return _chosen(request.cookies.get(COOKIE), request.accept_languages)


def _chosen(switched: str | None, accepted: LanguageAccept) -> str:
    if switched in LANGUAGES:
        return switched
    return accepted.best_match(LANGUAGES, DEFAULT_LANGUAGE) or DEFAULT_LANGUAGE


def language_sent(accept_language: str | None, cookie: str | None) -> str:
    """The language ``chosen_language`` chooses for a request sending these
    Accept-Language and Cookie headers, read from the headers alone: for an answer made
    before Flask (the refresh check, scorekeeper.web.refresh)."""
    # Most cookies a phone sends hold no language: they are not parsed for one.
    switched = None
    if cookie is not None and COOKIE in cookie:
        switched = parse_cookie(cookie).get(COOKIE)
    return _accepted_or(switched, accept_language)


@functools.lru_cache(maxsize=256)
def _accepted_or(switched: str | None, accept_language: str | None) -> str:
    # A phone polls with the same headers every time: each pair is read once.
    return _chosen(switched, parse_accept_header(accept_language, LanguageAccept))


def language() -> str:
    """This request's language code ("en", "fr", "ja")."""
    locale = get_locale()
    return DEFAULT_LANGUAGE if locale is None else locale.language


# Every page's language code, a variable of its templates' context: a filter a page calls
# once a row reads it there (language() reads Flask-Babel's locale through flask.g, which
# costs a few microseconds each call).
PAGE_LANGUAGE = "page_language"


def page_language() -> dict[str, str]:
    return {PAGE_LANGUAGE: language()}


def reader() -> Reader:
    """The words of this request's language for what engines say (the app's catalog:
    Flask-Babel keeps each language's once loaded)."""
    code = language()
    if code == DEFAULT_LANGUAGE:
        return ENGLISH
    return Reader(_locale(code), get_translations())


@functools.cache
def _locale(code: str) -> Locale:
    return Locale.parse(code)


def words(said: Written) -> Written | str:
    """What an engine said, in this request's language: a Text in the reader's words,
    anything else (a text given as it is, any value a page writes) as it is."""
    return reader().read(said) if isinstance(said, Text) else said


@bp.get("/language/<code>")
def switch(code: str) -> Response:
    """Remember this phone's language and go back to the page the switch was on.

    A link, not a form: it works without JavaScript and writes no session cookie, and
    what it changes is only how this phone reads the pages. The way back is the page's
    own address as the browser sends it (Referer; pages ask for it on this site), never
    written into the page: a join link's address holds an edit key."""
    answer = redirect(_back_to(request.referrer), 303)
    if code in LANGUAGES:
        answer.set_cookie(
            COOKIE,
            code,
            max_age=int(COOKIE_LIFETIME.total_seconds()),
            samesite="Lax",
            secure=request.is_secure,
            httponly=True,
        )
    return answer


def _back_to(referrer: str | None) -> str:
    # Only a page of this site: the switch never sends a phone elsewhere.
    home = request.root_path + "/"
    if not referrer:
        return home
    parts = urlsplit(referrer)
    if parts.netloc != request.host or not parts.path.startswith(home):
        return home
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _reading_values(translate: Callable[..., str]) -> Callable[..., str]:
    """A template's gettext (``_``, ``{% trans %}``) that writes each Text among its
    values in the reader's words, as ``{{ }}`` does, not in English."""

    @pass_context
    def said(context: Context, *args: Any, **variables: Any) -> str:
        return translate(
            context, *args, **{name: words(value) for name, value in variables.items()}
        )

    return said


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=chosen_language)
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):
        if name in app.jinja_env.globals:
            installed = cast(Callable[..., str], app.jinja_env.globals[name])
            app.jinja_env.globals[name] = _reading_values(installed)
    app.jinja_env.finalize = words
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.jinja_env.globals["language"] = language
    app.context_processor(page_language)
    app.register_blueprint(bp)
