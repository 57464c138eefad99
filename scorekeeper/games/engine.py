"""The base every game engine builds on, and the type the rest of the app holds a game by.

An engine is the fixed facts and the rules of one game, in the spirit of
OpenSpiel's ``Game`` and python-chess's ``Board``. Engines are pure: no Flask,
no peewee, no clock, no randomness; chance (dice, deals) arrives as input. A
state is rebuilt by replaying actions from ``start``; every ruling an engine
makes carries a sentence a player can read.

States and actions are a game's own frozen dataclasses; the store only moves
actions as JSON (``parse_action`` / ``action_to_json``) and hands states back
to the game and to its templates. ``Engine`` gives every member the app calls
its default, and finds each action's handler by the action's class; a game
declares its facts and handlers and writes only its own rules.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import UnionType
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

from scorekeeper.games.actions import ActionSet
from scorekeeper.games.base import (
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    resolve_options,
)
from scorekeeper.games.house_sizes import SizedCards
from scorekeeper.games.words import Text, counted, one_of, phrase

UNKNOWN_ACTION = phrase("action.unknown", "Unknown action: the type is {types}.")
GAME_OVER = phrase("game.over", "The game is over.")
PLAYERS_NEEDED = counted(
    "game.players-needed", "{game} is for {count} player", "{game} is for {count} players"
)
PLAYERS_RANGE = phrase("game.players-range", "{game} is for {fewest} to {most} players")
PLAYERS_ENTERED = phrase("game.players-entered", "{needed}; you entered {count}.")


class GameState(Protocol):
    """What the base reads of every state of a game."""

    @property
    def finished(self) -> bool: ...

    @property
    def last_ruling(self) -> str: ...


S = TypeVar("S", bound=GameState)
A = TypeVar("A")
X = TypeVar("X")


@dataclass(frozen=True)
class Handler(Generic[S]):
    """What a game does with one class of action: the state after it, and its log line
    ("roll 1 5 5", short and with no names: the log has no state). Made by ``on``."""

    action: type[Any]
    apply: Callable[[S, Any], S]
    describe: Callable[[Any], str]


def on(action: type[X], apply: Callable[[S, X], S], describe: Callable[[X], str]) -> Handler[S]:
    """The handler of the actions of class ``action``.

    ``apply`` returns the state after the action or raises IllegalAction (the state is
    untouched); a type checker holds both functions to that class.
    """
    return Handler(action, apply, describe)


class Handlers(Generic[S]):
    """Each action's handler, found by the action's class."""

    def __init__(self, handlers: Iterable[Handler[S]], actions: ActionSet[Any]) -> None:
        self._by_class: dict[type[Any], Handler[S]] = {}
        for handler in handlers:
            name = handler.action.__name__
            if handler.action not in actions.declarations:
                raise TypeError(f"{name} has a handler but is not one of the declared actions")
            if handler.action in self._by_class:
                raise TypeError(f"{name} has two handlers")
            self._by_class[handler.action] = handler
        handled = [
            kind
            for kind, declaration in zip(actions.types, actions.declarations, strict=True)
            if declaration in self._by_class
        ]
        self._unknown = UNKNOWN_ACTION(types=one_of(handled))

    def _of(self, action: object) -> Handler[S]:
        handler = self._by_class.get(type(action))
        if handler is None:
            raise IllegalAction(self._unknown, "type")
        return handler

    def apply(self, state: S, action: object) -> S:
        """The state after ``action``, or IllegalAction (the state is untouched)."""
        return self._of(action).apply(state, action)

    def describe(self, action: object) -> str:
        """A short log line of ``action``."""
        return self._of(action).describe(action)


@dataclass(frozen=True)
class Listed:
    """A kind of value a game lists in ``expected`` (a list of ``Accepts``): its name in
    the JSON, the type of one value and what the API document says of it."""

    name: str
    item: type | UnionType
    description: str

    def __post_init__(self) -> None:
        # A list is given to Accepts by keyword, and "type" and "lists" are its fields.
        if not self.name.isidentifier() or self.name in ("type", "lists"):
            raise ValueError(f"{self.name!r} cannot name a list of accepted values")


# The lists several games give: the cards that may be played, the answers to a question.
CARDS = Listed("cards", str, "The cards that may be played or tapped now, as written.")
CHOICES = Listed(
    "choices", OptionValue, "The answers of a question (a bid, a revoke flag, “called?”)."
)


class Engine(ABC, Generic[S, A]):
    """One game: its facts, declared as class attributes, and its rules.

    A game declares ``slug``, ``title``, ``min_players``, ``max_players``,
    ``options``, ``actions`` (its ActionSet), ``handlers`` (one per action class,
    see ``on``), ``listed`` (the kinds of value its ``expected`` lists), for a
    deck with printed sizes ``sized_cards``, and ``over_at_the_end`` if nothing is
    played after the end; it writes ``first_state``,
    ``expected_actions``, ``standings`` and ``score_rows``. Every other member has
    its default here, which a game overrides where its rules differ.
    """

    slug: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    # Cards with a printed size the table tells once, kept in a deck profile (or None).
    sized_cards: SizedCards | None = None
    actions: ActionSet[A]
    handlers: tuple[Handler[S], ...]
    listed: tuple[Listed, ...] = ()
    # Whether any action after the end is refused before its handler sees it, in one
    # sentence; a game whose handlers refuse it themselves says it in its own words.
    over_at_the_end: bool = False
    # The seats that play as one side, won and lost together (partners), for a game of
    # teams: each a tuple of seat numbers. Empty: every seat plays for itself.
    partners: tuple[tuple[int, ...], ...] = ()

    def __init__(self) -> None:
        self._handlers = Handlers(self.handlers, self.actions)
        self._listed = frozenset(kind.name for kind in self.listed)

    # --- What a game writes ---------------------------------------------------------

    @abstractmethod
    def first_state(self, players: tuple[str, ...], options: Mapping[str, OptionValue]) -> S:
        """The state before the first action: ``players`` are as many as the game takes,
        ``options`` every option, checked one by one (``resolve_options``)."""

    @abstractmethod
    def expected_actions(self, state: S) -> Expected:
        """What the game accepts now, and whose move it is (see ``expected``)."""

    @abstractmethod
    def standings(self, state: S) -> list[Standing]: ...

    @abstractmethod
    def score_rows(self, state: S) -> list[ScoreRow]: ...

    # --- What the app calls --------------------------------------------------------------

    def players_needed(self) -> Text:
        """What the game says of its number of players when it is given another."""
        if self.min_players == self.max_players:
            return PLAYERS_NEEDED(game=self.title, count=self.min_players)
        return PLAYERS_RANGE(game=self.title, fewest=self.min_players, most=self.max_players)

    def start(self, players: Sequence[str], options: Mapping[str, OptionValue]) -> S:
        names = tuple(players)
        if not self.min_players <= len(names) <= self.max_players:
            raise IllegalAction(
                PLAYERS_ENTERED(needed=self.players_needed(), count=len(names)), "players"
            )
        return self.first_state(names, resolve_options(self.options, options))

    def parse_action(self, data: Mapping[str, object]) -> A:
        return self.actions.parse(data)

    def action_to_json(self, action: A) -> dict[str, object]:
        return self.actions.to_json(action)

    def apply(self, state: S, action: A) -> S:
        """The state after ``action`` (its handler's), or IllegalAction."""
        if self.over_at_the_end and self.is_finished(state):
            raise IllegalAction(GAME_OVER())
        return self._handlers.apply(state, action)

    def describe(self, action: A) -> str:
        return self._handlers.describe(action)

    def expected(self, state: S) -> Expected:
        """What the game accepts now (``expected_actions``). A list of values under a name
        the game does not declare in ``listed`` is a TypeError: the API document, made
        from the declarations, would not describe it."""
        expected = self.expected_actions(state)
        for accepts in expected.actions:
            for name, _ in accepts.lists:
                if name not in self._listed:
                    raise TypeError(f"{self.slug} lists {name!r}, which it does not declare")
        return expected

    def ruling(self, state: S) -> str:
        return state.last_ruling

    def is_finished(self, state: S) -> bool:
        return state.finished

    def winners(self, state: S) -> list[int]:
        """The seats ranked first once the game is over (ties share the win); none before."""
        if not state.finished:
            return []
        return [standing.seat for standing in self.standings(state) if standing.rank == 1]

    def rematch_options(
        self, options: Mapping[str, OptionValue], seats: Sequence[str]
    ) -> dict[str, OptionValue]:
        """The options of the next game at the same table ("Play again"): these, with the
        first player or dealer moved on as the rule sheet has it (by default they stay)."""
        return resolve_options(self.options, options)

    def rematch_first_seat(self, state: S) -> int:
        """The seat of this finished game who sits first in the next one at the same table:
        "Play again" keeps the table's order around and starts it at this seat. 0 (the
        default) where the options move the first player or dealer on, or where nobody
        starts by seat."""
        return 0


# What the rest of the app holds a game by: it hands the states and actions back.
Game: TypeAlias = Engine[Any, Any]
