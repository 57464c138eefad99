"""The one module of the app a game's web side stands on, besides the pure games modules.

A game's ``web`` module gives its ``ADAPTER``: how its form reads, which helpers its
templates call, which cards its picker offers, how a mistyped card is corrected,
whether the judge rules its tricks, the endpoints it adds to the API and its part
of the API document, told as declarations (pydantic models, descriptions, examples)
that ``scorekeeper.web.openapi`` turns into the document. The web package loads
every adapter through the registry and never names a game; this module imports
nothing of the web package, so a game's web module does not load the app.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from flask import abort, request
from pydantic import BaseModel, ConfigDict, Field, create_model
from werkzeug.datastructures import MultiDict

from scorekeeper.games import cards
from scorekeeper.games.base import (
    IllegalAction,
    is_a_number_too_long,
    json_error_text,
    parse_whole_number,
)
from scorekeeper.games.follow import THE_PENALTY
from scorekeeper.games.words import phrase

THE_FLAG = phrase("trick.label-flag", "The flag")

if TYPE_CHECKING:
    from scorekeeper.session_log import LoggedEvent as LoggedEvent
    from scorekeeper.session_views import SessionView as SessionView

FormReader = Callable[[MultiDict[str, str], "SessionView"], dict[str, object]]


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
        "flag": parse_whole_number(form.get("flag", ""), THE_FLAG(), "flag"),
        "accept": accept,
        "penalty": parse_whole_number(penalty, THE_PENALTY(), "penalty") if accept else 0,
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

    unavailable: Callable[[SessionView, LoggedEvent, cards.Deck], frozenset[cards.Card]]
    replacement: Callable[[SessionView, LoggedEvent, MultiDict[str, str]], dict[str, object]]
    sized: Callable[[SessionView, LoggedEvent], bool] = lambda _view, _event: False
    # The action types that lay a card on the board, where it gets its "fix" link.
    laid: frozenset[str] = frozenset({"play"})


def card_swap(
    played_cards: Callable[[Any], frozenset[cards.Card]], laid: frozenset[str] = frozenset({"play"})
) -> CardCorrection:
    """The correction of a card played: any card not played yet this round, or the same one.

    ``played_cards`` is the game's own reading of the cards a picker greys out.
    """

    def unavailable(
        view: SessionView, event: LoggedEvent, deck: cards.Deck
    ) -> frozenset[cards.Card]:
        return played_cards(view.state) - {deck.parse(event.action["card"], "card")}

    def replacement(
        _view: SessionView, event: LoggedEvent, form: MultiDict[str, str]
    ) -> dict[str, object]:
        return {**event.action, "card": form.get("card", "")}

    return CardCorrection(unavailable, replacement, laid=laid)


# --- Reading a JSON body -------------------------------------------------------------

NOT_AN_OBJECT = phrase(
    "web.body.not-an-object",
    "The request body must be a JSON object (Content-Type: application/json).",
)()
TOO_DEEP = phrase(
    "web.body.too-deep", "The request body nests lists or objects too deeply to be read."
)
NUMBER_TOO_LONG = phrase("web.body.number-too-long", "The request body is JSON, but {problem}.")
UNKNOWN_FIELD = phrase(
    "web.body.unknown-field", "Unknown field {name}: this endpoint takes {expected}."
)


def json_body() -> dict[str, Any]:
    """The body's JSON object; a body that is none is refused with 400 saying why."""
    try:
        # Read through Flask's cache: the text check (inputs.sent_text) may have parsed it.
        body = request.get_json(silent=True)
    except RecursionError:
        abort(400, TOO_DEEP())
    if body is None and request.is_json:
        _refuse_a_number_too_long()
    if not isinstance(body, dict):
        abort(400, NOT_AN_OBJECT)
    return body


def _refuse_a_number_too_long() -> None:
    """(A JSON body Flask could not read.) An object whose number is too long to read is
    JSON still: say what is wrong rather than that it is no object."""
    try:
        json.loads(request.get_data(cache=True))
    except ValueError as error:
        if is_a_number_too_long(error):
            abort(400, NUMBER_TOO_LONG(problem=json_error_text(error)))


def only_fields(body: dict[str, Any], *allowed: str) -> None:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        expected = ", ".join(f"“{name}”" for name in allowed)
        raise IllegalAction(UNKNOWN_FIELD(name=repr(unknown[0]), expected=expected), unknown[0])


# --- A game's part of the API document -----------------------------------------------


def may_be_left_out(**field: Any) -> Any:
    """A field a body may leave out, with no default the document names (the endpoint
    reads its absence)."""
    return Field(default_factory=_absent, **field)


def _absent() -> None:
    return None


class ApiModel(BaseModel):
    """A body of the API: no property but those declared. A model's class name is its
    component's name in the document."""

    model_config = ConfigDict(extra="forbid")


# A card of a deck of coloured numbers, as the API reads it.
CARD_DESCRIPTION = (
    "A card as `<colour> <number>`, any case: `blue 13`, `white 3`. Its colour may also be "
    "the word of another language the app speaks, the card written as that language "
    "writes one: `bleu 13`, `青の13` are `blue 13`."
)
CARD_EXAMPLE = "blue 13"
Card = Annotated[str, Field(description=CARD_DESCRIPTION, examples=[CARD_EXAMPLE])]
# A card as an answer writes it: always in English words.
WrittenCard = Annotated[
    str,
    Field(
        description="A card as `<colour> <number>`, lower case: `blue 13`, `white 3`.",
        examples=[CARD_EXAMPLE],
    ),
]


@dataclass(frozen=True)
class FieldNote:
    """What an action's declaration cannot say of one of its properties: a description,
    examples, the game's own bound."""

    description: str | None = None
    examples: tuple[str, ...] = ()
    maximum: int | None = None


CARD = FieldNote(CARD_DESCRIPTION, (CARD_EXAMPLE,))

# The revoke action's description; ``penalty`` says who the penalty is counted against.
REVOKE = "Settle a revoke flag: accept ({penalty}) or dismiss."


@dataclass(frozen=True)
class ActionsDoc:
    """How the document describes a game's actions (their schema is generated from the
    game's declarations of them): the whole, each type, and notes by property name."""

    description: str
    types: Mapping[str, str]
    fields: Mapping[str, FieldNote] = field(default_factory=dict)


@dataclass(frozen=True)
class Refusal:
    """A 422 an endpoint answers: when, and an example of its error."""

    description: str
    message: str
    field: str | None


@dataclass(frozen=True)
class ApiOperation:
    """An endpoint a game adds to the document: a stateless POST (a trick judge or a
    calculator) taking ``request`` and answering ``answer``."""

    path: str
    operation_id: str
    summary: str
    description: str
    request: type[ApiModel]
    request_description: str
    request_example: Mapping[str, Any]
    answer: type[ApiModel]
    answer_description: str
    answer_example: Mapping[str, Any]
    refusal: Refusal


def judge_operation(
    path: str,
    operation_id: str,
    summary: str,
    request: type[ApiModel],
    answer: type[ApiModel],
    examples: tuple[Mapping[str, Any], Mapping[str, Any]],
) -> ApiOperation:
    """A trick judge's endpoint: a trick, in playing order, and the ruling on it."""
    request_example, answer_example = examples
    return ApiOperation(
        path=path,
        operation_id=operation_id,
        summary=summary,
        description="Stateless, no key. Bad input answers 422 naming the field.",
        request=request,
        request_description="The trick, in playing order.",
        request_example=request_example,
        answer=answer,
        answer_description="The ruling and the rule that decided it.",
        answer_example=answer_example,
        refusal=Refusal(
            "An unknown or repeated card, a bad trump or the wrong number of plays.",
            "“blue 9” is played twice (plays 0 and 2); there is only one.",
            "plays.2",
        ),
    )


class TrickWinner(ApiModel):
    winner: int = Field(ge=0, description="Index into plays.")
    card: WrittenCard
    rule: Literal["green-one", "trump", "lead-suit"]
    explanation: str


def trick_request(name: str, judge: TrickJudge) -> type[ApiModel]:
    """The model of a trick sent to a judge with trumps: ``name`` is its component."""
    trump = Field(
        description=(
            "The trump colour. Another language's word for one of these is read too "
            "(French `rouge`, Japanese `赤`: `red`)."
        )
    )
    plays = Field(
        min_length=min(judge.players),
        max_length=max(judge.players),
        description="The cards in playing order; index 0 is the lead.",
    )
    fields: dict[str, Any] = {
        "trump": (cast(Any, Literal)[judge.trumps], trump),
        "plays": (list[Card], plays),
    }
    return create_model(name, __base__=ApiModel, **fields)


@dataclass(frozen=True)
class ApiRoute:
    """An endpoint a game adds to the JSON API (a calculator that needs no session). Its
    view gives the answer as JSON data, the API writes it: each phrase in the asked
    language, with its code beside it for a client naming one (scorekeeper.web.api)."""

    rule: str
    endpoint: str
    view: Callable[[], dict[str, object]]


@dataclass(frozen=True)
class GameAdapter:
    """One game's web side; see the module's docstring."""

    read_form: FormReader
    # The module whose helpers the game's templates call as ``rules``.
    template_rules: ModuleType
    # How the document describes the game's actions (``<Name>Action``).
    api_actions: ActionsDoc
    # The description of the game's options (``<Name>Options``, generated from its specs).
    options_description: str | None = None
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
    # The form fields that enter an action again, as JSON to the fields its input form posts
    # (an empty mapping: the action is not entered again): the page an undo answers with
    # shows the undone tap filled in, to change one part of it (a die) and send it again.
    refill: Callable[[Mapping[str, Any]], Mapping[str, str]] | None = None
    api_routes: tuple[ApiRoute, ...] = ()
    # The document's part of its trick judge and its own endpoints.
    api_operations: tuple[ApiOperation, ...] = ()
    # The folder holding its templates (games/<slug>/...) when they are not in the app's
    # own templates folder: a game kept outside the app's package.
    template_folder: str | None = None
