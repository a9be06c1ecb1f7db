"""HTML5 "Web addresses" (2009) edition, from seed 002's own examples and rules."""

from __future__ import annotations

import pytest

from urlcalc.editions import html5_2009 as h


def test_seed_path_example() -> None:
    # resolve, path step: "//example.com/a^b☺c%FFd%z/?e" -> "//example.com/a%5Eb%E2%98%BAc%FFd%z/?e"
    res = h.parse("//example.com/a^b☺c%FFd%z/?e", "http://x/")
    assert res.ok, res.error
    assert res.trace is not None
    ws = [s["w"] for s in res.trace if "after host / path / query" in str(s["step"])]
    assert ws == ["//example.com/a%5Eb%E2%98%BAc%FFd%z/?e"]
    assert res.getters["href"] == "http://example.com/a%5Eb%E2%98%BAc%FFd%z/?e"
    assert res.getters["pathname"] == "/a%5Eb%E2%98%BAc%FFd%z/"


def test_seed_path_component_substring() -> None:
    # "the <path> component's substring would be "/a^b☺c%FFd%z/""
    parts = h.parse_web_address("//example.com/a^b☺c%FFd%z/?e")
    assert parts.path == "/a^b☺c%FFd%z/"
    assert parts.query == "e"
    assert parts.host == "example.com"


def test_seed_percent_sign_double_encoded() -> None:
    # parse step 2 note: percent-encoding the percent sign double-encodes escapes ...
    assert h.preprocess("/%7e") == "/%257e"
    # ... and decoding the matched substring gives the original back
    assert h.parse_web_address("http://a/%7e").path == "/%7e"


def test_seed_brackets_rule() -> None:
    # after '<scheme>://' or '//': brackets after the first / ? # following '//' are encoded
    assert h.preprocess("http://[::1]/[x]") == "http://[::1]/%5Bx%5D"
    assert h.preprocess("//[::1]?[") == "//[::1]?%5B"
    # otherwise all brackets are encoded
    assert h.preprocess("a/[b]") == "a/%5Bb%5D"


def test_seed_extra_hash() -> None:
    assert h.preprocess("http://a/b#c#d") == "http://a/b#c%23d"
    res = h.parse("http://a/b#c#d")
    assert res.getters["hash"] == "#c#d"


def test_seed_ipvfuture_lookahead_example() -> None:
    # "x://[v42.3]:2323]:2323:2323]:2323" has one parse under the old rules (appendix);
    # under the 2009 formulation the brackets are kept and RFC 3986's port rule fails.
    res = h.parse("x://[v42.3]:2323]:2323:2323]:2323")
    assert res.status == "failure"
    assert "DIGIT" in (res.error or "")


def test_seed_data_uri_with_authority_is_error() -> None:
    # resolve: "a data: URI using the "//" server-based naming authority syntax" is an error
    assert not h.parse("data://example.com/x").ok


def test_idna2003_to_ascii() -> None:
    res = h.parse("http://Bücher.de/")
    assert res.getters["hostname"] == "xn--bcher-kva.de"
    # ASCII labels skip nameprep: no case folding in ToASCII
    assert h.parse("http://EXAMPLE.com/").getters["hostname"] == "EXAMPLE.com"


def test_std3_rules_reject() -> None:
    res = h.parse("http://ex_ample.com/")
    assert res.status == "failure"
    assert "UseSTD3ASCIIRules" in (res.error or "")


def test_host_invalid_utf8_is_error() -> None:
    assert not h.parse("http://%FF.com/").ok


def test_backslash_replacement_only_sees_surviving_backslashes() -> None:
    res = h.parse("http:\\\\example.com\\a\\..\\b")
    assert res.getters["href"] == "http:%5C%5Cexample.com%5Ca%5C..%5Cb"
    assert any(n.rule == "server-based backslashes" for n in res.notes)
    # a backslash in the fragment survives until the last step and becomes '/'
    assert h.parse("http://a/b#c\\d").getters["href"] == "http://a/b#c/d"
    assert h.parse("mailto:a#c\\d").getters["href"] == "mailto:a#c\\d"


def test_hostport_and_port() -> None:
    res = h.parse("HTTP://EXAMPLE.com:80/%7efoo")
    assert res.getters["href"] == "HTTP://EXAMPLE.com:80/%7efoo"
    assert res.getters["host"] == "EXAMPLE.com"  # <hostport> omits the default port
    assert res.getters["port"] == "80"
    assert h.parse("http://a:81/").getters["host"] == "a:81"


def test_file_drive_letter() -> None:
    res = h.parse("file:c:\\foo\\bar.html")
    assert res.getters["href"] == "file:c:%5Cfoo%5Cbar.html"
    assert res.getters["pathname"] == "c:%5Cfoo%5Cbar.html"


def test_spaces_stripped_and_encoded() -> None:
    res = h.parse("  http://a/b c?d e  ")
    assert res.getters["href"] == "http://a/b%20c?d%20e"


@pytest.mark.parametrize(
    ("ref", "expected"),
    [("g", "http://a/b/c/g"), ("../g", "http://a/b/g"), ("?y", "http://a/b/c/d;p?y")],
)
def test_resolution_uses_rfc3986_5_2(ref: str, expected: str) -> None:
    assert h.parse(ref, "http://a/b/c/d;p?q").getters["href"] == expected


def test_no_base_is_unspecified_error() -> None:
    res = h.parse("g")
    assert not res.ok
    assert res.unspecified


def test_getters_absent() -> None:
    g = h.parse("http://u:p@a/").getters
    assert g["username"] is None and g["password"] is None and g["origin"] is None


@pytest.mark.parametrize(("url", "step"), [
    ("http://[0:0:0:0:0:0:0:1]:8080/", "step 3 (UseSTD3ASCIIRules)"),  # '[' is not LDH
    ("http://[::1]/", "step 3 (UseSTD3ASCIIRules)"),
    ("http:///x", "step 8"),  # the empty host is one empty label
    ("file:///x", "step 8"),
])
def test_to_ascii_on_every_host(url: str, step: str) -> None:
    # issue 26: "Apply the IDNA ToASCII algorithm to the matching substring, with both the
    # AllowUnassigned and UseSTD3ASCIIRules flags set" -- brackets and empty hosts included;
    # "If ToASCII fails to convert one of the components of the string ... return an error"
    res = h.parse(url)
    assert res.status == "failure"
    assert step in (res.error or "")
    assert any(n.section == "resolve: host error" for n in res.notes)
