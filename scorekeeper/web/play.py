"""Recording at the table: an action from a form, undo and redo.

Each game's form posts its own fields; a small reader turns them into the
game's JSON action, which the store validates with the engine. No ruling is
made here.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import store
from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.web import access
from scorekeeper.web.adapters import AskFirst, CardCorrection, adapter
from scorekeeper.web.forms import new_form_key
from scorekeeper.web.sessions import load_or_404, picker_colours, render_session, session_deck

bp = Blueprint("play", __name__)


def posted_version() -> int:
    return parse_whole_number(request.form.get("version", ""), "The page's version", "version")


def record(
    view: store.SessionView, write: Callable[[int, str | None], object]
) -> Response | tuple[str, int]:
    """Run one checked write from a form and answer as a player expects.

    Success and a repeated tap both go back to the session page; a refused
    action shows the page again with the reason; a stale page shows the
    current state with a 409.
    """
    session_id = view.id
    access.require_device_edit(session_id)
    try:
        write(posted_version(), request.form.get("form_key") or None)
    except IllegalAction as refused:
        return render_session(view, refused, 422)
    except store.StaleVersion:
        return render_session(
            load_or_404(session_id),
            "The session changed on another phone before this was sent: this is the "
            "table now. Check it and enter again if still needed.",
            409,
        )
    except store.AlreadyRecorded:
        pass
    except AskFirst as ask:
        return redirect(url_for("sessions.session_page", session_id=session_id, **ask.step), 303)
    return redirect(url_for("sessions.session_page", session_id=session_id), 303)


@bp.post("/s/<session_id>/action")
def action(session_id: str) -> Response | tuple[str, int]:
    view = load_or_404(session_id)
    reader = adapter(view.game.slug).read_form

    def write(version: int, form_key: str | None) -> object:
        return store.append(
            session_id, lambda current: reader(request.form, current), version, form_key
        )

    return record(view, write)


@bp.post("/s/<session_id>/undo")
def undo(session_id: str) -> Response | tuple[str, int]:
    view = load_or_404(session_id)
    return record(view, lambda version, key: store.undo(session_id, version, key))


@bp.post("/s/<session_id>/redo")
def redo(session_id: str) -> Response | tuple[str, int]:
    view = load_or_404(session_id)
    return record(view, lambda version, key: store.redo(session_id, version, key))


def correctable(view: store.SessionView, seq: int) -> tuple[store.LoggedEvent, CardCorrection]:
    """The live event ``seq`` that names a card and how the game corrects it, or 404
    saying why it cannot be corrected."""
    event = next(
        (
            logged
            for logged in view.events
            if logged.seq == seq and not logged.undone and "card" in logged.action
        ),
        None,
    )
    game = adapter(view.game.slug)
    if event is None or game.correction is None:
        abort(404, game.no_correction or f"Event {seq} is not a card that can be corrected.")
    return event, game.correction


@bp.get("/s/<session_id>/events/<int:seq>/correct")
def correction_form(session_id: str, seq: int) -> str:
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    event, correction = correctable(view, seq)
    deck = session_deck(view)
    assert deck is not None  # a game that corrects cards has a card picker
    return render_template(
        "sessions/correct.html",
        view=view,
        event=event,
        deck=deck,
        colours=picker_colours(view),
        played=correction.unavailable(view, event, deck),
        sized=correction.sized(view, event),
        form_key=new_form_key(),
    )


@bp.post("/s/<session_id>/events/<int:seq>/correct")
def correct(session_id: str, seq: int) -> Response | tuple[str, int]:
    """Replace a mistyped card; the later tricks are ruled again."""
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    event, correction = correctable(view, seq)

    def write(version: int, form_key: str | None) -> object:
        # Built here, inside record: a card that is not one is refused with a sentence.
        replacement = correction.replacement(view, event, request.form)
        return store.correct(session_id, seq, replacement, version, form_key)

    return record(view, write)
