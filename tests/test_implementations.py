"""The Implementations model (urlcalc.implementations): each adapter on a fixed table of inputs
(parse, failure, non-ASCII host, relative with a base) with hand-derived expectations; the
explanations of differences; whatwg-url (the reference implementation, through the node helper)
against urlcalc on every WPT input; "not available" when a package, node, the whatwg-url bundle
or a working helper is missing (never an exception, never a 5xx); the CLI and the API; the WPT
score table in sync with docs/interop.md and docs/implementations.md."""

from __future__ import annotations

import json
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cases import host_inputs, url_inputs

from urlcalc import URL, URLParseError
from urlcalc.cli import main as cli_main
from urlcalc.implementations import (
    IMPLEMENTATIONS,
    MAX_IMPLEMENTATIONS_CHARS,
    implementations_model,
    node_adapter,
    scores,
)
from urlcalc.implementations.ada_adapter import ADA
from urlcalc.implementations.base import Implementation
from urlcalc.implementations.node_adapter import NODE, WHATWG_URL, NodeHelper, set_helper
from urlcalc.implementations.rfc3986_adapter import RFC3986
from urlcalc.implementations.urllib_adapter import URLLIB
from urlcalc.implementations.yarl_adapter import YARL
from urlcalc.model.limits import ModelError
from urlcalc.serving.app import create_app

REPO = Path(__file__).resolve().parent.parent
BASE = "http://a/b/c/d;p?q"  # RFC 3986 section 5.4's base
MIXED = "HTTP://User:Pw@EXAMPLE.com:8080/a/./b?q=1#f"

NODE_READY = node_adapter.helper()
_NODE_REASON = WHATWG_URL.unavailable()
needs_node = pytest.mark.skipif(_NODE_REASON is not None,
                                reason=f"whatwg-url under node: {_NODE_REASON}")


def _getters(impl: Implementation, input: str, base: str | None = None) -> dict[str, Any]:
    reading = impl.read(input, base)
    assert reading.ok, reading.failure
    return reading.getters


# --- each adapter on a fixed table ---------------------------------------------------------------
# (input, base, expected getters; None where the library has no such notion), by hand from each
# library's documented behaviour.

URLLIB_CASES = [
    (MIXED, None, {
        "href": "http://User:Pw@EXAMPLE.com:8080/a/./b?q=1#f", "origin": None,
        "protocol": "http:", "username": "User", "password": "Pw", "host": "example.com:8080",
        "hostname": "example.com", "port": "8080", "pathname": "/a/./b", "search": "?q=1",
        "hash": "#f"}),
    ("http://faß.example/ü x", None, {"hostname": "faß.example", "pathname": "/ü x",
                                       "href": "http://faß.example/ü x"}),
    ("../g?y", BASE, {"href": "http://a/b/g?y", "pathname": "/b/g", "search": "?y"}),
    ("http://[::1]:80/", None, {"hostname": "[::1]", "host": "[::1]:80", "port": "80"}),
]

RFC3986_CASES = [
    (MIXED, None, {
        "href": "http://User:Pw@example.com:8080/a/b?q=1#f", "origin": None, "protocol": "http:",
        "username": "User", "password": "Pw", "host": "example.com:8080",
        "hostname": "example.com", "port": "8080", "pathname": "/a/b", "search": "?q=1",
        "hash": "#f"}),
    ("../g?y", BASE, {"href": "http://a/b/g?y", "pathname": "/b/g"}),
    ("http://a:80/%7e", None, {"port": "80", "host": "a:80", "pathname": "/%7E"}),
]

YARL_CASES = [
    (MIXED, None, {
        "href": "http://User:Pw@example.com:8080/a/b?q=1#f", "origin": "http://example.com:8080",
        "protocol": "http:", "username": "User", "password": "Pw", "host": "example.com:8080",
        "hostname": "example.com", "port": "8080", "pathname": "/a/b", "search": "?q=1",
        "hash": "#f"}),
    ("http://faß.example/ü", None, {"hostname": "xn--fa-hia.example", "pathname": "/%C3%BC"}),
    ("../g?y", BASE, {"href": "http://a/b/g?y"}),
    ("http://a:80/x y?a b", None, {"port": "", "href": "http://a/x%20y?a+b"}),
]

WHATWG_CASES = [  # ada-url, whatwg-url, Node's URL: the URL Standard's answers
    (MIXED, None, {
        "href": "http://User:Pw@example.com:8080/a/b?q=1#f", "origin": "http://example.com:8080",
        "protocol": "http:", "username": "User", "password": "Pw", "host": "example.com:8080",
        "hostname": "example.com", "port": "8080", "pathname": "/a/b", "search": "?q=1",
        "hash": "#f"}),
    ("http://faß.example/ü", None, {"href": "http://xn--fa-hia.example/%C3%BC"}),
    ("../g?y", BASE, {"href": "http://a/b/g?y"}),
    ("http://0x7f.1:80/", None, {"host": "127.0.0.1", "port": ""}),
]


def _check(impl: Implementation, cases: list[tuple[str, str | None, dict[str, Any]]]) -> None:
    for input, base, expected in cases:
        got = _getters(impl, input, base)
        assert {k: got[k] for k in expected} == expected, (impl.id, input)


def test_urllib_adapter() -> None:
    _check(URLLIB, URLLIB_CASES)
    failure = URLLIB.read("http://[::1/", None)
    assert not failure.ok and failure.failure == "ValueError: Invalid IPv6 URL"
    # .port raises: that getter (and host, built from it) is an error, the others are read
    reading = URLLIB.read("http://a:99999/x", None)
    assert reading.ok and reading.getters["port"] is None and reading.getters["host"] is None
    assert reading.getter_errors["port"] == "ValueError: Port out of range 0-65535"
    assert reading.getters["pathname"] == "/x"
    relative = URLLIB.read("foo/bar", None)
    assert relative.ok and relative.relative and relative.getters["pathname"] == "foo/bar"


def test_rfc3986_adapter() -> None:
    _check(RFC3986, RFC3986_CASES)
    for bad in ("http://a b/", "http://faß.example/", "http://a:99999/"):
        reading = RFC3986.read(bad, None)
        assert not reading.ok and reading.failure is not None
        assert reading.failure.startswith("InvalidComponentsError"), bad
    assert RFC3986.read("g", "not absolute").failure is not None  # a base must be absolute


def test_yarl_adapter() -> None:
    _check(YARL, YARL_CASES)
    assert YARL.read("http://a:99999/", None).failure == "ValueError: Port out of range 0-65535"
    reading = YARL.read("foo:bar", None)  # no host: no origin
    assert reading.getters["origin"] is None and "origin" in reading.getter_errors


def test_ada_adapter() -> None:
    _check(ADA, WHATWG_CASES)
    assert ADA.read("http://a b/", None).failure == "ValueError: Invalid input"
    assert not ADA.read("../g", None).ok  # no base: the standard fails, so does ada


@needs_node
@pytest.mark.parametrize("impl", [WHATWG_URL, NODE], ids=lambda i: i.id)
def test_node_adapters(impl: Implementation) -> None:
    _check(impl, WHATWG_CASES)
    failure = impl.read("http://a b/", None)
    assert not failure.ok and failure.failure is not None
    assert failure.failure.startswith("TypeError: Invalid URL")
    # a lone surrogate crosses to node as a JSON escape; the URL class converts it to U+FFFD
    assert _getters(impl, "http://h/\ud800")["pathname"] == "/%EF%BF%BD"


def test_versions_and_runtimes_are_named() -> None:
    model = implementations_model("http://a/")
    for entry in model["implementations"]:
        if entry["available"]:
            assert entry["version"] and entry["runtime"], entry["id"]
    by_id = {e["id"]: e for e in model["implementations"]}
    assert by_id["rfc3986"]["version"] == "2.0.0"
    assert by_id["urllib"]["version"] == "{}.{}.{}".format(*sys.version_info[:3])
    if by_id["node"]["available"]:
        assert by_id["node"]["runtime"].startswith("node ")
        assert by_id["node"]["version"].startswith("ada ")


# --- the model: differences and their explanations -----------------------------------------------


def _entry(model: dict[str, Any], impl_id: str) -> dict[str, Any]:
    return next(e for e in model["implementations"] if e["id"] == impl_id)


def _why(model: dict[str, Any], impl_id: str) -> dict[str, str | None]:
    return {d["getter"]: d["explanation"] for d in _entry(model, impl_id)["differences"]}


def test_explanations_for_urllib() -> None:
    model = implementations_model("HTTP://EXAMPLE.com:80/a/./b/../c d?q r#f g")
    why = _why(model, "urllib")
    assert set(why) == {"href", "host", "port", "pathname", "search", "hash"}
    assert "keeps the scheme's default port" in str(why["port"])
    assert "keeps the scheme's default port" in str(why["host"])
    assert "urlsplit keeps dot segments" in str(why["pathname"])
    assert "does not percent-encode the path" in str(why["pathname"])
    assert "does not percent-encode the query" in str(why["search"])
    assert str(why["href"]).startswith("follows from host, port, pathname, search, hash")
    # no notion of an origin: never a difference
    assert _entry(model, "urllib")["getters"]["origin"] is None
    assert "origin" not in why
    assert model["rows"][1]["getter"] == "origin" and not model["rows"][1]["differs"]["urllib"]


def test_explanations_for_hosts() -> None:
    idna = _why(implementations_model("http://faß.example/"), "urllib")
    assert "has no IDNA" in str(idna["hostname"])
    ipv4 = _why(implementations_model("http://0x7f.1/"), "rfc3986")
    assert "does not parse IPv4 addresses" in str(ipv4["hostname"])
    assert "127.0.0.1" in str(ipv4["hostname"])
    backslash = _why(implementations_model("http:\\\\a\\b"), "urllib")
    assert "does not read \\ as /" in str(backslash["hostname"])


def test_explanations_for_yarl_and_rfc3986() -> None:
    yarl = _why(implementations_model("http://a/%7e?a b"), "yarl")
    assert "decodes escapes of unreserved characters" in str(yarl["pathname"])
    assert "writes a space in the query as +" in str(yarl["search"])
    origin = _why(implementations_model("foo://a/b"), "yarl")
    assert "opaque" in str(origin["origin"])
    model = implementations_model("http://faß.example/")
    rfc = _entry(model, "rfc3986")
    assert rfc["ok"] is False and rfc["differs"]
    assert "RFC 3986 URIs are ASCII" in rfc["status_difference"]


def test_a_relative_reference_is_a_status_difference() -> None:
    model = implementations_model("foo/bar")
    assert model["standard"]["ok"] is False
    for impl_id in ("urllib", "rfc3986", "yarl"):
        entry = _entry(model, impl_id)
        assert entry["relative"] and entry["differences"] == []
        assert "relative reference" in entry["status_difference"]
    assert not _entry(model, "ada")["differs"]  # fails, as the standard does


def test_an_unexplained_difference_says_so() -> None:
    # a hand-made "implementation of the standard" that gets the pathname wrong
    fake = Implementation(
        id="fake", name="fake", family="whatwg", runtime_kind="python", about="", call="",
        package="", mapping={}, no_notion={}, unavailable=lambda: None, version=lambda: "1",
        runtime=lambda: "test",
        read=lambda i, b: _replace(ADA.read(i, b), pathname="/wrong"))
    from urlcalc.implementations import _entry as entry_of
    from urlcalc.implementations import _standard
    from urlcalc.implementations.explain import Context

    ctx = Context.of("http://a/x", None)
    entry = entry_of(fake, ctx, _standard(ctx))
    assert [d["getter"] for d in entry["differences"]] == ["pathname"]
    assert entry["differences"][0]["explanation"].startswith("no explanation known: fake")


def _replace(reading: Any, **getters: str) -> Any:
    reading.getters.update(getters)
    return reading


def test_a_library_that_raises_is_a_failure_not_an_exception(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(input: str, base: str | None) -> Any:
        raise RuntimeError("library bug")

    import dataclasses

    import urlcalc.implementations as registry

    monkeypatch.setattr(registry, "IMPLEMENTATIONS", tuple(
        dataclasses.replace(i, read=boom) if i is YARL else i for i in IMPLEMENTATIONS))
    entry = _entry(implementations_model("http://a/"), "yarl")
    assert entry["available"] and entry["ok"] is False
    assert entry["failure"] == "raised RuntimeError: library bug"


def test_model_shape_and_limits() -> None:
    model = implementations_model("../x", "http://a/b/c")
    assert model["kind"] == "implementations"
    assert [e["id"] for e in model["implementations"]] == [i.id for i in IMPLEMENTATIONS]
    for e in model["implementations"]:
        assert {"id", "name", "version", "runtime", "href", "failure", "getters"} <= set(e)
    assert model["standard"]["href"] == "http://a/x"
    with pytest.raises(ModelError, match="too long to compare"):
        implementations_model("http://a/" + "x" * MAX_IMPLEMENTATIONS_CHARS)
    # the longest input answers, from every implementation
    long = implementations_model("http://a/" + "%" * (MAX_IMPLEMENTATIONS_CHARS - 9))
    assert all(e["ok"] is not None for e in long["implementations"] if e["available"])


# --- whatwg-url, the reference implementation, against urlcalc on every WPT input ----------------

# tests/differential/known.py lists where whatwg-url 17.3 and urlcalc's url.bs differ: both
# entries ("search-setter-list-parses-input": the search setter's list; "IPv4-non-ASCII-input":
# an extra validation error) are outside what the Implementations view compares (the getters of
# a parse), so on the getters there must be no difference at all.
KNOWN_DIVERGENCES = ("search-setter-list-parses-input", "IPv4-non-ASCII-input")


def test_known_divergences_are_the_listed_ones() -> None:
    sys.path.insert(0, str(REPO / "tests"))
    from differential.known import KNOWN

    assert tuple(k.id for k in KNOWN) == KNOWN_DIVERGENCES


def _wpt_inputs() -> list[tuple[str, str | None]]:
    return url_inputs() + [(f"https://{host}/x", None) for host in host_inputs()]


@needs_node
def test_whatwg_url_agrees_with_urlcalc_on_every_wpt_input() -> None:
    inputs = _wpt_inputs()
    assert len(inputs) > 3500
    disagreements = []
    for input, base in inputs:
        try:
            ours: dict[str, str] | None = URL(input, base).getters()
        except URLParseError:
            ours = None
        reading = WHATWG_URL.read(input, base)
        theirs = reading.getters if reading.ok else None
        if ours != theirs:
            disagreements.append((input, base, ours, theirs))
    assert disagreements == [], disagreements[:5]


# --- not available: a missing package, node, bundle or helper ------------------------------------


@pytest.fixture
def restore_helper() -> Iterator[None]:
    old = set_helper(None)
    try:
        yield
    finally:
        current = set_helper(old)
        if current is not None:
            current.close()


def test_a_missing_package_is_not_available(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("rfc3986", "yarl", "ada_url"):
        monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError
    model = implementations_model("http://a/")
    for impl_id, package in (("rfc3986", "rfc3986"), ("yarl", "yarl"), ("ada", "ada-url")):
        entry = _entry(model, impl_id)
        assert entry["available"] is False and entry["getters"] is None
        assert f"the {package} package is not installed" in entry["reason"]
        assert "urlcalc[implementations]" in entry["reason"]
    assert set(model["not_available"]) >= {"rfc3986", "yarl", "ada"}
    assert _entry(model, "urllib")["available"]


def test_missing_node_is_not_available(restore_helper: None) -> None:
    set_helper(NodeHelper(node="/nonexistent/node"))
    model = implementations_model("http://a/")
    for impl_id in ("whatwg-url", "node"):
        entry = _entry(model, impl_id)
        assert entry["available"] is False
        assert entry["reason"].startswith("cannot start node")
    assert _entry(model, "urllib")["ok"] is True


def test_node_not_on_path_is_not_available(restore_helper: None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    set_helper(NodeHelper())
    assert _entry(implementations_model("http://a/"), "node")["reason"] == "node is not on PATH"


@needs_node
def test_a_missing_bundle_leaves_node_available(restore_helper: None, tmp_path: Path) -> None:
    set_helper(NodeHelper(bundle=tmp_path / "missing.mjs"))
    model = implementations_model("http://a/")
    assert _entry(model, "node")["available"] and _entry(model, "node")["ok"]
    entry = _entry(model, "whatwg-url")
    assert entry["available"] is False and "whatwg-url is not built" in entry["reason"]
    assert "make npm" in entry["reason"]


def _fake_node(tmp_path: Path, script: str) -> str:
    path = tmp_path / "node"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


HELLO = '{"hello": {"node": "0", "ada": null, "whatwg_url": "1", "whatwg_url_error": null}}'


def test_a_helper_that_never_starts_is_not_available(
        restore_helper: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(node_adapter, "START_TIMEOUT_S", 0.3)
    set_helper(NodeHelper(node=_fake_node(tmp_path, "exec sleep 30\n")))
    entry = _entry(implementations_model("http://a/"), "node")
    assert entry["available"] is False
    assert entry["reason"] == "the node helper did not answer within 0.3 s"


def test_a_hung_helper_is_killed_and_not_available(
        restore_helper: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(node_adapter, "TIMEOUT_S", 0.3)
    helper = NodeHelper(node=_fake_node(tmp_path, f"echo '{HELLO}'\nexec sleep 30\n"))
    set_helper(helper)
    entry = _entry(implementations_model("http://a/"), "whatwg-url")
    assert entry["available"] is False
    assert entry["reason"] == "the node helper did not answer within 0.3 s"
    assert helper._proc is None  # killed
    # and not restarted at every request meanwhile (RETRY_S)
    again = _entry(implementations_model("http://b/"), "node")
    assert again["reason"] == entry["reason"]


def test_a_helper_that_dies_is_not_available(restore_helper: None, tmp_path: Path) -> None:
    set_helper(NodeHelper(node=_fake_node(tmp_path, f"echo '{HELLO}'\nread line\nexit 3\n")))
    entry = _entry(implementations_model("http://a/"), "node")
    assert entry["available"] is False
    assert entry["reason"] == "the node helper exited (status 3)"


def test_missing_node_is_a_200_from_the_api(restore_helper: None) -> None:
    set_helper(NodeHelper(node="/nonexistent/node"))
    client = create_app().test_client()
    response = client.get("/api/implementations", query_string={"input": "http://a/"})
    assert response.status_code == 200
    assert _entry(response.get_json(), "node")["available"] is False


# --- node's request sent ahead, answers matched by id -------------------------------------------


@needs_node
def test_answers_are_matched_by_id_not_by_order(restore_helper: None) -> None:
    helper = NodeHelper()
    set_helper(helper)
    tickets = [helper.send({"op": "parse", "input": f"http://a/{i}", "base": None})
               for i in range(5)]
    for i, ticket in reversed(list(enumerate(tickets))):  # taken in the other order
        assert helper.receive(ticket)["node"]["getters"]["href"] == f"http://a/{i}"


@needs_node
def test_one_helper_request_per_model(restore_helper: None) -> None:
    helper = NodeHelper()
    set_helper(helper)
    implementations_model("http://warm/")
    before = helper._next_id
    model = implementations_model("http://example.com/one")
    assert helper._next_id == before + 1  # sent ahead, taken by both node columns
    for impl_id in ("whatwg-url", "node"):
        assert _entry(model, impl_id)["href"] == "http://example.com/one"
    implementations_model("http://example.com/one")  # the same input again: none sent
    assert helper._next_id == before + 1


@needs_node
def test_answers_nobody_takes_are_bounded_and_wait_for_no_one(restore_helper: None) -> None:
    helper = NodeHelper()
    set_helper(helper)
    for i in range(node_adapter.MAX_UNTAKEN * 2):
        node_adapter.parse_soon(f"http://orphan/{i}", None)
        node_adapter.forget_soon()
    model = implementations_model("http://after/")  # not a stale ticket's 2 s wait
    assert _entry(model, "node")["href"] == "http://after/"
    assert len(helper._answers.by_id) <= node_adapter.MAX_UNTAKEN


@needs_node
def test_models_in_threads_get_their_own_answers(restore_helper: None) -> None:
    from concurrent.futures import ThreadPoolExecutor

    set_helper(NodeHelper())
    inputs = [f"http://h{i}.example/p?{i}" for i in range(60)]
    with ThreadPoolExecutor(6) as pool:
        models = list(pool.map(implementations_model, inputs))
    for text, model in zip(inputs, models, strict=True):
        for impl_id in ("whatwg-url", "node"):
            assert _entry(model, impl_id)["href"] == text


# --- API and CLI ---------------------------------------------------------------------------------


def test_api_get_and_post() -> None:
    client = create_app().test_client()
    got = client.get("/api/implementations",
                     query_string={"input": "../g", "base": BASE}).get_json()
    posted = client.post("/api/implementations", json={"input": "../g", "base": BASE}).get_json()
    assert got["kind"] == posted["kind"] == "implementations"
    assert got["standard"]["href"] == posted["standard"]["href"] == "http://a/b/g"
    assert _entry(got, "urllib")["href"] == "http://a/b/g"
    too_long = client.post("/api/implementations", json={"input": "x" * 5000})
    assert too_long.status_code == 400 and "too long" in too_long.get_json()["error"]
    assert client.post("/api/implementations", json={}).status_code == 400


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["implementations", "HTTP://EXAMPLE.com:80/a/../b"]) == 0
    out = capsys.readouterr().out
    assert "URL Standard (urlcalc):" in out and "urllib.parse" in out
    assert "keeps the scheme's default port" in out
    assert cli_main(["implementations", "../g", "--base", BASE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "implementations"
    first = data["implementations"][0]
    assert {"id", "name", "version", "runtime", "href", "failure", "getters"} <= set(first)


# --- confusion classes and the allowed-host check (urlcalc.implementations.confusion) -----------


def test_each_disagreement_has_its_confusion_class_and_allowed_host_finding() -> None:
    model = implementations_model("http://evil.com\\@good.com/")
    urllib = _entry(model, "urllib")
    assert urllib["confusion"] == {
        "id": "backslash-confusion", "name": "Backslash confusion",
        "getters": ["username", "host", "hostname", "pathname"], "host": True}
    # an allowlist test on urllib's hostname accepts good.com; the standard's host is evil.com
    assert urllib["allowed_host"] == {
        "allowed": "good.com", "standard_host": "evil.com",
        "naive": ["urlsplit-hostname", "substring", "netloc-endswith"]}
    rfc = _entry(model, "rfc3986")
    assert rfc["confusion"] is not None and rfc["confusion"]["id"] == "backslash-confusion"
    assert rfc["confusion"]["host"] is False and rfc["allowed_host"] is None  # its path differs
    assert [f["check"] for f in model["allowed_host"]] == [
        "urlsplit-hostname", "substring", "netloc-endswith"]
    assert {f["allowed"] for f in model["allowed_host"]} == {"good.com"}
    # who agrees has neither
    for e in model["implementations"]:
        if e["available"] and not e["differs"]:
            assert e["confusion"] is None and e["allowed_host"] is None, e["id"]


def test_confusion_fields_when_nothing_differs_or_the_standard_fails() -> None:
    model = implementations_model("https://example.com/a")
    assert model["allowed_host"] == []
    assert _entry(model, "urllib")["confusion"] is None
    failing = implementations_model("//evil.com/x")
    urllib = _entry(failing, "urllib")
    assert urllib["confusion"] is not None and urllib["confusion"]["id"] == "scheme-confusion"
    assert urllib["allowed_host"] is None and failing["allowed_host"] == []  # nothing fetched
    not_run = _entry(implementations_model("http://a/", None), "urllib")
    assert set(not_run) >= {"confusion", "allowed_host"}


def test_the_text_names_the_confusion_class_and_the_naive_tests() -> None:
    from urlcalc.implementations import format_implementations

    text = format_implementations(implementations_model("http://evil.com\\@good.com/"))
    assert "  confusion: Backslash confusion (host)\n" in text
    assert '  allowlist: its hostname "good.com" is not the standard\'s host "evil.com"' in text
    assert ('allowed host: H in url accepts H = "good.com"; the standard\'s host is "evil.com"'
            in text)


# --- WPT scores ----------------------------------------------------------------------------------


def test_score_table_is_the_one_in_the_docs() -> None:
    sys.path.insert(0, str(REPO))
    from benchmarks.interop import FILES, markdown_table

    assert scores.FILES == FILES
    table = markdown_table(scores.FILES, scores.SCORES)
    assert table in (REPO / "docs" / "interop.md").read_text(encoding="utf-8")
    assert table in (REPO / "docs" / "implementations.md").read_text(encoding="utf-8")
    # the reference implementation passes what urlcalc passes
    ours, ref = scores.SCORES["urlcalc"]["scores"], scores.SCORES["whatwg-url"]["scores"]
    assert ref == ours
    assert ours["urltestdata.json"] == [891, 891]
    # every implementation of the model has a row
    assert {i.id for i in IMPLEMENTATIONS} <= set(scores.SCORES)
