"""Downloads (CSV, JSON) of a session and the import of an exported file."""

from __future__ import annotations

import json
import re
import unicodedata

from flask import Blueprint, Response, jsonify, redirect, render_template, url_for
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper import lifecycle, session_views, store
from scorekeeper.export import (
    FILE_MAX_BYTES,
    game_played,
    read_export,
    session_csv,
    session_grid_csv,
    session_json,
)
from scorekeeper.games.base import IllegalAction, json_error_text
from scorekeeper.games.words import phrase
from scorekeeper.web import access
from scorekeeper.web.forms import ImportForm
from scorekeeper.web.inputs import check_text, escapes_nothing_unfit, json_strings
from scorekeeper.web.language import reader
from scorekeeper.web.sessions import load_or_404
from scorekeeper.web.uploads import size_text

bp = Blueprint("export", __name__)

NOTHING_SENT = phrase(
    "web.import.nothing-sent", "Choose an exported .json file, or paste its text."
)
NESTS_TOO_DEEPLY = phrase(
    "web.import.nests-too-deeply", "The file nests too deeply to be a session export."
)
NOT_JSON = phrase("web.import.not-json", "The file is not valid JSON ({problem}).")


def download_name(view: session_views.SessionView, extension: str, kind: str = "") -> str:
    """``<game>-<date><kind>.<extension>``: the game played in plain letters ("hearts",
    "yardkle"; the game's slug when its name keeps none) and the day it started (UTC)."""
    plain = unicodedata.normalize("NFKD", game_played(view)).encode("ascii", "ignore").decode()
    game = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or view.game.slug
    return f"{game}-{view.started_at.date().isoformat()}{kind}.{extension}"


def csv_download(text: str, name: str) -> Response:
    return Response(
        text, mimetype="text/csv", headers={"Content-Disposition": f"attachment; filename={name}"}
    )


@bp.get("/s/<session_id>/export.csv")
def export_csv(session_id: str) -> Response:
    view = load_or_404(session_id)
    # The file's headings and words in the language of the page it was asked from.
    return csv_download(session_csv(view, reader()), download_name(view, "csv"))


@bp.get("/s/<session_id>/export-grid.csv")
def export_grid_csv(session_id: str) -> Response:
    view = load_or_404(session_id)
    return csv_download(session_grid_csv(view, reader()), download_name(view, "csv", "-grid"))


@bp.get("/s/<session_id>/export.json")
def export_json(session_id: str) -> Response:
    view = load_or_404(session_id)
    response = jsonify(session_json(view))
    response.headers["Content-Disposition"] = f"attachment; filename={download_name(view, 'json')}"
    return response


def uploaded(form: ImportForm) -> bytes:
    """The chosen file, or else the pasted text."""
    raw: bytes = form.file.data.read() if form.file.data else (form.text.data or "").encode()
    if not raw.strip():
        raise IllegalAction(NOTHING_SENT(), "file")
    return raw


def parse_upload(form: ImportForm) -> object:
    return parse_json(uploaded(form))


def parse_json(raw: bytes) -> object:
    try:
        data = json.loads(raw)
    except RecursionError:
        raise IllegalAction(NESTS_TOO_DEEPLY(), "file") from None
    except ValueError as error:  # not UTF-8, not JSON, or a number too long to read
        raise IllegalAction(NOT_JSON(problem=json_error_text(error)), "file") from None
    # A file's strings are walked only if its text may hold what is not text: a session's
    # export holds thousands of them.
    if not escapes_nothing_unfit(raw):
        check_text(json_strings(data))
    return data


@bp.route("/import", methods=["GET", "POST"])
def import_session() -> WerkzeugResponse | tuple[str, int]:
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        try:
            session_id, _key = lifecycle.import_session(
                read_export(parse_upload(form)), form.form_key.data
            )
        except IllegalAction as refused:
            error = refused.said
        except store.AlreadyRecorded as repeated:
            return redirect(url_for("sessions.session_page", session_id=repeated.session_id), 303)
        else:
            access.remember_scorer(session_id)
            return redirect(url_for("sessions.session_page", session_id=session_id), 303)
    status = 422 if error or form.errors else 200
    limit = size_text(FILE_MAX_BYTES)
    return render_template("sessions/import.html", form=form, error=error, file_limit=limit), status
