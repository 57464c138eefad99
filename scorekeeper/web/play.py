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
from scorekeeper.games import yellow_dwarf
from scorekeeper.games.base import MINUS, IllegalAction, parse_whole_number
from scorekeeper.games.cards import YADOKARICK, parse_playing_card
from scorekeeper.games.score_sheet import rules as score_sheet
from scorekeeper.web import access
from scorekeeper.web.forms import new_form_key
from scorekeeper.web.sessions import (
    DECKS,
    RETYPED_EVENTS,
    TEMPLATE_RULES,
    load_or_404,
    picker_colours,
    render_session,
    session_deck,
)

bp = Blueprint("play", __name__)

FormReader = Callable[[MultiDict[str, str], store.SessionView], dict[str, object]]


class AskFirst(Exception):
    """The action needs one more answer (a card's size): show the page's step for it."""

    def __init__(self, **step: str) -> None:
        super().__init__("one more answer is needed")
        self.step = step


def read_yardkle(form: MultiDict[str, str], _view: store.SessionView) -> dict[str, object]:
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


def read_yokai_septet(form: MultiDict[str, str], _view: store.SessionView) -> dict[str, object]:
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


def read_cryptruck(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind in ("reveal", "dealer-card", "play"):
        return {"type": kind, "card": form.get("card", "")}
    if kind == "bid":
        return {"type": "bid", "want": form.get("want") == "1"}
    if kind == "give":
        card = form.get("card", "")
        return {"type": "give", "card": card} if card else {"type": "give"}
    if kind == "won":
        seats = range(len(view.seats))
        return {"type": "won", "cards": [form.getlist(f"won-{seat}") for seat in seats]}
    if kind == "revoke":
        return read_revoke(form)
    raise IllegalAction("Choose what happened: a card, a bid or the cards won.", "type")


def card_size(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    """The card tapped and, when the session meets it for the first time, its size.

    The size comes from the form (the size step). The engine lists the cards
    whose size the session does not know (the accepted action's ``sizes``) and
    the store adds the one the deck profile knows: the page asks only when
    neither knows it.
    """
    text = form.get("card", "")
    typed = next((size.strip() for size in form.getlist("size") if size.strip()), "")
    if typed:
        return {"card": text, "size": typed}
    kind = form.get("type", "")
    accepted = view.expected.accepts(kind)
    card = YADOKARICK.parse(text, "card")
    unknown = accepted is not None and str(card) in (accepted.sizes or ())
    if not unknown or (view.deck is not None and view.deck.size_of(card)):
        # Known already, or a move the engine refuses now: it records it or says why not.
        return {"card": text}
    raise AskFirst(size_for=str(card), size_type=kind)


def read_yadokarick(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind in ("play", "draw"):
        return {"type": kind, **card_size(form, view)}
    if kind == "marker":
        return {"type": kind, "move": form.get("move", "")}
    if kind == "take":
        return {"type": kind, "card": form.get("card", ""), "crab": form.get("crab", "")}
    if kind == "bonus":
        return {"type": kind, "card": form.get("card", "")}
    if kind == "give-up":
        return {"type": kind, "crab": form.get("crab", "")}
    raise IllegalAction("Choose what happened: a card, a marker move or a crab move.", "type")


def read_yellow_dwarf(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "play":
        text = form.get("card", "")
        if form.get("called") in ("1", "0"):
            return {"type": kind, "card": text, "called": form.get("called") == "1"}
        play = view.expected.accepts("play")
        if play is not None and play.choices is not None:
            # "Called?" is asked only of a taker card the engine accepts now: any other
            # card goes on as it is, for the engine to record or refuse with its reason.
            card = parse_playing_card(text, "card")
            accepted = play.cards is None or str(card) in play.cards  # None: any card
            if card in yellow_dwarf.TAKER_CARDS and accepted:
                raise AskFirst(called_for=str(card))
        return {"type": kind, "card": text}
    if kind == "without":
        return {"type": kind, "rank": form.get("rank", "")} if form.get("rank") else {"type": kind}
    seats = range(len(view.seats))
    if kind == "reveal":
        action: dict[str, object] = {"type": kind, "kept": taker_fates(form)["kept"]}
        if view.state.options.payout == "points":
            action["left"] = [form.get(f"left-{seat}", "").strip() or "0" for seat in seats]
        return action
    if kind == "round":
        winner = form.get("winner", "")
        if not winner:
            raise IllegalAction("Choose the player who went out.", "winner")
        return {
            "type": kind,
            "winner": winner,
            "left": [form.get(f"left-{seat}", "").strip() or "0" for seat in seats],
            **taker_fates(form),
            "grand_opera": form.get("grand_opera") == "1",
        }
    raise IllegalAction(
        "Choose what happened: a card, “without”, the hands or the round's result.", "type"
    )


def taker_fates(form: MultiDict[str, str]) -> dict[str, list[dict[str, object]]]:
    """Each taker card's fate as the form's select says: "kept:2", "called:0", "forgot:1"."""
    fates: dict[str, list[dict[str, object]]] = {"kept": [], "played": []}
    for card in yellow_dwarf.TAKER_CARDS:
        how, _, seat = form.get(f"taker-{card}", "").partition(":")
        if how == "kept":
            fates["kept"].append({"player": seat, "card": str(card)})
        elif how in ("called", "forgot"):
            fates["played"].append({"player": seat, "card": str(card), "called": how == "called"})
    return fates


def read_score_sheet(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "round":
        typed = [signed_points(form, seat) for seat in range(len(view.seats))]
        # Read here, with the players' names, so a refusal names the player.
        return {"type": kind, "points": list(score_sheet.parse_points(typed, view.seats))}
    if kind == "finish":
        return {"type": kind}
    raise IllegalAction("Choose what happened: a round's points or the end of the game.", "type")


def signed_points(form: MultiDict[str, str], seat: int) -> str:
    """A seat's points as typed, made negative by its minus toggle (a phone's number pad may
    have no minus key); a number typed with its minus sign stays as it is."""
    text = form.get(f"points-{seat}", "").strip()
    if form.get(f"negative-{seat}") and text and not text.startswith(("-", MINUS)):
        return "-" + text
    return text


FORM_READERS: dict[str, FormReader] = {
    "yardkle": read_yardkle,
    "yokai-septet": read_yokai_septet,
    "cryptruck": read_cryptruck,
    "yadokarick": read_yadokarick,
    "yellow-dwarf": read_yellow_dwarf,
    "score-sheet": read_score_sheet,
}


def posted_version() -> int:
    return parse_whole_number(request.form.get("version", ""), "The page's version", "version")


def record(
    view: store.SessionView,
    write: Callable[[int, str | None], object],
    show_refusal: Callable[[IllegalAction], tuple[str, int]] | None = None,
) -> Response | tuple[str, int]:
    """Run one checked write from a form and answer as a player expects.

    Success and a repeated tap both go back to the session page; a refused
    action shows the page again with the reason (or ``show_refusal``'s page: the
    form it came from); a stale page shows the current state with a 409.
    """
    session_id = view.id
    access.require_device_edit(session_id)
    try:
        write(posted_version(), request.form.get("form_key") or None)
    except IllegalAction as refused:
        if show_refusal is not None:
            return show_refusal(refused)
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
    reader = FORM_READERS[view.game.slug]

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


def correctable(view: store.SessionView, seq: int) -> store.LoggedEvent:
    """The live event ``seq`` that names a card, or 404 saying why it cannot be corrected."""
    event = next(
        (
            logged
            for logged in view.events
            if logged.seq == seq and not logged.undone and "card" in logged.action
        ),
        None,
    )
    if event is None:
        abort(404, f"Event {seq} is not a card that can be corrected.")
    if view.game.slug == "yellow-dwarf":
        abort(
            404,
            "A Yellow Dwarf card cannot be swapped on its own: each card sets the rank due "
            "next and may take a tray. Tap Undo until the mistyped card is gone, then lay it "
            "and the cards after it again.",
        )
    return event


def carries_size(view: store.SessionView, event: store.LoggedEvent) -> bool:
    """Whether the event's card comes with its printed size: a Yadokarick card played or drawn
    (a solo take or bonus names a card of the row, whose size is known already)."""
    return view.game.slug in store.DECK_GAMES and event.action["type"] in ("play", "draw")


def corrected_size(
    event: store.LoggedEvent, card_text: str, view: store.SessionView
) -> dict[str, object]:
    """The size a corrected Yadokarick card carries: typed, kept, or from the deck profile.

    A size belongs to its card, so a different card never inherits the old one.
    """
    typed = request.form.get("size", "").strip()
    if typed:
        return {"size": typed}
    if card_text == event.action.get("card") and "size" in event.action:
        return {"size": event.action["size"]}
    card = YADOKARICK.parse(card_text, "card")
    if card in view.state.sizes:
        # Given again: the corrected event may come before the one that entered it.
        return {"size": view.state.sizes[card]}
    return {"size": view.deck.size_of(card) if view.deck is not None else None}


def retypable(view: store.SessionView, seq: int) -> store.LoggedEvent:
    """The live event ``seq`` of a type the game corrects by retyping it, or 404 saying why."""
    types = RETYPED_EVENTS[view.game.slug]
    event = next(
        (
            logged
            for logged in view.events
            if logged.seq == seq and not logged.undone and logged.action["type"] in types
        ),
        None,
    )
    if event is None:
        listed = " or ".join(sorted(types))
        abort(404, f"Event {seq} is not a {listed} that can be corrected.")
    return event


def retype_form(
    view: store.SessionView, event: store.LoggedEvent, refused: IllegalAction | None = None
) -> tuple[str, int]:
    """The game's own form to type an event again, with the posted values and the
    reason when a correction was refused."""
    page = render_template(
        f"games/{view.game.slug}/correct.html",
        view=view,
        event=event,
        error=refused.message if refused else None,
        error_field=refused.field if refused else None,
        posted=request.form if request.method == "POST" else MultiDict(),
        form_key=new_form_key(),
    )
    return page, 422 if refused else 200


def retype(view: store.SessionView, seq: int) -> Response | tuple[str, int]:
    """Replace an event with the one typed again on the game's form; the later events
    are replayed, or the correction is refused naming the one it would break."""
    event = retypable(view, seq)

    def write(version: int, form_key: str | None) -> object:
        # Built here, inside record: a refused reading shows the form again with its reason.
        action = FORM_READERS[view.game.slug](request.form, view)
        if action["type"] != event.action["type"]:
            raise IllegalAction(
                f"Event {seq} is a {event.action['type']}: type it again as one.", "type"
            )
        return store.correct(view.id, seq, action, version, form_key)

    return record(view, write, lambda refused: retype_form(view, event, refused))


@bp.get("/s/<session_id>/events/<int:seq>/correct")
def correction_form(session_id: str, seq: int) -> str | tuple[str, int]:
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    if view.game.slug in RETYPED_EVENTS:
        return retype_form(view, retypable(view, seq))
    event = correctable(view, seq)
    deck = session_deck(view)
    assert deck is not None  # correctable: the other card games pick from a coloured deck
    played = TEMPLATE_RULES[view.game.slug].played_cards(view.state)
    if event.action["type"] in ("take", "bonus"):
        # A solo take or bonus names a card of the row: only cards drawn so far are offered.
        unavailable = frozenset(deck.cards()) - played
    else:
        # The card itself stays on offer: a Yadokarick correction may fix only its size.
        unavailable = played - {deck.parse(event.action["card"], "card")}
    return render_template(
        "sessions/correct.html",
        view=view,
        event=event,
        deck=deck,
        colours=picker_colours(view) if view.game.slug in DECKS else None,
        played=unavailable,
        sized=carries_size(view, event),
        form_key=new_form_key(),
    )


@bp.post("/s/<session_id>/events/<int:seq>/correct")
def correct(session_id: str, seq: int) -> Response | tuple[str, int]:
    """Replace a mistyped card; the later tricks are ruled again."""
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    if view.game.slug in RETYPED_EVENTS:
        return retype(view, seq)
    event = correctable(view, seq)

    def write(version: int, form_key: str | None) -> object:
        # Built here, inside record: a card that is not one is refused with a sentence.
        card = request.form.get("card", "")
        replacement = {**event.action, "card": card}
        if carries_size(view, event):
            replacement |= corrected_size(event, card, view)
        return store.correct(session_id, seq, replacement, version, form_key)

    return record(view, write)
