"""The OpenAPI description (urlcalc/serving/openapi.py, served at /api/openapi.json) matches the
server: it is a valid OpenAPI 3.0 document, it documents every kind of API_KINDS and nothing else,
every documented operation answers a minimal request with a response that conforms to the described
schema, and every documented refusal status is reachable and answers the Error shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from required import import_or_missing

from urlcalc.serving import openapi
from urlcalc.serving.app import API_KINDS, MAX_BODY_BYTES, create_app

schemathesis = import_or_missing("schemathesis", "pip install -e '.[dev]' (make venv)")
from schemathesis import checks as st_checks  # noqa: E402

APP = create_app()
DOC = openapi.openapi_document()
CHECKS = [st_checks.not_a_server_error, st_checks.status_code_conformance,
          st_checks.content_type_conformance, st_checks.response_schema_conformance]


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return APP.test_client()


def test_served_document_is_the_module_document(client: FlaskClient) -> None:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == json.loads(json.dumps(DOC))
    assert DOC["openapi"].startswith("3.")


def test_document_is_valid_openapi_30() -> None:
    definitions = import_or_missing("schemathesis.specs.openapi.definitions",
                                    "schemathesis >= 4 (make venv)")
    validator = definitions.OPENAPI_30_VALIDATOR
    errors = [f"{list(e.instance_path)}: {e.message}"[:300]
              for e in validator.iter_errors(json.loads(json.dumps(DOC)))]
    assert errors == []
    # every $ref points at a schema that exists
    refs: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                refs.append(node["$ref"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(DOC)
    schemas = DOC["components"]["schemas"]
    assert refs and all(r.removeprefix("#/components/schemas/") in schemas for r in refs), refs
    # and every component schema is used
    used = {r.removeprefix("#/components/schemas/") for r in refs}
    assert set(schemas) - used == set()


def test_every_kind_is_documented_and_nothing_else() -> None:
    documented = {p.removeprefix("/api/") for p in DOC["paths"]} - {"openapi.json", "socket"}
    assert documented == set(API_KINDS)
    for kind in API_KINDS:
        assert set(DOC["paths"][f"/api/{kind}"]) == {"get", "post"}, kind


# A minimal valid request per kind: (POST body, GET query).
MINIMAL: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "parse": ({"input": "https://a.example/x", "trace": True},
              {"input": "../y", "base": "https://a.example/x/", "trace": "1"}),
    "set": ({"input": "https://a.example/", "ops": [["port", "81"], ["hash", "f"]]},
            {"input": "https://a.example/", "op": ["host", "search"], "value": ["b", "q"]}),
    "host": ({"input": "[::1]", "trace": True}, {"input": "0x7f.1"}),
    "urlencoded": ({"input": "a=b&c"}, {"input": "a+b=%20"}),
    "percent": ({"input": "a b", "encode_set": "path percent-encode set"},
                {"input": "é", "encoding": "windows-1252",
                 "encode_set": "special-query percent-encode set"}),
    "validate": ({"input": "https://a.example/ b"}, {"input": "x", "base": "https://a/"}),
    "compare": ({"input": "http://a/b/../c", "errata": True, "as_of": "2019-01-01,2020-06-01",
                 "without": "302ba41"}, {"input": "../x", "base": "http://a/b/c",
                                        "as_of": "2019-01-01"}),
    "random": ({"seed": 7}, {"seed": "7", "edition": "rfc3986"}),
    "version": ({}, {}),
    "spec": ({}, {}),
    "implementations": ({"input": "http://faß.example/a/../b"},
                        {"input": "../x", "base": "http://a/b/c"}),
    "history": ({"input": "sc://a<b/"}, {"input": "a^b", "base": "http://h/"}),
    "survey": ({"urls": "http://a/\nhttp://a b/"}, {"urls": "x\ny", "base": "http://h/"}),
    "wpt": ({"input": "http://a b/"}, {"input": "../x", "base": "http://a/b/c"}),
}


def test_minimal_requests_cover_every_kind() -> None:
    assert set(MINIMAL) == set(API_KINDS)


@pytest.mark.parametrize("kind", API_KINDS)
def test_every_documented_operation_answers_and_conforms(kind: str) -> None:
    schema = schemathesis.openapi.from_dict(json.loads(json.dumps(DOC)))
    schema.app = APP
    body, query = MINIMAL[kind]
    headers = {"Accept-Encoding": "identity"}
    post = schema[f"/api/{kind}"]["POST"].Case(body=body, media_type="application/json")
    response = post.call_and_validate(checks=CHECKS, headers=headers)
    assert response.status_code == 200
    assert response.json()["kind"] == kind
    get = schema[f"/api/{kind}"]["GET"].Case(query=query)
    response = get.call_and_validate(checks=CHECKS, headers=headers)
    assert response.status_code == 200, response.text[:300]
    assert response.json()["kind"] == kind


def test_openapi_path_answers(client: FlaskClient) -> None:
    assert "/api/openapi.json" in DOC["paths"]
    # only GET is documented; anything else is a JSON refusal
    assert set(DOC["paths"]["/api/openapi.json"]) == {"get"}
    response = client.post("/api/openapi.json", json={})
    assert 400 <= response.status_code < 500
    assert set(response.get_json()) == {"error"}


def test_socket_path_is_described_and_answers_426_here(client: FlaskClient) -> None:
    # (the Flask app alone, as under --dev: no WebSocket; tests/test_api_socket.py checks the
    # other statuses against urlcalc serve's server)
    assert set(DOC["paths"]["/api/socket"]) == {"get"}
    assert "426" in DOC["paths"]["/api/socket"]["get"]["responses"]
    response = client.get("/api/socket")
    assert response.status_code == 426
    assert set(response.get_json()) == {"error"}


REFUSALS = [
    ("post", "/api/parse", {"data": "{", "content_type": "application/json"}, 400),
    ("post", "/api/parse", {"data": "{}", "content_type": "text/plain"}, 415),
    ("post", "/api/parse", {"data": b" " * (MAX_BODY_BYTES + 1),
                            "content_type": "application/json"}, 413),
    ("get", "/api/set", {"query_string": {"input": "x"}}, 400),
    ("post", "/api/random", {"json": {"seed": -1}}, 400),
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status"), REFUSALS)
def test_documented_refusals(client: FlaskClient, method: str, path: str,
                             kwargs: dict[str, Any], status: int) -> None:
    assert str(status) in DOC["paths"][path][method]["responses"]
    response = getattr(client, method)(path, **kwargs)
    assert response.status_code == status
    body = response.get_json()
    assert set(body) == {"error"} and body["error"]
