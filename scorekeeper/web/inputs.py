"""Checks every request passes before a view runs, the same on SQLite and PostgreSQL.

- An id in the path (a session's, a deck profile's) must have the shape the
  app gives ids, or the answer is 404 before any query is made.
- Text sent in a query string, a form or a JSON body must be text: no control
  characters (but tab and line breaks, which pasted files carry) and no
  unpaired surrogates (JSON can write them, UTF-8 cannot store them). The
  answer names the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from flask import Flask, Request, Response, abort, request

from scorekeeper import keys
from scorekeeper.games.base import IllegalAction, text_problem
from scorekeeper.games.words import phrase
from scorekeeper.web import decks, sessions
from scorekeeper.web.errors import error_response

# What a path argument holding an id names when nothing has that id.
ID_ARGUMENTS = {"session_id": sessions.NOT_FOUND, "profile_id": decks.NOT_FOUND}
LINE_BREAKS_AND_TABS = frozenset("\t\n\r")
FORM_TYPES = frozenset(("application/x-www-form-urlencoded", "multipart/form-data"))
NOT_TEXT = phrase("web.inputs.not-text", "“{field}” contains {problem}; remove it.")
A_FIELD_NAME = phrase("web.inputs.a-field-name", "a field's name")


def json_strings(value: object) -> Iterator[tuple[str, str]]:
    """(field, text) of every key and string in a JSON value; fields as "seats.0"."""
    # A stack, not recursion: a body may nest as deep as the JSON parser allows.
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            yield path or "body", item
        elif isinstance(item, dict):
            for key, child in item.items():
                field = f"{path}.{key}" if path else str(key)
                yield field, str(key)
                stack.append((field, child))
        elif isinstance(item, list):
            stack.extend(
                (f"{path}.{index}" if path else str(index), child)
                for index, child in enumerate(item)
            )


def check_text(sent: Iterable[tuple[str, str]]) -> None:
    """IllegalAction naming the first field whose text is not text."""
    for field, text in sent:
        problem = text_problem(text, LINE_BREAKS_AND_TABS)
        if problem is not None:
            fit = text_problem(field, LINE_BREAKS_AND_TABS) is None
            shown = field if fit else A_FIELD_NAME()
            raise IllegalAction(NOT_TEXT(field=shown, problem=problem), shown)


def sent_text(sent: Request) -> Iterator[tuple[str, str]]:
    """(field, text) of everything the request sends as text, the body's files aside."""
    # Most requests have no query string: parsing an empty one costs an API write its time.
    for name, value in sent.args.items(multi=True) if sent.query_string else ():
        yield name, name
        yield name, value
    if sent.method != "GET":
        # Only a form's body is parsed as one (parsing costs even an empty form its time).
        form = sent.form.items(multi=True) if sent.mimetype in FORM_TYPES else ()
        for name, value in form:
            yield name, name
            yield name, value
        if sent.is_json and not escapes_nothing_unfit(sent.get_data()):
            try:
                body = sent.get_json(silent=True)
            except RecursionError:
                return  # the view answers that it is no JSON object
            yield from json_strings(body)


def escapes_nothing_unfit(body: bytes) -> bool:
    """Whether a JSON body can hold no unfit text, without parsing it.

    Without a backslash nothing is escaped, so every key and string is a piece of the
    body's own text (a raw control character inside a string is no JSON at all): if that
    text holds nothing unfit, neither does any string. Saves each API write a second parse.
    """
    if b"\\" in body:
        return False
    try:
        text = body.decode()
    except UnicodeDecodeError:
        return False  # UTF-16 or UTF-32 JSON, or no JSON: parsed and walked
    return text_problem(text, LINE_BREAKS_AND_TABS) is None


def init_app(app: Flask) -> None:
    @app.before_request
    def check_request() -> tuple[Response, int] | None:
        # The request itself, looked up once: each use of the proxy looks it up again.
        sent: Request = request._get_current_object()  # type: ignore[attr-defined]
        if sent.routing_exception is not None:
            return None  # no such route or method: it answers 404 or 405, nothing is read
        for name, not_found in ID_ARGUMENTS.items():
            value = (sent.view_args or {}).get(name)
            if value is not None and not keys.is_id(value):
                abort(404, not_found)
        try:
            check_text(sent_text(sent))
        except IllegalAction as refused:
            return error_response(422, refused.said, refused.field)
        return None
