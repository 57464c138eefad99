"""Each game's actions, declared once: parsing, JSON and the JSON Schema come from one place.

A game declares its actions as frozen dataclasses, each with a ``type`` tag
first (``type: Literal["roll"] = field(default="roll", kw_only=True, repr=False)``:
keyword-only, so an action is still built from its own fields in order, as
``Roll((1, 5))``) and fields typed precisely enough to describe them. A field's
validator is the engine's own parser, so a refusal is the engine's
``IllegalAction`` with its sentence and field. ``ActionSet`` puts the
declarations into one pydantic discriminated union and turns pydantic's own
complaints (no such type, a field missing or unknown, not an object) into the
sentences players have always read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from types import UnionType
from typing import Annotated, Any, Generic, TypeVar, cast, get_args, get_type_hints

from pydantic import (
    ConfigDict,
    Discriminator,
    PlainSerializer,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
)
from pydantic_core import ErrorDetails

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import Card, PlayingCard
from scorekeeper.games.words import Text, all_of, one_of, phrase

A = TypeVar("A")

# An action's fields are exactly its declared ones: any other key is refused.
ACTION_CONFIG = ConfigDict(extra="forbid")

# A card is written and stored as text ("blue 9", "10D").
AS_TEXT = PlainSerializer(str, return_type=str)
CARD_TEXT = WithJsonSchema({"type": "string"})
CardText = Annotated[Card, AS_TEXT, CARD_TEXT]
PlayingCardText = Annotated[PlayingCard, AS_TEXT, CARD_TEXT]

# What an action's parsing refuses, whatever the game.
NOT_AN_OBJECT = phrase("action.not-an-object", "An action is an object with a type.")
NO_TYPE = phrase("action.no-type", "Unknown action (no type): the type is {types}.")
UNKNOWN_TYPE = phrase("action.unknown-type", "Unknown action (type {given}): the type is {types}.")
NO_SUCH_FIELD = phrase("action.no-such-field", "A {kind} action has no field {fields}.")
ENTER = phrase("action.enter", "Enter {what}.")
# A field declared without an engine parser: pydantic's own words, after the field's name.
FIELD_PROBLEM = phrase("action.field-problem", "{field}: {problem}.")

# Pydantic's names for a key the declaration does not have.
_UNKNOWN_KEY = frozenset({"extra_forbidden", "unexpected_keyword_argument"})


@dataclass(frozen=True)
class Ask:
    """What a player is asked for when a required field is missing: "Enter {what}."."""

    what: str | Text


def game_fact(info: ValidationInfo, name: str) -> Any:
    """A fact of the game parsing the action (its deck, its highest penalty).

    Declarations shared by two games (a card played, a revoke settled) read
    them from the validation context their game's ActionSet passes.
    """
    context = info.context
    if not isinstance(context, Mapping) or name not in context:
        raise LookupError(f"parse this action through its game's ActionSet (no {name!r} given)")
    return context[name]


class ActionSet(Generic[A]):
    """A game's actions: one discriminated union of its declarations, tagged by ``type``.

    ``context`` holds the game's facts the shared declarations need (see game_fact).
    """

    def __init__(self, union: UnionType, context: Mapping[str, object] | None = None) -> None:
        self.declarations: tuple[type, ...] = get_args(union)
        self.types: tuple[str, ...] = tuple(_tag_of(each) for each in self.declarations)
        self._context = dict(context or {})
        self._asks = {
            kind: _asks_of(each) for kind, each in zip(self.types, self.declarations, strict=True)
        }
        tagged: Any = Annotated[union, Discriminator("type")]
        self._adapter: TypeAdapter[A] = TypeAdapter(tagged)

    def parse(self, data: object) -> A:
        """The action ``data`` (JSON or form input) says, or IllegalAction naming the field."""
        try:
            # Any mapping will do (pydantic takes a dataclass's fields from a dict only).
            given = dict(data) if isinstance(data, Mapping) else data
            return self._adapter.validate_python(given, context=self._context)
        except ValidationError as error:
            raise self._refusal(data, error.errors(include_url=False)) from None

    def to_json(self, action: A) -> dict[str, object]:
        """The action as stored and sent: ``type`` first; a field left empty (None) is left out."""
        data = self._adapter.dump_python(action, mode="json", exclude_none=True)
        return cast(dict[str, object], data)

    def json_schema(self, ref_template: str) -> dict[str, Any]:
        """The JSON Schema of the input this set accepts; nested declarations go to ``$defs``.

        Each action's ``type`` comes first and is required (it is the tag), and the tag is
        its title.
        """
        schema = self._adapter.json_schema(ref_template=ref_template, mode="validation")
        for kind, declaration in zip(self.types, self.declarations, strict=True):
            branch = schema["$defs"][declaration.__name__]
            branch["title"] = kind
            declared = {key: value for key, value in branch["properties"].items() if key != "type"}
            branch["properties"] = {"type": {"const": kind}, **declared}
            branch["required"] = ["type", *branch.get("required", ())]
        return schema

    def _refusal(self, data: object, errors: Sequence[ErrorDetails]) -> IllegalAction:
        first = errors[0]
        if not isinstance(data, Mapping):
            return IllegalAction(NOT_AN_OBJECT(), "type")
        if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
            kind = data.get("type")
            types = one_of(self.types)
            if kind is None:
                return IllegalAction(NO_TYPE(types=types), "type")
            # At most 40 characters of "type ..." as given.
            return IllegalAction(UNKNOWN_TYPE(given=repr(kind)[:35], types=types), "type")
        kind = str(first["loc"][0])
        unknown = sorted(
            str(error["loc"][1])
            for error in errors
            if error["type"] in _UNKNOWN_KEY and len(error["loc"]) == 2
        )
        if unknown:
            listed = all_of(repr(key)[:30] for key in unknown)
            return IllegalAction(NO_SUCH_FIELD(kind=kind, fields=listed), unknown[0])
        where = ".".join(str(part) for part in first["loc"][1:])
        cause = first.get("ctx", {}).get("error")
        if isinstance(cause, IllegalAction):
            return cause
        if first["type"] == "missing" and where in self._asks[kind]:
            return IllegalAction(ENTER(what=self._asks[kind][where]), where)
        # A field declared without an engine parser: pydantic's own words.
        return IllegalAction(FIELD_PROBLEM(field=where, problem=first["msg"]), where)


def _tag_of(declaration: type) -> str:
    if not is_dataclass(declaration):
        raise TypeError(f"{declaration!r}: an action is declared as a dataclass")
    tags = [each.default for each in fields(declaration) if each.name == "type"]
    if not tags or not isinstance(tags[0], str):
        raise TypeError(f"{declaration.__name__}: an action's first field is its type")
    return tags[0]


def _asks_of(declaration: type) -> dict[str, str | Text]:
    """What each required field of ``declaration`` asks for (its Ask)."""
    hints = get_type_hints(declaration, include_extras=True)
    return {
        name: ask.what
        for name, hint in hints.items()
        for ask in getattr(hint, "__metadata__", ())
        if isinstance(ask, Ask)
    }
