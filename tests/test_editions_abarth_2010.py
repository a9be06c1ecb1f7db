"""draft-abarth-url (2010) edition: the split rules of seed 000, and its TODOs reported
as unspecified rather than invented."""

from __future__ import annotations

from pathlib import Path

import pytest

from urlcalc.editions import abarth_2010 as a


def test_full_split() -> None:
    res = a.parse("http://user:pass@host:8080/p/q?x=1#frag")
    c = res.components
    assert (c["scheme"], c["authority"], c["path"], c["query"], c["fragment"]) == (
        "http",
        "user:pass@host:8080",
        "/p/q",
        "x=1",
        "frag",
    )
    assert (c["user-info"], c["user"], c["password"], c["host"], c["port"]) == (
        "user:pass",
        "user",
        "pass",
        "host",
        "8080",
    )


def test_control_characters_trimmed() -> None:
    # 3.1: consume all leading and trailing control characters (<= U+0020)
    res = a.parse("\x01 http://a/ \x1f")
    assert res.components["scheme"] == "http"
    assert res.components["path"] == "/"


def test_user_info_up_to_last_at() -> None:
    # 3.3: "Consume characters up to, but not including the *last* "@" character"
    c = a.parse("http://a@b@c/").components
    assert c["user-info"] == "a@b" and c["host"] == "c"


def test_ipv6_host_keeps_colons() -> None:
    # 3.3: '[' ... ']' with the last ':' before the last ']': all of it is the host
    c = a.parse("http://[::1]/").components
    assert c["host"] == "[::1]" and c["port"] is None
    c = a.parse("http://[::1]:8/").components
    assert c["host"] == "[::1]" and c["port"] == "8"


def test_semicolon_terminates_authority() -> None:
    # 2: ';' is an authority terminating character
    c = a.parse("http://a;b/c").components
    assert c["authority"] == "a" and c["path"] == ";b/c"


def test_any_number_of_slashes_and_backslashes() -> None:
    res = a.parse("http:\\\\example.com\\a\\..\\b")
    assert res.getters["hostname"] == "example.com"
    assert res.getters["pathname"] == "\\a\\..\\b"  # no path semantics in the draft
    assert a.parse("http:////x/").getters["hostname"] == "x"


def test_authority_without_terminator() -> None:
    c = a.parse("http://example.com").components
    assert c["authority"] == "example.com" and c["path"] is None


def test_query_without_fragment() -> None:
    c = a.parse("http://a/b?c").components
    assert c["query"] == "c" and c["fragment"] is None


def test_no_colon_is_invalid() -> None:
    res = a.parse("example")
    assert res.status == "failure"


def test_case_and_port_kept() -> None:
    g = a.parse("HTTP://EXAMPLE.com:80/%7efoo").getters
    assert g["protocol"] == "HTTP:" and g["hostname"] == "EXAMPLE.com"
    assert g["port"] == "80" and g["pathname"] == "/%7efoo"


@pytest.mark.parametrize(
    ("url", "todo"),
    [
        ("file:c:\\foo\\bar.html", "File URLs"),
        ("c:\\foo", "Windows drive specs"),
        ("mailto:someone@example.com", "mailto"),
    ],
)
def test_todos_are_unspecified(url: str, todo: str) -> None:
    res = a.parse(url)
    assert res.status == "unspecified"
    assert not res.ok and res.error is None
    assert any(todo in u for u in res.unspecified)
    assert all(v is None for v in res.getters.values())


def test_path_relative_is_unspecified() -> None:
    res = a.parse("g", "http://a/b/c/d;p?q")
    assert res.status == "unspecified"
    assert any("4.6" in u for u in res.unspecified)


def test_non_hierarchical_base_is_unspecified() -> None:
    res = a.parse("#x", "mailto:a@b")
    assert res.status == "unspecified"


@pytest.mark.parametrize(
    ("spec", "section", "guess"),
    [
        ("//x/y", "4.2", "http://x/y"),  # scheme-relative
        ("/x", "4.3", "http://a/x"),  # authority-relative
        ("?x", "4.4", "http://a/b?x"),  # query-relative
        ("#x", "4.5", "http://a/b?c#x"),  # fragment-relative
    ],
)
def test_lost_resolved_url_formulas_are_unspecified(spec: str, section: str, guess: str) -> None:
    # 4.2-4.5 keep only "let resolved-url be" in the seed: the formula is lost, so the result is
    # unspecified; urlcalc's reconstruction is shown beside it, labelled as urlcalc's
    res = a.parse(spec, "http://a/b?c#d")
    assert res.status == "unspecified" and not res.ok and res.error is None
    assert all(v is None for v in res.getters.values())
    assert any("4.2-4.5" in u and "unspecified" in u for u in res.unspecified)
    recon = res.components[a.RECONSTRUCTION]
    assert recon["resolved-url"] == guess and recon["href"] == guess
    assert recon["by"].startswith("urlcalc")
    note = next(n for n in res.notes if n.section == section)
    assert note.kind == "unspecified" and "urlcalc's reconstruction, not the draft's" in note.text
    seed = (Path(__file__).parent / "data" / "seeds" / "000_abad3b91c4f322b0.txt").read_text()
    assert "let resolved-url be\nThe resolved URL is resolved-url parsed" in seed


@pytest.mark.parametrize(
    ("spec", "href"),
    [
        ("", "http://a/b?c"),  # 4.1: base without its fragment
        ("https://z/", "https://z/"),  # absolute
    ],
)
def test_relative_kinds(spec: str, href: str) -> None:
    res = a.parse(spec, "http://a/b?c#d")
    assert res.ok, res.unspecified
    # the resolved URL is a ParsedURL and the draft has no serialiser: href is unspecified
    # (issue 26), the components keep the string parsed as an absolute URL
    assert res.getters["href"] is None and "href" in res.unspecified_getters
    assert res.components["parsed as an absolute URL"] == href


def test_shared_scheme_resolves_after_scheme() -> None:
    # 4: same hierarchical scheme: the after-scheme is resolved as a relative URL
    # ("/x": authority-relative, whose formula 4.3 is lost: unspecified, reconstruction shown)
    res = a.parse("http:/x", "http://a/b")
    assert any(n.rule == "4: shared scheme" for n in res.notes)
    assert res.status == "unspecified"
    assert res.components[a.RECONSTRUCTION]["href"] == "http://a/x"
