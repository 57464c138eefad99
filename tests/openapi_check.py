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
from typing import Any

import jsonschema_rs
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


# Keywords whose value is JSON, not a schema: a "$ref" in it is no reference.
VALUES = frozenset(("const", "enum", "default", "examples"))


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
        self._quick: dict[str, jsonschema_rs.Draft202012Validator] = {}

    def lookup(self, pointer: str) -> Any:
        return self.resolver.lookup(DOCUMENT_URI + pointer).contents

    def quick_validator(self, pointer: str) -> jsonschema_rs.Draft202012Validator:
        """A compiled validator of the schema at ``pointer``: it judges an answer many times
        quicker than jsonschema, which makes a validator object for each schema it descends
        into; jsonschema then words what is wrong with an answer it refuses."""
        if pointer not in self._quick:
            self._quick[pointer] = jsonschema_rs.Draft202012Validator(self.inlined(pointer))
        return self._quick[pointer]

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
        if self.quick_validator(schema).is_valid(body):
            return []
        validator = self.validators.get(schema)
        if validator is None:
            validator = Draft202012Validator(self.inlined(schema))
            self.validators[schema] = validator
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
