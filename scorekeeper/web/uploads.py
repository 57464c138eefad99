"""How large a request may be: an imported file up to its format's limit, anything else
up to ``MAX_CONTENT_LENGTH``; a larger one is refused with a sentence naming the limit.

The limit is raised before any hook reads the body: the CSRF check reads a page's form
first, and a body read under the smaller limit is refused before the view is reached.
"""

from __future__ import annotations

import math

from flask import Flask, Request, Response, request
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper import export, group_export
from scorekeeper.games.words import Decimal, Text, phrase
from scorekeeper.web.errors import error_response, wants_json

KIB = 1024
MIB = 1024 * KIB


SESSION_FILE = phrase("web.upload.a-session-file", "a session file")
GROUP_FILE = phrase("web.upload.a-group-file", "a group file")
# The endpoints that take an exported file: (what the file is, how large it may be).
FILE_UPLOADS: dict[str, tuple[Text, int]] = {
    "export.import_session": (SESSION_FILE(), export.FILE_MAX_BYTES),
    "api.import_session": (SESSION_FILE(), export.FILE_MAX_BYTES),
    "groups.import_group": (GROUP_FILE(), group_export.FILE_MAX_BYTES),
    "api.import_group": (GROUP_FILE(), group_export.FILE_MAX_BYTES),
}
FIELD_TOO_LONG = phrase(
    "web.upload.text-field-too-long", "A text field of this form may hold at most {limit}."
)
FILE_TOO_LARGE = phrase(
    "web.upload.file-too-large", "The file is larger than {kind} may be: at most {limit}."
)
REQUEST_TOO_LARGE = phrase(
    "web.upload.request-too-large", "The request is larger than a request may be: at most {limit}."
)
FILE_OF_SIZE = phrase(
    "web.upload.file-of-size", "The file is {size}; {kind} may be at most {limit}."
)
REQUEST_OF_SIZE = phrase(
    "web.upload.request-of-size", "The request is {size}; a request may be at most {limit}."
)


KIB_SIZE = phrase("web.upload.kib", "{size} KiB")
MIB_SIZE = phrase("web.upload.mib", "{size} MiB")


def size_text(size: int) -> Text:
    """Bytes as people read a file's size: "512 KiB", "8 MiB", "9.2 MiB".

    Rounded up, so a size just over a limit never reads as the limit itself."""
    if size < MIB:
        return KIB_SIZE(size=math.ceil(size / KIB))
    return MIB_SIZE(size=Decimal(math.ceil(size * 10 / MIB) / 10))


def too_large_refusal(sent: Request) -> tuple[Text, str]:
    """(sentence, field) refusing ``sent``: how large it is and how large it may be."""
    upload = FILE_UPLOADS.get(sent.endpoint or "")
    # The API's body is the file itself; a page sends it as the form's "file".
    field = "file" if upload and not wants_json() else "body"
    limit, size = sent.max_content_length, sent.content_length
    if limit is None or (size is not None and size <= limit):
        # The body was within its limit: one text field of its form was over the form's.
        form_limit = size_text(sent.max_form_memory_size or 0)
        return FIELD_TOO_LONG(limit=form_limit), field
    if size is None:  # sent in chunks: it was found larger than the limit as it was read
        if upload:
            return FILE_TOO_LARGE(kind=upload[0], limit=size_text(limit)), field
        return REQUEST_TOO_LARGE(limit=size_text(limit)), field
    if upload:
        return FILE_OF_SIZE(size=size_text(size), kind=upload[0], limit=size_text(limit)), field
    return REQUEST_OF_SIZE(size=size_text(size), limit=size_text(limit)), field


def init_app(app: Flask) -> None:
    """Call before the CSRF check is set up: its hook must run after this one."""

    @app.before_request
    def raise_file_limit() -> None:
        upload = FILE_UPLOADS.get(request.endpoint or "")
        if upload is not None:
            # An exported file is the largest thing sent: more than any other body.
            request.max_content_length = request.max_form_memory_size = upload[1]

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(_error: RequestEntityTooLarge) -> tuple[Response, int]:
        return error_response(413, *too_large_refusal(request))
