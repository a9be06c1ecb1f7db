"""Fuzz the JSON API in-process (the WSGI app, no network) from its OpenAPI description with
Schemathesis, then with malformed requests the description cannot express.

Every response must be: not a 5xx; a status code the description lists for the operation; JSON
that conforms to the described schema (the result model for 200, {"error": "..."} for a 4xx);
and every refusal names its problem. ``make test`` runs a bounded, deterministic run (fixed seed,
derandomized: a few hundred requests); ``make fuzz`` (benchmarks/fuzz.py) sets
``API_FUZZ_EXAMPLES`` for a longer run. The counts are printed at the end of the pytest run
(tests/conftest.py), like the property tests' example counts.

tests/test_server.py already covers the fixed malformed bodies (not JSON, wrong content types,
the size limits, deep nesting, 65 setter operations, unknown labels); the malformed-body fuzz
here draws *combinations* of those hazards with Hypothesis."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from required import import_or_missing

from urlcalc.answers import kinds
from urlcalc.serving.app import API_KINDS, MAX_BODY_BYTES, create_app

schemathesis = import_or_missing("schemathesis", "pip install -e '.[dev]' (make venv)")
from schemathesis import checks as st_checks  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402

# Examples per operation in the Schemathesis fuzzing phase (18 operations); the coverage phase
# adds its own deterministic boundary cases (lengths at and over the limits, wrong types, ...).
EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "12"))
MALFORMED_EXAMPLES = int(os.environ.get("API_FUZZ_MALFORMED", "150"))
DEEP = "API_FUZZ_EXAMPLES" in os.environ
SEED = 20240611

#: Requests the app answered, by status class ("2xx", "4xx", "5xx"); read by tests/conftest.py.
COUNTS: Counter[str] = Counter()
FIVE_XX: list[str] = []


class Counting:
    """WSGI middleware: counts every request and its status; remembers any 5xx."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            COUNTS[status[0] + "xx"] += 1
            if status.startswith("5"):
                FIVE_XX.append(f"{environ.get('REQUEST_METHOD')} {environ.get('PATH_INFO')} "
                               f"-> {status}")
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


APP = create_app()
APP.wsgi_app = Counting(APP.wsgi_app)  # type: ignore[method-assign]

CONFIG = SchemathesisConfig.from_dict({
    "seed": SEED,
    "generation": {"mode": "all", "max-examples": EXAMPLES, "deterministic": not DEEP,
                   "database": "none"},
    # Stateful testing needs links between operations; this API has none.
    "phases": {"stateful": {"enabled": False}},
    "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large"],
    # The WSGI transport hands Schemathesis the raw body: ask for it uncompressed (the gzip
    # path is exercised by test_malformed_bodies_never_5xx below).
    "headers": {"Accept-Encoding": "identity"},
})
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP, config=CONFIG)

CHECKS = [
    st_checks.not_a_server_error,
    st_checks.status_code_conformance,
    st_checks.content_type_conformance,
    st_checks.response_schema_conformance,
]


def assert_named_error(status: int, body: bytes, content_type: str | None) -> None:
    """A refusal is a JSON object {"error": "<non-empty message>"}."""
    assert 400 <= status < 500, (status, body[:300])
    assert (content_type or "").startswith("application/json"), content_type
    payload = json.loads(body)
    assert isinstance(payload, dict) and set(payload) == {"error"}, payload
    assert isinstance(payload["error"], str) and payload["error"].strip(), payload


@schema.parametrize()
def test_api_conforms_to_its_description(case: Any) -> None:
    response = case.call_and_validate(checks=CHECKS)
    if response.status_code >= 400:
        ctype = response.headers.get("content-type")  # Schemathesis: lower-case name -> list
        assert_named_error(response.status_code, response.content,
                           ctype[0] if isinstance(ctype, list) else ctype)


# --- beyond the schema: malformed bodies, drawn in combinations -----------------------------------

def _nest(depth: int, leaf: str) -> str:
    return "[" * depth + leaf + "]" * depth


LONE = ['"\\ud800"', '"\\udfff"', '"a\\ud83d"', '"\\udc00\\ud800"', '"\\ud800\\u0000"']
JSON_VALUES = st.one_of(
    st.sampled_from([*LONE, '""', "null", "true", "0", "-1e999", "1e400", "[]", "{}", '"x"',
                     '"https://a/"', '"\\u0000"', '"%"', '"\\u202e"']),
    st.builds(lambda n: _nest(n, "0"), st.sampled_from([10, 900, 5_000, 50_000])),
    st.builds(lambda n, c: json.dumps(c * n), st.sampled_from([1, 1_000, 70_000]),
              st.sampled_from(["a", "é", "\U0001f600", "%", "/"])),
)
FIELDS = ["input", "base", "encoding", "trace", "ops", "encode_set", "errata", "edition", "seed",
          "", "__proto__"]
LABELS = ["utf-8", " UTF-8 ", "bogus", "\\ud800", "x-user-defined", "replacement", "utf-16le",
          "iso-2022-jp", "\\u0000", "unicode-1-1-utf-8"]


@st.composite
def json_ish_bodies(draw: st.DrawFn) -> bytes:
    """Mostly-JSON objects with hostile members: lone surrogates, deep nesting, huge strings,
    too many setter ops, odd encoding labels, duplicate keys, trailing garbage."""
    members = []
    for _ in range(draw(st.integers(0, 5))):
        name = draw(st.sampled_from(FIELDS))
        if name == "ops" and draw(st.booleans()):
            count = draw(st.sampled_from([0, 1, 64, 65, 1_000]))
            op = draw(st.sampled_from(['["host", "x"]', '["hash", "\\ud800"]', '["nope", "x"]',
                                       '["searchParams.append", "\\udfff=\\ud800"]', '["port"]',
                                       "[1, 2]", '"host"']))
            value = "[" + ", ".join([op] * count) + "]"
        elif name == "encoding" and draw(st.booleans()):
            value = json.dumps(draw(st.sampled_from(LABELS))).replace("\\\\", "\\")
        else:
            value = draw(JSON_VALUES)
        members.append(f"{json.dumps(name)}: {value}")
    body = "{" + ", ".join(members) + "}"
    body = draw(st.sampled_from([body, body, body, body + "x", body[:-1], " \n" + body,
                                 "\ufeff" + body, "[" + body + "]"]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-16", "latin-1"]))
    return body.encode(encoding, "replace")


RAW_BODIES = st.one_of(
    json_ish_bodies(),
    st.binary(max_size=300),
    st.builds(lambda n: b"{" * n, st.sampled_from([1, 100_000])),
    st.builds(lambda n: b" " * n, st.sampled_from([1, MAX_BODY_BYTES + 1])),
    st.builds(lambda n: b'{"input": "' + b"a" * n + b'"}',
              st.sampled_from([65_536, 65_537, MAX_BODY_BYTES])),
)
CONTENT_TYPES = st.sampled_from([
    "application/json", "application/json", "application/json; charset=utf-8",
    "application/json; charset=latin-1", "APPLICATION/JSON", "application/json;;;", "text/plain",
    "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "*/*",
    "application/problem+json", "application/json\u0000",
])
KINDS = st.sampled_from([*API_KINDS, "openapi.json", "", "PARSE", "parse/", "..%2fversion"])


@settings(max_examples=MALFORMED_EXAMPLES, derandomize=not DEEP, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(kind=KINDS, body=RAW_BODIES, ctype=CONTENT_TYPES,
       old_soft_header=st.booleans(), gzip_ok=st.booleans())
def test_malformed_bodies_never_5xx(kind: str, body: bytes, ctype: str, old_soft_header: bool,
                                    gzip_ok: bool) -> None:
    client = APP.test_client()
    headers = {"Content-Type": ctype} if ctype else {}
    if old_soft_header:  # the page's old ask for refusals with status 200: now ignored
        headers["X-Urlcalc-Soft-Errors"] = "1"
    headers["Accept-Encoding"] = "gzip" if gzip_ok else "identity"
    response = client.post(f"/api/{kind}", data=body, headers=headers)
    data = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        import gzip

        data = gzip.decompress(data)
    assert response.status_code < 500, (kind, body[:200], data[:300])
    if response.status_code >= 400 and response.status_code not in (301, 308):
        assert_named_error(response.status_code, data, response.content_type)
    elif response.status_code == 200 and kind in API_KINDS:
        payload = json.loads(data)
        assert payload["kind"] == kind and payload["model"] == "urlcalc", payload
        # the answer is the model's own answer for the same parameters
        # (a random draw without a seed is fresh each time)
        if kind != "random":
            assert payload == json.loads(json.dumps(kinds.dispatch(kind, json.loads(body))))


QUERY_VALUES = st.one_of(st.sampled_from(["", "1", "0", "true", "%", "\x00", "\ud800", "a" * 70_000,
                                          "bogus", "https://a/"]),
                         st.text(max_size=30))


@settings(max_examples=MALFORMED_EXAMPLES // 2, derandomize=not DEEP, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(kind=st.sampled_from(API_KINDS),
       query=st.lists(st.tuples(st.sampled_from([*FIELDS, "op", "value"]), QUERY_VALUES),
                      max_size=8))
def test_malformed_queries_never_5xx(kind: str, query: list[tuple[str, str]]) -> None:
    client = APP.test_client()
    # Built by hand: lone surrogates travel as their (ill-formed) UTF-8 bytes, %ED%A0%80.
    qs = "&".join(quote(k) + "=" + quote(v.encode("utf-8", "surrogatepass")) for k, v in query)
    response = client.get(f"/api/{kind}?{qs}")
    assert response.status_code < 500, (kind, query, response.data[:300])
    if response.status_code >= 400:
        assert_named_error(response.status_code, response.get_data(), response.content_type)
    else:
        assert response.get_json()["kind"] == kind


def test_no_5xx_seen() -> None:
    """Runs after the fuzz tests in this module (pytest keeps file order)."""
    assert sum(COUNTS.values()) > 0 or os.environ.get("PYTEST_XDIST_WORKER")
    assert FIVE_XX == [], FIVE_XX[:20]
