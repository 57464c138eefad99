"""Deck profiles: the sizes printed on one physical Yadokarick deck, on their own page.

Whoever has a profile's link may edit it (like the deck on the table, it is
shared by everyone playing with it); the link is shown only to scorers.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import decks
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import YADOKARICK
from scorekeeper.web import access
from scorekeeper.web.forms import KeyedForm

bp = Blueprint("decks", __name__)


def load_or_404(profile_id: str) -> decks.Profile:
    try:
        return decks.load(profile_id)
    except decks.ProfileNotFound:
        abort(404, "No deck profile has this link. Check the address, or make a new one.")


def colour_rows() -> list[tuple[str, list[str]]]:
    """Each colour of the deck with its cards as written, for the size grid."""
    return [
        (colour, [str(card) for card in YADOKARICK.cards() if card.colour == colour])
        for colour in YADOKARICK.colours
    ]


@bp.route("/decks", methods=["GET", "POST"])
def deck_list() -> Response | tuple[str, int]:
    form = KeyedForm()
    error = None
    if form.validate_on_submit():
        try:
            profile = decks.create(request.form.get("name", ""))
        except IllegalAction as refused:
            error = refused.message
        else:
            access.remember_deck(profile.id)
            return redirect(url_for("decks.deck_page", profile_id=profile.id), 303)
    elif request.method == "POST":
        error = "This form expired: reload the page and try again."
    page = render_template(
        "decks/list.html",
        profiles=decks.find(access.remembered_decks()),
        error=error,
        form=form,
        name=request.form.get("name", ""),
    )
    return page, 422 if error else 200


@bp.route("/decks/<profile_id>", methods=["GET", "POST"])
def deck_page(profile_id: str) -> Response | tuple[str, int]:
    profile = load_or_404(profile_id)
    access.remember_deck(profile_id)
    form = KeyedForm()
    error: IllegalAction | None = None
    if form.validate_on_submit():
        sizes = {
            card: request.form.get(f"size-{card}", "") for _, row in colour_rows() for card in row
        }
        try:
            decks.update(profile_id, request.form.get("name", ""), sizes)
        except IllegalAction as refused:
            error = refused
        else:
            return redirect(url_for("decks.deck_page", profile_id=profile_id, saved=1), 303)
    elif request.method == "POST":
        error = IllegalAction("This form expired: reload the page and try again.")
    page = render_template(
        "decks/deck.html",
        profile=profile,
        rows=colour_rows(),
        form=form,
        error=error,
        posted=request.form if error else None,
        saved=request.args.get("saved") == "1",
    )
    return page, 422 if error else 200
