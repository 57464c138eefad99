"""What the shared pages and the API need to know of a game, given once by the game.

Each game's package has a ``web`` module whose ``ADAPTER`` says how its form
reads, which helpers its templates call, which cards its picker offers, how a
mistyped card is corrected, whether the judge rules its tricks and which
endpoints of its own it adds to the API. The shared views loop over the
registry and never name a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from werkzeug.datastructures import MultiDict

from scorekeeper.games import GAMES, PACKAGE_OF, cards
from scorekeeper.games.base import parse_whole_number

if TYPE_CHECKING:
    from werkzeug.wrappers import Response

    from scorekeeper import store

FormReader = Callable[[MultiDict[str, str], "store.SessionView"], dict[str, object]]


class AskFirst(Exception):
    """The action needs one more answer (a card's size): show the page's step for it."""

    def __init__(self, **step: str) -> None:
        super().__init__("one more answer is needed")
        self.step = step


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


@dataclass(frozen=True)
class TrickJudge:
    """A game whose disputed tricks the judge rules, with no session (``/judge/<slug>``)."""

    title: str
    deck: cards.Deck
    players: tuple[int, ...]
    default_players: int
    trumps: tuple[str, ...]
    # Called as rule(trump, plays, names), or rule(plays, names) when there are no trumps.
    rule: Callable[..., Any]
    # Sized cards travel with the size printed on them; from this many players on.
    sizes_from_players: int | None = None
    # With this many players the trick is played in the led colour only.
    one_colour_players: int | None = None

    @property
    def needs_sizes(self) -> bool:
        return self.sizes_from_players is not None


@dataclass(frozen=True)
class CardCorrection:
    """How a mistyped card of a logged event is replaced (History's "fix" links).

    ``unavailable`` lists the cards the picker greys out for the event;
    ``replacement`` builds the corrected action from the form (a card that is
    not one is refused by the store with a sentence); ``sized`` tells whether
    the form asks for the card's printed size too.
    """

    unavailable: Callable[[store.SessionView, store.LoggedEvent, cards.Deck], frozenset[cards.Card]]
    replacement: Callable[
        [store.SessionView, store.LoggedEvent, MultiDict[str, str]], dict[str, object]
    ]
    sized: Callable[[store.SessionView, store.LoggedEvent], bool] = lambda _view, _event: False
    # The action types that lay a card on the board, where it gets its "fix" link.
    laid: frozenset[str] = frozenset({"play"})


@dataclass(frozen=True)
class ApiRoute:
    """An endpoint a game adds to the JSON API (a calculator that needs no session)."""

    rule: str
    endpoint: str
    view: Callable[[], Response]


@dataclass(frozen=True)
class GameAdapter:
    """One game's web side; see the module's docstring."""

    read_form: FormReader
    # The module whose helpers the game's templates call as ``rules``.
    template_rules: ModuleType
    # The card picker's deck for a state (None: the game has no card picker).
    picker_deck: Callable[[Any], cards.Deck] | None = None
    # The colours the picker offers, when the game plays with some of the deck's only.
    picker_colours: Callable[[Any], tuple[str, ...]] | None = None
    correction: CardCorrection | None = None
    # The event types corrected by typing them again: the game's own form
    # (templates/games/<slug>/correct.html) posts what its input form posts.
    retyped: frozenset[str] = frozenset()
    # Why an event of this game cannot be corrected, when it cannot.
    no_correction: str = ""
    judge: TrickJudge | None = None
    # The action the rules leave no choice about in a state, as JSON (None: the table has
    # a say): a form's tap records it too, and undo and redo step over it.
    forced: Callable[[Any], dict[str, object] | None] | None = None
    api_routes: tuple[ApiRoute, ...] = ()
    # Its part of the API document: its components (``<Name>Options`` and
    # ``<Name>Action`` at least, see openapi_parts.schema_name) and the path items of its
    # trick judge and its own endpoints.
    api_schemas: Callable[[], dict[str, Any]] = dict
    api_paths: Callable[[], dict[str, Any]] = dict


@cache
def adapters() -> Mapping[str, GameAdapter]:
    """Every game's adapter by slug, loaded on first use: a game's web module may import
    the shared web modules, which are all loaded by then."""
    loaded: dict[str, GameAdapter] = {}
    for slug in GAMES:
        module = import_module(f"scorekeeper.games.{PACKAGE_OF[slug]}.web")
        loaded[slug] = module.ADAPTER
    return loaded


def adapter(slug: str) -> GameAdapter:
    return adapters()[slug]


def trick_judges() -> dict[str, TrickJudge]:
    """The games the judge rules tricks of, by slug, in the registry's order."""
    return {slug: game.judge for slug, game in adapters().items() if game.judge is not None}


def card_swap(
    played_cards: Callable[[Any], frozenset[cards.Card]], laid: frozenset[str] = frozenset({"play"})
) -> CardCorrection:
    """The correction of a card played: any card not played yet this round, or the same one.

    ``played_cards`` is the game's own reading of the cards a picker greys out.
    """

    def unavailable(
        view: store.SessionView, event: store.LoggedEvent, deck: cards.Deck
    ) -> frozenset[cards.Card]:
        return played_cards(view.state) - {deck.parse(event.action["card"], "card")}

    def replacement(
        _view: store.SessionView, event: store.LoggedEvent, form: MultiDict[str, str]
    ) -> dict[str, object]:
        return {**event.action, "card": form.get("card", "")}

    return CardCorrection(unavailable, replacement, laid=laid)
