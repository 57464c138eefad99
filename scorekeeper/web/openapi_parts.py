"""The building blocks of the API document: schemas generated from pydantic declarations,
and the small typed helpers that put them into operations and responses.

Every component schema comes from a pydantic model (or a TypeAdapter): ``components``
generates a set of models at once; ``game_actions`` and ``options_model`` make a game's
schemas from its own declarations (its action declarations, its ``OptionSpec``s).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from pydantic.config import JsonDict
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue, models_json_schema
from pydantic_core import core_schema

from scorekeeper.games.base import TEXT_OPTION_MAX_LENGTH, OptionSpec
from scorekeeper.games.engine import Game
from scorekeeper.games.web_interface import ActionsDoc, ApiModel, ApiOperation, FieldNote
from scorekeeper.games.words import Phrase, Text

Schema = dict[str, Any]
COMPONENTS = "#/components/schemas/"


def ref(name: str | type[BaseModel]) -> Schema:
    return {"$ref": COMPONENTS + (name if isinstance(name, str) else name.__name__)}


def schema_name(slug: str, kind: str) -> str:
    """``YokaiSeptetOptions`` for ("yokai-septet", "Options")."""
    return "".join(word.title() for word in slug.split("-")) + kind


# --- Schemas from pydantic ---------------------------------------------------------


class DocumentSchema(GenerateJsonSchema):
    """Pydantic's schemas without its titles (the document names its components itself),
    and with a union of plain types written as a list of types (``"type": ["string",
    "null"]``) as JSON Schema lets it be said."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        generated = super().model_schema(schema)
        generated.pop("title", None)
        if "description" in generated:
            # A docstring's line breaks are the source's, not the text's.
            generated["description"] = " ".join(generated["description"].split("\n"))
        return generated

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        inner = self.generate_inner(schema["schema"])
        if isinstance(inner.get("type"), str):
            return {**inner, "type": [inner["type"], "null"]}
        return super().nullable_schema(schema)

    def union_schema(self, schema: core_schema.UnionSchema) -> JsonSchemaValue:
        generated = super().union_schema(schema)
        branches = generated.get("anyOf", [])
        if branches and all(list(branch) == ["type"] for branch in branches):
            return {"type": [branch["type"] for branch in branches]}
        return generated


def untitled(schema: Any) -> Any:
    """The schema without pydantic's titles, made by pydantic's own generator."""
    if isinstance(schema, list):
        return [untitled(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bare = {key: untitled(value) for key, value in schema.items() if key != "title"}
    if "properties" in schema:
        # A property's name is no title, whatever it is called.
        bare["properties"] = {name: untitled(value) for name, value in schema["properties"].items()}
    return bare


def _inlined(schema: Any, nested: Mapping[str, Schema]) -> Any:
    """The schema with every reference to a ``nested`` schema replaced by that schema
    (beside the reference's own keywords, a description say)."""
    if isinstance(schema, list):
        return [_inlined(item, nested) for item in schema]
    if not isinstance(schema, dict):
        return schema
    target = schema.get("$ref", "").removeprefix(COMPONENTS)
    if target in nested:
        beside = {key: value for key, value in schema.items() if key != "$ref"}
        return _inlined({**nested[target], **beside}, nested)
    return {key: _inlined(value, nested) for key, value in schema.items()}


def components(models: Iterable[type[BaseModel]]) -> dict[str, Schema]:
    """The component schema of each model, under its class name: a model it nests that
    is not one of them is written out where it is used."""
    declared = list(models)
    _, generated = models_json_schema(
        [(model, "validation") for model in declared],
        ref_template=COMPONENTS + "{model}",
        schema_generator=DocumentSchema,
    )
    schemas = generated.get("$defs", {})
    names = {model.__name__ for model in declared}
    nested = {name: schema for name, schema in schemas.items() if name not in names}
    return {name: _inlined(schemas[name], nested) for name in names}


def schema_of(kind: Any) -> Schema:
    """The schema of a type that is no component (a parameter's, a header's)."""
    return TypeAdapter(kind).json_schema(schema_generator=DocumentSchema)


def without_type(schema: dict[str, Any]) -> None:
    """(A field's ``json_schema_extra``.) A constant or a set of values says it all."""
    del schema["type"]


def refs_to(names: Iterable[str], **field: Any) -> Any:
    """A field whose value is one of the named components (no pydantic models: a game's
    actions)."""
    return Field(json_schema_extra={"anyOf": [ref(name) for name in names]}, **field)


# --- What the app says: its phrases' codes ------------------------------------------

# A mapping or sequence at the top of a module is looked into (the colours' phrases, by
# colour) if it is no larger than this: not a module's cache.
_LOOKED_INTO = 256
PACKAGE_FOLDER = Path(__file__).resolve().parents[1]


def declared_phrases() -> dict[str, Phrase]:
    """Every phrase the app can say, by code, sorted: each declared once at the top of a
    module of the package (or in a mapping or a sequence there; or said there once, a
    Text), every module walked (found by the package's folder: importing the package by
    name here would make it import itself back)."""
    phrases: dict[str, Phrase] = {}
    for found in pkgutil.walk_packages([str(PACKAGE_FOLDER)], "scorekeeper."):
        module = importlib.import_module(found.name)
        for value in list(vars(module).values()):
            for candidate in (value, *_held(value)):
                if isinstance(candidate, Text):
                    candidate = candidate.phrase  # said once where it is declared
                if isinstance(candidate, Phrase):
                    known = phrases.setdefault(candidate.code, candidate)
                    if known != candidate:
                        raise ValueError(f"{candidate.code} names two phrases: a code is one")
    return dict(sorted(phrases.items()))


def _held(value: object) -> Iterable[object]:
    if isinstance(value, Mapping) and len(value) <= _LOOKED_INTO:
        return list(value.values())
    if isinstance(value, tuple | list) and len(value) <= _LOOKED_INTO:
        return list(value)
    return ()


def said_beside(schema: Any, said: Schema) -> None:
    """(A game's answer's schema, changed in place.) What the API layer adds beside each
    sentence an answer carries (``api.worded``) for a client that names a language:
    ``explanation_code`` beside an ``explanation`` (null for one that is no phrase yet);
    ``label`` and ``label_code`` beside a ``name``, which keeps its English words.
    ``said``: the schema of a code and its values."""
    if isinstance(schema, list):
        for item in schema:
            said_beside(item, said)
        return
    if not isinstance(schema, dict):
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name in list(properties):
            said_beside(properties[name], said)
        if "explanation" in properties:
            properties["explanation_code"] = {
                "anyOf": [said, {"type": "null"}],
                "description": (
                    "Only for a request that names a language (`Accept-Language`, or the "
                    "pages' language cookie): the explanation's code and values; null for one "
                    "said in English words alone (no phrase yet)."
                ),
            }
        if "name" in properties:
            properties["label"] = {
                "type": "string",
                "description": (
                    "Only for a request that names a language: the name in that language "
                    "(`name` stays in English)."
                ),
            }
            properties["label_code"] = {
                **said,
                "description": "Only for a request that names a language: the label's code "
                "and values.",
            }
    for key, value in schema.items():
        if key != "properties":
            said_beside(value, said)


# --- A game's own schemas ------------------------------------------------------------


def note_schema(note: FieldNote) -> Schema:
    """The keywords a note adds to a property's generated schema."""
    added: Schema = {}
    if note.description is not None:
        added["description"] = note.description
    if note.examples:
        added["examples"] = list(note.examples)
    if note.maximum is not None:
        added["maximum"] = note.maximum
    return added


def game_actions(name: str, game: Game, described: ActionsDoc) -> dict[str, Schema]:
    """The schemas of a game's actions, generated from the game's declarations of them.

    ``<name>Action`` is one of the game's action types, each described by the adapter;
    a nested declaration (an entry of a list) is its own component, ``<name><Declaration>``.
    The adapter's notes add what a declaration cannot say (descriptions, examples, the
    game's own bounds) to every property of that name.
    """
    actions = game.actions
    generated = actions.json_schema(ref_template=f"{COMPONENTS}{name}{{model}}")
    nested = generated["$defs"]
    branches = [nested.pop(declaration.__name__) for declaration in actions.declarations]
    for kind, branch in zip(actions.types, branches, strict=True):
        branch["description"] = described.types[kind]
    for schema in [*branches, *nested.values()]:
        properties = schema.get("properties", {})
        for field, note in described.fields.items():
            if field in properties:
                properties[field] |= note_schema(note)
    return {
        f"{name}Action": {"description": described.description, "oneOf": branches},
        **{f"{name}{declaration}": schema for declaration, schema in nested.items()},
    }


# What the document adds to an option's help, by its kind.
SEAT_NOTE = " A seat index, counted from 0."
MULTI_NOTE = (
    " Sent as a list (a comma-separated string is read too), it always comes back as a list."
)


def values_of(spec: OptionSpec) -> Any:
    """The type of one of an option's choices."""
    return cast(Any, Literal)[tuple(value for value, _ in spec.choices)]


def option_field(spec: OptionSpec) -> tuple[Any, Any]:
    """An option as a pydantic field: its type, bounds, default and help from its spec."""
    help_text = spec.help or None
    if spec.kind == "choice":
        return values_of(spec), Field(default=spec.default, description=help_text)
    if spec.kind == "multi":
        picked = cast(Any, list)[values_of(spec)]
        return str | picked, Field(
            default=list(cast(tuple[str, ...], spec.default)), description=spec.help + MULTI_NOTE
        )
    if spec.kind == "text":
        length = spec.maximum or TEXT_OPTION_MAX_LENGTH
        return str, Field(default=spec.default, max_length=length, description=help_text)
    if spec.kind == "seat":
        bounds = Field(ge=0, le=spec.maximum, description=spec.help + SEAT_NOTE)
    else:
        bounds = Field(
            ge=spec.minimum, le=spec.maximum, multiple_of=spec.step, description=help_text
        )
    return Annotated[int, bounds], spec.default


def options_model(slug: str, game: Game, description: str | None) -> type[BaseModel]:
    """The model of a game's options (``<Game>Options``), from the same specs (default,
    bounds, choices) the app checks them with."""
    fields: dict[str, Any] = {spec.name: option_field(spec) for spec in game.options}
    described: JsonDict | None = {"description": description} if description else None
    config = ConfigDict(extra="forbid", json_schema_extra=described)
    return create_model(schema_name(slug, "Options"), __config__=config, **fields)


# --- Operations ----------------------------------------------------------------------


def json_content(schema: Schema, example: Any = None) -> Schema:
    """A JSON content map with a schema and, optionally, one example."""
    media: Schema = {"schema": schema}
    if example is not None:
        media["example"] = example
    return {"application/json": media}


def error_example(message: str, field: str | None) -> Schema:
    return {"error": message, "field": field}


def error_response(description: str, message: str, field: str | None = None) -> Schema:
    """A response whose body is the shared Error object."""
    return {
        "description": description,
        "content": json_content(ref("Error"), error_example(message, field)),
    }


def file_too_large(what: str, limit: str, example_size: str) -> Schema:
    """The 413 of an import: ``what`` ("a session file") may be at most ``limit``."""
    return error_response(
        f"The file is larger than {what} may be: at most {limit}.",
        f"The file is {example_size}; {what} may be at most {limit}.",
        "body",
    )


def ok(description: str, schema: str | type[BaseModel], example: Any = None) -> Schema:
    return {"description": description, "content": json_content(ref(schema), example)}


def body(description: str, schema: str | type[BaseModel], example: Any = None) -> Schema:
    return {
        "required": True,
        "description": description,
        "content": json_content(ref(schema), example),
    }


def standard_errors(*codes: int) -> Schema:
    """References to the shared error responses, keyed by status code."""
    names = {
        400: "BadRequest",
        401: "Unauthorized",
        403: "Forbidden",
        404: "NotFound",
        409: "StaleVersion",
        413: "TooLarge",
    }
    return {str(code): {"$ref": f"#/components/responses/{names[code]}"} for code in codes}


def game_operation(operation: ApiOperation) -> Schema:
    """The path item of an endpoint a game adds: a stateless POST in the judge's tag."""
    refusal = operation.refusal
    return {
        "post": {
            "operationId": operation.operation_id,
            "tags": ["judge"],
            "summary": operation.summary,
            "description": operation.description,
            "requestBody": body(
                operation.request_description, operation.request, operation.request_example
            ),
            "responses": {
                "200": ok(operation.answer_description, operation.answer, operation.answer_example),
                **standard_errors(400, 413),
                "422": error_response(refusal.description, refusal.message, refusal.field),
            },
        }
    }


def operation_models(operations: Iterable[ApiOperation]) -> list[type[ApiModel]]:
    """The models the operations take and answer, each once."""
    found: dict[str, type[ApiModel]] = {}
    for operation in operations:
        for model in (operation.request, operation.answer):
            found.setdefault(model.__name__, model)
    return list(found.values())
