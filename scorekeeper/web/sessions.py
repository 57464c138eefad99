"""Pages: home, new session, the session itself, its history, results, sharing."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import segno
from babel import Locale
from babel.dates import parse_pattern
from babel.numbers import format_decimal
from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.wrappers import Response

from scorekeeper import (
    charts,
    decks,
    groups,
    lifecycle,
    read_model,
    session_log,
    session_views,
    stats,
    store,
)
from scorekeeper.games import GAMES, cards
from scorekeeper.games.base import IllegalAction, is_digits, number_range
from scorekeeper.games.engine import Game
from scorekeeper.games.words import Sayable, all_of, first_sentence, phrase
from scorekeeper.models import utc_now
from scorekeeper.results import score_chart
from scorekeeper.web import access, addresses
from scorekeeper.web.adapters import adapter
from scorekeeper.web.forms import (
    NewSessionForm,
    check_seat_fields,
    new_form_key,
    new_session_form,
)
from scorekeeper.web.language import DEFAULT_LANGUAGE, PAGE_LANGUAGE, language, reader, words

NOT_FOUND = phrase(
    "web.sessions.not-found", "No session has this link. Check the address, or start a new session."
)()
NO_SUCH_PAGE = phrase(
    "web.sessions.no-such-page", "This list has no such page: its first page is 1."
)
MAY_NOT_REMOVE = phrase(
    "web.sessions.may-not-remove",
    "Only a scorer of this game, or a member of its group, can remove it.",
)
NO_SUCH_GAME = phrase("web.sessions.no-such-game", "There is no game called “{slug}” here.")
HISTORY_PAGES = phrase("web.sessions.history-pages", "This history has pages 1 to {pages}.")
JOIN_LINK_INVALID = phrase(
    "web.sessions.join-link-invalid",
    "This “score with me” link is no longer valid: ask the scorer for a new one.",
)

bp = Blueprint("sessions", __name__)


def session_deck(view: session_views.SessionView) -> cards.Deck | None:
    """The deck a session's card picker offers (None: the game has no card picker)."""
    deck = adapter(view.game.slug).picker_deck
    return None if deck is None else deck(view.state)


def picker_colours(view: session_views.SessionView) -> tuple[str, ...] | None:
    """The colours a session's card picker offers: those in play, when the game chooses some."""
    colours = adapter(view.game.slug).picker_colours
    return None if colours is None else colours(view.state)


def card_event_seqs(view: session_views.SessionView) -> dict[str, tuple[int, ...]]:
    """Each card laid in a trick → the live events that laid it, newest first, for "fix" links.

    A card can be laid twice in a round (two copies of a card in the deck): the
    templates give the n-th newest copy on the table the n-th newest event.
    """
    correction = adapter(view.game.slug).correction
    if correction is None:
        return {}
    laid: dict[str, list[int]] = {}
    for event in reversed(view.events):
        if not event.undone and event.action["type"] in correction.laid:
            laid.setdefault(str(event.action["card"]), []).append(event.seq)
    return {card: tuple(seqs) for card, seqs in laid.items()}


@bp.app_template_filter("not_offered")
def not_offered(deck: cards.Deck, offered: Sequence[str] | None) -> frozenset[cards.Card]:
    """The deck's cards the engine does not accept now, for the picker to grey out:
    ``offered`` is an expected action's ``cards`` (None: every card is offered)."""
    if offered is None:
        return frozenset()
    return frozenset(card for card in deck.cards() if str(card) not in offered)


@bp.app_template_global()
def last_action(view: session_views.SessionView) -> dict[str, Any] | None:
    """The newest live event's action (None before the first): what the last ruling ruled
    on, for a game's one-line result of it (games/<slug>/headline.html)."""
    return next((event.action for event in reversed(view.events) if not event.undone), None)


@bp.app_template_filter("utc_time")
@pass_context
def utc_time(page: Context, moment: datetime) -> Markup:
    """A stored (UTC) time: app.js shows it in the phone's own time zone (reading the
    datetime attribute); without JavaScript it says the UTC time as the reader's language
    writes one: "2026-12-05 22:01 UTC" in English, "5 déc. 2026, 22:01 UTC" in French.
    A filter, which Jinja calls directly: the home page writes one a row, so the language
    is the page's (read once a page), and English is written field by field as strftime's
    %Y-%m-%d %H:%M:%S would (at a third of its cost); digits need no escaping (Markup's
    format escaped each)."""
    day = f"{moment.year}-{moment.month:02}-{moment.day:02}"
    minute = f"{moment.hour:02}:{moment.minute:02}"
    code = page[PAGE_LANGUAGE]
    shown = f"{day} {minute}" if code == DEFAULT_LANGUAGE else escape(written_time(code)(moment))
    return Markup(f'<time datetime="{day}T{minute}:{moment.second:02}Z">{shown} UTC</time>')


@functools.cache
def written_time(code: str) -> Callable[[datetime], str]:
    """How language ``code`` writes a date and time of day, its zone aside (CLDR's medium
    date and short time, joined as its medium date and time are): "5 déc. 2026, 22:01",
    "2026/12/05 22:01". The pattern is read once a language, not once a row."""
    locale = Locale.parse(code)
    joined = (
        str(locale.datetime_formats["medium"])
        .replace("{1}", locale.date_formats["medium"].pattern)
        .replace("{0}", locale.time_formats["short"].pattern)
    )
    pattern = parse_pattern(joined)
    return functools.partial(pattern.apply, locale=locale)


@bp.app_template_filter("first_sentence")
def first_sentence_words(text: str) -> str:
    """A ruling's first sentence: what it decided, before the reasons and what comes next
    (read in the reader's language first: a filter gets a ruling's English words)."""
    return first_sentence(words(text))


@bp.app_template_filter("headline")
def headline(ruling: str) -> str:
    """A ruling's first sentence, what it decided, as a game's one line of it writes it
    (Yardkle's, the score sheet's: games/<slug>/headline.html): a Text the page reads in
    the reader's language when the first sentence is one of its own, its cards drawn with
    their suit symbols as the pages' filters draw them."""
    return first_sentence(ruling, cards.with_suit_symbols)


@bp.app_template_filter("suit_symbols")
def suit_symbols(text: str) -> str:
    """A ruling or a note with its cards' suit symbols ("9D" → "9♦"), in the reader's
    language (a filter gets a ruling's English words: read first)."""
    return cards.with_suit_symbols(words(text))


@bp.app_template_filter("number_range")
def number_range_words(low: int, high: int) -> str:
    """ "4", or "3 to 5": how many seats a game takes, in the reader's language."""
    if low == high:
        return number_range(low, high)
    return gettext("%(fewest)s to %(most)s", fewest=low, most=high)


@bp.app_template_global("colour_words")
def colour_words(colour: str) -> str:
    """A card colour's name as the reader says it (the class names keep the English)."""
    return words(cards.colour_words(colour))


@bp.app_template_global("card_words")
def card_words(card: object) -> str:
    """A card as the reader says it ("vert 7", "緑の7"), on every page (a session's, the
    judge's, a deck profile's): a card of a coloured deck, or its text as a page holds it
    ("green 7", "red " for a colour alone); any other text stays as written ("10D")."""
    if isinstance(card, Sayable):
        return words(card.said())
    text = str(card)
    if language() == DEFAULT_LANGUAGE:
        return text
    colour, space, number = text.partition(" ")
    if not space or colour not in cards.COLOUR_WORDS:
        return words(text)
    if not number:
        return f"{colour_words(colour)} "
    return words(cards.COLOURED_CARD(colour=cards.colour_words(colour), number=number))


@bp.app_template_filter("grouped")
def grouped(number: int) -> str:
    """A score with its thousands grouped as the reader's language does: "12,500" in
    English (as the pages always wrote it), "12 500" in French."""
    if language() == DEFAULT_LANGUAGE:
        return f"{number:,}"
    return str(format_decimal(number, locale=get_locale()))


@bp.app_template_filter("and_list")
def and_list_words(items: Sequence[object]) -> str:
    """ "a, b and c" as the reader's language lists (CLDR's): "a, b et c", "a、b、c"."""
    return reader().listing(all_of(items))


bp.app_template_global("words")(words)
bp.app_template_global("line_chart")(charts.render)
bp.app_template_global("wins_chart")(stats.wins_chart)
bp.app_template_global("wins_step_note")(stats.wins_step_note)


@bp.app_template_filter("seat_names")
def seat_names(seats: Sequence[int], names: Sequence[str]) -> list[str]:
    """The names sitting in ``seats`` (seat numbers), in that order."""
    return [names[seat] for seat in seats]


@bp.app_template_filter("names_line")
def names_line(names: Sequence[str]) -> str:
    """Names as a list writes them: "Ann, Bo, Cy" (Jinja's join looks at each name for
    markup first, and the home page writes one a row)."""
    return gettext(", ").join(names)


@bp.app_template_filter("winners_line")
def winners_line(names: Sequence[str]) -> str:
    """Who won, worded one way on every page and list: "Ann wins", "Ann & Cy win" (a team,
    or a shared win: the lists know only the names, so both read alike everywhere)."""
    if len(names) == 1:
        return gettext("%(name)s wins", name=names[0])
    return gettext("%(names)s & %(last)s win", names=gettext(", ").join(names[:-1]), last=names[-1])


@bp.app_template_filter("mark_dice")
def mark_dice(values: tuple[int, ...], chosen: object) -> list[tuple[int, bool]]:
    """Each die with whether it is among ``chosen`` (counting repeats once each)."""
    left = [str(value) for value in chosen] if isinstance(chosen, list | tuple) else []
    marked = []
    for value in values:
        picked = str(value) in left
        if picked:
            left.remove(str(value))
        marked.append((value, picked))
    return marked


@bp.app_template_filter("duration")
def duration(start: datetime, end: datetime | None) -> str:
    """How long from ``start`` to ``end`` (None: now), in whole minutes: "1 h 25 min"."""
    minutes = int(((end or utc_now()) - start).total_seconds()) // 60
    if minutes < 1:
        return gettext("less than a minute")
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return gettext("%(minutes)s min", minutes=minutes)
    if not minutes:
        return gettext("%(hours)s h", hours=hours)
    return gettext("%(hours)s h %(minutes)s min", hours=hours, minutes=minutes)


def load_or_404(session_id: str) -> session_views.SessionView:
    try:
        # Every page and form of a session asks the device's role in it: read at once.
        return session_views.load(session_id, access.session_version(session_id))
    except session_views.SessionNotFound:
        abort(404, NOT_FOUND)


def page_asked(argument: str) -> int:
    """The page of a list the address asks for by ``argument`` (1, the first, unless
    asked): 404 for a page number that is none."""
    asked = request.args.get(argument, "1")
    page = int(asked) if is_digits(asked) and len(asked) < 10 else 0
    if page < 1:
        abort(404, NO_SUCH_PAGE())
    return page


def home_url(page: int, groups_page: int, anchor: str) -> str:
    """The home page at these pages of its sessions and of its groups (a first page is
    named by no argument), scrolled to the list ``anchor``."""
    return url_for(
        "sessions.home",
        page=page if page > 1 else None,
        groups_page=groups_page if groups_page > 1 else None,
        _anchor=anchor,
    )


@bp.get("/")
def home() -> str:
    """This device's sessions and groups, each list a page at a time."""
    page, groups_page = page_asked("page"), page_asked("groups_page")
    listed = access.sessions_page(page)
    listed_groups = access.groups_page(groups_page)
    return render_template(
        "home.html",
        sessions=read_model.summaries(list(listed.roles)),
        roles=listed.roles,
        newer_sessions=home_url(page - 1, groups_page, "sessions") if page > 1 else None,
        older_sessions=home_url(page + 1, groups_page, "sessions") if listed.more else None,
        groups=groups.find(list(listed_groups.roles)),
        group_roles=listed_groups.roles,
        previous_groups=home_url(page, groups_page - 1, "groups") if groups_page > 1 else None,
        more_groups=home_url(page, groups_page + 1, "groups") if listed_groups.more else None,
    )


@bp.post("/forget/<session_id>")
def forget(session_id: str) -> Response:
    """Take a session off this device's list; the session itself stays as it is."""
    access.forget(session_id)
    return redirect(url_for("sessions.home"), 303)


def may_remove(session_id: str) -> bool:
    """Who may remove a game nobody has played yet: its scorers, and the members of the
    group that started it."""
    if access.device_may_edit(session_id):
        return True
    group = groups.of_session(session_id)
    return group is not None and access.device_may_edit_group(group[0])


@bp.route("/s/<session_id>/remove", methods=["GET", "POST"])
def remove(session_id: str) -> Response | tuple[str, int]:
    """A game with nothing recorded yet (a "Play again" nobody took up): asked, then
    deleted; back to the list it was reached from (its group's, else the home page)."""
    view = load_or_404(session_id)
    if not may_remove(session_id):
        abort(403, MAY_NOT_REMOVE())
    group = groups.of_session(session_id)
    error = None
    if request.method == "POST":
        try:
            lifecycle.remove_unstarted(session_id)
        except IllegalAction as refused:
            error = refused.said
        else:
            if group is not None:
                return redirect(url_for("groups.group_page", group_id=group[0]), 303)
            return redirect(url_for("sessions.home"), 303)
    page = render_template("sessions/remove.html", view=view, group=group, error=error)
    return page, 422 if error else 200


@bp.get("/new")
def choose_game() -> str:
    return render_template("sessions/choose_game.html")


@bp.route("/new/<slug>", methods=["GET", "POST"])
def new_session(slug: str) -> str | Response | tuple[str, int]:
    game = GAMES.get(slug)
    if game is None:
        abort(404, NO_SUCH_GAME(slug=slug))
    try:
        check_seat_fields(request.form, game)
    except IllegalAction as bad_seats:
        abort(422, bad_seats.said)
    deck_choices = None
    if game.sized_cards is not None:
        profiles = decks.find(access.all_decks(game.slug))
        deck_choices = [(p.id, p.name) for p in profiles]
    form = new_session_form(game, deck_choices)
    refused = False
    if form.validate_on_submit():
        started = start_session(form, game, lambda: [name for _, name in form.filled_seats()])
        if started is not None:
            return started
        refused = True
    refused = refused or bool(form.errors)
    page = render_template(
        "sessions/new_session.html",
        game=game,
        form=form,
        refused=refused,
        # The names seated in this phone's latest sessions, offered as each seat is typed.
        used_names=groups.names_used(list(access.sessions_page(1).roles)),
        groups=groups.find(access.all_changeable_groups()),
    )
    return page, 422 if refused else 200


def start_session(
    form: NewSessionForm, game: Game, seats: Callable[[], Sequence[str] | groups.Seating]
) -> Response | None:
    """Start the session a new-session form asks for, seated by ``seats()`` (names, or a
    group's players), and go to its page; None when refused, the form marked with why."""
    try:
        seated = seats()
        seating, names = (
            (seated, seated.names) if isinstance(seated, groups.Seating) else (None, seated)
        )
        session_id, _key = lifecycle.create(
            game.slug,
            names,
            form.option_values(game),
            form.form_key.data,
            **form.deck_choice(),
            seating=seating,
        )
    except IllegalAction as error:
        form.mark(error.field, error.said)
        return None
    except store.AlreadyRecorded as repeated:
        return redirect(url_for("sessions.session_page", session_id=repeated.session_id), 303)
    access.remember_scorer(session_id)
    return redirect(url_for("sessions.session_page", session_id=session_id), 303)


def asked_step() -> dict[str, str]:
    """The answer a form asked for first (see play.AskFirst), read back from the address:
    a card's size (``size_for``, ``size_type``) or whether a taker card was called."""
    if request.method != "GET":
        return {"size_for": "", "size_type": "play", "called_for": ""}
    return {
        "size_for": request.args.get("size_for", "")[:30],
        "size_type": request.args.get("size_type", "play")[:10],
        "called_for": request.args.get("called_for", "")[:30],
    }


def undone_refill(view: session_views.SessionView) -> tuple[int, Mapping[str, str]] | None:
    """The event a redo would restore, with the fields its game's form shows it by (the
    adapter's ``refill``); None when there is none or the form cannot show it again."""
    undone = view.events.first_redoable()
    refill = adapter(view.game.slug).refill
    if undone is None or refill is None:
        return None
    fields = refill(undone.action)
    return (undone.seq, fields) if fields else None


def refilled(view: session_views.SessionView) -> ImmutableMultiDict[str, str]:
    """The fields of the tap an undo just took back (``undone``, the answer's address:
    play.undone_tap), for its form to show as it was sent; none once it is no longer the
    one a redo restores (redone, or the table moved on)."""
    found = undone_refill(view)
    if found is None or request.args.get("undone") != str(found[0]):
        return ImmutableMultiDict()
    return ImmutableMultiDict(found[1])


def render_session(
    view: session_views.SessionView, error: IllegalAction | str | None = None, status: int = 200
) -> tuple[str, int]:
    """The session page; the play views use it to show a refused action."""
    message = error.said if isinstance(error, IllegalAction) else error
    field = error.field if isinstance(error, IllegalAction) else None
    page = render_template(
        "sessions/session.html",
        view=view,
        state=view.state,
        expected=view.expected,
        rules=adapter(view.game.slug).template_rules,
        deck=session_deck(view),
        colours=picker_colours(view),
        card_seqs=card_event_seqs(view),
        may_edit=access.device_may_edit(view.id),
        next_session=lifecycle.next_session(view.id) if view.finished else None,
        error=message,
        error_field=field,
        form_key=new_form_key(),
        posted=request.form if request.method == "POST" else refilled(view),
        **asked_step(),
    )
    return page, status


@bp.get("/s/<session_id>")
def session_page(session_id: str) -> tuple[str, int]:
    view = load_or_404(session_id)
    access.remember(session_id, access.VIEW)
    if shown_alike_to_every_watcher(view):
        return watched_page(view), 200
    return render_session(view)


def shown_alike_to_every_watcher(view: session_views.SessionView) -> bool:
    """Whether this request's page is the one every watcher of the session's version gets:
    a session in play (a finished one links to its rematch, made later), not on a deck
    profile's sizes (edited apart), no answer asked first in the address (asked_step),
    and a phone that may not record (a scorer's page carries keys of its own)."""
    return (
        not view.finished
        and view.game.sized_cards is None
        and not request.args
        and not access.device_may_edit(view.id)
    )


def watched_page(view: session_views.SessionView) -> str:
    """The page watchers get: the same for every watcher reading its language until the
    next write, which moves the version on, and each watcher loads it again after every
    change. Rendered once per version and language (and root its links are under)."""
    return session_views.made_once(
        view, f"watched-page.{language()}", request.script_root, lambda: render_session(view)[0]
    )


# Events on one page of a session's history: the page stays small however long the game.
HISTORY_PAGE_SIZE = 100


def pages_of(count: int, size: int = HISTORY_PAGE_SIZE) -> int:
    """How many pages ``count`` items fill, ``size`` a page (an empty list has one page)."""
    return max(1, math.ceil(count / size))


def page_bounds(count: int, page: int, size: int = HISTORY_PAGE_SIZE) -> slice:
    """The items of page ``page`` of ``count`` items in log order: page 1 holds the newest
    ``size``, each next page older ones; oldest first within a page (the history page
    shows them newest first, the API in this order)."""
    end = count - (page - 1) * size
    return slice(max(0, end - size), max(0, end))


@bp.get("/s/<session_id>/history")
def history(session_id: str) -> str:
    """One page of the log: page 1 holds the newest events, each next page older ones;
    the newest first on each page."""
    view = load_or_404(session_id)
    game = adapter(view.game.slug)
    may_edit = access.device_may_edit(session_id)
    pages = pages_of(len(view.events))
    asked = request.args.get("page", "1")
    page = int(asked) if is_digits(asked) and len(asked) < 10 else 0
    if not 1 <= page <= pages:
        abort(404, HISTORY_PAGES(pages=pages))
    events = view.events[page_bounds(len(view.events), page)]
    return render_template(
        "sessions/history.html",
        view=view,
        events=events,
        corrections=session_log.corrections(view.id, view.game, (events[0].seq, events[-1].seq))
        if events
        else {},
        page=page,
        pages=pages,
        correctable=game.correction is not None and may_edit,
        retypable=game.retyped if may_edit else frozenset(),
    )


@bp.get("/s/<session_id>/results")
def results(session_id: str) -> str:
    view = load_or_404(session_id)
    rows = view.game.score_rows(view.state)
    return render_template(
        "sessions/results.html",
        view=view,
        rows=rows,
        standings=view.game.standings(view.state),
        chart=score_chart(
            view.game.title,
            rows,
            title=gettext("%(game)s: score after each round", game=words(view.game.title)),
            x_label=gettext("Round"),
            y_label=gettext("Score"),
            listed=and_list_words,
        ),
        may_edit=access.device_may_edit(view.id),
        next_session=lifecycle.next_session(view.id) if view.finished else None,
        form_key=new_form_key(),
        group=groups.of_session(view.id),
    )


@bp.post("/s/<session_id>/rematch")
def rematch(session_id: str) -> Response | tuple[str, int]:
    """ "Play again": the next game at a finished session's table, scored from this device
    (started by this tap, or by an earlier one from any phone)."""
    view = load_or_404(session_id)
    access.require_device_edit(session_id)
    try:
        next_id = lifecycle.rematch(session_id, request.form.get("form_key") or None).id
    except IllegalAction as refused:
        return render_session(view, refused, 422)
    access.remember_scorer(next_id)
    return redirect(url_for("sessions.session_page", session_id=next_id), 303)


def qr_svg(url: str) -> str:
    return str(segno.make(url).svg_inline(scale=5, dark="#000", light="#fff"))


@bp.get("/s/<session_id>/share")
@access.no_store
def share(session_id: str) -> str:
    """The view link for everyone; the "score with me" link only for a scorer's device.
    Both name an address other phones can open (see addresses.py)."""
    view = load_or_404(session_id)
    join_path = None
    if access.device_may_edit(session_id):
        join_path = url_for(
            "sessions.join", session_id=session_id, key=session_views.edit_key(session_id)
        )
    view_path = url_for("sessions.session_page", session_id=session_id)
    return share_page("sessions/share.html", view_path, join_path, view=view)


def share_page(template: str, view_path: str, join_path: str | None, **context: object) -> str:
    """A page with a view link and, for a device that may hand its right on, a join link,
    each with its QR code, naming an address other phones can open."""
    where = addresses.reachable()
    view_url = where.url(view_path)
    join_url = where.url(join_path) if join_path else None
    return render_template(
        template,
        view_url=view_url,
        view_qr=qr_svg(view_url),
        join_url=join_url,
        join_qr=qr_svg(join_url) if join_url else None,
        unreachable=where.unreachable,
        **context,
    )


@bp.get("/s/<session_id>/join/<key>")
@access.no_store
def join(session_id: str, key: str) -> Response:
    load_or_404(session_id)
    if not session_views.edit_key_matches(session_id, key):
        abort(403, JOIN_LINK_INVALID())
    access.remember_scorer(session_id)
    return redirect(url_for("sessions.session_page", session_id=session_id), 303)
