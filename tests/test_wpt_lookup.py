"""Is this in WPT? (urlcalc.site.wpt, the ``wpt`` request kind): exact hits, case and
percent-encoding variants, the same failure step, setter and IDNA entries, misses with their
nearest entries, bounded answers; every entry named is the one the WPT file holds at that index."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import cost as bench
from urlcalc.answers.answer import answer
from urlcalc.answers.cost import SMALL_COST_MS, estimate
from urlcalc.site import wpt
from urlcalc.site.wpt import MAX_EXACT, MAX_IDNA, MAX_NEAREST, MAX_SETTERS, normalize, wpt_model

WPT = Path(__file__).parent / "data" / "wpt"
URLTESTDATA: list[Any] = json.loads((WPT / "urltestdata.json").read_text("utf-8"))
SETTERS: dict[str, Any] = json.loads((WPT / "setters_tests.json").read_text("utf-8"))
IDNA = {name: json.loads((WPT / name).read_text("utf-8"))
        for name in ("toascii.json", "IdnaTestV2.json")}
#: An answer's JSON may not exceed this (every list is capped: MAX_EXACT ... MAX_IDNA).
MAX_ANSWER_BYTES = 24_000


def in_file(entry: dict[str, Any]) -> dict[str, Any]:
    """The WPT entry an answer's entry names (file and index)."""
    if entry["file"] == "urltestdata.json":
        found: dict[str, Any] = URLTESTDATA[entry["index"]]
    elif entry["file"] == "setters_tests.json":
        found = SETTERS[entry["setter"]][entry["index"]]
    else:
        found = IDNA[entry["file"]][entry["index"]]
    return found


def test_the_data_file_is_current() -> None:
    written = (Path(wpt.__file__).parents[1] / wpt.DATA).read_text("utf-8")
    assert written == wpt.render(wpt.build_cases()), f"stale: run {wpt.COMMAND}"
    revision = json.loads((Path(wpt.__file__).parents[1] / "data" / "wpt_revision.json")
                          .read_text("utf-8"))
    cases = json.loads(written)
    assert cases["sha256"] == {n: revision["sha256"][n] for n in wpt.WPT_FILES}


def test_normalize() -> None:
    assert normalize("HTTP://EX.com/%7e%41%e9Ü") == "http://ex.com/~a%e9Ü"
    assert normalize(None) is None


def test_an_exact_hit() -> None:
    a = wpt_model("http://a b/")
    assert a["kind"] == "wpt" and a["verdict"] == "exact"
    first = a["exact"][0]
    assert first["match"] == "exact" and first["expected"] is None
    assert in_file(first) == {"input": "http://a b/", "base": None, "failure": True}
    # the nearest are other entries, failing at the same step
    assert a["nearest"] and all(e["index"] != first["index"] for e in a["nearest"])


def test_an_exact_hit_with_its_base() -> None:
    e = next(x for x in URLTESTDATA if isinstance(x, dict) and x.get("base")
             and not x.get("failure"))
    a = wpt_model(e["input"], e["base"])
    assert a["verdict"] == "exact"
    hit = a["exact"][0]
    assert in_file(hit) is e and hit["expected"] == e["href"]
    # without the base (or with another one) it is not the same case
    other = wpt_model(e["input"], "http://elsewhere.invalid/")
    assert other["verdict"] != "exact"


def test_a_case_and_percent_variant() -> None:
    a = wpt_model("HTTP://EXAMPLE.COM/%66oo")
    assert a["verdict"] == "variant"
    hit = a["exact"][0]
    assert hit["match"] == "variant" and "case and percent-encoding" in hit["why"][0]
    assert in_file(hit)["input"] == "http://example.com/foo"


def test_the_same_failure_step() -> None:
    a = wpt_model("http://1.2.3.4.5.6/")
    assert a["verdict"] == "none"
    assert len(a["nearest"]) == MAX_NEAREST
    for e in a["nearest"]:
        assert "the same failure: IPv4 parser, step 4" in e["why"]
        assert in_file(e).get("failure") is True and e["expected"] is None


def test_setter_entries_start_from_this_href() -> None:
    a = wpt_model("HTTP://example.com")  # its href is http://example.com/
    assert a["setters"]
    assert {e["setter"] for e in a["setters"]} >= {"host", "hostname"}
    for e in a["setters"]:
        found = in_file(e)
        assert found["href"] == e["input"] == "http://example.com/"
        assert found["new_value"] == e["new_value"]
        assert e["expected"] == "\n".join(f"{k}: {v}" for k, v in found["expected"].items())
    assert len(a["setters"]) <= MAX_SETTERS


def test_idna_entries_for_the_host_as_typed() -> None:
    a = wpt_model("https://faß.de/")
    exact = [e for e in a["idna"] if e["match"] == "exact"]
    assert {e["file"] for e in exact} == {"toascii.json", "IdnaTestV2.json"}
    for e in exact:
        assert in_file(e)["input"] == "faß.de" and e["expected"] == "xn--fa-hia.de"
    variants = [e for e in a["idna"] if e["match"] == "variant"]
    assert variants and all(in_file(e)["input"].lower() == "faß.de" for e in variants)
    # a host WPT does not have: near by its ASCII form, or by its failure step
    near = wpt_model("https://FASS.de:8/")["idna"]
    assert near and near[0]["match"] == "variant" and in_file(near[0])["input"] == "fass.de"
    failing = wpt_model("http://a\u00a0b.invalid/")["idna"]
    assert failing and all(in_file(e)["output"] is None for e in failing)


def test_a_miss_with_its_nearest_entries() -> None:
    a = wpt_model("https://example.org/not/in/wpt?q=1#f")
    assert a["verdict"] == "none" and a["exact"] == []
    assert len(a["nearest"]) == MAX_NEAREST
    for e in a["nearest"]:
        assert e["match"] == "near" and e["why"]
        assert in_file(e)["input"] == e["input"]
        assert "the same host kind: domain" in e["why"]
    assert "the same scheme: https" in a["nearest"][0]["why"]
    assert a["entries"]["urltestdata.json"] == sum(isinstance(x, dict) for x in URLTESTDATA)


def test_every_urltestdata_entry_is_found_and_every_answer_is_bounded() -> None:
    for i, e in enumerate(URLTESTDATA):
        if isinstance(e, str):
            continue
        a = wpt_model(e["input"], e.get("base"))
        assert a["verdict"] == "exact", e
        assert any(x["index"] == i for x in a["exact"]), e
        assert len(a["exact"]) <= MAX_EXACT and len(a["nearest"]) <= MAX_NEAREST
        assert len(a["setters"]) <= MAX_SETTERS and len(a["idna"]) <= MAX_IDNA
        assert len(json.dumps(a)) <= MAX_ANSWER_BYTES, e


def test_a_long_input_gets_a_bounded_answer() -> None:
    a = wpt_model("http://example.com/" + "a" * 60_000)
    assert len(json.dumps(a)) <= MAX_ANSWER_BYTES


def test_the_index_is_built_once() -> None:
    assert wpt._index() is wpt._index()
    assert sum(wpt._index().counts.values()) == sum(
        len(v) for v in wpt._index().by_input.values()) + len(
        [s for v in wpt._index().setters_by_href.values() for s in v]) + len(
        [d for v in wpt._index().idna_by_input.values() for d in v])


def test_the_request_kind() -> None:
    status, body = answer("wpt", {"input": "http://a b/"})
    assert status == 200 and body["verdict"] == "exact"
    status, body = answer("wpt", {"input": 5})
    assert status == 400


@pytest.mark.parametrize("params", [
    {"input": "http://a b/"},
    {"input": "https://example.org/not/in/wpt?q=1#f"},
    {"input": "../x", "base": "http://example.com/a/b"},
    {"input": "https://\u00e9x.example/" + "\u00e9" * 200},
])
def test_a_lookup_costs_no_more_than_its_estimate(params: dict[str, Any]) -> None:
    small = bench.small_ms()
    measured = bench.cpu_ms("wpt", params, runs=2) / small
    estimated = estimate("wpt", params).ms / SMALL_COST_MS
    assert measured <= 3.0 * estimated, f"{measured:.1f}x a small parse, estimated {estimated:.1f}x"
