"""The OpenAPI 3.0 description of the JSON API, built here from the table of request kinds
(urlcalc.answers.kinds: each kind's summary and parameters) and the limits (urlcalc.model.limits),
so that it cannot drift from them silently. The server answers it at ``GET /api/openapi.json``;
tests/test_openapi.py checks it against the server, and tests/test_api_fuzz.py
fuzzes the server with Schemathesis from it.

The result schemas are generated from the result model's types (urlcalc.model.schema reads the
TypedDicts of urlcalc.model.shapes and the editions' and implementations' answers): every member
with its type and its description. They allow members they do not name, so that a client
written against this description keeps working when the model grows (tests/test_result_model.py
checks that each answer has exactly its type's members). Every refusal is
``{"error": "<message>"}`` with a 4xx status (documented per operation); a 5xx is a bug."""

from __future__ import annotations

from typing import Any

from urlcalc.answers.kinds import KINDS, Kind, Param
from urlcalc.model.limits import (
    CPU_BUDGET_S,
    MAX_ANSWER_CHARS,
    MAX_BODY_BYTES,
    MAX_INPUT_BYTES,
    MAX_OPS,
    MAX_SEED,
    MAX_SET_VALUES_BYTES,
    MAX_TRACED_SET_VALUES_BYTES,
)
from urlcalc.model.results import MODEL_VERSION, OPERATIONS
from urlcalc.model.schema import NULL, Node, Shape, shape_name, shapes
from urlcalc.model.shapes import CutAnswer, ErrorAnswer
from urlcalc.serving.socket_api import MAX_ID_CHARS, MAX_SOCKET_MESSAGE_BYTES, SOCKET_PATH
from urlcalc.trace.recorder import DEFAULT_MAX_STEPS

__all__ = ["OPENAPI_VERSION", "openapi_document"]

OPENAPI_VERSION = "3.0.3"

Schema = dict[str, Any]

_REF = "#/components/schemas/"


def _ref(name: str) -> Schema:
    return {"$ref": _REF + name}


def _nullable(schema: Schema) -> Schema:
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    return {**schema, "nullable": True}


def _obj(required: dict[str, Schema], optional: dict[str, Schema] | None = None,
         description: str | None = None) -> Schema:
    out: Schema = {"type": "object", "properties": {**required, **(optional or {})}}
    if required:  # OpenAPI 3.0: "required" must not be empty
        out["required"] = list(required)
    if description:
        out["description"] = description
    return out


STR: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
NULL_STR = _nullable(STR)
STR_LIST: Schema = {"type": "array", "items": STR}

_LIMIT = (f"At most {MAX_INPUT_BYTES // 1024} KiB once UTF-8 encoded (a longer value is a 400). "
          "Lone surrogates (JSON \\ud800) are accepted and replaced by U+FFFD, as Web IDL's "
          "USVString does.")


def _text(description: str) -> Schema:
    # maxLength counts code points; the server's limit counts UTF-8 bytes (see _LIMIT).
    return {"type": "string", "maxLength": MAX_INPUT_BYTES, "description": description}


# --- request fields (from the table of request kinds, urlcalc.answers.kinds) ---------------------

_TEXT_NOTE = {
    "input": " " + _LIMIT,
    "base": " " + _LIMIT,
    "encoding": " At most " + f"{MAX_INPUT_BYTES // 1024} KiB.",
}
_OP_PAIR: Schema = {
    "type": "array", "minItems": 2, "maxItems": 2,
    "items": {"type": "string", "maxLength": MAX_INPUT_BYTES},
    "description": "[operation, value]: a setter (" + ", ".join(OPERATIONS) + ") and its "
    "value; for searchParams.* the value is name=value. Unknown operations are a 400.",
}
_OPS_NOTE = (f" (at most {MAX_OPS}). Their values together are at most "
             f"{MAX_SET_VALUES_BYTES // 1024} KiB (UTF-8), {MAX_TRACED_SET_VALUES_BYTES // 1024} "
             "KiB with trace; more is a 400.")
_TRACE_NOTE = f" (at most {DEFAULT_MAX_STEPS} per run; then `truncated` is true)"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _member(p: Param) -> Schema:
    """A parameter as a member of the POST body."""
    description = _sentence(p.description)
    schema: Schema
    if p.type == "text":
        schema = {"type": "string", "maxLength": p.max_bytes,
                  "description": description + "." + _TEXT_NOTE.get(p.name, "")}
    elif p.type == "flag":
        schema = {"type": "boolean",
                  "description": description + (_TRACE_NOTE if p.name == "trace" else "") + "."}
    elif p.type == "count":
        schema = {"type": "integer", "minimum": 0, "description": description + "."}
    elif p.type == "seed":
        schema = {"type": "integer", "minimum": 0, "maximum": MAX_SEED,
                  "description": description + "."}
    elif p.type == "ops":
        schema = {"type": "array", "maxItems": MAX_OPS, "items": _OP_PAIR,
                  "description": description + _OPS_NOTE}
    else:
        assert p.choices is not None
        schema = {"type": "string", "enum": list(p.choices()), "description": description + "."}
        if p.default is not None:
            schema["default"] = p.default
    return schema if p.required else _nullable(schema)


def _body(kind: Kind) -> Schema:
    # Members the kind does not use are ignored, so the body allows them.
    return _obj({p.name: _member(p) for p in kind.params if p.required},
                {p.name: _member(p) for p in kind.params if not p.required})


def _q(name: str, schema: Schema, required: bool = False, description: str | None = None,
       explode: bool | None = None) -> Schema:
    p: Schema = {"name": name, "in": "query", "required": required, "schema": schema}
    if description:
        p["description"] = description
    if explode is not None:
        p["style"], p["explode"] = "form", explode
    return p


_FLAG_Q: Schema = {"type": "string", "enum": ["1", "0", "true", "false", "yes", "no", "on", "off"],
                   "description": "1/0, true/false, yes/no or on/off (case-insensitive)"}
_DIGITS_Q: Schema = {"type": "string", "pattern": "^[0-9]{1,16}$"}


def _query(kind: Kind) -> list[Schema]:
    """The kind's parameters as GET query parameters (strings)."""
    out: list[Schema] = []
    for p in kind.params:
        if p.type == "ops":
            assert p.choices is not None
            out.append(_q("op", {"type": "array", "items": {"type": "string",
                                                             "enum": list(p.choices())},
                                 "minItems": 1, "maxItems": MAX_OPS}, True,
                          "the operations, in order (repeat op=...&value=... pairs)",
                          explode=True))
            out.append(_q("value", {"type": "array", "items": {"type": "string"},
                                    "minItems": 1, "maxItems": MAX_OPS}, True,
                          "one value per op, in the same order", explode=True))
            continue
        schema: Schema
        if p.type == "text":
            schema = {"type": "string", "maxLength": MAX_INPUT_BYTES}
        elif p.type == "flag":
            schema = _FLAG_Q
        elif p.type == "count":
            schema = _DIGITS_Q
        elif p.type == "seed":
            schema = {**_DIGITS_Q, "description": f"a decimal integer from 0 to {MAX_SEED}"}
        else:
            assert p.choices is not None
            schema = {"type": "string", "enum": list(p.choices())}
        out.append(_q(p.name, schema, p.required, p.description))
    return out


# --- result schemas -------------------------------------------------------------------------------

def _schema(n: Node) -> Schema:
    """The OpenAPI 3.0 schema of a result model node (urlcalc.model.schema)."""
    if n.kind in _PRIMITIVE_SCHEMAS:
        return dict(_PRIMITIVE_SCHEMAS[n.kind])
    if n.kind == "null":
        return {"nullable": True, "enum": [None]}
    if n.kind == "json":
        return {}
    if n.kind == "literal":
        strings = all(isinstance(v, str) for v in n.values)
        return {"type": "string" if strings else "integer", "enum": list(n.values)}
    if n.kind == "list":
        return {"type": "array", "items": _schema(n.of[0])}
    if n.kind == "dict":
        return {"type": "object", "additionalProperties": _schema(n.of[0])}
    if n.kind == "ref":
        return _ref(n.name)
    assert n.kind == "union"
    rest = [_schema(a) for a in n.of if a != NULL]
    one = rest[0] if len(rest) == 1 else {"anyOf": rest}
    return _nullable(one) if NULL in n.of else one


_PRIMITIVE_SCHEMAS: dict[str, Schema] = {"str": STR, "int": INT, "float": {"type": "number"},
                                         "bool": BOOL}


def _object_schema(shape: Shape) -> Schema:
    properties: dict[str, Schema] = {}
    for m in shape.members:
        schema = _schema(m.node)
        if m.description:
            schema = {"allOf": [schema], "description": m.description} if "$ref" in schema \
                else {**schema, "description": m.description}
        properties[m.name] = schema
    out: Schema = {"type": "object", "properties": properties}
    required = [m.name for m in shape.members if m.required]
    if required:  # OpenAPI 3.0: "required" must not be empty
        out["required"] = required
    if shape.description:
        out["description"] = shape.description
    return out


def _answer_types() -> dict[str, type]:
    """Each kind's answer type (its function's return annotation), by kind."""
    return {name: kind.answer_type() for name, kind in KINDS.items()}


def _schemas() -> dict[str, Schema]:
    """Every answer's schema and the schemas of their parts, generated from the result model's
    types (urlcalc.model.shapes and the editions' and implementations' answer types)."""
    found = shapes([*_answer_types().values(), ErrorAnswer, CutAnswer])
    return {name: _object_schema(shape) for name, shape in found.items()}


def _error_response(description: str) -> Schema:
    return {"description": description,
            "content": {"application/json": {"schema": _ref("ErrorAnswer")}}}


def _operation(kind: str, method: str) -> Schema:
    spec = KINDS[kind]
    summary, body, params = spec.summary, _body(spec), _query(spec)
    responses: dict[str, Schema] = {
        "200": {"description": f"The {kind} result.",
                "content": {"application/json": {
                    "schema": _ref(shape_name(_answer_types()[kind]))}}},
        "400": _error_response("A malformed request: a missing or mistyped field, a value over "
                               "a limit, an unknown encoding label, operation or edition, "
                               "repeated query parameters, a body that is not a JSON object."),
    }
    responses["422"] = {
        "description": (f"Stopped when it had spent its CPU budget ({CPU_BUDGET_S[kind]:g} s for "
                        f"a {kind} request): cut says what was being computed."),
        "content": {"application/json": {"schema": _ref("CutAnswer")}}}
    responses["503"] = {
        **_error_response(
            "A heavy request (by its estimated cost: urlcalc.answers.cost) while the worker "
            "processes and their queue are full, or while this client already has heavy "
            "requests waiting and another client's came: try again after Retry-After seconds."),
        "headers": {"Retry-After": {"schema": INT, "description": "Seconds to wait."}},
    }
    op: Schema = {"operationId": f"{kind}_{method}", "summary": summary, "tags": [kind]}
    if method == "post":
        op["requestBody"] = {"required": True,
                             "content": {"application/json": {"schema": body}}}
        responses["413"] = _error_response(
            f"The body is over {MAX_BODY_BYTES} bytes (1 MiB; exactly 1 MiB is accepted).")
        responses["415"] = _error_response("The Content-Type is not application/json.")
    else:
        responses["431"] = _error_response("The request line and headers are over 256 KiB.")
        if params:
            op["parameters"] = params
    op["responses"] = responses
    return op


def _socket_operation() -> Schema:
    """GET /api/socket: the opening handshake of the API over a WebSocket
    (urlcalc.serving.socket_api). OpenAPI 3.0 has no words for the messages that follow: the
    description says them."""
    return {
        "operationId": "socket", "tags": ["meta"],
        "summary": "The API over a WebSocket (urlcalc serve).",
        "description": (
            "A WebSocket opening handshake (RFC 6455; permessage-deflate when offered) turns the "
            "connection into a socket that answers the API's requests as text messages. A "
            "request: {\"id\": ID, \"kind\": KIND, \"params\": {...}}, where ID is an integer "
            f"or a string of at most {MAX_ID_CHARS} characters, KIND one of /api/<kind>'s kinds "
            "and params its JSON object ({} if left out), at most "
            f"{MAX_SOCKET_MESSAGE_BYTES // 1024} KiB (larger requests go by POST). Its answer: one "
            "JSON object {\"id\": ID, \"status\": STATUS, \"body\": BODY}, its members in "
            "that order, where STATUS and BODY are the status and body /api/<kind> answers to "
            "the same request (200 and the result; 400 and {\"error\": \"<message>\"} for a bad "
            "request or a message that cannot be read, then with \"id\": null; 404 for an "
            "unknown kind; 500 for a bug); answers come in the order of the requests. The "
            "handshake is refused with a JSON error when the Host "
            "header does not name this server or the Origin is another site's. Protocol errors "
            "close the socket with RFC 6455's codes; see docs/hardening.md, \"The WebSocket\"."),
        "responses": {
            "101": {"description": "Switching Protocols: the connection is a WebSocket."},
            "400": _error_response("A malformed opening handshake (its method, key or "
                                   "Connection header, or HTTP/1.0), or a Host header that does "
                                   "not name this server."),
            "403": _error_response("The Origin header is another site's."),
            "426": _error_response("Not a WebSocket opening handshake (a plain GET), a "
                                   "Sec-WebSocket-Version other than 13 (the answer carries "
                                   "Sec-WebSocket-Version: 13), or a server that does not speak "
                                   "it (the development server, --dev): the API is at POST "
                                   "/api/<kind>."),
        },
    }


def openapi_document(kinds: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The OpenAPI document for ``kinds`` (default: every kind this module describes)."""
    paths: dict[str, Any] = {}
    for kind in kinds if kinds is not None else tuple(KINDS):
        paths[f"/api/{kind}"] = {"get": _operation(kind, "get"), "post": _operation(kind, "post")}
    paths["/api/openapi.json"] = {"get": {
        "operationId": "openapi", "summary": "This description.", "tags": ["meta"],
        "responses": {"200": {"description": "The OpenAPI document.",
                              "content": {"application/json": {"schema": {"type": "object"}}}}},
    }}
    paths[SOCKET_PATH] = {"get": _socket_operation()}
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "urlcalc JSON API",
            "version": f"{MODEL_VERSION}",
            "description": (
                "The URL desk calculator's result model over HTTP: POST a JSON object to "
                "/api/<kind>, or GET it with query parameters (strings; flags as 1/0, "
                "true/false; for set, repeated op=...&value=... pairs). Answers are JSON, "
                "gzip-compressed above 8 KiB when the client accepts it. Every refusal is "
                "{\"error\": \"<message>\"} with a 4xx status (or 503 with Retry-After when "
                "the server is busy with large requests), with the same security headers as "
                "every answer, including the refusals of the HTTP layer (413, 431, 400 for a "
                "malformed request, 501 for an unknown Transfer-Encoding), whatever the "
                "request's headers. `urlcalc serve` answers 400 to a Host header that is "
                "neither an IP address, localhost, nor a name given with --allowed-host. "
                "Limits: bodies up to 1 MiB, strings up to 64 KiB, at most "
                f"{MAX_OPS} setter operations, at most {DEFAULT_MAX_STEPS} trace steps per run; "
                f"an answer spends about {MAX_ANSWER_CHARS:,} characters at most on validation "
                "errors, traces and the setter operations' records (past that, lists are cut "
                "and operations summarised)."),
            "license": {"name": "BSD-3-Clause"},
        },
        "paths": paths,
        "components": {"schemas": _schemas()},
    }
