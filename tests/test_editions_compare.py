"""compare(), format_table() and random_url() over all editions."""

from __future__ import annotations

import json
import random

import pytest

from urlcalc.editions import EDITIONS, GETTERS, get_edition
from urlcalc.editions.compare import compare, format_table, random_url


def current(href: str, origin: str, protocol: str, host: str, pathname: str) -> dict[str, str]:
    return {
        "href": href,
        "origin": origin,
        "protocol": protocol,
        "username": "",
        "password": "",
        "host": host,
        "hostname": host,
        "port": "",
        "pathname": pathname,
        "search": "",
        "hash": "",
    }


CLASSICS = {
    "http:\\\\example.com\\a\\..\\b": current(
        "http://example.com/b", "http://example.com", "http:", "example.com", "/b"
    ),
    # the current standard does not decode %7e
    "HTTP://EXAMPLE.com:80/%7efoo": current(
        "http://example.com/%7efoo", "http://example.com", "http:", "example.com", "/%7efoo"
    ),
    "file:c:\\foo\\bar.html": current(
        "file:///c:/foo/bar.html", "null", "file:", "", "/c:/foo/bar.html"
    ),
}


def test_registry_order_and_interface() -> None:
    assert list(EDITIONS) == [
        "rfc3986",
        "html5_2009",
        "abarth_2010",
        "w3c_2012",
        "whatwg_2014",
        "formal_model",
    ]
    for eid, mod in EDITIONS.items():
        assert eid == mod.ID
        assert mod.NAME and isinstance(mod.YEAR, int) and mod.SOURCE
        assert mod.TERMS and mod.UNSPECIFIED
        res = mod.parse("http://example.com/", None)
        assert res.edition == eid
        assert set(res.getters) == set(GETTERS)
        assert set(res.mapping_notes) == set(GETTERS)
    with pytest.raises(KeyError):
        get_edition("nope")


@pytest.mark.parametrize("url", list(CLASSICS))
def test_classics_structure(url: str) -> None:
    r = compare(url, None, CLASSICS[url])
    assert json.loads(json.dumps(r)) == r
    assert r["input"] == url and r["base"] is None
    assert [e["id"] for e in r["editions"]] == list(EDITIONS)
    assert [row["getter"] for row in r["rows"]] == list(GETTERS)
    for row in r["rows"]:
        assert set(row["values"]) == {"current", *EDITIONS}
        assert set(row["differs"]) == set(EDITIONS)
    for d in r["differences"]:
        assert set(d) == {"edition", "getter", "rule", "section", "text", "kind", "quote"}
        assert d["text"] and d["kind"] in ("rule", "unspecified")
        assert d["quote"] == EDITIONS[d["edition"]].SECTIONS[d["section"]]
    table = format_table(r)
    assert "differences:" in table and "formal_model" in table


def row(r: dict[str, object], getter: str) -> dict[str, dict[str, object]]:
    rows = r["rows"]
    assert isinstance(rows, list)
    return next(x for x in rows if x["getter"] == getter)


def test_backslash_classic() -> None:
    r = compare("http:\\\\example.com\\a\\..\\b", None, CLASSICS["http:\\\\example.com\\a\\..\\b"])
    href = row(r, "href")
    assert href["values"]["formal_model"] == "http://example.com/b"
    assert href["differs"] == {
        "rfc3986": True,  # rejected: '\' is not allowed in a segment
        "html5_2009": True,
        "abarth_2010": False,  # no serialiser in the draft: unspecified (issue 26)
        "w3c_2012": True,  # as written: the host loses its first code point
        "whatwg_2014": False,  # href is cut off in the seed
        "formal_model": False,
    }
    assert href["status"]["abarth_2010"] == href["status"]["whatwg_2014"] == "unspecified"
    diffs = {(d["edition"], d["getter"]): d for d in r["differences"]}
    assert diffs[("rfc3986", "href")]["rule"] == "segment"
    assert diffs[("rfc3986", "href")]["section"] == "3.3"
    assert diffs[("w3c_2012", "hostname")]["rule"] == "authority state, step 2"
    assert diffs[("abarth_2010", "pathname")]["section"] == "3.2"


def test_percent_7e_classic() -> None:
    url = "HTTP://EXAMPLE.com:80/%7efoo"
    r = compare(url, None, CLASSICS[url])
    href = row(r, "href")["values"]
    assert href["rfc3986"] == "http://example.com:80/~foo"
    assert href["html5_2009"] == "HTTP://EXAMPLE.com:80/%7efoo"
    assert href["formal_model"] == "http://example.com/%7efoo"
    diffs = {(d["edition"], d["getter"]): d for d in r["differences"]}
    assert diffs[("rfc3986", "pathname")]["section"] == "6.2.2.2"  # %7e decoded
    assert diffs[("rfc3986", "port")]["section"] == "6.2.3"  # ':80' kept: 6.2.3 not applied
    assert ("formal_model", "href") not in diffs


def test_file_classic() -> None:
    url = "file:c:\\foo\\bar.html"
    r = compare(url, None, CLASSICS[url])
    assert row(r, "href")["status"]["abarth_2010"] == "unspecified"
    assert row(r, "href")["differs"]["abarth_2010"] is False
    assert row(r, "href")["values"]["formal_model"] == "file:///c:/foo/bar.html"
    assert any(u["edition"] == "abarth_2010" and "File URLs" in u["text"] for u in r["unspecified"])


def test_current_failure() -> None:
    r = compare("http://a b/", None, None)
    assert r["current"] is None
    accepted = {d["edition"] for d in r["differences"]}
    assert "abarth_2010" in accepted  # the 2010 draft splits anything with a ':'
    assert "formal_model" not in accepted  # ' ' is not an hchar: the model fails too


def test_with_base() -> None:
    cur = current("http://a/b/g", "http://a", "http:", "a", "/b/g")
    cur["host"] = cur["hostname"] = "a"
    r = compare("../g", "http://a/b/c/d;p?q", cur)
    vals = row(r, "href")["values"]
    assert vals["rfc3986"] == vals["html5_2009"] == vals["formal_model"] == "http://a/b/g"
    assert row(r, "href")["status"]["abarth_2010"] == "unspecified"


@pytest.mark.parametrize("eid", list(EDITIONS))
def test_random_url_deterministic_and_parseable(eid: str) -> None:
    a = [random_url(eid, random.Random(7)) for _ in range(3)]
    b = [random_url(eid, random.Random(7)) for _ in range(3)]
    assert a == b
    rng = random.Random(42)
    for _ in range(60):
        u = random_url(eid, rng)
        for mod in EDITIONS.values():
            json.dumps(mod.parse(u, None).to_json())
            json.dumps(mod.parse(u, "http://a/b/c/d;p?q").to_json())


def test_random_rfc3986_urls_are_mostly_valid() -> None:
    from urlcalc.editions import rfc3986

    rng = random.Random(3)
    urls = [random_url("rfc3986", rng) for _ in range(200)]
    valid = sum(rfc3986.validate(u).valid for u in urls)
    assert valid > 150


@pytest.mark.parametrize("url,base", [("HTTP://a.com:80/./b/%7e?q#f", None), ("x", "file:///C:/a"),
                                      ("http://a b/", None)])
def test_compare_without_traces(url: str, base: str | None) -> None:
    """traces=False (what the Editions view asks per keystroke while no edition's details are
    open): every trace is null, the answer says so, and everything else is as with traces."""
    from urlcalc.editions.view import compare_model

    full = compare_model(url, base)
    lean = compare_model(url, base, traces=False)
    assert full["traces"] is True and lean["traces"] is False
    assert any(ed["trace"] for ed in full["editions"])
    assert all(ed["trace"] is None and ed["trace_clipped"] is None for ed in lean["editions"])
    assert len(json.dumps(lean)) < len(json.dumps(full))
    for model in (full, lean):
        del model["traces"]
        for ed in model["editions"]:
            del ed["trace"], ed["trace_clipped"]
    assert lean == full


# --- the same answer every time: nothing of one comparison is kept for the next ---------------

#: Inputs (and bases) that reach every edition's corners: relative references, file URLs and
#: bases, IPv6, whitespace and C0 controls, non-ASCII, failures of the current standard, and
#: each edition's unspecified places and slips (noted where it is not plain).
VARIED: list[tuple[str, str | None]] = [
    ("https://user:pa@exa mple.com:8080/a/b/../c?q=1#f", None),  # 2012: two slips at once
    ("http://example.com/foo%20bar/baz?x=y#z", None),
    ("https://ex.com/" + "a" * 60, None),
    ("HTTP://[::1]:80/a/./b", None),
    ("http://[0:0:0:0:0:0:13.1.68.3]/", None),  # formal model: the IPv6 placeholder
    ("../g", "http://a/b/c/d;p?q"),  # the 2010 draft: relative references unspecified
    ("//x/y", "https://u:p@h:8080/p/q?r#s"),
    ("?q", "mailto:x"),  # 2012: a base that is not relative, neutered
    ("a", "javascript:x"),  # 2014: the base misread by non-relative-url step 2
    ("x", "file:///C:/a"),  # 2012: the relative state with a null base (the base's parse)
    ("..", "file:///C:/"),
    ("file:c:\\foo\\bar.html", None),  # the 2010 draft: file URLs unspecified
    ("file:/example.com/", "http://example.org/foo/bar"),  # 2012: file takes base's scheme
    ("file:///C:/path/to", None),
    ("file:x", "http://a/"),
    ("http:\\\\example.com\\a\\..\\b", None),
    ("HTTP://EXAMPLE.com:80/%7efoo", None),
    ("http://example.com/foo/bar/../ton", None),  # 2012: authority and '..' slips
    ("http://a@b@c/x/./y/..?q", None),  # 2012: '@' in buffer, './', '..?'
    ("x", "http://h:x/"),  # 2012: the base neutered (InvalidStateError)
    ("http:", "https://a/"),  # 2014 errata: a parse exception
    ("javascript:alert(1)", None),  # 2014: step 2 as written
    ("http://a b/", None),  # the current standard fails
    ("http:foo.com", "http://example.org/foo/bar"),  # RFC 3986 strict / non-strict
    ("foo://h/a/./b/../c", None),  # the 2010 draft: "hierarchical" undefined
    ("non-spec:/.//", None),  # formal model: pathname elided
    ("ftp://u:p@h:21/", None),  # 2012: the port stub keeps the default port
    ("http://www/foo%2Ehtml", None),
    (" \thttp://ex.com/%2e%2E/x\x01 ", None),  # whitespace, a C0 control, %2e
    ("https://bücher.example/☺?é#ü", None),
    ("[", None),
    ("", None),
]


def _answers(cases: list[tuple[str, str | None, bool, bool]]) -> list[str]:
    from urlcalc.editions.view import compare_model

    return [json.dumps(compare_model(i, b, errata=e, traces=t), sort_keys=True)
            for i, b, e, t in cases]


def _fresh_answers(cases: list[tuple[str, str | None, bool, bool]]) -> list[str]:
    """``_answers(cases)`` from a fresh interpreter, whose caches start empty."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import json, sys\n"
            "from urlcalc.editions.view import compare_model\n"
            "print(json.dumps([json.dumps(compare_model(i, b, errata=e, traces=t), "
            "sort_keys=True) for i, b, e, t in json.load(sys.stdin)]))")
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(cases), text=True,
                          capture_output=True, check=True, cwd=Path(__file__).parent.parent)
    answers: list[str] = json.loads(done.stdout)
    return answers


def test_compare_model_same_answer_again_and_in_any_order() -> None:
    """Each answer is the same when asked twice in a row and after any other, here and in a
    fresh interpreter (caches empty) asked in another order: a cache (the 2012 base readings,
    the 2014 railroads, inspect's answers) keeps nothing of one comparison that changes
    another."""
    cases = [(i, b, e, t) for i, b in VARIED for e in (False, True) for t in (True, False)]
    first = _answers(cases)
    for case, answer in zip(cases, first, strict=True):
        assert _answers([case, case]) == [answer, answer], case
    shuffled = list(range(len(cases)))
    random.Random(2012).shuffle(shuffled)
    for k in [*reversed(range(len(cases))), *shuffled]:
        assert _answers([cases[k]]) == [first[k]], cases[k]
    for order in (list(reversed(range(len(cases)))), shuffled):
        assert _fresh_answers([cases[k] for k in order]) == [first[k] for k in order]


def _vandalise(value: object) -> None:
    """Empty every dict and list reachable from ``value``."""
    if isinstance(value, dict):
        for v in value.values():
            _vandalise(v)
        value.clear()
    elif isinstance(value, list):
        for v in value:
            _vandalise(v)
        value.clear()


def test_answers_share_nothing_with_later_ones() -> None:
    """Emptying every dict and list of an answer, and of each edition's own result, changes
    no later answer: nothing an answer holds is kept for the next."""
    import inspect

    from urlcalc.editions.view import compare_model

    for i, b in VARIED:
        for e in (False, True):
            want = _answers([(i, b, e, True)])
            for t in (True, False):
                _vandalise(compare_model(i, b, errata=e, traces=t))
            for mod in EDITIONS.values():
                takes = e and "errata" in inspect.signature(mod.parse).parameters
                res = mod.parse(i, b, errata=True) if takes else mod.parse(i, b)  # type: ignore[call-arg]
                for part in (res.components, res.getters, res.mapping_notes, res.notes,
                             res.unspecified, res.trace, res.alternatives):
                    _vandalise(part)
            assert _answers([(i, b, e, True)]) == want, (i, b, e)


def test_compare_model_from_several_threads() -> None:
    """The server may compare in several threads at once: what the editions share between
    parses (the 2014 railroads, the 2012 base readings) holds nothing of one parse, so each
    thread's answers are the ones it gets alone."""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    cases = [(i, b, e, t) for i, b in VARIED for e in (False, True) for t in (False, True)]
    want = _answers(cases)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as CPython allows
    try:
        with ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda k: _answers([cases[k % len(cases)]])[0],
                                range(3 * len(cases))))
    finally:
        sys.setswitchinterval(interval)
    assert got == [want[k % len(cases)] for k in range(3 * len(cases))]
