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
from scorekeeper.web.errors import error_response, wants_json

KIB = 1024
MIB = 1024 * KIB


# The endpoints that take an exported file: (what the file is, how large it may be).
FILE_UPLOADS: dict[str, tuple[str, int]] = {
    "export.import_session": ("a session file", export.FILE_MAX_BYTES),
    "api.import_session": ("a session file", export.FILE_MAX_BYTES),
    "groups.import_group": ("a group file", group_export.FILE_MAX_BYTES),
    "api.import_group": ("a group file", group_export.FILE_MAX_BYTES),
}


def size_text(size: int) -> str:
    """Bytes as people read a file's size: "512 KiB", "8 MiB", "9.2 MiB".

    Rounded up, so a size just over a limit never reads as the limit itself."""
    if size < MIB:
        return f"{math.ceil(size / KIB)} KiB"
    tenths = math.ceil(size * 10 / MIB)
    return f"{tenths // 10} MiB" if tenths % 10 == 0 else f"{tenths / 10:.1f} MiB"


def too_large_refusal(sent: Request) -> tuple[str, str]:
    """(sentence, field) refusing ``sent``: how large it is and how large it may be."""
    upload = FILE_UPLOADS.get(sent.endpoint or "")
    # The API's body is the file itself; a page sends it as the form's "file".
    field = "file" if upload and not wants_json() else "body"
    what, may_be = ("The file", upload[0]) if upload else ("The request", "a request")
    limit, size = sent.max_content_length, sent.content_length
    if limit is None or (size is not None and size <= limit):
        # The body was within its limit: one text field of its form was over the form's.
        form_limit = size_text(sent.max_form_memory_size or 0)
        return f"A text field of this form may hold at most {form_limit}.", field
    if size is None:  # sent in chunks: it was found larger than the limit as it was read
        return f"{what} is larger than {may_be} may be: at most {size_text(limit)}.", field
    return f"{what} is {size_text(size)}; {may_be} may be at most {size_text(limit)}.", field


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
