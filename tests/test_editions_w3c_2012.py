"""W3C URL 2012 edition: the state machine of seed 003, as written and with errata."""

from __future__ import annotations

import pytest

from urlcalc.editions import w3c_2012 as w


def test_seed_mailto_example_scheme_data() -> None:
    # 4.2: 'If input is "mailto:example@example" ... remaining is "example"'
    trace: list[dict[str, object]] = []
    url = w.basic_parse("mailto:example@example", trace=trace)
    assert url.scheme == "mailto" and url.scheme_data == "example@example"
    assert not url.relative
    at = next(s for s in trace if s["c"] == "@")
    assert "mailto:example@example"[int(str(at["pointer"])) + 1 :] == "example"
    res = w.parse("mailto:example@example")
    assert res.getters["pathname"] == "example@example"
    assert res.getters["href"] == "mailto:example@example"


def test_trace_shape() -> None:
    res = w.parse("http://h/")
    assert res.trace is not None
    first = res.trace[0]
    assert {"state", "pointer", "c", "buffer"} <= first.keys()
    assert first["state"] == "scheme start state" and first["c"] == "h"
    assert res.trace[-1]["c"] == "EOF"


def test_userinfo_host_as_written() -> None:
    # with one '@' the '@' kept in buffer makes step 2's arithmetic come out right
    res = w.parse("http://user@example.com/")
    assert res.getters["hostname"] == "example.com"
    assert res.components["url"]["userinfo"] == "user"


def test_authority_off_by_one_as_written() -> None:
    res = w.parse("http://example.com/")
    assert res.getters["hostname"] == "xample.com"
    assert res.components["errata serialization"] == "http://example.com/"
    assert any(n.rule == "authority state, step 2" for n in res.notes)
    assert w.parse("http://example.com/", errata=True).getters["hostname"] == "example.com"


def test_dot_segments_as_written_and_errata() -> None:
    lit = w.parse("http://u@h/a/b/../c")
    assert lit.getters["pathname"] == "/a//c"
    fixed = w.parse("http://u@h/a/b/../c", errata=True)
    assert fixed.getters["pathname"] == "/a/c"
    # at EOF the literal text works: '..' sets the last string to ''
    assert w.parse("http://u@h/a/b/..").getters["pathname"] == "/a/"
    assert w.parse("http://u@h/a/b/.").getters["pathname"] == "/a/b/"


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("/g", "http://a/g"),
        ("//g", "http://g/"),
        ("?y", "http://a/b/c/d;p?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("../g", "http://a/b/g"),
        ("../../../g", "http://a/g"),
        ("", "http://a/b/c/d;p?q"),
        ("g:h", "g:h"),
    ],
)
def test_rfc_examples_with_errata(ref: str, expected: str) -> None:
    assert w.parse(ref, "http://a/b/c/d;p?q", errata=True).getters["href"] == expected


def test_escape_sets() -> None:
    # simple set: < U+0020 and > U+007E; default: also space " # < > ? `; query: not ?
    url = w.basic_parse('http://u@h/a b"<>`?q q"<>`#f f☺', errata=True)
    assert url.path == ["a%20b%22%3C%3E%60"]
    assert url.query == "q%20q%22%3C%3E%60"
    assert url.fragment == "f f%E2%98%BA"
    assert w.basic_parse("x:a b\x01☺").scheme_data == "a b%01%E2%98%BA"


def test_tab_newline_skipped_and_whitespace_trimmed() -> None:
    url = w.basic_parse("  http://u@h/a\tb\nc  ")
    assert url.path == ["abc"]


def test_percent_2e_is_a_dot() -> None:
    assert w.basic_parse("http://u@h/a/%2e/b").path == ["a", "", "b"]  # '.' then '/' as written
    assert w.basic_parse("http://u@h/a/%2e/b", errata=True).path == ["a", "b"]


def test_windows_drive_quirks() -> None:
    res = w.parse("file:c:\\foo\\bar.html")
    # as written the relative state takes about:blank's scheme
    assert res.getters["protocol"] == "about:"
    fixed = w.parse("file:c:\\foo\\bar.html", errata=True)
    assert fixed.getters["href"] == "file:///c:/foo/bar.html"
    assert w.parse("file:///C|/x", errata=True).getters["href"] == "file:///C:/x"
    assert w.parse("file://c|/x", errata=True).getters["href"] == "file:///c:/x"


def test_no_scheme_without_relative_base_is_fatal() -> None:
    res = w.parse("abc")
    assert res.status == "failure"
    assert res.getters["href"] == "abc"  # href returns the input when the flag is set
    assert res.getters["protocol"] == ":"


def test_port_neuter_and_stub() -> None:
    assert w.parse("http://u@h:8x/").status == "failure"
    res = w.parse("http://u@h:080/")
    assert res.getters["port"] == "080"  # 'parse buffer and set port' is a stub
    assert any("stub" in u for u in res.unspecified)


def test_origin() -> None:
    assert w.parse("https://u@h:443/", errata=True).getters["origin"] == "https://h"
    assert w.parse("mailto:x").getters["origin"] == "null"


def test_setters() -> None:
    url = w.basic_parse("http://h/p?q#f", errata=True)
    w.set_attribute(url, None, "hostname", "example.org", errata=True)
    w.set_attribute(url, None, "port", "81", errata=True)
    w.set_attribute(url, None, "pathname", "/a/b", errata=True)
    w.set_attribute(url, None, "search", "?x=1", errata=True)
    w.set_attribute(url, None, "hash", "#top", errata=True)
    w.set_attribute(url, None, "protocol", "https", errata=True)
    assert url.serialize() == "https://example.org:81/a/b?x=1#top"
    w.set_attribute(url, None, "search", "")
    assert url.query is None
    w.set_attribute(url, None, "href", "ftp://x/", errata=True)
    assert url.serialize() == "ftp://x/"
