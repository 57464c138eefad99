"""Deck profiles: the sizes printed on the cards of one physical deck, on their own page.

Whoever has a profile's link sees its sizes; only a device holding the right
to change it (see ``access``: a group's deck is every member's) may edit them,
and only such a device is shown the "edit this deck" link that hands the right
on.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import decks, groups, keys
from scorekeeper.games import GAMES
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.words import phrase
from scorekeeper.web import access, addresses
from scorekeeper.web.forms import KeyedForm
from scorekeeper.web.sessions import page_asked

NOT_FOUND = phrase(
    "web.decks.no-such-deck", "No deck profile has this link. Check the address, or make a new one."
)()
CHOOSE_GAME = phrase("web.decks.choose-game", "Choose the game whose deck this is.")
EXPIRED = phrase("web.decks.form-expired", "This form expired: reload the page and try again.")
EDIT_LINK_INVALID = phrase(
    "web.decks.edit-link-invalid", "This “edit this deck” link is not valid: ask for a new one."
)

bp = Blueprint("decks", __name__)


def load_or_404(profile_id: str) -> decks.Profile:
    try:
        return decks.load(profile_id)
    except decks.ProfileNotFound:
        abort(404, NOT_FOUND)


def colour_rows(profile: decks.Profile) -> list[tuple[str, list[str]]]:
    """Each colour of the profile's deck with its cards as written, for the size grid."""
    deck = profile.sized_cards.deck
    return [
        (colour, [str(card) for card in deck.cards() if card.colour == colour])
        for colour in deck.colours
    ]


def chosen_game() -> str:
    """The game a new profile is for: the one chosen, or the only game played with one."""
    games = [game.slug for game in decks.sized_games()]
    chosen = request.form.get("game", games[0] if len(games) == 1 else "")
    if chosen not in games:
        raise IllegalAction(CHOOSE_GAME(), "game")
    return chosen


def deck_list_url(page: int) -> str:
    """The list of this device's deck profiles at ``page`` (the first named by no argument)."""
    return url_for("decks.deck_list", page=page if page > 1 else None)


@bp.route("/decks", methods=["GET", "POST"])
def deck_list() -> Response | tuple[str, int]:
    form = KeyedForm()
    error = None
    if form.validate_on_submit():
        try:
            profile = decks.create(GAMES[chosen_game()], request.form.get("name", ""))
        except IllegalAction as refused:
            error = refused.said
        else:
            access.remember_deck(profile.id)
            return redirect(url_for("decks.deck_page", profile_id=profile.id), 303)
    elif request.method == "POST":
        error = EXPIRED()
    page_number = page_asked("page")
    listed = access.decks_page(page_number)
    profiles = decks.find(list(listed.roles))
    page = render_template(
        "decks/list.html",
        profiles=profiles,
        group_names={g.id: g.name for g in groups.find([p.group for p in profiles if p.group])},
        newer=deck_list_url(page_number - 1) if page_number > 1 else None,
        older=deck_list_url(page_number + 1) if listed.more else None,
        games=decks.sized_games(),
        error=error,
        form=form,
        name=request.form.get("name", ""),
    )
    return page, 422 if error else 200


def game_asked() -> str | None:
    """The session whose size step opened the deck's page (``session``), to go back to."""
    session_id = request.args.get("session", "")
    return session_id if keys.is_id(session_id) else None


@bp.route("/decks/<profile_id>", methods=["GET", "POST"])
@access.no_store
def deck_page(profile_id: str) -> Response | tuple[str, int]:
    profile = load_or_404(profile_id)
    may_edit = access.device_may_edit_deck(profile_id)
    if request.method == "POST":
        access.require_device_deck_edit(profile_id)
    back_to = game_asked()
    form = KeyedForm()
    error: IllegalAction | None = None
    if form.validate_on_submit():
        sizes = {
            card: request.form.get(f"size-{card}", "")
            for _, row in colour_rows(profile)
            for card in row
        }
        try:
            decks.update(profile_id, request.form.get("name", ""), sizes)
        except IllegalAction as refused:
            error = refused
        else:
            saved = url_for("decks.deck_page", profile_id=profile_id, saved=1, session=back_to)
            return redirect(saved, 303)
    elif request.method == "POST":
        error = IllegalAction(EXPIRED())
    join_url = None
    if may_edit:
        join_url = addresses.external_url("decks.join", profile_id=profile_id, key=profile.edit_key)
    page = render_template(
        "decks/deck.html",
        profile=profile,
        group=groups.find([profile.group])[0] if profile.group else None,
        back_to=back_to,
        may_edit=may_edit,
        join_url=join_url,
        rows=colour_rows(profile),
        form=form,
        error=error,
        posted=request.form if error else None,
        saved=request.args.get("saved") == "1",
    )
    return page, 422 if error else 200


@bp.get("/decks/<profile_id>/join/<key>")
@access.no_store
def join(profile_id: str, key: str) -> Response:
    """The "edit this deck" link: this device may change the profile from now on."""
    load_or_404(profile_id)
    if not decks.key_matches(profile_id, key):
        abort(403, EDIT_LINK_INVALID())
    access.remember_deck(profile_id)
    return redirect(url_for("decks.deck_page", profile_id=profile_id), 303)
