"""The result model: what the CLI, the API and the page render."""

from __future__ import annotations

import json

import pytest

from urlcalc.answers.answer import dispatch_json
from urlcalc.answers.kinds import dispatch
from urlcalc.model.limits import MAX_OPS, ModelError
from urlcalc.model.results import (
    host_model,
    parse_model,
    percent_model,
    set_model,
    urlencoded_model,
    version_model,
)


def test_parse_model_fields() -> None:
    m = parse_model("HTTP://u@EXAMPLE.com:80/a/../b?q#f", trace=True)
    assert (m["model"], m["version"], m["kind"], m["ok"]) == ("urlcalc", 1, "parse", True)
    assert set(m["engine"]) >= {"name", "python", "unicode", "idna"}
    assert m["getters"]["href"] == "http://u@example.com/b?q#f"
    rec = m["record"]
    assert rec["host"] == {"kind": "domain", "serialized": "example.com", "value": None}
    assert rec["port"] is None and rec["path"] == ["b"] and rec["opaque_path"] is False
    assert rec["blob_url_entry"] is None
    assert m["origin"]["serialized"] == "http://example.com"
    assert [e["name"] for e in m["validation_errors"]] == ["invalid-credentials"]
    assert m["valid"]["valid"] is False
    assert m["trace"]["steps"] and not m["trace"]["truncated"]
    assert "".join(p["text"] for p in m["href_spans"]) == m["getters"]["href"]
    assert {s["component"] for s in m["spans"]} >= {"scheme", "username", "host", "port",
                                                   "path", "query", "fragment", "delimiter"}
    prov = {p["component"]: p for p in m["provenance"]}
    assert prov["scheme"]["normalised"][0]["what"] == "ASCII lowercased"
    assert prov["port"]["normalised"][0]["step"] == "url.bs: port state, step 2.1.3"
    json.dumps(m)  # JSON-serialisable


def test_opaque_path_null_vs_empty() -> None:
    m = parse_model("mailto:x?#")
    assert m["record"]["path"] == "x" and m["record"]["opaque_path"] is True
    assert m["record"]["query"] == "" and m["record"]["fragment"] == ""
    assert m["getters"]["search"] == "" and m["getters"]["hash"] == ""


def test_failure_is_a_result() -> None:
    m = parse_model("https://ex ample.org/")
    assert m["ok"] is False and m["record"] is None
    assert m["failure"]["in"] == "input"
    # url.bs: the domain parser returns failure at step 8 (U+0020 is a forbidden domain code
    # point) without a validation error of its own; domain-to-ASCII is step 2's, on the way.
    assert m["failure"]["error"] is None
    assert m["failure"]["cause"]["algorithm"] == "domain parser"
    assert m["failure"]["cause"]["step"] == "8" and m["failure"]["index"] == 10
    assert m["failure"]["raised"] == ["domain-to-ASCII"]
    b = parse_model("x", "not a base")
    assert b["ok"] is False and b["failure"]["in"] == "base"
    # nothing was parsed: no record, no getters, no coloured spans of the input
    assert b["record"] is None and b["getters"] is None and b["spans"] == []


def test_relative_resolution_provenance() -> None:
    m = parse_model("../c?z", "https://h.com/a/b/x?q#f")
    prov = {p["component"]: p for p in m["provenance"]}
    assert prov["host"]["source"] == "base"
    assert prov["path"]["source"] == "input+base"
    assert prov["query"]["source"] == "input"
    assert m["base_record"]["path"] == ["a", "b", "x"]


def _components(m: dict[str, object]) -> list[str]:
    spans = m["spans"]
    assert isinstance(spans, list)
    comp: list[str] = []
    for span in spans:
        assert span["start"] == len(comp)  # runs cover the input, in order, without gaps
        comp += [span["component"]] * (span["end"] - span["start"])
    return comp


@pytest.mark.parametrize("trace", [False, True])
def test_spans_beyond_the_trace_limit(trace: bool) -> None:
    # Far longer than the trace's 5000 steps: the code points after the traced part must still
    # get their components (they were all "delimiter" once), and the same as with a trace long
    # enough to hold every step.
    path = "/" + "a" * 6000
    text = "https://u:p@h.example:81" + path + "?q=1" + "#frag"
    m = parse_model(text, trace=trace)
    trace_json = m["trace"]
    if trace:
        assert isinstance(trace_json, dict) and trace_json["truncated"]
    comp = _components(m)
    assert len(comp) == len(text)
    q = text.index("?")
    f = text.index("#")
    assert comp[q] == comp[f] == "delimiter"
    assert set(comp[q + 1:f]) == {"query"} and set(comp[f + 1:]) == {"fragment"}
    assert set(comp[text.index(path) + 1:q]) == {"path"}
    assert comp == _components(parse_model(text, max_steps=20_000, trace=True))
    prov = {p["component"]: p for p in m["provenance"]}
    assert prov["query"]["source"] == prov["fragment"]["source"] == "input"


def test_spans_and_provenance_do_not_depend_on_the_trace() -> None:
    for text, base in [("HTTP://u@EXAMPLE.com:80/a/../b?q#f", None), ("../c/./d?z", "https://h/a/b"),
                       ("file:///C|/a/..\\b", None), ("a:b c", None)]:
        short = parse_model(text, base, trace=True, max_steps=3)
        full = parse_model(text, base, trace=True)
        untraced = parse_model(text, base)
        for key in ("spans", "provenance"):
            assert short.get(key) == full.get(key) == untraced.get(key), (text, key)


@pytest.mark.parametrize(("text", "username", "password"), [
    ("http://a@b:c@h/", "a@b", "c"),     # record: username a%40b, password c
    ("http://a:b@c@h/", "a", "b@c"),     # record: username a, password b%40c
])
def test_only_the_last_at_sign_is_a_delimiter(text: str, username: str, password: str) -> None:
    # url.bs: authority state, step 2.1: an earlier "@" joins the credentials as "%40"
    m = parse_model(text)
    pieces = [(s["component"], text[s["start"]:s["end"]]) for s in m["spans"]]
    assert pieces[2:6] == [("username", username), ("delimiter", ":"), ("password", password),
                           ("delimiter", "@")]
    assert m["record"]["username"] + m["record"]["password"] == \
        (username + password).replace("@", "%40")


def test_max_errors_keeps_the_first_errors_and_counts_all() -> None:
    text = "https://example.com/" + "%" * 50
    full = parse_model(text)
    assert full["validation_errors_total"] == len(full["validation_errors"]) == 50
    short = dispatch("parse", {"input": text, "max_errors": 3})
    assert short["validation_errors"] == full["validation_errors"][:3]
    assert short["validation_errors_total"] == 50
    with pytest.raises(ModelError):
        dispatch("parse", {"input": text, "max_errors": -1})


def test_set_model_reports_changes_and_reasons() -> None:
    m = set_model("https://a.com/x", [("username", "bob"), ("protocol", "mailto"),
                                      ("host", "b.com:8"), ("searchParams.append", "k=v w"),
                                      ("href", "::")])
    ops = m["operations"]
    assert ops[0]["changed"] == ["username"] and ops[0]["reason"] is None
    assert ops[1]["changed"] == [] and "special" in ops[1]["reason"]
    assert ops[2]["changed"] == ["host", "port"]
    assert ops[3]["after"]["query"] == "k=v+w"
    assert ops[4]["threw"].startswith("TypeError") and ops[4]["changed"] == []
    assert m["getters"]["href"] == "https://bob@b.com:8/x?k=v+w"


def test_host_percent_urlencoded_version() -> None:
    h = host_model("0x7F.1")
    assert h["domain"]["kind"] == "ipv4" and h["domain"]["serialized"] == "127.0.0.1"
    assert h["opaque"]["serialized"] == "0x7F.1"
    assert host_model("[::1]")["domain"]["kind"] == "ipv6"
    assert host_model("xn--fa-hia.de")["domain"]["unicode"] == "faß.de"
    assert host_model("a b")["domain"]["ok"] is False
    p = percent_model("a b/é", "component percent-encode set")
    assert p["encoded"] == "a%20b%2F%C3%A9" and p["decoded_utf8"] == "a b/é"
    assert percent_model("≡", "special-query percent-encode set", "sjis")["encoded"] == "%81%DF"
    u = urlencoded_model("a=b+c&d")
    assert u["pairs"] == [["a", "b c"], ["d", ""]] and u["serialized"] == "a=b+c&d="
    assert "scheme start state" in version_model()["states"]


@pytest.mark.parametrize(("kind", "params", "message"), [
    ("parse", {}, "missing field 'input'"),
    ("parse", {"input": 5}, "must be str"),
    ("parse", {"input": "x", "trace": "yes"}, "must be bool"),
    ("parse", {"input": "x", "encoding": "klingon"}, "klingon"),
    ("parse", {"input": "x" * (64 * 1024 + 1)}, "64 KiB"),
    ("set", {"input": "https://a/", "ops": [["host"]]}, "pair"),
    ("set", {"input": "https://a/", "ops": [["nope", "x"]]}, "unknown operation"),
    ("set", {"input": "https://a/", "ops": [["host", "x"]] * (MAX_OPS + 1)}, "too many"),
    ("percent", {"input": "x", "encode_set": "nope"}, "unknown percent-encode set"),
    ("nope", {}, "unknown kind"),
])
def test_bad_requests_raise_model_error(kind: str, params: dict[str, object],
                                        message: str) -> None:
    with pytest.raises(ModelError, match=message):
        dispatch(kind, params)


def test_dispatch_json() -> None:
    assert json.loads(dispatch_json("parse", '{"input": "https://x"}'))["ok"] is True
    assert "error" in json.loads(dispatch_json("parse", "not json"))
    assert "error" in json.loads(dispatch_json("parse", "[1]"))


def test_lone_surrogates_in_the_base_become_u_fffd() -> None:
    # Web IDL USVString conversion of the base too (expected values by hand: U+FFFD is EF BF BD
    # in UTF-8, percent-encoded in the path; a lone surrogate is never kept)
    m = parse_model("c", "https://h/\ud800/b")
    assert m["base"] == "https://h/\ufffd/b"
    assert m["base_record"]["path"] == ["%EF%BF%BD", "b"]
    assert m["getters"]["href"] == "https://h/%EF%BF%BD/c"
    assert "\\ud800" not in json.dumps(m)
    failing = parse_model("c", "\udfff")
    assert failing["base"] == "\ufffd" and failing["failure"]["in"] == "base"


def test_empty_special_path_note_only_when_the_path_was_empty() -> None:
    # "https://example.com" has no path in the input: the path state makes it "/" (one empty
    # segment); "https://example.com/" wrote its "/" itself. By hand, not from the model.
    def notes(text: str) -> list[str]:
        prov = {p["component"]: p for p in parse_model(text)["provenance"]}
        return [n["what"] for n in prov["path"]["normalised"]]

    empty = "a special URL's empty path becomes /"
    assert empty in notes("https://example.com")
    assert empty in notes("https://example.com?q")
    assert empty not in notes("https://example.com/")
    assert empty not in notes("https://example.com/a")
    assert empty not in notes("sc://example.com")  # not special: the path stays empty


def test_no_scheme_state_copies_scheme_path_and_query_from_an_opaque_base() -> None:
    # url.bs, no scheme state, step 2: "Otherwise, if base has an opaque path and c is U+0023
    # (#), set url's scheme to base's scheme, url's path to base's path, url's query to base's
    # query, url's fragment to the empty string, and set state to fragment state." (by hand)
    m = parse_model("#f", "sc:opaque?q")
    assert m["getters"]["href"] == "sc:opaque?q#f"
    source = {p["component"]: p["source"] for p in m["provenance"]}
    assert source == {"scheme": "base", "username": "none", "password": "none", "host": "none",
                      "port": "none", "path": "base", "query": "base", "fragment": "input"}


def test_host_model_traces_only_when_asked() -> None:
    # url.bs, host parser, step 5 is the first step a special host goes through ("Let domain be
    # the result of running UTF-8 decode without BOM on the percent-decoding of input."); step 2
    # the first of an opaque host ("If isOpaque is true, then return the result of opaque-host
    # parsing input.")
    traced = host_model("Bücher.example", trace=True)
    assert [traced[k]["trace"]["steps"][0]["step"] for k in ("domain", "opaque")] == ["5", "2"]
    plain = host_model("Bücher.example")
    assert plain["domain"]["trace"] is None and plain["opaque"]["trace"] is None


def test_href_spans_put_the_path_guard_in_the_path() -> None:
    # url.bs, URL serializer: "If url's host is null, url does not have an opaque path, url's
    # path's size is greater than 1, and url's path[0] is the empty string, then append U+002F
    # (/) followed by U+002E (.) to output." The "/." belongs to the path.
    spans = parse_model("web+demo:/.//p")["href_spans"]
    assert spans == [{"text": "web+demo", "component": "scheme"},
                     {"text": ":", "component": "delimiter"},
                     {"text": "/.", "component": "path"}, {"text": "//p", "component": "path"}]


def test_a_non_ascii_domain_says_domain_to_ascii() -> None:
    # url.bs, domain to ASCII: "Let result be the result of running Unicode ToASCII" (UTS #46),
    # whose steps map, normalize and convert with Punycode: a non-ASCII domain's provenance says so
    prov = {p["component"]: p for p in parse_model("http://Bücher.example/")["provenance"]}
    [what] = [n["what"] for n in prov["host"]["normalised"]]
    assert "domain to ASCII" in what and "UTS #46" in what and "Punycode" in what


def test_every_request_kind_and_parameter_is_described() -> None:
    # the OpenAPI document, `urlcalc --help` and the page's API reference show each kind's summary
    # and each parameter's description: none may be empty
    from urlcalc.answers.kinds import KINDS

    params = [(kind, p) for kind, k in KINDS.items() for p in k.params]
    assert len(params) > 10
    assert [(kind, p.name) for kind, p in params if not p.description.strip()] == []
    assert [kind for kind, k in KINDS.items() if not k.summary.strip()] == []


def test_engine_info_is_a_fresh_dict_in_each_answer() -> None:
    """engine_info() is computed once but handed out as a copy: a caller that changes the
    engine of one answer does not change the next answer's."""
    from urlcalc.answers.kinds import dispatch
    from urlcalc.model.runtime import engine_info

    first = dispatch("parse", {"input": "https://example.com/"})
    first["engine"]["name"] = "changed by a caller"
    second = dispatch("parse", {"input": "https://example.com/"})
    assert second["engine"]["name"] != "changed by a caller"
    assert engine_info() == second["engine"] and engine_info() is not engine_info()
