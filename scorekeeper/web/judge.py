"""The judge: settle a disputed trick in a few taps, without any session.

The whole trick lives in the page's query string (a GET form), so every tap
works without JavaScript and a ruling can be shared as a link. The ruling
itself comes from the rules engine in ``scorekeeper.games.cards``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from flask import Blueprint, abort, render_template, request, session

from scorekeeper import decks
from scorekeeper.games import cards
from scorekeeper.games.base import IllegalAction, is_digits, parse_whole_number
from scorekeeper.games.web_interface import TrickJudge
from scorekeeper.games.words import Text, phrase
from scorekeeper.web import access
from scorekeeper.web.adapters import trick_judges
from scorekeeper.web.language import words

bp = Blueprint("judge", __name__, url_prefix="/judge")

# A sized card's play travels as "green 25/3": the card and the size printed on it.
SIZE_SEPARATOR = "/"
SIZE_BUTTONS = tuple(range(1, 10))
MAX_NAME = 40

NOT_A_CARD = phrase(
    "web.judge.not-a-card-in-link",
    "{what} in this link is not a card, so the trick stops there. {refusal}",
)
PLAY_NUMBER = phrase("web.judge.play-number", "Play {number}")
WAITING_CARD = phrase("web.judge.waiting-card", "The card waiting for its size")
IN_TRICK_ALREADY = phrase("web.judge.in-trick-already", "{card} is in this trick already.")
SIZE_OF = phrase("web.judge.size-of", "The size of {card}")
SIZE_AT_LEAST_ONE = phrase("web.judge.size-at-least-one", "The size of {card} is at least 1.")
NO_JUDGE = phrase("web.judge.no-such-judge", "There is no trick judge for “{slug}”.")
# A play's name in a ruling when the table named some seats but not this one.
UNNAMED_PLAY = phrase("web.judge.unnamed-play", "play {number}")


def sizes_cookie_key(slug: str) -> str:
    """Where the cookie keeps the sizes this phone told the judge of game ``slug``.

    Sizes are printed on the cards, the same in every copy of the game: once
    this phone has been told one, it is not asked again (the player can still
    correct it).
    """
    return f"{slug.replace('-', '_')}_sizes"


def remembered_sizes(slug: str) -> dict[str, str]:
    sizes = session.get(sizes_cookie_key(slug), {})
    return sizes if isinstance(sizes, dict) else {}


def known_size(slug: str, card: str) -> str | None:
    """A card's size as this phone knows it: told to the judge, or in its newest deck profile
    of the game."""
    told = remembered_sizes(slug).get(card)
    if told:
        return told
    newest = decks.find(list(access.decks_page(1, slug, size=1).roles))
    size = newest[0].sizes.get(card) if newest else None
    return None if size is None else str(size)


def remember_size(slug: str, card: str, size: str) -> None:
    if is_digits(size) and 0 < int(size) < 100:
        session[sizes_cookie_key(slug)] = {**remembered_sizes(slug), card: size}
        session.permanent = True


@dataclass
class Trick:
    """The trick as entered so far, read from the query string."""

    game: TrickJudge
    players: int
    trump: str | None
    plays: list[str]
    names: list[str]
    pending: str | None = None
    error: str | None = None

    @property
    def complete(self) -> bool:
        return len(self.plays) == self.players and (self.trump is not None or not self.game.trumps)

    def card_of(self, play: str) -> str:
        return play.split(SIZE_SEPARATOR)[0]

    def size_of(self, play: str) -> str | None:
        _, separator, size = play.partition(SIZE_SEPARATOR)
        return size if separator else None

    def sizes(self) -> dict[str, str]:
        """The size printed on each sized card of the trick, by its card."""
        return {self.card_of(play): size for play in self.plays if (size := self.size_of(play))}

    def used(self) -> Counter[str]:
        """How many copies of each card (as "colour number") are in the trick."""
        return Counter(
            [self.card_of(play) for play in self.plays] + ([self.pending] if self.pending else [])
        )

    def colours_allowed(self) -> tuple[str, ...]:
        if self.players == self.game.one_colour_players and self.plays:
            return (self.card_of(self.plays[0]).split()[0],)
        return self.game.deck.colours

    def rule_args(self) -> tuple[object, ...]:
        names = [name.strip() for name in self.names[: len(self.plays)]]
        seat_names = names if any(names) and len(names) == len(self.plays) else None
        if seat_names is not None:
            seat_names = [
                name or words(UNNAMED_PLAY(number=i + 1)) for i, name in enumerate(seat_names)
            ]
        if self.game.needs_sizes:
            # The 3-player game has no sizes: a null size counts as left out there.
            plays = [{"card": self.card_of(p), "size": self.size_of(p) or None} for p in self.plays]
            return (plays, seat_names)
        return (self.trump, list(self.plays), seat_names)


def carried_card(deck: cards.Deck, text: str, what: Text) -> cards.Card:
    """A card read back from the page's hidden fields, or IllegalAction saying which one."""
    try:
        return deck.parse(text, "play")
    except IllegalAction as refused:
        raise IllegalAction(NOT_A_CARD(what=what, refusal=refused.said), "play") from None


def carry_over(trick: Trick) -> None:
    """Read the trick so far (plays, the card waiting for its size) back from the query string.

    The page writes these fields itself, but a link edited by hand may carry
    anything: the trick keeps the plays before the first that is not a card.
    """
    for number, play in enumerate(request.args.getlist("play")[: trick.players], start=1):
        card, separator, size = play.partition(SIZE_SEPARATOR)
        trick.plays.append(
            f"{carried_card(trick.game.deck, card, PLAY_NUMBER(number=number))}{separator}{size}"
        )
    pending = request.args.get("pending")
    if pending:
        trick.pending = str(carried_card(trick.game.deck, pending, WAITING_CARD()))


def read_trick(slug: str, game: TrickJudge) -> Trick:
    """The trick in the query string, after the tap that was just made."""
    args = request.args
    # A tapped setting button (set_…) wins over the value carried in the form.
    players = args.get("set_players", type=int) or args.get("players", type=int)
    if players not in game.players:
        players = game.default_players
    trump = args.get("set_trump") or args.get("trump")
    if trump not in game.trumps:
        trump = None
    trick = Trick(
        game,
        players,
        trump,
        plays=[],
        names=[name[:MAX_NAME] for name in args.getlist("name")][:players],
    )
    try:
        carry_over(trick)
    except IllegalAction as refused:
        # The tap was made on a trick this page could not read: it is not applied.
        trick.error = refused.said
        return trick
    if "drop" in args and trick.plays:
        trick.plays.pop()
        trick.pending = None
    if "resize" in args and trick.plays and trick.size_of(trick.plays[-1]):
        trick.pending = trick.card_of(trick.plays.pop())
    added = args.get("add")
    try:
        if added and len(trick.plays) < trick.players:
            parsed = game.deck.parse(added, "add")
            card = str(parsed)
            if trick.used()[card] >= game.deck.copies_of(parsed):
                raise IllegalAction(IN_TRICK_ALREADY(card=parsed), "add")
            known = known_size(slug, card)
            if not game.needs_sizes or trick.players < (game.sizes_from_players or 0):
                trick.plays.append(card)
            elif known:
                trick.plays.append(f"{card}{SIZE_SEPARATOR}{known}")
            else:
                trick.pending = card
        size = next((value.strip() for value in args.getlist("size") if value.strip()), "")
        if trick.pending and size:
            waiting = game.deck.parse(trick.pending, "size")
            if parse_whole_number(size, SIZE_OF(card=waiting), "size") < 1:
                raise IllegalAction(SIZE_AT_LEAST_ONE(card=waiting), "size")
            trick.plays.append(f"{trick.pending}{SIZE_SEPARATOR}{size}")
            remember_size(slug, trick.pending, size)
            trick.pending = None
    except IllegalAction as refused:
        trick.error = refused.said
    return trick


@dataclass(frozen=True)
class PickerCard:
    label: str
    value: str
    enabled: bool


@bp.app_template_global()
def picker_rows(
    deck: cards.Deck,
    used: Counter[str] | Iterable[cards.Card],
    colours: tuple[str, ...] | None = None,
) -> list[tuple[str, list[PickerCard]]]:
    """The card picker's rows: each colour with its cards, greyed once all copies are used.

    ``used`` counts cards by their text (a Counter) or lists the cards played;
    ``colours``, when given, are the only colours offered.
    """
    if not isinstance(used, Counter):
        # A played-cards set lists cards with no copy left to play.
        used = Counter({str(card): deck.copies_of(card) for card in used})
    rows = []
    for colour in deck.colours:
        if colours is not None and colour not in colours:
            continue
        row = []
        for number in deck.numbers[colour]:
            card = cards.Card(colour, number)
            row.append(PickerCard(str(number), str(card), used[str(card)] < deck.copies_of(card)))
        rows.append((colour, row))
    return rows


@bp.get("")
def choose() -> str:
    return render_template("judge/choose.html", judges=trick_judges())


@bp.get("/<slug>")
def judge(slug: str) -> tuple[str, int]:
    game = trick_judges().get(slug)
    if game is None:
        abort(404, NO_JUDGE(slug=slug))
    trick = read_trick(slug, game)
    ruling = None
    if trick.complete and not trick.error:
        try:
            ruling = game.rule(*trick.rule_args())
        except IllegalAction as refused:
            trick.error = refused.said
    page = render_template(
        "judge/trick.html",
        slug=slug,
        game=game,
        trick=trick,
        ruling=ruling,
        size_buttons=SIZE_BUTTONS,
    )
    return page, 422 if trick.error else 200
