"""The language an answer of the JSON API is asked in, and its sentences' codes.

An answer's sentences (rulings, explanations, errors) are in the language the client asks
for by Accept-Language, or that a browser's switch keeps in its cookie, chosen as pages
choose it (scorekeeper.web.language). A client that names a language (English too) gets
beside each sentence its code and values, so it never reads the words to know what was
said. A request that names none is answered exactly as before there were languages: in
English, with no code, without reading either header (an API client sends no cookie, and
English is what a Text is already).

The API's endpoints (scorekeeper.web.api) and the app's errors under /api/
(scorekeeper.web.errors: no such path, a body too large, a crash) answer alike through it.
"""

from __future__ import annotations

from flask import Response, request

from scorekeeper.games.words import Reader, Text
from scorekeeper.web import language
from scorekeeper.web.language import DEFAULT_LANGUAGE

# The code of an error said in English words alone: werkzeug's own sentence for an error
# the app neither raises nor says as a phrase (scorekeeper.web.errors.WERKZEUG_SAID holds
# those it meets). Every refusal the app makes itself is a phrase (IllegalAction takes
# nothing else).
REFUSED = "refused"


def asked_language() -> str:
    """The language of this request's answer: "en", "fr" or "ja"."""
    environ = request.environ
    if "HTTP_ACCEPT_LANGUAGE" not in environ and "HTTP_COOKIE" not in environ:
        return DEFAULT_LANGUAGE
    return language.language()


def asked_reader() -> Reader | None:
    """The words of the asked language; None for English, whose words a Text is."""
    return None if asked_language() == DEFAULT_LANGUAGE else language.reader()


def spoken(said: str, reader: Reader | None = None) -> str:
    """What was said, in ``reader``'s words (English without one); text that is no phrase
    stays as it is."""
    if reader is None or not isinstance(said, Text):
        return str.__str__(said)
    return reader.read(said)


def said_code(said: str) -> dict[str, object] | None:
    """A phrase's code and values (``{"code", "values"}``); None for text that is no phrase."""
    return said.to_json() if isinstance(said, Text) else None


def code_and_values(said: str) -> dict[str, object]:
    """An error's ``code`` and ``values``: its phrase's, or ``refused`` for words that are
    no phrase."""
    if isinstance(said, Text):
        return said.to_json()
    return {"code": REFUSED, "values": {}}


def language_named() -> bool:
    """Whether the request names a language: an Accept-Language, or the switch's cookie.
    Its answer carries the code and values of each sentence."""
    environ = request.environ
    return "HTTP_ACCEPT_LANGUAGE" in environ or (
        "HTTP_COOKIE" in environ and language.COOKIE in request.cookies
    )


def language_headers() -> tuple[tuple[str, str], ...]:
    """``Content-Language``, and a ``Vary`` naming what the language was chosen by."""
    environ = request.environ
    chosen_by = tuple(
        name
        for name, key in (("Accept-Language", "HTTP_ACCEPT_LANGUAGE"), ("Cookie", "HTTP_COOKIE"))
        if key in environ
    )
    return (("Content-Language", asked_language()), *(("Vary", name) for name in chosen_by))


def say_language_of(response: Response) -> Response:
    """The answer with its ``Content-Language``, and what chose it named in ``Vary``."""
    for name, value in language_headers():
        if name == "Vary":
            response.vary.add(value)
        else:
            response.headers[name] = value
    return response
