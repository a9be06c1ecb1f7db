"""URL Standard 2014 grammar edition: the railroad productions of seed 001, with its
conformance errors and parse exceptions, literal and with errata."""

from __future__ import annotations

from urlcalc.editions import whatwg_2014 as w


def result(url: str, base: str | None = None, errata: bool = True) -> dict[str, object]:
    res = w.parse(url, base, errata=errata)
    assert res.ok, res.error
    out = dict(res.components["result"])
    out["_production"] = res.components["production"]
    out["_errors"] = res.components["conformance errors"]
    return out


def test_seed_all_components_example() -> None:
    # "http://username:password@example.com:8000/path?query#fragment contains values for
    # all URL components except scheme data" (the seed's copy obfuscates the address)
    r = result("http://username:password@example.com:8000/path?query#fragment")
    assert r["scheme"] == "http" and r["username"] == "username"
    assert r["password"] == "password" and r["host"] == "example.com"
    assert r["port"] == "8000" and r["query"] == "query" and r["fragment"] == "fragment"
    assert "schemeData" not in r


def test_seed_scheme_data_examples() -> None:
    # "javascript:doSomething() contains values for only scheme and scheme data"
    r = result("javascript:doSomething()")
    assert r["_production"] == "non-relative-url"
    assert {k: v for k, v in r.items() if not k.startswith("_")} == {
        "scheme": "javascript",
        "schemeData": "doSomething()",
    }
    r = result('javascript:alert("Hello, world!");')
    assert r["schemeData"] == 'alert("Hello, world!");'


def test_seed_non_relative_url_step_2_as_written() -> None:
    # as written, step 2 fails for every scheme that is *not* relative ...
    r = result("javascript:doSomething()", errata=False)
    assert r["_production"] == "relative-url row4"
    literal = w.parse("javascript:doSomething()")
    assert any(n.rule == "non-relative-url step 2 (as written)" for n in literal.notes)
    assert literal.getters["protocol"] == "about:"
    # ... and http URLs become scheme + scheme data
    r = result("http://example.com/", errata=False)
    assert r == {
        "scheme": "http",
        "schemeData": "//example.com/",
        "_production": "non-relative-url",
        "_errors": [],
    }
    res = w.parse("http://example.com/")
    assert any("non-relative-url step 2" in n.rule for n in res.notes)


def test_seed_file_url_rows() -> None:
    r = result("file:c:\\foo\\bar.html")
    assert r["_production"] == "file-url row1" and r["scheme"] == "file"
    path = r["path"]
    assert isinstance(path, dict)
    assert path["matched"] == "foo\\bar.html" and "prepend 'c:'" in path["pending"]
    r = result("/C|\\foo\\bar")
    assert r["_production"] == "file-url row2" and r["scheme"] == "file"
    r = result("file:/example.com/")
    assert r["_production"] == "file-url row3"
    assert r["_errors"] == ["file-url row 3: conformance error"]


def test_seed_relative_rows() -> None:
    # row 1: http://user:pass@example.com:21/foo/bar
    r = result("http://user:pass@example.com:21/foo/bar")
    assert r["_production"] == "relative-url row1" and r["port"] == "21"
    assert r["username"] == "user" and r["password"] == "pass" and r["host"] == "example.com"
    assert r["_errors"] == []
    # row 2: ftp:/example.com/ parsed using a base of http://example.org/foo/bar
    r = result("ftp:/example.com/", "http://example.org/foo/bar")
    assert r["_production"] == "relative-url row2"
    assert r["scheme"] == "ftp" and r["host"] == "example.com"
    assert r["_errors"] == ["relative-url row 2: conformance error"]
    # row 3: http:foo/bar (same scheme as the base: row 2 returns failure)
    r = result("http:foo/bar", "http://example.org/")
    assert r["_production"] == "relative-url row3" and r["host"] == "example.org"
    # row 4: /foo/bar
    r = result("/foo/bar", "http://example.org/x")
    assert r["_production"] == "relative-url row4"
    assert r["scheme"] == "http" and r["host"] == "example.org" and r["_errors"] == []


def test_conformance_error_vs_parse_exception() -> None:
    r = result("http:\\\\example.com\\a\\..\\b")
    assert r["_errors"] == ["relative-url row 1: something other than '//' follows the first colon"]
    res = w.parse("ftp:/:1/", errata=True)
    assert res.status == "failure"
    assert "parse exception" in (res.error or "")
    assert res.components["parse exception"]


def test_leading_whitespace_is_conformance_error() -> None:
    r = result(" http://x/ ")
    assert "leading or trailing ASCII whitespace (removed)" in r["_errors"]  # type: ignore[operator]


def test_default_port_deleted() -> None:
    res = w.parse("HTTP://EXAMPLE.com:80/%7efoo", errata=True)
    assert res.getters["port"] == "" and res.getters["hostname"] == "EXAMPLE.com"
    assert res.getters["protocol"] == "http:"


def test_at_sign_in_host() -> None:
    r = result("http://a@b@c/")
    assert r["username"] == "a%40c" and r["host"] == "b"
    assert "authority: '@' in host (step 6.1)" in r["_errors"]  # type: ignore[operator]


def test_scheme_rule_has_no_digits() -> None:
    # the seed's scheme railroad allows [-a-zA-Z+.] after the first letter: no digits
    r = result("h2:x", errata=True)
    assert r["_production"] == "relative-url row4"


def test_cut_off_is_reported() -> None:
    res = w.parse("http://example.com/a", errata=True)
    assert res.getters["href"] is None and res.getters["pathname"] is None
    assert any("Cut off" in u for u in res.unspecified)
    assert res.components["cut off"]
