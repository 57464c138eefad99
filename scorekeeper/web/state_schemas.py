"""JSON Schemas of every game's state, generated from the engines' State dataclasses.

The API sends a state as ``state_json.answer_plain(state)``: each dataclass field as a
property but the history ones, with the fields of the state's now record (see
games.history), cards as written ("blue 9", "10D"), sets as sorted lists, mapping keys as
text; and a state's history, paged, as its history fields. These schemas are made by
pydantic from the same type annotations, so they cannot drift from the engines: a field
added to a State is described the moment it exists.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import core_schema

from scorekeeper.games import GAMES, cards
from scorekeeper.games.history import history_names, now_class

Schema = dict[str, Any]

_COMPONENTS = "#/components/schemas/"
_CARD_TEXT: dict[type, Any] = {
    cards.Card: Annotated[
        str,
        Field(
            description="A card as `<colour> <number>`, lower case: `blue 9`, `white 3`.",
            pattern="^[a-z]+ [1-9][0-9]*$",
            examples=["blue 9"],
        ),
    ],
    cards.PlayingCard: Annotated[
        str,
        Field(
            description="A card of the 52-card deck as `<rank><suit>`: `10D`, `KH`, `AS`.",
            pattern="^(A|[2-9]|10|J|Q|K)[SHDC]$",
            examples=["10D"],
        ),
    ],
}
# Names a component after the class it describes; dropped before the document is served.
_CLASS_KEY = "x-dataclass"


class _StateSchema(GenerateJsonSchema):
    """Pydantic's schema of a dataclass, with the card classes written as the text they
    are sent as."""

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        cls = schema["cls"]
        if cls in _CARD_TEXT:
            described = TypeAdapter(_CARD_TEXT[cls]).json_schema()
        else:
            described = super().dataclass_schema(schema)
        return {**described, _CLASS_KEY: cls}


def state_type(slug: str) -> Any:
    """The type a game's ``first_state`` (and so ``start`` and every replay) returns."""
    return typing.get_type_hints(type(GAMES[slug]).first_state)["return"]


def component_name(cls: type) -> str:
    """``Yadokarick.Trick`` for ``scorekeeper.games.yadokarick.Trick``: one name per class,
    apart from the hand-written components (which have no dot)."""
    module = cls.__module__.removeprefix("scorekeeper.games.").split(".")[0]
    return "".join(word.title() for word in module.split("_")) + "." + cls.__qualname__


def answer_class(state_class: type) -> type:
    """A dataclass of the fields the API's answer gives a state of ``state_class``: its own
    but the history ones, then its now record's; named as the state class."""
    history = history_names(state_class)
    fields = [(n, t) for n, t in _field_types(state_class) if n not in history]
    now = now_class(state_class)
    return _named_like(state_class, "", fields + ([] if now is None else _field_types(now)))


def history_class(state_class: type) -> type:
    """A dataclass of the history fields of ``state_class``, named after it (``…History``)."""
    history = history_names(state_class)
    fields = [(n, t) for n, t in _field_types(state_class) if n in history]
    return _named_like(state_class, "History", fields)


def _field_types(cls: type) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls)]


def _named_like(state_class: type, suffix: str, fields: list[tuple[str, Any]]) -> type:
    made = dataclasses.make_dataclass(state_class.__name__ + suffix, fields, frozen=True)
    made.__module__ = state_class.__module__
    made.__qualname__ = state_class.__qualname__ + suffix
    made.__doc__ = (
        state_class.__doc__
        if not suffix
        else f"The history fields of `{component_name(state_class)}`, which a session's state "
        "leaves out: `GET /sessions/{session_id}/rounds` pages them."
    )
    return made


def _each_class(slug: str, made: Any) -> Any:
    """``made`` of each state class of a game (one, or the union's members), as one type."""
    classes = typing.get_args(state_type(slug)) or (state_type(slug),)
    return Union[tuple(made(cls) for cls in classes)]  # noqa: UP007  # built at run time


@functools.cache
def state_schemas() -> tuple[dict[str, Schema], dict[str, Schema], dict[str, Schema]]:
    """Each game's state answer's schema and its history's (by slug), and the components
    they refer to (made once: callers must not change them)."""
    adapters: list[tuple[tuple[str, str], JsonSchemaMode, TypeAdapter[Any]]] = [
        adapter
        for slug in GAMES
        for adapter in (
            ((slug, "state"), "serialization", TypeAdapter(_each_class(slug, answer_class))),
            ((slug, "history"), "serialization", TypeAdapter(_each_class(slug, history_class))),
        )
    ]
    by_key, definitions = TypeAdapter.json_schemas(
        adapters, ref_template=_COMPONENTS + "{model}", schema_generator=_StateSchema
    )
    generated = definitions.get("$defs", {})
    names = {
        _COMPONENTS + key: component_name(schema[_CLASS_KEY]) for key, schema in generated.items()
    }
    if len(set(names.values())) != len(names):
        raise ValueError(f"two state classes share a component name: {sorted(names.values())}")
    components = {
        names[_COMPONENTS + key]: _closed(schema, names) for key, schema in generated.items()
    }
    states, histories = (
        {slug: _closed(by_key[((slug, kind), "serialization")], names) for slug in GAMES}
        for kind in ("state", "history")
    )
    return states, histories, components


def _closed(schema: Any, names: dict[str, str]) -> Any:
    """The schema as ``plain`` fills it: every field present (defaults are only the engine's
    business), no other property, references renamed, pydantic's titles dropped."""
    if isinstance(schema, list):
        return [_closed(item, names) for item in schema]
    if not isinstance(schema, dict):
        return schema
    closed = {
        key: _closed(value, names)
        for key, value in schema.items()
        if key not in ("title", "default", _CLASS_KEY)
    }
    if "$ref" in closed:
        closed["$ref"] = _COMPONENTS + names[closed["$ref"]]
    if "properties" in schema:
        closed["properties"] = {
            name: _closed(value, names) for name, value in schema["properties"].items()
        }
        closed["required"] = list(schema["properties"])
        closed["additionalProperties"] = False
    return closed
