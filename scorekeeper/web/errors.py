"""Clean error pages and JSON errors: a sentence, never a stack trace.

A page reads in its reader's language (its title, and its sentence when that is a
phrase said, a ``Text``). An error under /api/ is JSON in the language the request asks
for, with its code and values for a client naming one (scorekeeper.web.asked_language):
an endpoint's refusals and the app's own errors (no such path, a body too large, a host
not served, a crash) alike."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

from scorekeeper.games.words import Phrase, Text, all_of, phrase
from scorekeeper.web.asked_language import (
    asked_reader,
    code_and_values,
    language_named,
    say_language_of,
    spoken,
)
from scorekeeper.web.language import DEFAULT_LANGUAGE, words

TITLES: dict[int, Phrase] = {
    400: phrase("web.error.bad-request", "That request was not understood"),
    401: phrase("web.error.edit-key-needed", "An edit key is needed"),
    403: phrase("web.error.watching-only", "Watching only"),
    404: phrase("web.error.not-found", "Not found"),
    405: phrase("web.error.not-allowed", "Not allowed here"),
    409: phrase("web.error.session-changed", "The session changed"),
    413: phrase("web.error.too-large", "Too large"),
    422: phrase("web.error.not-recorded", "That can't be recorded"),
    500: phrase("web.error.our-side", "Something went wrong on our side"),
}
ERROR = phrase("web.error.error", "Error")
METHOD_REFUSED = phrase("web.error.method-refused", "{path} answers {methods}, not {method}.")
FORM_NOT_FROM_APP = phrase(
    "web.error.form-not-from-app",
    "This form was not sent from this app's page, or it expired: "
    "go back, reload the page and try again.",
)
# werkzeug's own sentences (a refusal that gave none of its own), said as phrases so
# that a page reads them in its reader's language.
_WERKZEUG_SAID = (
    phrase(
        "web.error.not-understood",
        "The browser (or proxy) sent a request that this server could not understand.",
    ),
    phrase(
        "web.error.no-such-address",
        "The requested URL was not found on the server. If you entered the URL manually "
        "please check your spelling and try again.",
    ),
    phrase(
        "web.error.internal",
        "The server encountered an internal error and was unable to complete your request. "
        "Either the server is overloaded or there is an error in the application.",
    ),
    phrase("web.error.too-large-data", "The data value transmitted exceeds the capacity limit."),
)
WERKZEUG_SAID = {said.english: said for said in _WERKZEUG_SAID}


def wants_json() -> bool:
    return request.path.startswith("/api/")


def title_of(status: int) -> Text:
    return TITLES[status]() if status in TITLES else ERROR()


def error_response(status: int, message: str, field: str | None = None) -> tuple[Response, int]:
    """The refusal: JSON for the API (``error_answer``), else a page in the reader's
    language (``message`` a Text is read in it; werkzeug's own sentences too)."""
    if not isinstance(message, Text) and message in WERKZEUG_SAID:
        message = WERKZEUG_SAID[message]()
    if wants_json():
        return error_answer(status, message, field), status
    page = render_template("error.html", status=status, title=title_of(status), message=message)
    return Response(page, mimetype="text/html"), status


def error_answer(status: int, said: str, field: str | None) -> Response:
    """An error of the API: its sentence in the asked language, its field and, for a
    client naming a language, its code and values. A request naming none gets the two
    fields in English, as ever."""
    body: dict[str, object] = {"error": spoken(said, asked_reader()), "field": field}
    if language_named():
        body |= code_and_values(said)
    response = jsonify(body)
    response.status_code = status
    say_language_of(response)
    if not isinstance(said, Text):
        # Words no phrase says are English, whatever was asked.
        response.headers["Content-Language"] = DEFAULT_LANGUAGE
    return response


def method_refusal(error: MethodNotAllowed) -> Text:
    """What a 405 says: the methods this address answers, and the one that was sent."""
    # HEAD and OPTIONS come with every route; the Allow header lists them all.
    answered = [m for m in error.valid_methods or () if m not in ("HEAD", "OPTIONS")]
    return METHOD_REFUSED(
        path=request.path, methods=all_of(sorted(answered)), method=request.method
    )


def init_app(app: Flask) -> None:
    # Pages may read a Text in the reader's words before a filter sees it.
    app.jinja_env.globals.setdefault("words", words)

    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError) -> tuple[Response, int]:
        return error_response(400, FORM_NOT_FROM_APP(), "csrf_token")

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        status = error.code or 500
        description = error.description or title_of(status)
        if isinstance(error, MethodNotAllowed) and description == MethodNotAllowed.description:
            description = method_refusal(error)
        response, status = error_response(status, description)
        # The error's own headers, such as a 405's Allow; the body is ours.
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response, status

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[Response, int]:
        app.logger.exception("Unhandled error on %s", request.path)
        return error_response(500, InternalServerError.description)
