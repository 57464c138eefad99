"""Recording at the table: an action from a form, undo and redo.

Each game's form posts its own fields; a small reader turns them into the
game's JSON action, which the store validates with the engine. No ruling is
made here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from scorekeeper import session_log, session_views, store
from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.games.web_interface import AskFirst, CardCorrection
from scorekeeper.games.words import phrase
from scorekeeper.web import access
from scorekeeper.web.adapters import adapter
from scorekeeper.web.forms import new_form_key
from scorekeeper.web.sessions import (
    load_or_404,
    picker_colours,
    render_session,
    session_deck,
    undone_refill,
)

bp = Blueprint("play", __name__)

PAGE_VERSION = phrase("web.play.page-version", "The page's version")
CHANGED_ELSEWHERE = phrase(
    "web.play.changed-elsewhere",
    "The session changed on another phone before this was sent: this is the "
    "table now. Check it and enter again if still needed.",
)
CARD_NOT_CORRECTABLE = phrase(
    "web.play.card-not-correctable", "Event {number} is not a card that can be corrected."
)
NOT_CORRECTABLE = phrase(
    "web.play.not-correctable", "Event {number} is not a {types} that can be corrected."
)
RETYPE_AS = phrase("web.play.retype-as", "Event {number} is a {type}: type it again as one.")


def posted_version() -> int:
    return parse_whole_number(request.form.get("version", ""), PAGE_VERSION(), "version")


# One more write after a form's, given the view it left and the action the rules force now.
Step = Callable[[session_views.SessionView, dict[str, object]], session_views.SessionView]


def step_over_forced(view: session_views.SessionView, step: Step) -> session_views.SessionView:
    """Take ``step`` again while the game's rules leave the table no choice (its adapter's
    ``forced``), so that no tap only confirms what the rules decide; the view it leaves.
    It stops when another phone wrote first or there is nothing left to step over."""
    forced = adapter(view.game.slug).forced
    if forced is None:
        return view
    action = forced(view.state)
    while action is not None:
        try:
            view = step(view, action)
        except (IllegalAction, store.StaleVersion):
            return view
        action = forced(view.state)
    return view


def record(
    view: session_views.SessionView,
    write: Callable[[int, str | None], session_views.SessionView],
    show_refusal: Callable[[IllegalAction], tuple[str, int]] | None = None,
    then: Step | None = None,
    answer_args: Callable[[session_views.SessionView], dict[str, str]] | None = None,
) -> Response | tuple[str, int]:
    """Run one checked write from a form and answer as a player expects.

    Success and a repeated tap both go back to the session page (on success with
    ``answer_args`` of the view written in its address); a refused action shows the page
    again with the reason (or ``show_refusal``'s page: the form it came from); a stale
    page shows the current state with a 409. After a write, ``then`` is taken as long as
    the rules leave no choice (step_over_forced).
    """
    session_id = view.id
    access.require_device_edit(session_id)
    args: dict[str, Any] = {}  # Any for url_for, as in the AskFirst step below
    try:
        written = write(posted_version(), request.form.get("form_key") or None)
        if then is not None:
            written = step_over_forced(written, then)
        if answer_args is not None:
            args = answer_args(written)
    except IllegalAction as refused:
        if show_refusal is not None:
            return show_refusal(refused)
        return render_session(view, refused, 422)
    except store.StaleVersion:
        return render_session(
            load_or_404(session_id),
            CHANGED_ELSEWHERE(),
            409,
        )
    except store.AlreadyRecorded:
        pass
    except AskFirst as ask:
        step: dict[str, Any] = ask.step  # Any for url_for, as in web._page_urls
        return redirect(url_for("sessions.session_page", session_id=session_id, **step), 303)
    return redirect(url_for("sessions.session_page", session_id=session_id, **args), 303)


@bp.post("/s/<session_id>/action")
def action(session_id: str) -> Response | tuple[str, int]:
    view = load_or_404(session_id)
    reader = adapter(view.game.slug).read_form

    def write(version: int, form_key: str | None) -> session_views.SessionView:
        return store.append(
            session_id, lambda current: reader(request.form, current), version, form_key
        )

    return record(
        view, write, then=lambda current, forced: store.append(session_id, forced, current.version)
    )


@bp.post("/s/<session_id>/undo")
def undo(session_id: str) -> Response | tuple[str, int]:
    """Undo the newest event, and the ones before it the rules left no choice about: the
    tap that led to them is undone with them."""
    view = load_or_404(session_id)
    return record(
        view,
        lambda version, key: store.undo(session_id, version, key),
        then=lambda current, _forced: store.undo(session_id, current.version),
        answer_args=undone_tap,
    )


def undone_tap(view: session_views.SessionView) -> dict[str, str]:
    """The answer's address names the tap an undo took back when its game's form can show
    it again (the adapter's ``refill``): the session page fills it in (sessions.refilled)."""
    found = undone_refill(view)
    return {} if found is None else {"undone": str(found[0])}


@bp.post("/s/<session_id>/redo")
def redo(session_id: str) -> Response | tuple[str, int]:
    """Redo the newest undone event, and the ones after it the rules left no choice about."""
    view = load_or_404(session_id)
    return record(
        view,
        lambda version, key: store.redo(session_id, version, key),
        then=lambda current, _forced: store.redo(session_id, current.version),
    )


def live_event(
    view: session_views.SessionView, seq: int, fits: Callable[[dict[str, Any]], bool]
) -> session_log.LoggedEvent | None:
    """The live (not undone) event ``seq`` if its action ``fits`` the correction asked."""
    return next(
        (
            logged
            for logged in view.events
            if logged.seq == seq and not logged.undone and fits(logged.action)
        ),
        None,
    )


def correctable(
    view: session_views.SessionView, seq: int
) -> tuple[session_log.LoggedEvent, CardCorrection]:
    """The live event ``seq`` that names a card and how the game corrects it, or 404
    saying why it cannot be corrected."""
    event = live_event(view, seq, lambda action: "card" in action)
    game = adapter(view.game.slug)
    if event is None or game.correction is None:
        abort(404, game.no_correction or CARD_NOT_CORRECTABLE(number=seq))
    return event, game.correction


def retypable(view: session_views.SessionView, seq: int) -> session_log.LoggedEvent:
    """The live event ``seq`` of a type the game corrects by retyping it, or 404 saying why."""
    types = adapter(view.game.slug).retyped
    event = live_event(view, seq, lambda action: action["type"] in types)
    if event is None:
        abort(404, NOT_CORRECTABLE(number=seq, types=" or ".join(sorted(types))))
    return event


def retype_form(
    view: session_views.SessionView,
    event: session_log.LoggedEvent,
    refused: IllegalAction | None = None,
) -> tuple[str, int]:
    """The game's own form to type an event again, with the posted values and the
    reason when a correction was refused."""
    page = render_template(
        f"games/{view.game.slug}/correct.html",
        view=view,
        event=event,
        error=refused.said if refused else None,
        error_field=refused.field if refused else None,
        posted=request.form if request.method == "POST" else MultiDict(),
        form_key=new_form_key(),
    )
    return page, 422 if refused else 200


def retype(view: session_views.SessionView, seq: int) -> Response | tuple[str, int]:
    """Replace an event with the one typed again on the game's form; the later events
    are replayed, or the correction is refused naming the one it would break."""
    event = retypable(view, seq)

    def write(version: int, form_key: str | None) -> session_views.SessionView:
        # Built here, inside record: a refused reading shows the form again with its reason.
        action = adapter(view.game.slug).read_form(request.form, view)
        if action["type"] != event.action["type"]:
            raise IllegalAction(RETYPE_AS(number=seq, type=event.action["type"]), "type")
        return store.correct(view.id, seq, action, version, form_key)

    return record(view, write, lambda refused: retype_form(view, event, refused))


@bp.get("/s/<session_id>/events/<int:seq>/correct")
def correction_form(session_id: str, seq: int) -> str | tuple[str, int]:
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    if adapter(view.game.slug).retyped:
        return retype_form(view, retypable(view, seq))
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
    """Replace a mistyped card, or an event typed again; the later events are ruled again."""
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    if adapter(view.game.slug).retyped:
        return retype(view, seq)
    event, correction = correctable(view, seq)

    def write(version: int, form_key: str | None) -> session_views.SessionView:
        # Built here, inside record: a card that is not one is refused with a sentence.
        replacement = correction.replacement(view, event, request.form)
        return store.correct(session_id, seq, replacement, version, form_key)

    return record(view, write)
