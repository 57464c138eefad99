"""The building blocks of the API document, shared by the document and each game's part of it.

A game's web adapter describes its own schemas (its options, its actions, its
calculators) and its own endpoints with these; ``openapi`` puts every game's
parts together with the shared ones.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import OptionSpec
from scorekeeper.games.engine import Game

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


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


def ok(description: str, schema_name: str, example: Any = None) -> Schema:
    return {"description": description, "content": json_content(ref(schema_name), example)}


def body(description: str, schema_name: str, example: Any = None) -> Schema:
    return {
        "required": True,
        "description": description,
        "content": json_content(ref(schema_name), example),
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


def schema_name(slug: str, kind: str) -> str:
    """``YokaiSeptetOptions`` for ("yokai-septet", "Options")."""
    return "".join(word.title() for word in slug.split("-")) + kind


CARD = {
    "type": "string",
    "description": "A card as `<colour> <number>`, any case: `blue 13`, `white 3`.",
    "examples": ["blue 13"],
}


def trick_request(trumps: list[str], min_plays: int, max_plays: int) -> Schema:
    return {
        "type": "object",
        "required": ["trump", "plays"],
        "additionalProperties": False,
        "properties": {
            "trump": {"type": "string", "enum": trumps},
            "plays": {
                "type": "array",
                "minItems": min_plays,
                "maxItems": max_plays,
                "items": CARD,
                "description": "The cards in playing order; index 0 is the lead.",
            },
        },
    }


def judge_path(
    operation: str, summary: str, request: str, response: str, example: Any, answer: Any
) -> Schema:
    return {
        "post": {
            "operationId": operation,
            "tags": ["judge"],
            "summary": summary,
            "description": "Stateless, no key. Bad input answers 422 naming the field.",
            "requestBody": body("The trick, in playing order.", request, example),
            "responses": {
                "200": ok("The ruling and the rule that decided it.", response, answer),
                **standard_errors(400, 413),
                "422": error_response(
                    "An unknown or repeated card, a bad trump or the wrong number of plays.",
                    "“blue 9” is played twice (plays 0 and 2); there is only one.",
                    "plays.2",
                ),
            },
        }
    }


def game_actions(
    name: str,
    game: Game,
    description: str,
    types: dict[str, str],
    fields: dict[str, Schema] | None = None,
) -> Schema:
    """The schemas of a game's actions, generated from the game's declarations of them.

    ``<name>Action`` is one of the game's action types, each described by ``types``; a
    nested declaration (an entry of a list) is its own component, ``<name><Declaration>``.
    ``fields`` adds what a declaration cannot say (descriptions, examples, the game's
    own bounds) to every property of that name; the type stays the declaration's.
    """
    actions = game.actions
    generated = actions.json_schema(ref_template=f"#/components/schemas/{name}{{model}}")
    nested = generated["$defs"]
    branches = [nested.pop(declaration.__name__) for declaration in actions.declarations]
    for kind, branch in zip(actions.types, branches, strict=True):
        branch["description"] = types[kind]
    for schema in [*branches, *nested.values()]:
        properties = schema.get("properties", {})
        for field, extra in (fields or {}).items():
            if field in properties:
                added = {key: value for key, value in extra.items() if key != "type"}
                properties[field] = {**properties[field], **added}
    return {
        f"{name}Action": {"description": description, "oneOf": branches},
        **{f"{name}{declaration}": schema for declaration, schema in nested.items()},
    }


def game_options(game: Game, description: str) -> Schema:
    """A game's options schema, from the same specs (default, bounds, choices) the app checks."""
    return {
        "type": "object",
        "description": description,
        "additionalProperties": False,
        "properties": {spec.name: option_schema(spec) for spec in game.options},
    }


def option_spec(game: Game, name: str) -> OptionSpec:
    return next(spec for spec in game.options if spec.name == name)


def option_schema(spec: OptionSpec) -> Schema:
    if spec.kind == "choice":
        values = [value for value, _ in spec.choices]
        return {"type": "string", "enum": values, "default": spec.default, "description": spec.help}
    assert spec.kind in ("int", "seat"), f"{spec.name}: a {spec.kind} option is described apart"
    seat = spec.kind == "seat"
    bounds = {
        "minimum": 0 if seat else spec.minimum,
        "maximum": spec.maximum,
        "multipleOf": spec.step,
    }
    return {
        "type": "integer",
        **{key: value for key, value in bounds.items() if value is not None},
        "default": spec.default,
        "description": spec.help + (" A seat index, counted from 0." if seat else ""),
    }


REVOKE = "Settle a revoke flag: accept ({penalty}) or dismiss."
