"""Every answer of the JSON API checked against the OpenAPI document the app serves.

``CheckedClient`` is the test client of every app the suite makes: each response to a
path under /api/v1 must be documented (path, method, status code or ``default``, media
type) and a JSON body must validate (JSON Schema 2020-12) against the documented schema,
whose objects are closed: a property the document does not describe fails the test.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from werkzeug.test import TestResponse

API = "/api/v1"
DOCUMENT_URI = "urn:tabletop-scorekeeper:openapi"


def _pointer_part(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _describe(error: ValidationError) -> str:
    """Where and why; for a oneOf/anyOf, why the branch that came closest fails."""
    if not error.context:
        return f"{error.json_path}: {error.message}"
    branches: dict[Any, list[ValidationError]] = {}
    for inner in error.context:
        branches.setdefault(inner.relative_schema_path[0], []).append(inner)
    closest = min(branches.values(), key=len)
    return "; ".join(_describe(inner) for inner in closest)


class Unchecked(Exception):
    """A keyword ``conforms`` does not check: jsonschema judges the answer instead."""


# Keywords that only annotate: no answer fails them (no format checker is on).
ANNOTATIONS = frozenset(
    ("description", "title", "default", "examples", "readOnly", "writeOnly", "format")
)
# Keywords whose value is JSON, not a schema: a "$ref" in it is no reference.
VALUES = frozenset(("const", "enum", "default", "examples"))
TYPES: dict[str, Callable[[Any], bool]] = {
    "null": lambda value: value is None,
    "boolean": lambda value: isinstance(value, bool),
    "string": lambda value: isinstance(value, str),
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
    "number": lambda value: isinstance(value, int | float) and not isinstance(value, bool),
    "integer": lambda value: (
        (isinstance(value, int) and not isinstance(value, bool))
        or (isinstance(value, float) and value.is_integer())
    ),
}


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON Schema compares values: true is not 1, 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a)
    return bool(a == b)


def conforms(schema: Any, value: Any) -> bool:
    """Whether ``value`` is valid against ``schema`` (Draft 2020-12, references inlined),
    checking the keywords the document uses the way jsonschema does; Unchecked for any
    other. jsonschema makes a validator object for each schema it descends into: this is
    many times quicker on the answers that pass, and jsonschema still says why one fails."""
    if schema is True or schema == {}:
        return True
    if schema is False:
        return False
    for keyword, expected in schema.items():
        if keyword in ANNOTATIONS:
            continue
        check = _KEYWORDS.get(keyword)
        if check is None:
            raise Unchecked(keyword)
        if not check(schema, expected, value):
            return False
    return True


def _properties(schema: Any, properties: Any, value: Any) -> bool:
    if not isinstance(value, dict):
        return True
    return all(conforms(properties[key], value[key]) for key in value if key in properties)


def _additional(schema: Any, additional: Any, value: Any) -> bool:
    if not isinstance(value, dict):
        return True
    named = schema.get("properties", {})
    return all(conforms(additional, value[key]) for key in value if key not in named)


def _items(schema: Any, items: Any, value: Any) -> bool:
    if not isinstance(value, list):
        return True
    return all(conforms(items, item) for item in value[len(schema.get("prefixItems", ())) :])


def _prefix_items(schema: Any, prefix: Any, value: Any) -> bool:
    if not isinstance(value, list):
        return True
    return all(conforms(first, item) for first, item in zip(prefix, value, strict=False))


def _numeric(test: Callable[[Any, Any], bool]) -> Callable[[Any, Any, Any], bool]:
    return lambda _schema, bound, value: not TYPES["number"](value) or test(value, bound)


def _sized(kind: type, test: Callable[[int, Any], bool]) -> Callable[[Any, Any, Any], bool]:
    return lambda _schema, bound, value: not isinstance(value, kind) or test(len(value), bound)


def _multiple_of(schema: Any, factor: Any, value: Any) -> bool:
    if not TYPES["number"](value):
        return True
    if not isinstance(factor, int) or not isinstance(value, int):
        raise Unchecked("multipleOf")  # jsonschema's float arithmetic: its to judge
    return value % factor == 0


def _property_names(schema: Any, names: Any, value: Any) -> bool:
    return not isinstance(value, dict) or all(conforms(names, key) for key in value)


def _type(schema: Any, named: Any, value: Any) -> bool:
    return any(TYPES[name](value) for name in ([named] if isinstance(named, str) else named))


def _unique(schema: Any, unique: Any, value: Any) -> bool:
    if not unique or not isinstance(value, list):
        return True
    return not any(_same(a, b) for index, a in enumerate(value) for b in value[index + 1 :])


_KEYWORDS: dict[str, Callable[[Any, Any, Any], bool]] = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": lambda _schema, names, value: (
        not isinstance(value, dict) or all(name in value for name in names)
    ),
    "items": _items,
    "prefixItems": _prefix_items,
    "const": lambda _schema, constant, value: _same(value, constant),
    "enum": lambda _schema, listed, value: any(_same(value, item) for item in listed),
    "anyOf": lambda _schema, branches, value: any(conforms(b, value) for b in branches),
    "allOf": lambda _schema, branches, value: all(conforms(b, value) for b in branches),
    "oneOf": lambda _schema, branches, value: sum(conforms(b, value) for b in branches) == 1,
    "minimum": _numeric(lambda value, bound: value >= bound),
    "maximum": _numeric(lambda value, bound: value <= bound),
    "exclusiveMinimum": _numeric(lambda value, bound: value > bound),
    "minLength": _sized(str, lambda length, bound: length >= bound),
    "maxLength": _sized(str, lambda length, bound: length <= bound),
    "minItems": _sized(list, lambda length, bound: length >= bound),
    "maxItems": _sized(list, lambda length, bound: length <= bound),
    "pattern": lambda _schema, pattern, value: (
        not isinstance(value, str) or re.search(pattern, value) is not None
    ),
    "uniqueItems": _unique,
    "multipleOf": _multiple_of,
    "propertyNames": _property_names,
}


class ApiDocument:
    """The served OpenAPI document, ready to check responses (one validator per schema,
    its references inlined)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.registry: Registry[Any] = Registry().with_resource(
            DOCUMENT_URI, Resource(contents=document, specification=DRAFT202012)
        )
        self.resolver = self.registry.resolver(DOCUMENT_URI)
        self.templates = [
            (re.compile("^" + re.sub(r"\\\{[^{}]+\\\}", "[^/]+", re.escape(path)) + "$"), path)
            for path in document["paths"]
        ]
        self.validators: dict[str, Draft202012Validator] = {}
        self._inlined: dict[str, Any] = {}

    def lookup(self, pointer: str) -> Any:
        return self.resolver.lookup(DOCUMENT_URI + pointer).contents

    def inlined(self, pointer: str) -> Any:
        """The schema at ``pointer`` with each ``$ref`` below it replaced by the schema it
        names (the document's references form no cycle). A validator resolving a reference
        looks it up and makes a validator of its own each time it meets one: most of the
        time a check took, on answers that nest a schema in a schema."""
        if pointer not in self._inlined:
            self._inlined[pointer] = self._inline(self.lookup(pointer))
        return self._inlined[pointer]

    def _inline(self, schema: Any) -> Any:
        if isinstance(schema, list):
            return [self._inline(item) for item in schema]
        if not isinstance(schema, dict):
            return schema
        if "$ref" not in schema:
            return {
                key: value if key in VALUES else self._inline(value)
                for key, value in schema.items()
            }
        reference, beside = schema["$ref"], {k: v for k, v in schema.items() if k != "$ref"}
        named = self.inlined(reference)
        # A reference beside other keywords applies with them, as allOf would.
        return {"allOf": [named, self._inline(beside)]} if beside else named

    def problems(
        self, method: str, path: str, status: int, mimetype: str | None, body: Any
    ) -> list[str]:
        """Why this answer is not the one the document describes; empty when it is."""
        paths = self.document["paths"]
        # As the app routes: "//" is "/", and a path of its own ("/sessions/import") is no
        # id of the path beside it ("/sessions/{session_id}").
        routed = re.sub("/+", "/", path)
        if status == 308 and routed != path:
            return []  # the router's redirect to the squeezed path is no answer of the API
        matching = [t for pattern, t in self.templates if pattern.match(routed)]
        matching = [t for t in matching if "{" not in t] or matching
        if method == "OPTIONS" and status == 200 and matching:
            # The router's answer, as the document's description says: its methods in Allow.
            return [] if not body else [f"OPTIONS {path} answered a body: {body!r:.80}"]
        template = next((t for t in matching if method.lower() in paths[t]), None)
        if template is None:
            # No document can list the paths and methods it lacks. Its description says they
            # answer 404 and 405 as its Error, and so does a crash (500) wherever it happens.
            unrouted = 405 if matching else 404
            if status not in (unrouted, 500) or mimetype != "application/json":
                return [f"{method} {path} is not documented, yet answered {status} {mimetype}"]
            return self.invalid(f"{method} {path} {status}", "#/components/schemas/Error", body)
        operation = paths[template][method.lower()]
        codes = operation["responses"]
        code = next(
            (c for c in (str(status), f"{str(status)[0]}XX", "default") if c in codes), None
        )
        if code is None:
            return [f"{method} {template} documents no {status} answer"]
        pointer = (
            f"#/paths/{_pointer_part(template)}/{method.lower()}/responses/{code}"
            if "$ref" not in codes[code]
            else codes[code]["$ref"]
        )
        content = self.lookup(pointer).get("content", {})
        if not mimetype:
            # An answer with no body (a 304) is right where the document lists no content.
            if content:
                return [f"{method} {template} {status} has no body, yet lists {sorted(content)}"]
            return []
        if mimetype not in content:
            return [f"{method} {template} {status}: {mimetype} is not among {sorted(content)}"]
        if mimetype != "application/json":
            return []
        schema = f"{pointer}/content/{_pointer_part(mimetype)}/schema"
        return self.invalid(f"{method} {template} {status}", schema, body)

    def invalid(self, answer: str, schema: str, body: Any) -> list[str]:
        """What in ``body`` the schema at the pointer ``schema`` does not describe."""
        validator = self.validators.get(schema)
        if validator is None:
            validator = Draft202012Validator(self.inlined(schema))
            self.validators[schema] = validator
        with contextlib.suppress(Unchecked):
            if conforms(validator.schema, body):
                return []
        errors = sorted(validator.iter_errors(body), key=lambda error: error.json_path)
        return [f"{answer}: {_describe(error)}" for error in errors]


_served: ApiDocument | None = None
# The answers found as the document describes them, each by a digest of its method, path,
# status, media type and body: an answer the same to the byte is the same answer (a fuzzed
# request refused with the same sentence again, a session's state read again unchanged),
# not validated a second time.
_described: set[bytes] = set()


def served_document(client: FlaskClient) -> ApiDocument:
    """The document the app serves, fetched and prepared once per test run."""
    global _served
    if _served is None:
        plain = FlaskClient(client.application, client.application.response_class)
        _served = ApiDocument(plain.get(f"{API}/openapi.json").get_json())
    return _served


class CheckedClient(FlaskClient):
    """A test client that fails the test on any answer of the API the document does not
    describe."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        request = response.request
        if request.path.startswith(API + "/"):
            body = None
            data = b""
            if response.is_json:
                # A compressed answer is read as the client reads it: unpacked.
                packed = response.headers.get("Content-Encoding") == "gzip"
                data = gzip.decompress(response.data) if packed else response.data
            answer = hashlib.blake2b(digest_size=20)
            for part in (request.method, request.path, response.status_code, response.mimetype):
                answer.update(f"{part}\n".encode())
            answer.update(data)
            if answer.digest() in _described:
                return response
            if data:
                with contextlib.suppress(ValueError):
                    body = json.loads(data)
            problems = served_document(self).problems(
                request.method,
                request.path.removeprefix(API),
                response.status_code,
                response.mimetype,
                body,
            )
            assert not problems, "The API answered what its document does not describe:\n" + (
                "\n".join(problems)
            )
            _described.add(answer.digest())
        return response
