"""The Flask server (urlcalc.serving.app): the JSON API answers exactly what
urlcalc.answers.kinds.dispatch answers, refuses every malformed request with a 4xx JSON error
(never a 500), serves the page and the Pyodide assets with the right types, compression, validators
and security headers, and never a file outside the folders it serves. Also ``export_static`` and a
real ``urlcalc serve``."""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from required import missing

from urlcalc.answers import kinds
from urlcalc.answers.answer import answer, to_json
from urlcalc.serving import app as server
from urlcalc.serving.app import CSP, MAX_BODY_BYTES, PYODIDE_FILES, create_app
from urlcalc.site import bundle
from urlcalc.site.export import export_static, with_meta_csp

REPO = Path(__file__).resolve().parent.parent
REAL_PYODIDE = REPO / "web" / "node_modules" / "pyodide"

# A fake wasm that compresses well, and other fake Pyodide files.
FAKE_WASM = b"\x00asm\x01\x00\x00\x00" + b"pyodide " * 4096


@pytest.fixture
def web(tmp_path: Path) -> Path:
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "css").mkdir()
    (web / "img").mkdir()
    (web / "index.html").write_text(
        '<!doctype html><html><head><link rel="icon" href="data:,">'
        '<script type="module" src="js/app.js"></script></head><body></body></html>\n'
    )
    (web / "js" / "app.js").write_text('import "./engine.js";\n' + "// app\n" * 300)
    (web / "js" / "views").mkdir()
    (web / "js" / "views" / "steps.js").write_text("export const steps = 1;\n")
    (web / "css" / "site.css").write_text("body { margin: 0 }\n")
    (web / "img" / "logo.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>\n")
    (web / "js" / ".secret").write_text("hidden\n")
    pyodide = web / "node_modules" / "pyodide"
    pyodide.mkdir(parents=True)
    for name in PYODIDE_FILES:
        (pyodide / name).write_bytes(f"// {name}\n".encode() * 200)
    (pyodide / "pyodide.asm.wasm").write_bytes(FAKE_WASM)
    (pyodide / "package.json").write_text('{"name": "pyodide"}\n')
    (pyodide / "pyodide.js").write_text("// not a boot file\n")
    return web


@pytest.fixture
def app(web: Path, tmp_path: Path) -> Flask:
    app = create_app(web_dir=web, cache_dir=tmp_path / "cache")
    app.testing = True
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def error_of(response: Any) -> str:
    """The message of a JSON error response (asserting that it is one)."""
    assert response.mimetype == "application/json", (response.status, response.data[:200])
    body = response.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    assert isinstance(body["error"], str) and body["error"], body
    return body["error"]


# --- the API returns the model --------------------------------------------------------------------

API_CASES: list[tuple[str, dict[str, Any]]] = [
    ("parse", {"input": "https://EXAMPLE.com:443/a/./b/../c?q=1#f"}),
    ("parse", {"input": "../x?é", "base": "http://h/a/b", "encoding": "windows-1252",
               "trace": True}),
    ("parse", {"input": "http://[::1", "trace": True}),
    ("parse", {"input": "x", "base": "not a url"}),
    ("parse", {"input": "https://ex\u00e4mple.com/\U0001f600"}),
    ("set", {"input": "https://a.com/p", "ops": [["host", "b.com"], ["port", "8080"],
                                                  ["searchParams.append", "k=v"]]}),
    ("set", {"input": "mailto:x", "ops": [["host", "b.com"]], "trace": True}),
    ("set", {"input": "https://a.com/", "ops": [["href", "::"]]}),
    ("host", {"input": "xn--nxasmq6b.com", "trace": True}),
    ("host", {"input": "[::ffff:1.2.3.4]"}),
    ("host", {"input": "0x7f.1"}),
    ("urlencoded", {"input": "a=b&c=%20d+e&&=x"}),
    ("percent", {"input": "a b/ç%41", "encode_set": "path percent-encode set",
                 "encoding": "utf-8"}),
    ("percent", {"input": "€"}),
    ("validate", {"input": "https://a.com/ b", "base": "https://c.com/"}),
    ("validate", {"input": "https:\\\\a.com"}),
    ("compare", {"input": "HTTP://EXAMPLE.com:80/%7efoo"}),
    ("compare", {"input": "../g;x/./h", "base": "http://a/b/c/d;p?q", "errata": True}),
    ("random", {"edition": "w3c_2012", "seed": 7}),
    ("version", {}),
]


def _query(kind: str, params: dict[str, Any]) -> list[tuple[str, str]]:
    query: list[tuple[str, str]] = []
    for key, value in params.items():
        if key == "ops":
            for op, val in value:
                query += [("op", op), ("value", val)]
        elif isinstance(value, bool):
            query.append((key, "1" if value else "0"))
        else:
            query.append((key, value))
    return query


@pytest.mark.parametrize(("kind", "params"), API_CASES,
                         ids=[f"{k}-{i}" for i, (k, _) in enumerate(API_CASES)])
def test_api_post_and_get_return_the_model(client: FlaskClient, kind: str,
                                           params: dict[str, Any]) -> None:
    expected = kinds.dispatch(kind, params)
    posted = client.post(f"/api/{kind}", json=params)
    assert posted.status_code == 200, posted.data[:300]
    assert posted.mimetype == "application/json"
    assert posted.get_json() == expected
    got = client.get(f"/api/{kind}", query_string=_query(kind, params))
    assert got.status_code == 200, got.data[:300]
    assert got.get_json() == expected


def test_api_lone_surrogates_and_non_ascii(client: FlaskClient) -> None:
    raw = b'{"input": "https://a.com/\\ud800\xc3\xa9", "trace": true}'
    response = client.post("/api/parse", data=raw, content_type="application/json")
    assert response.status_code == 200
    assert response.get_json() == kinds.dispatch(
        "parse", {"input": "https://a.com/\ud800é", "trace": True})
    assert response.content_type == "application/json; charset=utf-8"


def test_api_charset_parameter_accepted(client: FlaskClient) -> None:
    response = client.post("/api/host", data=json.dumps({"input": "a.com"}),
                           content_type="application/json; charset=utf-8")
    assert response.status_code == 200
    assert response.get_json()["domain"]["serialized"] == "a.com"


def test_api_large_answers_are_gzipped(client: FlaskClient) -> None:
    params = {"input": "https://example.com/" + "a/" * 100, "trace": True}
    response = client.post("/api/parse", json=params, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(response.data)) == kinds.dispatch("parse", params)
    plain = client.post("/api/parse", json=params)
    assert "Content-Encoding" not in plain.headers
    assert plain.headers["Cache-Control"] == "no-store"


# --- malformed requests: 4xx JSON, never 500 ------------------------------------------------------

BIG = "a" * (64 * 1024 + 1)
BAD_POSTS: list[tuple[str, bytes | str, str | None, int, str]] = [
    # path, body, content type, status, part of the message
    ("/api/parse", "{not json", "application/json", 400, "not JSON"),
    ("/api/parse", b"\xff\xfe\x00garbage", "application/json", 400, "not JSON"),
    ("/api/parse", "", "application/json", 400, "empty"),
    ("/api/parse", '{"input": "x"}', "text/plain", 415, "application/json"),
    ("/api/parse", '{"input": "x"}', None, 415, "application/json"),
    ("/api/parse", "input=x", "application/x-www-form-urlencoded", 415, "application/json"),
    ("/api/parse", '["input"]', "application/json", 400, "JSON object, not an array"),
    ("/api/parse", '"x"', "application/json", 400, "JSON object"),
    ("/api/parse", "null", "application/json", 400, "JSON object"),
    ("/api/parse", "{}", "application/json", 400, "missing field 'input'"),
    ("/api/parse", '{"input": 5}', "application/json", 400, "'input' must be str"),
    ("/api/parse", '{"input": ["x"]}', "application/json", 400, "'input' must be str"),
    ("/api/parse", '{"input": "x", "base": {}}', "application/json", 400, "'base'"),
    ("/api/parse", '{"input": "x", "trace": "yes"}', "application/json", 400, "'trace'"),
    ("/api/parse", '{"input": "x", "encoding": "no-such-label"}', "application/json", 400,
     "no-such-label"),
    ("/api/parse", json.dumps({"input": BIG}), "application/json", 400, "64 KiB"),
    ("/api/parse", "[" * 100_000 + "]" * 100_000, "application/json", 400, "nested"),
    ("/api/set", '{"input": "https://a/"}', "application/json", 400, "missing field 'ops'"),
    ("/api/set", '{"input": "https://a/", "ops": "host"}', "application/json", 400, "'ops'"),
    ("/api/set", '{"input": "https://a/", "ops": [["host"]]}', "application/json", 400,
     "ops[0]"),
    ("/api/set", '{"input": "https://a/", "ops": [["host", 8]]}', "application/json", 400,
     "ops[0]"),
    ("/api/set", '{"input": "https://a/", "ops": [["nope", "x"]]}', "application/json", 400,
     "unknown operation 'nope'"),
    ("/api/set", json.dumps({"input": "https://a/", "ops": [["port", "1"]] * 65}),
     "application/json", 400, "too many operations"),
    ("/api/set", json.dumps({"input": "https://a/", "ops": [["pathname", BIG]]}),
     "application/json", 400, "64 KiB"),
    ("/api/percent", '{"input": "x", "encode_set": "nope"}', "application/json", 400,
     "percent-encode set"),
    ("/api/percent", '{"input": "x", "encoding": "bogus"}', "application/json", 400, "bogus"),
    ("/api/host", '{"input": null}', "application/json", 400, "missing field 'input'"),
    ("/api/nope", '{"input": "x"}', "application/json", 404, "unknown kind 'nope'"),
    ("/api/parse", "x" * (MAX_BODY_BYTES + 1), "application/json", 413, "limit"),
]


@pytest.mark.parametrize(("path", "body", "ctype", "status", "message"), BAD_POSTS,
                         ids=[f"{i}-{m[:20]}" for i, (_, _, _, _, m) in enumerate(BAD_POSTS)])
def test_bad_post_requests(client: FlaskClient, path: str, body: bytes | str,
                           ctype: str | None, status: int, message: str) -> None:
    response = client.post(path, data=body, content_type=ctype)
    assert response.status_code == status, response.data[:300]
    assert message in error_of(response)


BAD_GETS: list[tuple[str, int, str]] = [
    ("/api/parse", 400, "missing field 'input'"),
    ("/api/parse?input=a&input=b", 400, "'input' is given 2 times"),
    ("/api/parse?input=a&trace=maybe", 400, "'trace'"),
    ("/api/parse?input=a&encoding=nope", 400, "nope"),
    ("/api/set?input=https://a/", 400, "op=SETTER&value=VALUE"),
    ("/api/set?input=https://a/&op=host", 400, "each 'op' needs one 'value'"),
    ("/api/set?input=https://a/&op=host&value=x&value=y", 400, "each 'op' needs one 'value'"),
    ("/api/set?input=https://a/&op=bogus&value=x", 400, "unknown operation"),
    ("/api/percent?input=a&encode_set=x", 400, "percent-encode set"),
    ("/api/whatever?input=a", 404, "unknown kind"),
    ("/api/", 404, "not found"),
    ("/api", 404, "not found"),
    (f"/api/parse?input={BIG}", 400, "64 KiB"),
]


@pytest.mark.parametrize(("url", "status", "message"), BAD_GETS,
                         ids=[f"{i}-{m[:20]}" for i, (_, _, m) in enumerate(BAD_GETS)])
def test_bad_get_requests(client: FlaskClient, url: str, status: int, message: str) -> None:
    response = client.get(url)
    assert response.status_code == status, response.data[:300]
    assert message in error_of(response)


def test_set_work_budget(client: FlaskClient) -> None:
    # 64 setter values of 1 KiB: fine untraced; traced they would make a 63 MB answer
    ops = [["pathname", "a/" * 512]] * 64
    assert client.post("/api/set", json={"input": "https://a/", "ops": ops}).status_code == 200
    response = client.post("/api/set", json={"input": "https://a/", "ops": ops, "trace": True})
    assert response.status_code == 400
    assert "16 KiB limit per request with trace" in error_of(response)
    ops = [["hash", "x" * 40_000]] * 2
    response = client.post("/api/set", json={"input": "https://a/", "ops": ops})
    assert response.status_code == 400 and "over the 64 KiB limit" in error_of(response)
    query = [("input", "https://a/"), ("trace", "1"), ("op", "hash"), ("value", "x" * 9000),
             ("op", "search"), ("value", "y" * 9000)]
    response = client.get("/api/set", query_string=query)
    assert response.status_code == 400 and "with trace" in error_of(response)


def test_refusals_have_their_status_whatever_the_headers(client: FlaskClient) -> None:
    # (the page once sent X-Urlcalc-Soft-Errors: 1 to get its refusals with status 200)
    old_soft_errors = {"X-Urlcalc-Soft-Errors": "1"}
    for headers in ({}, old_soft_errors):
        response = client.post("/api/parse", json={"input": "x", "encoding": "nope"},
                               headers=headers)
        assert response.status_code == 400 and "nope" in error_of(response)
        response = client.post("/api/bogus", json={}, headers=headers)
        assert response.status_code == 404 and "unknown kind 'bogus'" in error_of(response)
        response = client.post("/api/parse", json=[1], headers=headers)
        assert response.status_code == 400
    assert not hasattr(server, "SOFT_ERRORS_HEADER")


def test_the_api_answers_what_answer_answers(client: FlaskClient) -> None:
    """The route sends urlcalc.answers.answer.answer's status and body, as its compact JSON."""
    for kind, params in (("parse", {"input": "https://\u00e9x/"}),
                         ("parse", {"input": "x", "encoding": "nope"}),
                         ("host", {"input": 1}), ("set", {"input": "https://a/"})):
        status, body = answer(kind, params)
        response = client.post(f"/api/{kind}", json=params)
        assert (response.status_code, response.get_json()) == (status, body)
        assert response.data == to_json(body)
    assert client.post("/api/parse", json={"input": "x"}).get_json() == \
        kinds.dispatch("parse", {"input": "x"})


# --- compare (editions) and random ---------------------------------------------------------------


def test_api_compare(client: FlaskClient) -> None:
    body = client.post("/api/compare", json={"input": "HTTP://EXAMPLE.com:80/%7efoo"}).get_json()
    assert body["kind"] == "compare" and body["errata"] is False
    assert [e["id"] for e in body["editions"]] == [
        "rfc3986", "html5_2009", "abarth_2010", "w3c_2012", "whatwg_2014", "formal_model"]
    assert [r["getter"] for r in body["rows"]][:3] == ["href", "origin", "protocol"]
    assert len(body["rows"]) == 11
    assert body["current"]["href"] == "http://example.com/%7efoo"
    assert body["current_failure"] is None
    href = body["rows"][0]
    assert href["values"]["rfc3986"] == "http://example.com:80/~foo"
    assert href["differs"]["rfc3986"] is True and href["differs"]["formal_model"] is False
    rfc = [d for d in body["differences"] if d["edition"] == "rfc3986"]
    # the href differs by the kept ':80' (6.2.3 is not part of 6.2.2), named with the RFC's words
    assert {"getter": "href", "rule": "scheme-based normalization", "section": "6.2.3",
            "kind": "rule"}.items() <= rfc[0].items()
    assert "the default for the scheme" in rfc[0]["quote"]


def test_api_compare_errata_flag(client: FlaskClient) -> None:
    params = {"input": "http:\\\\example.com\\a\\..\\b"}

    def w3c_href(body: dict[str, Any]) -> tuple[str, bool]:
        row = body["rows"][0]
        return row["values"]["w3c_2012"], row["differs"]["w3c_2012"]

    literal = client.post("/api/compare", json=params).get_json()
    fixed = client.post("/api/compare", json={**params, "errata": True}).get_json()
    assert literal["errata"] is False and fixed["errata"] is True
    assert w3c_href(literal) == ("http://xample.com//b", True)
    assert w3c_href(fixed) == ("http://example.com/b", False)
    got = client.get("/api/compare", query_string={**params, "errata": "on"}).get_json()
    assert got == fixed
    assert client.get("/api/compare", query_string={**params, "errata": "0"}).get_json() == literal


def test_api_compare_with_a_file_base(client: FlaskClient) -> None:
    # issue 9: was a 500 (an AssertionError in the 2012 edition); the 2012 column is unspecified
    for base in ("file:///", "file://host/x"):
        got = client.post("/api/compare", json={"input": "x", "base": base})
        assert got.status_code == 200
        w3c = next(e for e in got.get_json()["editions"] if e["id"] == "w3c_2012")
        assert w3c["status"] == "unspecified" and w3c["error"] is None
        assert all(d["edition"] != "w3c_2012" for d in got.get_json()["differences"])


def test_api_compare_current_failure_and_short_traces(client: FlaskClient) -> None:
    body = client.post("/api/compare", json={"input": "http://a b/"}).get_json()
    assert body["current"] is None
    assert "domain parser, step 8" in body["current_failure"]
    # a long path: every pass of RFC 3986 5.2.4 would copy both buffers; the answer stays small
    long = client.post("/api/compare", json={"input": "https://e.com/" + "a/" * 1000})
    assert long.status_code == 200 and len(long.data) < 2_000_000
    rfc = long.get_json()["editions"][0]
    assert rfc["trace_clipped"] == {"steps": 1005, "kept": 400, "max_text": 200}
    assert len(rfc["trace"]) == 400
    assert all(len(v) <= 200 for step in rfc["trace"] for v in step.values() if isinstance(v, str))


@pytest.mark.parametrize(("body", "message"), [
    ({}, "missing field 'input'"),
    ({"input": 1}, "field 'input' must be str"),
    ({"input": "x", "base": ["y"]}, "field 'base' must be str"),
    ({"input": "x", "errata": "yes"}, "field 'errata' must be bool"),
    ({"input": "x", "errata": 1}, "field 'errata' must be bool"),
    ({"input": "x" * 2049}, "too long to compare"),
    ({"input": "x", "base": "y" * 2049}, "too long to compare"),
])
def test_api_compare_bad_requests(client: FlaskClient, body: dict[str, Any], message: str) -> None:
    response = client.post("/api/compare", json=body)
    assert response.status_code == 400
    assert message in error_of(response)


def test_api_random(client: FlaskClient) -> None:
    one = client.post("/api/random", json={"edition": "rfc3986", "seed": 12}).get_json()
    assert one["kind"] == "random" and one["edition"] == "rfc3986" and one["seed"] == 12
    assert one == client.post("/api/random", json={"edition": "rfc3986", "seed": 12}).get_json()
    assert one == client.get("/api/random", query_string={"edition": "rfc3986",
                                                          "seed": "12"}).get_json()
    fresh = client.post("/api/random", json={}).get_json()
    assert fresh["edition"] in {e["id"] for e in kinds.dispatch("compare", {"input": "x"})[
        "editions"]}
    again = client.post("/api/random", json={"seed": fresh["seed"]}).get_json()
    assert again["input"] == fresh["input"] and again["edition"] == fresh["edition"]
    # a relative reference comes with the base it parses against
    drawn = [kinds.dispatch("random", {"edition": "rfc3986", "seed": n}) for n in range(40)]
    relative = [d for d in drawn if d["base"] is not None]
    assert relative and all(kinds.dispatch("parse", {"input": d["input"], "base": d["base"]})["ok"]
                            and not kinds.dispatch("parse", {"input": d["input"]})["ok"]
                            for d in relative)


@pytest.mark.parametrize(("method", "body", "message"), [
    ("POST", {"edition": "rfc1738"}, "unknown edition 'rfc1738'"),
    ("POST", {"edition": 3}, "field 'edition' must be str"),
    ("POST", {"seed": -1}, "field 'seed' must be between 0"),
    ("POST", {"seed": 2**53}, "field 'seed' must be between 0"),
    ("POST", {"seed": True}, "field 'seed' must be int, not bool"),
    ("POST", {"seed": 1.5}, "field 'seed' must be int"),
    ("GET", {"seed": "x"}, "'seed' must be a non-negative integer"),
    ("GET", {"seed": "9" * 5000}, "'seed' must be a non-negative integer"),
    ("GET", {"edition": "nope"}, "unknown edition 'nope'"),
])
def test_api_random_bad_requests(client: FlaskClient, method: str, body: dict[str, Any],
                                 message: str) -> None:
    if method == "POST":
        response = client.post("/api/random", json=body)
    else:
        response = client.get("/api/random", query_string=body)
    assert response.status_code == 400
    assert message in error_of(response)


def test_get_trace_flags(client: FlaskClient) -> None:
    for flag, expected in (("1", True), ("true", True), ("on", True), ("0", False), ("", False),
                           ("no", False)):
        body = client.get("/api/parse", query_string={"input": "a:b", "trace": flag}).get_json()
        assert (body["trace"] is not None) is expected, flag


def test_wrong_method_is_json(client: FlaskClient) -> None:
    response = client.put("/api/parse", json={"input": "x"})
    assert response.status_code == 405
    assert "PUT" in error_of(response)
    assert "POST" in response.headers["Allow"]
    assert client.delete("/js/app.js").status_code == 405


def test_random_garbage_never_500(client: FlaskClient) -> None:
    rng = random.Random(20240611)
    leaves: list[Any] = [None, True, False, 0, -1, 1.5, 1e308, "", "x", "https://a/", "\ud800",
                         "%", [], {}, ["host", "x"], [["host", "x"]]]
    keys = ["input", "base", "encoding", "trace", "ops", "encode_set", "x", ""]

    def value(depth: int) -> Any:
        r = rng.random()
        if depth > 3 or r < 0.5:
            return rng.choice(leaves)
        if r < 0.75:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randrange(5))}

    bodies: list[tuple[bytes, str]] = []
    for _ in range(150):
        bodies.append((json.dumps(value(0)).encode(), "application/json"))
        obj = {k: value(1) for k in rng.sample(keys, rng.randrange(1, 5))}
        bodies.append((json.dumps(obj).encode(), "application/json"))
    for _ in range(60):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        bodies.append((junk, rng.choice(["application/json", "text/plain", "", "a/b"])))
    for body, ctype in bodies:
        kind = rng.choice([*server.API_KINDS, "bogus"])
        response = client.post(f"/api/{kind}", data=body, content_type=ctype or None)
        assert response.status_code < 500, (kind, body[:100], response.data[:300])
        if response.status_code >= 400:
            error_of(response)
    for _ in range(100):
        query = [(rng.choice([*keys, "op", "value"]), rng.choice(["", "x", "1", "%ff", "\0"]))
                 for _ in range(rng.randrange(6))]
        kind = rng.choice(server.API_KINDS)
        response = client.get(f"/api/{kind}", query_string=query)
        assert response.status_code < 500, (kind, query, response.data[:300])


def test_bugs_still_answer_json(client: FlaskClient, monkeypatch: pytest.MonkeyPatch,
                                caplog: pytest.LogCaptureFixture) -> None:
    """A bug is a 500 with the exception's type only (its text is logged, not sent)."""
    def broken(**_: Any) -> dict[str, Any]:
        raise RuntimeError("boom: a secret detail")

    monkeypatch.setitem(kinds.KINDS, "host", replace(kinds.KINDS["host"], function=lambda: broken))
    with caplog.at_level("ERROR", logger="urlcalc.answers"):
        response = client.post("/api/host", json={"input": "x"})
    assert response.status_code == 500
    assert error_of(response).startswith("internal error (RuntimeError) answering 'host'")
    assert "secret" not in response.get_data(as_text=True)
    assert response.headers["Content-Security-Policy"] == CSP
    logged = [r for r in caplog.records if r.name == "urlcalc.answers"]
    assert logged and logged[0].exc_info is not None
    assert "secret detail" in str(logged[0].exc_info[1])


# --- headers --------------------------------------------------------------------------------------

# The policy, written out by hand (not read from urlcalc.serving.app.CSP): every directive, each
# with exactly these sources. A change to the policy must be made here too, on purpose.
EXPECTED_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "worker-src": ["'self'"],
    "connect-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'none'"],
}


def parse_csp(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as {directive: [source, ...]}; a repeated directive is an
    error here (browsers ignore the repeat, so it would hide a mistake)."""
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if not words:
            continue
        name = words[0].lower()
        assert name not in out, f"directive {name} twice in {header!r}"
        out[name] = words[1:]
    return out


def test_parse_csp_reads_every_directive() -> None:
    assert parse_csp("a-src 'self' x; b-src *;") == {"a-src": ["'self'", "x"], "b-src": ["*"]}
    with pytest.raises(AssertionError):
        parse_csp("a-src 'self'; a-src *")


def test_security_headers_everywhere(client: FlaskClient) -> None:
    for url in ("/", "/js/app.js", "/api/version", "/nope", "/pyodide/pyodide.asm.wasm",
                "/bundle.zip", "/favicon.ico", "/config.json"):
        response = client.get(url)
        csp = response.headers.get("Content-Security-Policy")
        assert csp is not None, url
        assert parse_csp(csp) == EXPECTED_CSP, url
        assert response.headers["X-Content-Type-Options"] == "nosniff", url
        assert response.headers["Referrer-Policy"] == "no-referrer", url
    # nothing anywhere in the policy that would allow inline script or eval
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP and "*" not in CSP


@pytest.mark.parametrize(("url", "mime"), [
    ("/", "text/html"),
    ("/js/app.js", "text/javascript"),
    ("/js/views/steps.js", "text/javascript"),
    ("/css/site.css", "text/css"),
    ("/img/logo.svg", "image/svg+xml"),
    ("/pyodide/pyodide.mjs", "text/javascript"),
    ("/pyodide/pyodide.asm.mjs", "text/javascript"),
    ("/pyodide/pyodide.asm.wasm", "application/wasm"),
    ("/pyodide/python_stdlib.zip", "application/zip"),
    ("/pyodide/pyodide-lock.json", "application/json"),
    ("/bundle.zip", "application/zip"),
    ("/config.json", "application/json"),
])
def test_mime_types(client: FlaskClient, url: str, mime: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    assert response.mimetype == mime


def test_wasm_gzip_when_accepted(client: FlaskClient, web: Path) -> None:
    plain = client.get("/pyodide/pyodide.asm.wasm")
    assert "Content-Encoding" not in plain.headers
    assert plain.data == FAKE_WASM
    assert "Accept-Encoding" in plain.headers["Vary"]
    zipped = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip, br"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.mimetype == "application/wasm"
    assert len(zipped.data) < len(FAKE_WASM) // 10
    assert gzip.decompress(zipped.data) == FAKE_WASM
    refused = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers
    head = client.head("/pyodide/pyodide.asm.wasm")  # the worker's pre-flight check
    assert head.status_code == 200 and head.mimetype == "application/wasm" and not head.data


def test_stored_zip_gzip_when_accepted(client: FlaskClient, web: Path) -> None:
    # Pyodide's python_stdlib.zip stores part of its members uncompressed (ZIP_STORED): gzip still
    # shrinks a zip, so .zip files are compressible assets like .wasm (expected by hand: 200
    # stored copies of one line of text compress to a small fraction)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as zf:
        for i in range(200):
            zf.writestr(f"lib/m{i}.py", "import os  # a stored module\n" * 20)
    data = buffer.getvalue()
    (web / "node_modules" / "pyodide" / "python_stdlib.zip").write_bytes(data)
    zipped = client.get("/pyodide/python_stdlib.zip", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.mimetype == "application/zip"
    assert len(zipped.data) < len(data) // 4
    assert gzip.decompress(zipped.data) == data
    plain = client.get("/pyodide/python_stdlib.zip")
    assert "Content-Encoding" not in plain.headers and plain.data == data


@pytest.mark.parametrize("name", ["css/big.css", "js/big.js", "js/big.mjs", "js/big.js.map",
                                  "js/big.json", "js/big.txt", "img/big.svg", "index.html",
                                  "img/big.ico"])
def test_text_assets_gzip_when_accepted(client: FlaskClient, web: Path, name: str) -> None:
    # the page's text formats (and the icon, a bitmap of repeated pixels) compress: each is sent
    # gzipped to a client that accepts it, once it is 1 KiB or more (by hand: 400 copies of one
    # line shrink to a small fraction)
    data = b"/* a line of the page's own text */\n" * 400
    (web / name).parent.mkdir(parents=True, exist_ok=True)
    (web / name).write_bytes(data)
    zipped = client.get("/" + name, headers={"Accept-Encoding": "gzip"})
    assert zipped.status_code == 200 and zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.data) == data and len(zipped.data) < len(data) // 4


def test_gzip_is_computed_once_and_cached_on_disk(web: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "gzcache"
    first = create_app(web_dir=web, cache_dir=cache).test_client()
    expected = first.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"}).data
    assert any(cache.glob("*.gz"))

    def no_compress(*args: Any, **kwargs: Any) -> bytes:
        raise AssertionError("compressed again")

    monkeypatch.setattr(gzip, "compress", no_compress)
    again = create_app(web_dir=web, cache_dir=cache).test_client()
    response = again.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert response.data == expected
    assert response.headers["Content-Encoding"] == "gzip"


def test_changed_file_is_served_fresh(client: FlaskClient, web: Path) -> None:
    first = client.get("/js/app.js")
    (web / "js" / "app.js").write_text("// changed, and longer than before\n")
    second = client.get("/js/app.js")
    assert second.data == b"// changed, and longer than before\n"
    assert second.headers["ETag"] != first.headers["ETag"]


def test_bundle_etag_is_its_digest(client: FlaskClient) -> None:
    response = client.get("/bundle.zip")
    assert response.status_code == 200
    assert response.data == bundle.bundle_bytes()
    assert response.headers["ETag"] == f'"{bundle.bundle_digest()}"'
    assert response.headers["Cache-Control"] == "no-cache"
    zipped = client.get("/bundle.zip", headers={"Accept-Encoding": "gzip"})
    if zipped.headers.get("Content-Encoding") == "gzip":
        assert zipped.headers["ETag"] == f'"{bundle.bundle_digest()}-gzip"'
        assert gzip.decompress(zipped.data) == bundle.bundle_bytes()
    for tag in (response.headers["ETag"], zipped.headers["ETag"]):
        cached = client.get("/bundle.zip", headers={"If-None-Match": tag,
                                                    "Accept-Encoding": "gzip"})
        assert cached.status_code == 304 and not cached.data


def test_static_files_and_etags(client: FlaskClient, web: Path) -> None:
    index = client.get("/")
    assert index.status_code == 200 and index.data == (web / "index.html").read_bytes()
    assert client.get("/index.html").data == index.data
    tag = index.headers["ETag"]
    assert client.get("/", headers={"If-None-Match": tag}).status_code == 304
    assert client.get("/js/views/steps.js").status_code == 200
    assert client.get("/favicon.ico").status_code == 204
    assert client.get("/config.json").get_json() == {"api": "api/", "public_url": None,
                                                     "socket": None}
    assert "not found" in error_of(client.get("/js/missing.js"))
    assert client.get("/js/missing.js").status_code == 404


def test_missing_index_is_a_json_404(tmp_path: Path) -> None:
    client = create_app(web_dir=tmp_path, cache_dir=tmp_path / "c").test_client()
    response = client.get("/")
    assert response.status_code == 404
    assert "index.html" in error_of(response)
    response = client.get("/pyodide/pyodide.mjs")
    assert response.status_code == 404
    assert "make npm" in error_of(response)


def test_only_pyodide_boot_files(client: FlaskClient) -> None:
    for name in PYODIDE_FILES:
        assert client.get(f"/pyodide/{name}").status_code == 200, name
    for name in ("package.json", "pyodide.js", "README.md", "", "..%2fpackage.json"):
        response = client.get(f"/pyodide/{name}")
        assert response.status_code == 404, name


TRAVERSALS = [
    "/js/../../pyproject.toml",
    "/js/../index.html",
    "/js/..%2f..%2fpyproject.toml",
    "/js/%2e%2e/%2e%2e/pyproject.toml",
    "/js/%2e%2e%2f%2e%2e%2fpyproject.toml",
    "/css/..%5c..%5cpyproject.toml",
    "/css/..\\..\\pyproject.toml",
    "/js/....//....//pyproject.toml",
    "/img/%252e%252e/%252e%252e/pyproject.toml",
    "/js//etc/passwd",
    "/js/%2fetc%2fpasswd",
    "/js/.secret",
    "/js/%00",
    "/js/app.js%00.png",
    "/pyodide/../../pyproject.toml",
    "/pyodide/%2e%2e%2fpackage.json",
    "/node_modules/pyodide/pyodide.mjs",
    "/web/index.html",
    "/pyproject.toml",
    "/urlcalc/serving/app.py",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_no_path_traversal(app: Flask, client: FlaskClient, web: Path, path: str) -> None:
    (web.parent / "pyproject.toml").write_text("[project]\nname = 'secret'\n")
    for response in (client.get(path), client.get("/", environ_overrides={"PATH_INFO": path})):
        assert response.status_code == 404, (path, response.status_code)
        assert b"[project]" not in response.data and b"root:" not in response.data
        error_of(response)


def test_default_app_serves_the_checkout() -> None:
    if not (REAL_PYODIDE / "pyodide.mjs").is_file():
        missing("web/node_modules/pyodide is not installed (make npm)")
    client = create_app().test_client()
    response = client.get("/pyodide/pyodide.mjs")
    assert response.status_code == 200
    assert response.data == (REAL_PYODIDE / "pyodide.mjs").read_bytes()
    assert client.get("/js/engine/engine.js").mimetype == "text/javascript"
    assert client.get("/js/workers/pyodide-worker.js").mimetype == "text/javascript"


# --- export_static --------------------------------------------------------------------------------

def test_export_static(web: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert export_static(out, web_dir=web) == out
    assert (out / "index.html").read_text() == with_meta_csp((web / "index.html").read_text())
    assert (out / "js" / "app.js").is_file() and (out / "js" / "views" / "steps.js").is_file()
    assert (out / "css" / "site.css").is_file() and (out / "img" / "logo.svg").is_file()
    assert not (out / "js" / ".secret").exists()
    for name in PYODIDE_FILES:
        assert (out / "pyodide" / name).is_file(), name
    assert sorted(p.name for p in (out / "pyodide").iterdir()) == sorted(PYODIDE_FILES)
    assert (out / "bundle.zip").read_bytes() == bundle.bundle_bytes()
    assert json.loads((out / "config.json").read_text()) == {"api": None, "public_url": None,
                                                             "socket": None}
    assert not (out / "node_modules").exists()

    # Exporting again over a previous export replaces it (stale files go).
    (out / "js" / "stale.js").write_text("old")
    export_static(out, web_dir=web)
    assert not (out / "js" / "stale.js").exists()


def test_export_refuses_to_clobber(web: Path, tmp_path: Path) -> None:
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "thesis.tex").write_text("precious")
    with pytest.raises(FileExistsError):
        export_static(busy, web_dir=web)
    assert (busy / "thesis.tex").read_text() == "precious"
    (web / "index.html").unlink()
    with pytest.raises(FileNotFoundError, match=r"index\.html"):
        export_static(tmp_path / "new", web_dir=web)


def test_export_static_cli(web: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from urlcalc import cli

    monkeypatch.setenv("URLCALC_WEB_DIR", str(web))
    out = tmp_path / "site"
    assert cli.main(["export-static", str(out)]) == 0
    assert (out / "index.html").is_file() and (out / "bundle.zip").is_file()


# --- a real server (waitress) ---------------------------------------------------------------------

def _raw_get(port: int, path: str) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                     .encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


def test_urlcalc_serve_runs_waitress(web: Path, tmp_path: Path) -> None:
    env = {**os.environ, "URLCALC_WEB_DIR": str(web), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "urlcalc", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            cwd=tmp_path)
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        url = None
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            url = match.group(1) if match else None
        assert url, "urlcalc serve printed no URL"
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with urllib.request.urlopen(url + "api/version", timeout=10) as response:
            body = json.load(response)
            assert response.headers["Content-Security-Policy"] == CSP
        assert body == kinds.dispatch("version", {})
        with urllib.request.urlopen(url + "pyodide/pyodide.asm.wasm", timeout=10) as response:
            assert response.headers["Content-Type"] == "application/wasm"
            assert response.read() == FAKE_WASM
        for path in ("/js/../../pyproject.toml", "/js/%2e%2e/%2e%2e/pyproject.toml",
                     "/js/..%2f..%2fpyproject.toml"):
            (web.parent / "pyproject.toml").write_text("[project]\n")
            status, data = _raw_get(port, path)
            assert status == 404 and b"[project]" not in data, (path, data[:300])
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_star_imports_of_urlcalc_modules_give_their_public_names() -> None:
    # `from urlcalc.serving.app import *` must work and give every name __all__ lists (an empty or
    # misspelt entry makes the star import raise AttributeError)
    import importlib
    import pkgutil

    import urlcalc

    checked = 0
    for info in pkgutil.walk_packages(urlcalc.__path__, "urlcalc."):
        if info.name == "urlcalc.__main__":  # runs the CLI
            continue
        module = importlib.import_module(info.name)
        names = getattr(module, "__all__", None)
        if names is None:
            continue
        namespace: dict[str, Any] = {}
        exec(f"from {info.name} import *", namespace)
        assert set(names) <= set(namespace), info.name
        checked += 1
    assert checked >= 10 and {"create_app", "serve", "warm_up"} <= set(server.__all__)


@pytest.mark.parametrize("path", ["/api//parse", "/api/parse/", "/js//app.js", "/css/", "/api",
                                  "/licenses//README.txt", "/pyodide//pyodide.mjs",
                                  "/index.html/", "/config.json/"])
def test_a_slash_too_many_or_too_few_is_a_404(client: FlaskClient, path: str) -> None:
    """No route ends in "/" and merge_slashes is off: a slash too many or too few is a JSON 404
    like any other bad path, not a redirect."""
    response = client.get(path)
    assert response.status_code == 404, (path, response.status_code)
    assert "Location" not in response.headers
    assert error_of(response).startswith("not found")


def test_an_empty_path_is_redirected_to_the_page(client: FlaskClient) -> None:
    """The one routing redirect: a request whose path is empty (PATH_INFO "", as an
    absolute-form request target without a path gives) is sent to "/" (werkzeug's
    RequestRedirect, which Flask answers without calling the error handlers), with the security
    headers."""
    response = client.get("/", environ_overrides={"PATH_INFO": ""})
    assert response.status_code == 308
    assert response.headers["Location"].endswith("/")
    assert response.headers["Content-Security-Policy"] == CSP
