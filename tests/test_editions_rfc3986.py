"""RFC 3986 edition: section 5.4 (all examples, exact), 5.2.4's step table, the ABNF
validator, Appendix B and 6.2.2 normalisation, from the RFC's own examples."""

from __future__ import annotations

import pytest

from urlcalc.editions import rfc3986

BASE = "http://a/b/c/d;p?q"

# RFC 3986 section 5.4.1, Normal Examples
NORMAL = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]

# RFC 3986 section 5.4.2, Abnormal Examples
ABNORMAL = [
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),  # strict parser
]


@pytest.mark.parametrize(("ref", "expected"), NORMAL + ABNORMAL)
def test_section_5_4(ref: str, expected: str) -> None:
    res = rfc3986.parse(ref, BASE)
    assert res.ok, res.error
    assert res.components["target_href"] == expected
    # these examples are already in normal form (6.2.2 changes nothing)
    assert res.getters["href"] == expected


def test_http_g_non_strict() -> None:
    # 5.4.2: "http:g" = "http://a/b/c/g" for backward compatibility (non-strict parser)
    res = rfc3986.parse("http:g", BASE)
    assert res.components["non_strict_href"] == "http://a/b/c/g"
    assert any(n.rule == "strict parser" for n in res.notes)


def test_remove_dot_segments_table() -> None:
    # 5.2.4: the RFC's step-by-step example
    steps: list[dict[str, object]] = []
    assert rfc3986.remove_dot_segments("/a/b/c/./../../g", steps) == "/a/g"
    got = [(s["rule"], s["output"], s["input"]) for s in steps]
    assert got == [
        ("1", "", "/a/b/c/./../../g"),
        ("2E", "/a", "/b/c/./../../g"),
        ("2E", "/a/b", "/c/./../../g"),
        ("2E", "/a/b/c", "/./../../g"),
        ("2B", "/a/b/c", "/../../g"),
        ("2C", "/a/b", "/../g"),
        ("2C", "/a", "/g"),
        ("2E", "/a/g", ""),
    ]


def test_remove_dot_segments_relative_example() -> None:
    # 5.2.4: "mid/content=5/../6" -> "mid/6"
    assert rfc3986.remove_dot_segments("mid/content=5/../6") == "mid/6"


def test_trace_records_merge_and_loop() -> None:
    res = rfc3986.parse("../g", BASE)
    assert res.trace is not None
    texts = [str(s.get("text", "")) for s in res.trace if s["step"] == "5.2.2"]
    assert any("merge" in t and "'/b/c/../g'" in t for t in texts)
    loop = [s for s in res.trace if s["step"] == "5.2.4"]
    assert loop[-1]["output"] == "/b/g"


def test_appendix_b_example() -> None:
    c = rfc3986.split("http://www.ics.uci.edu/pub/ietf/uri/#Related")
    assert c.to_json() == {
        "scheme": "http",
        "authority": "www.ics.uci.edu",
        "path": "/pub/ietf/uri/",
        "query": None,
        "fragment": "Related",
    }


def test_section_3_example_components() -> None:
    res = rfc3986.parse("foo://example.com:8042/over/there?name=ferret#nose")
    assert res.ok
    assert res.components["appendix_b"] == {
        "scheme": "foo",
        "authority": "example.com:8042",
        "path": "/over/there",
        "query": "name=ferret",
        "fragment": "nose",
    }
    assert res.getters["port"] == "8042"
    assert res.getters["hostname"] == "example.com"
    assert res.getters["search"] == "?name=ferret"
    assert res.getters["hash"] == "#nose"
    assert res.getters["origin"] is None


# 1.1.2 Examples: all valid URIs
@pytest.mark.parametrize(
    "uri",
    [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        "urn:example:animal:ferret:nose",
    ],
)
def test_section_1_1_2_examples_are_valid(uri: str) -> None:
    v = rfc3986.validate(uri)
    assert v.valid and v.production == "URI", v.message
    assert rfc3986.parse(uri).getters["href"] == uri


def test_host_kinds() -> None:
    assert rfc3986.validate("telnet://192.0.2.16:80/").host_kind == "IPv4address"
    assert rfc3986.validate("ldap://[2001:db8::7]/").host_kind == "IP-literal"
    assert rfc3986.validate("http://[v7.x:y]/").host_kind == "IP-literal"
    assert rfc3986.validate("http://256.1.1.1/").host_kind == "reg-name"


@pytest.mark.parametrize(
    ("s", "rule"),
    [
        ("http:\\\\example.com\\a\\..\\b", "segment"),
        ("1a:b", "scheme"),
        (":foo", "segment-nz-nc"),
        ("http://a/%zz", "pct-encoded"),
        ("http://a@b@c/", "reg-name"),
        ("http://a:b/", "port"),
        ("http://[::1/", "IP-literal"),
        ("http://[1:2:3:4:5:6:7:8:9]/", "IP-literal"),
        ("http://a/b c", "segment"),
        ("http://a/?q#f#g", "fragment"),
        ("http://a/b?q^", "query"),
        ("http://bücher.de/", "reg-name"),
    ],
)
def test_invalid_reports_rule(s: str, rule: str) -> None:
    res = rfc3986.parse(s)
    assert not res.ok and res.status == "failure"
    assert res.components["validation"]["rule"] == rule
    assert res.components["appendix_b"]["scheme"] is not None or s.startswith(":")


@pytest.mark.parametrize(
    "addr",
    ["::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4", "::ffff:1.2.3.4", "1::2:3"],
)
def test_ipv6_valid(addr: str) -> None:
    assert rfc3986.is_ipv6address(addr)


@pytest.mark.parametrize(
    "addr", ["1:2:3:4:5:6:7", "1::2::3", "1:2:3:4:5:6:7:8:9", "12345::", "1.2.3.4::", ":1:2"]
)
def test_ipv6_invalid(addr: str) -> None:
    assert not rfc3986.is_ipv6address(addr)


def test_normalisation_6_2_2() -> None:
    # 6.2.2.1: HTTP://www.EXAMPLE.com/ -> http://www.example.com/
    assert rfc3986.parse("HTTP://www.EXAMPLE.com/").getters["href"] == "http://www.example.com/"
    # 6.2.2.1: %3a -> %3A ; 6.2.2.2: %7E -> ~
    assert rfc3986.parse("http://a/%3a%7E").getters["href"] == "http://a/%3A~"
    # 6.2.2 example: example://a/b/c/%7Bfoo%7D == eXAMPLE://a/./b/../b/%63/%7bfoo%7d
    res = rfc3986.parse("eXAMPLE://a/./b/../b/%63/%7bfoo%7d")
    assert res.getters["href"] == "example://a/b/c/%7Bfoo%7D"


def test_classic_port_kept() -> None:
    res = rfc3986.parse("HTTP://EXAMPLE.com:80/%7efoo")
    assert res.getters["href"] == "http://example.com:80/~foo"
    assert res.getters["port"] == "80"
    assert any(n.rule == "port" for n in res.notes)


def test_relative_without_base_fails() -> None:
    res = rfc3986.parse("g")
    assert not res.ok
    assert "5.1" in (res.error or "")


def test_to_json_roundtrip() -> None:
    import json

    data = rfc3986.parse("../g", BASE).to_json()
    assert json.loads(json.dumps(data))["getters"]["href"] == "http://a/b/g"
