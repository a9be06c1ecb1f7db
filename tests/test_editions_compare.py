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
        "abarth_2010": True,
        "w3c_2012": True,  # as written: the host loses its first code point
        "whatwg_2014": False,  # href is cut off in the seed
        "formal_model": False,
    }
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
    from urlcalc.editions_view import compare_model

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
