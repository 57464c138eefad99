"""Recording at the table: an action from a form, undo and redo.

Each game's form posts its own fields; a small reader turns them into the
game's JSON action, which the store validates with the engine. No ruling is
made here.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from scorekeeper import store
from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.web import access
from scorekeeper.web.forms import new_form_key
from scorekeeper.web.sessions import (
    DECKS,
    TEMPLATE_RULES,
    load_or_404,
    picker_colours,
    render_session,
)

bp = Blueprint("play", __name__)

FormReader = Callable[[MultiDict[str, str]], dict[str, object]]


def read_yardkle(form: MultiDict[str, str]) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "roll":
        count = parse_whole_number(form.get("dice_count", ""), "The number of dice", "dice")
        dice: list[object] = []
        for index in range(1, min(count, 6) + 1):
            value = form.get(f"die{index}")
            if not value:
                raise IllegalAction(f"Die {index}: tap the number it shows.", f"die{index}")
            dice.append(value)
        return {"type": "roll", "dice": dice}
    if kind == "keep":
        return {"type": "keep", "dice": form.getlist("keep"), "bank": form.get("then") == "bank"}
    if kind == "bank":
        return {"type": "bank"}
    if kind == "total":
        return {"type": "total", "points": form.get("points", "").strip()}
    raise IllegalAction(
        "Choose what happened: a roll, a set-aside, a bank or a turn total.", "type"
    )


def read_yokai_septet(form: MultiDict[str, str]) -> dict[str, object]:
    kind = form.get("type", "")
    if kind in ("trump", "play"):
        return {"type": kind, "card": form.get("card", "")}
    if kind == "first-lead":
        return {"type": kind, "seat": parse_whole_number(form.get("seat", ""), "The seat", "seat")}
    if kind == "pass":
        return {"type": "pass"}
    if kind == "result":
        team = form.get("team", "")
        if not team:
            raise IllegalAction("Choose the team that won the round.", "team")
        return {
            "type": "result",
            "team": parse_whole_number(team, "The team", "team"),
            "how": form.get("how", ""),
            "boss": form.getlist("boss"),
        }
    if kind == "revoke":
        return read_revoke(form)
    raise IllegalAction("Choose what happened: a card, the trump card or a round result.", "type")


def read_revoke(form: MultiDict[str, str]) -> dict[str, object]:
    """A revoke flag settled: accepted with the penalty the table agreed, or dismissed."""
    accept = form.get("decision") == "accept"
    penalty = form.get("penalty", "").strip() or "0"
    return {
        "type": "revoke",
        "flag": parse_whole_number(form.get("flag", ""), "The flag", "flag"),
        "accept": accept,
        "penalty": parse_whole_number(penalty, "The penalty", "penalty") if accept else 0,
    }


def read_cryptruck(form: MultiDict[str, str]) -> dict[str, object]:
    kind = form.get("type", "")
    if kind in ("reveal", "dealer-card", "play"):
        return {"type": kind, "card": form.get("card", "")}
    if kind == "bid":
        return {"type": "bid", "want": form.get("want") == "1"}
    if kind == "give":
        card = form.get("card", "")
        return {"type": "give", "card": card} if card else {"type": "give"}
    if kind == "won":
        seats = parse_whole_number(form.get("seat_count", ""), "The number of seats", "cards")
        return {"type": "won", "cards": [form.getlist(f"won-{seat}") for seat in range(seats)]}
    if kind == "revoke":
        return read_revoke(form)
    raise IllegalAction("Choose what happened: a card, a bid or the cards won.", "type")


FORM_READERS: dict[str, FormReader] = {
    "yardkle": read_yardkle,
    "yokai-septet": read_yokai_septet,
    "cryptruck": read_cryptruck,
}


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
    return redirect(url_for("sessions.session_page", session_id=session_id), 303)


@bp.post("/s/<session_id>/action")
def action(session_id: str) -> Response | tuple[str, int]:
    view = load_or_404(session_id)
    reader = FORM_READERS[view.game.slug]

    def write(version: int, form_key: str | None) -> object:
        return store.append(session_id, reader(request.form), version, form_key)

    return record(view, write)


@bp.post("/s/<session_id>/undo")
def undo(session_id: str) -> Response | tuple[str, int]:
    view = load_or_404(session_id)
    return record(view, lambda version, key: store.undo(session_id, version, key))


@bp.post("/s/<session_id>/redo")
def redo(session_id: str) -> Response | tuple[str, int]:
    view = load_or_404(session_id)
    return record(view, lambda version, key: store.redo(session_id, version, key))


def correctable(view: store.SessionView, seq: int) -> store.LoggedEvent:
    """The live card event ``seq`` (a trump card or a played card), or 404."""
    for event in view.events:
        if event.seq == seq and not event.undone and "card" in event.action:
            return event
    abort(404, f"Event {seq} is not a card that can be corrected.")


@bp.get("/s/<session_id>/events/<int:seq>/correct")
def correction_form(session_id: str, seq: int) -> str:
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    event = correctable(view, seq)
    return render_template(
        "sessions/correct.html",
        view=view,
        event=event,
        deck=DECKS[view.game.slug],
        colours=picker_colours(view),
        played=TEMPLATE_RULES[view.game.slug].played_cards(view.state),
        form_key=new_form_key(),
    )


@bp.post("/s/<session_id>/events/<int:seq>/correct")
def correct(session_id: str, seq: int) -> Response | tuple[str, int]:
    """Replace a mistyped card; the later tricks are ruled again."""
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    event = correctable(view, seq)
    replacement = {**event.action, "card": request.form.get("card", "")}

    def write(version: int, form_key: str | None) -> object:
        return store.correct(session_id, seq, replacement, version, form_key)

    return record(view, write)
