"""The anchor of bench/http_load.py and bench/capacity.py: a bare Flask route answering
each path with the bytes the app gave for it (status, content type, ETag, Location,
body), read from the JSON file named by ANCHOR_ANSWERS, and every POST with the one
append answer (its minimal one to ``Prefer: return=minimal``). A path captured with an
ETag answers its stored 304 when If-None-Match is sent and its ``plain`` answer
otherwise."""

from __future__ import annotations

import json
import os
from typing import Any

from flask import Flask, Response, request


def create_app() -> Flask:
    with open(os.environ["ANCHOR_ANSWERS"]) as answers_file:
        answers: dict[str, dict[str, Any]] = json.load(answers_file)
    app = Flask(__name__)

    @app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
    @app.route("/<path:path>", methods=["GET", "POST"])
    def answer(path: str) -> Response:
        stored: dict[str, Any] | None
        if request.method == "POST":
            minimal = "return=minimal" in request.headers.get("Prefer", "")
            stored = answers["POST minimal" if minimal else "POST"]
        else:
            stored = answers.get(f"/{path}")
        if stored is None:
            return Response("", 404)
        if "plain" in stored and "If-None-Match" not in request.headers:
            stored = stored["plain"]
        return Response(stored["body"], stored["status"], stored["headers"])

    return app
