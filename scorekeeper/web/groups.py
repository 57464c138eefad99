"""Groups on their own pages: make one, see it, share it, manage its players, start a game.

Whoever has a group's link sees it: its players and every session it played.
Only a device holding the right to change it (see ``access``) may manage its
players, start its games, and is shown the "join this group" link that hands
the right on.
"""

from __future__ import annotations

from typing import Any

from babel.numbers import format_percent, get_decimal_symbol, get_group_symbol
from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import (
    decks,
    group_export,
    group_figures,
    groups,
    leaderboard,
    ratings,
    read_model,
    store,
)
from scorekeeper.games import GAMES
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.engine import Game
from scorekeeper.games.words import phrase
from scorekeeper.web import access
from scorekeeper.web.decks import chosen_game
from scorekeeper.web.export import parse_json, uploaded
from scorekeeper.web.forms import GroupImportForm, KeyedForm, NewSessionForm, new_session_form
from scorekeeper.web.inputs import check_text
from scorekeeper.web.language import language, reader, words
from scorekeeper.web.sessions import page_asked, pages_of, share_page, start_session
from scorekeeper.web.uploads import size_text

bp = Blueprint("groups", __name__)

EXPIRED = phrase("web.groups.form-expired", "This form expired: reload the page and try again.")
# The colours a page offers for a player (the API takes any #rrggbb).
COLOURS = (
    ("#d62728", phrase("web.groups.colour-red", "Red")()),
    ("#ff7f0e", phrase("web.groups.colour-orange", "Orange")()),
    ("#e6c229", phrase("web.groups.colour-yellow", "Yellow")()),
    ("#2ca02c", phrase("web.groups.colour-green", "Green")()),
    ("#17becf", phrase("web.groups.colour-teal", "Teal")()),
    ("#1f77b4", phrase("web.groups.colour-blue", "Blue")()),
    ("#9467bd", phrase("web.groups.colour-purple", "Purple")()),
    ("#e377c2", phrase("web.groups.colour-pink", "Pink")()),
    ("#8c564b", phrase("web.groups.colour-brown", "Brown")()),
    ("#7f7f7f", phrase("web.groups.colour-grey", "Grey")()),
)
NO_SUCH_PAGE = phrase(
    "web.groups.no-such-page", "This group's list of sessions has pages 1 to {pages}."
)
JOIN_LINK_INVALID = phrase(
    "web.groups.join-link-invalid",
    "This “join this group” link is not valid: ask a member for a new one.",
)
JOINED = phrase("web.groups.player-joined", "{player} joined the group.")
SAVED = phrase("web.groups.player-saved", "{player} saved.")
LEFT = phrase(
    "web.groups.player-left", "{player} left the group; their past games keep their name."
)
ADD_CHANGE_OR_REMOVE = phrase(
    "web.groups.add-change-or-remove", "Choose to add, change or remove a player."
)
NO_SUCH_GAME = phrase("web.groups.no-such-game", "There is no game called “{slug}” here.")
NOT_UTF8 = phrase("web.groups.file-not-utf8", "The file is not UTF-8 text.")
DECK_HELP = phrase(
    "web.groups.deck-help", "Then type every card's size on one page, before the first game."
)


@bp.app_template_filter("figure")
def figure(english: str) -> str:
    """A number as English writes it ("1,250.5") as the reader's language does
    ("1 250,5"): its thousands and decimal separators."""
    code = language()
    if code == "en":
        return english
    separators = {ord(","): get_group_symbol(code), ord("."): get_decimal_symbol(code)}
    return english.translate(separators)


@bp.app_template_global()
def percent(rate: float) -> str:
    """A rate as a whole percentage: "50%", "50 %"."""
    code = language()
    if code == "en":
        return f"{rate:.0%}"
    return format_percent(rate, locale=code)


bp.app_template_global("reader")(reader)


def load_or_404(group_id: str) -> groups.Group:
    try:
        return groups.load(group_id)
    except groups.GroupNotFound:
        abort(404, groups.NO_SUCH_GROUP)


def editable_or_403(group_id: str) -> groups.Group:
    group = load_or_404(group_id)
    access.require_device_group_edit(group_id)
    return group


@bp.route("/groups/new", methods=["GET", "POST"])
def new_group() -> Response | tuple[str, int]:
    form = KeyedForm()
    error: IllegalAction | None = None
    names = request.form.getlist("player")[: groups.FIRST_PLAYERS]
    if form.validate_on_submit():
        try:
            group = groups.create(request.form.get("name", ""), names)
        except IllegalAction as refused:
            error = refused
        else:
            access.remember_group(group.id, access.EDIT)
            return redirect(url_for("groups.group_page", group_id=group.id), 303)
    elif request.method == "POST":
        error = IllegalAction(EXPIRED())
    page = render_template(
        "groups/new.html",
        form=form,
        error=error,
        name=request.form.get("name", ""),
        names=names + [""] * (groups.FIRST_PLAYERS - len(names)),
    )
    return page, 422 if error else 200


def group_url(group_id: str, page: int) -> str:
    """The group's page at this page of its sessions (the first named by no argument),
    scrolled to the list."""
    return url_for(
        "groups.group_page", group_id=group_id, page=page if page > 1 else None, _anchor="sessions"
    )


@bp.get("/g/<group_id>")
def group_page(group_id: str) -> str:
    """The group's players and a page of its sessions, the newest first."""
    group = load_or_404(group_id)
    shown, _ = render_group(group, page_asked("page"))
    access.remember_group(group_id, access.VIEW)
    return shown


def render_group(
    group: groups.Group, page: int, deck_error: IllegalAction | None = None, deck_name: str = ""
) -> tuple[str, int]:
    """The group's page at page ``page`` of its sessions; a refused new deck says why."""
    counts = group_figures.session_counts(group.id)
    pages = pages_of(counts.played, access.LIST_PAGE_SIZE)
    if page > pages:
        abort(404, NO_SUCH_PAGE(pages=pages))
    may_edit = access.device_may_edit_group(group.id)
    shown = render_template(
        "groups/group.html",
        group=group,
        finished=counts.finished,
        sessions=read_model.group_summaries(group.id, page, access.LIST_PAGE_SIZE),
        newer_sessions=group_url(group.id, page - 1) if page > 1 else None,
        older_sessions=group_url(group.id, page + 1) if page < pages else None,
        may_edit=may_edit,
        decks=decks.of_group(group.id),
        sized_games=decks.sized_games(),
        # Only a member gets the form: its key would give a watcher's page a cookie.
        deck_form=KeyedForm() if may_edit else None,
        deck_error=deck_error,
        deck_name=deck_name,
        deck_help=DECK_HELP(),
    )
    return shown, 422 if deck_error else 200


@bp.post("/g/<group_id>/decks")
def new_deck(group_id: str) -> Response | tuple[str, int]:
    """A member makes a deck profile for the group, then fills in its sizes on its page."""
    group = editable_or_403(group_id)
    form = KeyedForm()
    error: IllegalAction | None = None
    if form.validate_on_submit():
        try:
            profile = decks.create(
                GAMES[chosen_game()], request.form.get("name", ""), group=group_id
            )
        except IllegalAction as refused:
            error = refused
        else:
            return redirect(url_for("decks.deck_page", profile_id=profile.id), 303)
    else:
        error = IllegalAction(EXPIRED())
    return render_group(group, page=1, deck_error=error, deck_name=request.form.get("name", ""))


@bp.get("/g/<group_id>/stats")
def group_stats(group_id: str) -> tuple[str, int]:
    """The group's statistics for whoever sees it, with the head to head asked for by GET."""
    group = load_or_404(group_id)
    access.remember_group(group_id, access.VIEW)
    counted = group_figures.compute(group)
    sort, sort_error = leaderboard.SORTED_BY[leaderboard.FIRST_SORT], None
    try:
        sort = leaderboard.sort_asked(request.args.get("sort"))
    except IllegalAction as refused:
        sort_error = refused.said
    duel, duel_error = None, None
    try:
        duel = group_figures.duel(
            group, counted, request.args.get("first"), request.args.get("second")
        )
    except IllegalAction as refused:
        duel_error = refused.said
    page = render_template(
        "groups/stats.html",
        group=group,
        stats=counted,
        board=leaderboard.leaderboard(counted, ratings.kept_of(group_id), sort),
        sort_links=sort_links(group_id),
        sort_error=sort_error,
        duel=duel,
        duel_error=duel_error,
    )
    return page, 422 if duel_error or sort_error else 200


def sort_links(group_id: str) -> dict[str, str]:
    """Each leaderboard column's address: the page sorted by it, with the head to head
    asked for kept, scrolled to the board."""
    kept: dict[str, Any] = {
        key: request.args[key] for key in ("first", "second") if key in request.args
    }
    return {
        column.key: url_for(
            "groups.group_stats",
            group_id=group_id,
            **kept,
            sort=None if column.key == leaderboard.FIRST_SORT else column.key,
            _anchor="leaderboard",
        )
        for column in leaderboard.COLUMNS
    }


@bp.get("/g/<group_id>/share")
@access.no_store
def share(group_id: str) -> str:
    """The view link for everyone; the "join this group" link only for a member's device."""
    group = load_or_404(group_id)
    join_path = None
    if access.device_may_edit_group(group_id):
        join_path = url_for("groups.join", group_id=group_id, key=group.edit_key)
    view_path = url_for("groups.group_page", group_id=group_id)
    return share_page("groups/share.html", view_path, join_path, group=group)


@bp.get("/g/<group_id>/join/<key>")
@access.no_store
def join(group_id: str, key: str) -> Response:
    """The "join this group" link: this device may change the group from now on."""
    load_or_404(group_id)
    if not groups.key_matches(group_id, key):
        abort(403, JOIN_LINK_INVALID())
    access.remember_group(group_id, access.EDIT)
    return redirect(url_for("groups.group_page", group_id=group_id), 303)


def render_players(
    group: groups.Group, form: KeyedForm, error: IllegalAction | None, editing: int | None
) -> tuple[str, int]:
    page = render_template(
        "groups/players.html",
        group=group,
        form=form,
        error=error,
        editing=editing,
        posted=request.form if error else None,
        colours=COLOURS,
        saved=request.args.get("saved", "")[:60],
    )
    return page, 422 if error else 200


@bp.route("/g/<group_id>/players", methods=["GET", "POST"])
def players(group_id: str) -> Response | tuple[str, int]:
    """Add, rename, recolour or remove players: one form per player and one to add."""
    group = editable_or_403(group_id)
    form = KeyedForm()
    error: IllegalAction | None = None
    editing = None
    if form.validate_on_submit():
        what = request.form.get("do", "")
        # The player's fields as the add and change forms send them.
        fields = [request.form.get(name, "") for name in ("name", "colour", "emoji")]
        try:
            if what == "add":
                said = JOINED(player=groups.add_player(group_id, *fields).name)
            elif what == "change":
                editing = groups.player_id_as_sent(request.form.get("player", ""))
                said = SAVED(player=groups.change_player(group_id, editing, *fields).name)
            elif what == "remove":
                done = groups.remove_player(
                    group_id, groups.player_id_as_sent(request.form.get("player", ""))
                )
                said = LEFT(player=done.name)
            else:
                raise IllegalAction(ADD_CHANGE_OR_REMOVE(), "do")
            # The page it goes back to says it, in the words of the phone that did it.
            saved = words(said)
        except IllegalAction as refused:
            error = refused
        else:
            return redirect(url_for("groups.players", group_id=group_id, saved=saved), 303)
    elif request.method == "POST":
        error = IllegalAction(EXPIRED())
    return render_players(group, form, error, editing if isinstance(editing, int) else None)


@bp.get("/g/<group_id>/play")
def choose_game(group_id: str) -> str:
    group = editable_or_403(group_id)
    return render_template("groups/choose_game.html", group=group)


def tapped_order(group: groups.Group) -> list[int | str]:
    """The players tapped so far, in seat order, with this request's tap or untap."""
    order = [groups.player_id_as_sent(raw) for raw in request.form.getlist("seat")[:32]]
    tap = groups.player_id_as_sent(request.form.get("tap", ""))
    if isinstance(tap, int) and group.player(tap) is not None and tap not in order:
        order.append(tap)
    untap = groups.player_id_as_sent(request.form.get("untap", ""))
    if isinstance(untap, int) and untap < len(order):
        del order[untap]
    return order


def group_session_form(game: Game, group: groups.Group) -> NewSessionForm:
    """The new-session form of ``game`` (its options, its deck), without typed seats. The
    decks offered: the group's first, then this phone's that are no group's (played here,
    one becomes the group's)."""
    deck_choices = None
    if game.sized_cards is not None:
        profiles = decks.find(access.all_decks(game.slug))
        ordered = sorted(
            (p for p in profiles if p.group in (group.id, None)), key=lambda p: p.group is None
        )
        deck_choices = [(p.id, p.name) for p in ordered]
    return new_session_form(game, deck_choices)


@bp.route("/g/<group_id>/play/<slug>", methods=["GET", "POST"])
def play(group_id: str, slug: str) -> Response | tuple[str, int]:
    """Tap the players in seat order, choose the options, start.

    Without JavaScript each tap sends the form, which comes back with the order
    so far (hidden inputs) and the options as they were set; app.js moves the
    taps on the page instead and sends the form once, to start.
    """
    group = editable_or_403(group_id)
    game = GAMES.get(slug)
    if game is None:
        abort(404, NO_SUCH_GAME(slug=slug))
    form = group_session_form(game, group)
    order = tapped_order(group)
    refused = False
    if request.form.get("start") and form.validate_on_submit():
        started = start_session(form, game, lambda: groups.seating(group, order, game))
        if started is not None:
            return started
        refused = True
    refused = refused or bool(request.form.get("start") and form.errors)
    page = render_template(
        "groups/play.html",
        group=group,
        game=game,
        form=form,
        order=order,
        refused=refused,
    )
    return page, 422 if refused else 200


def group_download(
    group: groups.Group, text: str | bytes, mimetype: str, extension: str
) -> Response:
    name = f"group-{group.id[:8]}.{extension}"
    return Response(
        text, mimetype=mimetype, headers={"Content-Disposition": f"attachment; filename={name}"}
    )


@bp.get("/g/<group_id>/export.json")
def export_json(group_id: str) -> Response:
    group = load_or_404(group_id)
    return group_download(group, group_export.group_json_file(group), "application/json", "json")


@bp.get("/g/<group_id>/export.csv")
def export_csv(group_id: str) -> Response:
    group = load_or_404(group_id)
    return group_download(group, group_export.group_csv(group), "text/csv", "csv")


def read_group_file(raw: bytes) -> group_export.ImportedGroup:
    """A group file as exported: CSV when it starts with the CSV's header, else JSON."""
    if raw.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"kind,"):
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise IllegalAction(NOT_UTF8(), "file") from None
        check_text([("file", text)])
        return group_export.read_group(group_export.csv_as_json(text))
    return group_export.read_group(parse_json(raw))


@bp.route("/groups/import", methods=["GET", "POST"])
def import_group() -> Response | tuple[str, int]:
    form = GroupImportForm()
    error: IllegalAction | None = None
    if form.validate_on_submit():
        try:
            imported = read_group_file(uploaded(form))
            group = group_export.import_group(imported, store.one_time_key(form.form_key.data))
        except IllegalAction as refused:
            error = refused
        except group_export.AlreadyImported as repeated:
            return redirect(url_for("groups.group_page", group_id=repeated.group_id), 303)
        else:
            access.remember_group(group.id, access.EDIT)
            return redirect(url_for("groups.group_page", group_id=group.id), 303)
    elif request.method == "POST":
        error = IllegalAction(EXPIRED())
    limit = size_text(group_export.FILE_MAX_BYTES)
    page = render_template("groups/import.html", form=form, error=error, file_limit=limit)
    return page, 422 if error else 200
