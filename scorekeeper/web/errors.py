"""Clean error pages and JSON errors: a sentence, never a stack trace."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

from scorekeeper.games.base import and_list

TITLES = {
    400: "That request was not understood",
    401: "An edit key is needed",
    403: "Watching only",
    404: "Not found",
    405: "Not allowed here",
    409: "The session changed",
    413: "Too large",
    422: "That can't be recorded",
    500: "Something went wrong on our side",
}


def wants_json() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, message: str, field: str | None = None) -> tuple[Response, int]:
    if wants_json():
        return jsonify({"error": message, "field": field}), status
    page = render_template(
        "error.html", status=status, title=TITLES.get(status, "Error"), message=message
    )
    return Response(page, mimetype="text/html"), status


def method_refusal(error: MethodNotAllowed) -> str:
    """What a 405 says: the methods this address answers, and the one that was sent."""
    # HEAD and OPTIONS come with every route; the Allow header lists them all.
    answered = [m for m in error.valid_methods or () if m not in ("HEAD", "OPTIONS")]
    return f"{request.path} answers {and_list(sorted(answered))}, not {request.method}."


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError) -> tuple[Response, int]:
        return error_response(
            400,
            "This form was not sent from this app's page, or it expired: "
            "go back, reload the page and try again.",
            "csrf_token",
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        status = error.code or 500
        description = error.description or TITLES.get(status, "Error")
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
