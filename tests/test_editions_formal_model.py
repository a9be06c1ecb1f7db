"""Formal URL model edition: seed 004's examples and the algebra of its operations."""

from __future__ import annotations

import pytest

from urlcalc.editions import formal_model as f


def seq(s: str, mode: str = "web") -> f.URL:
    return f.parse_string(s, mode)[0]


# "A note about multiple slashes": without a base all four are http://foo/bar; against
# http://host/ they give host/foo/bar, host/foo/bar, foo/bar, foo/bar.
@pytest.mark.parametrize(
    ("url", "alone", "against_host"),
    [
        ("http:foo/bar", "http://foo/bar", "http://host/foo/bar"),
        ("http:/foo/bar", "http://foo/bar", "http://host/foo/bar"),
        ("http://foo/bar", "http://foo/bar", "http://foo/bar"),
        ("http:///foo/bar", "http://foo/bar", "http://foo/bar"),
    ],
)
def test_seed_multiple_slashes(url: str, alone: str, against_host: str) -> None:
    assert f.parse(url).getters["href"] == alone
    assert f.parse(url, "http://host/").getters["href"] == against_host


def test_seed_goto_example() -> None:
    # //host goto foo/bar = //host/foo/bar (goto creates the path-root)
    g = f.goto(seq("//host"), seq("foo/bar"))
    assert f.print_url(g) == "//host/foo/bar"
    assert ("path-root", "/") in g


def test_sequence_display() -> None:
    assert f.show(seq("http://a/b/c?q#f")) == (
        "(scheme http)・(authority (host a))・(path-root /)・(dir b)・(file c)・(query q)・"
        "(fragment f)"
    )
    assert f.show([]) == "ε"


def test_ord_and_upto() -> None:
    u = seq("http://a/b/c/d;p?q#f")
    assert f.ord_(u) == "scheme"
    assert f.ord_([]) == "fragment"
    assert f.ord_(seq("../g")) == "dir"
    assert (
        f.show(f.upto(u, "dir")) == "(scheme http)・(authority (host a))・(path-root /)・"
        "(dir b)・(dir c)"
    )
    assert f.show(f.upto(u, "file")) == f.show(f.upto(u, "dir"))
    assert f.show(f.upto(u, "fragment")).endswith("(query q)")
    assert f.upto(u, "scheme") == []


def test_goto_properties() -> None:
    a, b, c = seq("http://a/b/c?q"), seq("../d/e"), seq("?z#y")
    assert f.goto(f.goto(a, b), c) == f.goto(a, f.goto(b, c))  # associative
    assert f.goto([], b) == b
    assert f.goto(a, []) == a  # a has no fragment
    assert f.ord_(f.goto(b, c)) == "dir"  # the least of ord b, ord c
    g = f.goto(a, c)
    assert g[-len(c) :] == c  # url2 is a postfix


def test_force_web_takes_authority_from_first_segment() -> None:
    forced = f.force_web(seq("http:/foo/bar"))
    assert f.print_url(forced) == "http://foo/bar"
    with pytest.raises(f.ModelFailure):
        f.force_web(seq("http:"))


def test_force_file() -> None:
    assert f.print_url(f.force_file(seq("file:/x", "file"))) == "file:///x"
    with pytest.raises(f.ModelFailure):
        f.force_file(seq("file://u@h/x", "file"))


def test_generic_and_legacy_resolution() -> None:
    base = seq("http://a/b/c/d;p?q")
    assert f.print_url(f.generic_resolve(seq("http:g"), base)) == "http:g"
    legacy = f.legacy_strip(seq("http:g"), base)
    assert f.print_url(f.generic_resolve(legacy, base)) == "http://a/b/c/g"
    with pytest.raises(f.ModelFailure):
        f.generic_resolve(seq("g"), seq("//x/"))


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g/"),
        ("?y", "http://a/b/c/d;p?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        ("./g/.", "http://a/b/c/g/"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("http:g", "http://a/b/c/g"),  # legacy resolution, as browsers do
    ],
)
def test_rfc_5_4_examples_by_whatwg_resolution(ref: str, expected: str) -> None:
    assert f.parse(ref, "http://a/b/c/d;p?q").getters["href"] == expected


def test_trace_shows_each_operation() -> None:
    res = f.parse("../g", "http://a/b/c/d;p?q")
    assert res.trace is not None
    ops = [str(s["op"]) for s in res.trace]
    assert ops[:2] == ["parse base (web-mode)", "parse input (web-mode)"]
    assert "ord url1 = dir; base upto dir" in ops
    assert "base goto url1" in ops and "force" in ops
    rules = [s["rule"] for s in res.trace if s["op"] == "path normalisation"]
    assert rules == ["dir c・dir .. ≈ ε"]


def test_path_normalisation_equations() -> None:
    steps: list[dict[str, object]] = []
    out = f.normalise_path(seq("http://h/%2e%2E/a/./b/%2e"), steps)
    assert f.print_url(out) == "http://h/a/b/"
    assert [s["rule"] for s in steps] == [
        "path-root /・dir %2e%2E ≈ path-root /",
        "dir . ≈ ε",
        "file %2e ≈ ε",
    ]


def test_classic_inputs() -> None:
    assert f.parse("http:\\\\example.com\\a\\..\\b").getters["href"] == "http://example.com/b"
    res = f.parse("HTTP://EXAMPLE.com:80/%7efoo")
    assert res.getters["href"] == "http://example.com/%7efoo"
    assert res.getters["port"] == ""
    res = f.parse("file:c:\\foo\\bar.html")
    assert res.getters["href"] == "file:///c:/foo/bar.html"
    assert res.getters["pathname"] == "/c:/foo/bar.html"
    assert res.components["url1"] == (
        "(scheme file)・(drive c:)・(path-root /)・(dir foo)・(file bar.html)"
    )


def test_scheme_based_normalisation() -> None:
    assert f.parse("file://localhost/x").getters["href"] == "file:///x"
    assert f.parse("https://h:443/").getters["href"] == "https://h/"
    assert f.parse("ftp://h:21/").getters["href"] == "ftp://h/"
    assert f.parse("http://@h/").getters["href"] == "http://h/"  # username ε removed


def test_normalise_for_printing() -> None:
    assert f.parse("web+demo:/.//foo").getters["href"] == "web+demo:/.//foo"


def test_ipv4_and_parser_modes() -> None:
    assert f.parse("http://0x7f.1/").getters["hostname"] == "127.0.0.1"
    assert f.parse("http://1.2.3/").getters["hostname"] == "1.2.0.3"
    assert f.parse("x:\\a\\b").components["parser mode"] == "generic"
    assert f.parse("\\a", "http://h/").getters["href"] == "http://h/a"


def test_getters_as_written_and_errata() -> None:
    res = f.parse("http://h/p?q#f")
    assert res.getters["search"] == "q" and res.getters["hash"] == "f"
    assert f.parse("http://h/p#f").getters["hash"] == ""  # "ε if the URL has no query"
    fixed = f.parse("http://h/p#f", errata=True)
    assert fixed.getters["hash"] == "#f"
    assert f.parse("http://h/p?q", errata=True).getters["search"] == "?q"


def test_failures() -> None:
    assert not f.parse("?x", "mailto:a").ok
    assert not f.parse("x").ok
    assert not f.parse("http://a b/").ok
    assert not f.parse("file://u@h/x").ok


@pytest.mark.parametrize(("url", "phase", "host"), [
    ("http://0x7f.1/", "IPv4", "127.0.0.1"),  # agrees with the current standard: flagged anyway
    ("http://bücher.de/", "Nameprep", "xn--bcher-kva.de"),
])
def test_reconstructions_are_flagged_whenever_shown(url: str, phase: str, host: str) -> None:
    # issue 26: "Detect and interpret IPv4 addresses" and "Apply IDNA/ Nameprep normalisation"
    # are only listed in the seed: what urlcalc computes there is its reconstruction
    res = f.parse(url)
    assert res.getters["hostname"] == host
    shown = res.components[f.RECONSTRUCTION_KEY]
    assert f"{phase} (input)" in shown
    assert f.UNSPECIFIED[1] in res.unspecified
    assert any(n.rule == f"host parsing: {phase}" and n.kind == "unspecified" for n in res.notes)
    plain = f.parse("http://example.com/")
    assert f.RECONSTRUCTION_KEY not in plain.components
    assert f.UNSPECIFIED[1] not in plain.unspecified


def test_fallback_parser_mode_note_only_where_it_applies() -> None:
    # parser-mode-for: the supplied mode decides only when the input does not start with a
    # scheme-string followed by ':'; without a base urlcalc chooses it (generic-mode)
    fallback = f.UNSPECIFIED[7]
    assert fallback not in f.parse("http://a/").unspecified
    assert fallback not in f.parse("foo:x").unspecified
    assert fallback in f.parse("x").unspecified
    assert fallback in f.parse("//h/x").unspecified
    assert fallback not in f.parse("x", "http://h/").unspecified
