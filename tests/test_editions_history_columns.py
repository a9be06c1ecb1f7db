"""The Editions view's extra columns (issue 27, item 4): the URL Standard on a day, or today's
without one change, beside the editions (kind "compare" with as_of / without; urlcalc compare
--as-of / --without). Expected values are read from url.bs: "Forbid <, >, and ^ in hosts"
(302ba41, 2020-05-14) made U+003C (<) a forbidden host code point, so before it http://a<b/
parsed with host "a<b"; today it fails."""

from __future__ import annotations

import pytest
from test_cli import run

from benchmarks import cost as bench
from urlcalc.answers.answer import answer
from urlcalc.answers.cost import SMALL_COST_MS, estimate
from urlcalc.editions.view import compare_model
from urlcalc.history.columns import compare_with_columns
from urlcalc.model.limits import MAX_AS_OF_COLUMNS, ModelError
from urlcalc.standard import variants
from urlcalc.standard.url import GETTERS


def test_a_day_before_a_change_reads_the_input_as_the_standard_did_then() -> None:
    c = compare_with_columns("http://a<b/", as_of="2019-01-01", traces=False)
    assert c["current"] is None  # today: a forbidden host code point
    [col] = c["columns"]
    assert col["id"] == "as_of:2019-01-01" and col["label"] == "URL Standard on 2019-01-01"
    assert col["kind"] == "as_of" and col["commit"] is None
    assert variants.HOSTS_FORBID_LT_GT_CARET in col["undone"]
    assert col["getters"] is not None and col["failure"] is None
    assert col["getters"]["href"] == "http://a<b/" and col["getters"]["host"] == "a<b"
    assert col["differs"] == list(GETTERS)  # today fails, that day parses


def test_a_day_after_every_change_is_today() -> None:
    c = compare_with_columns("http://a<b/", as_of="2026-07-03", traces=False)
    [col] = c["columns"]
    assert col["undone"] == [] and col["getters"] is None and col["failure"] is not None
    assert col["differs"] == []


def test_without_one_change_by_name_or_commit() -> None:
    for key in (variants.PATH_PERCENT_ENCODE_CARET, "9bc33c3"):
        c = compare_with_columns("http://h/a^b", without=key, traces=False)
        [col] = c["columns"]
        assert col["id"] == "without:" + variants.PATH_PERCENT_ENCODE_CARET
        assert col["label"] == "today without " + variants.PATH_PERCENT_ENCODE_CARET
        assert col["commit"] is not None and col["commit"].startswith("9bc33c3")
        assert col["title"] == "Add U+005E (^) to the path percent-encode set"
        assert c["current"] is not None and c["current"]["pathname"] == "/a%5Eb"
        assert col["getters"] is not None and col["getters"]["pathname"] == "/a^b"
        assert col["differs"] == ["href", "pathname"]


def test_days_then_the_change_in_that_order_and_the_editions_unchanged() -> None:
    plain = compare_model("http://a<b/", traces=False)
    c = compare_with_columns("http://a<b/", as_of="2021-01-01, 2019-01-01,2019-01-01",
                             without="302ba41", traces=False)
    assert [col["id"] for col in c["columns"]] == [
        "as_of:2021-01-01", "as_of:2019-01-01", "without:" + variants.HOSTS_FORBID_LT_GT_CARET]
    assert c["columns"][0]["getters"] is None  # 2021: after 302ba41
    assert plain["columns"] == []
    assert {k: v for k, v in c.items() if k != "columns"} == {
        k: v for k, v in plain.items() if k != "columns"}


@pytest.mark.parametrize(("params", "message"), [
    ({"as_of": "2019-13-01"}, "not a day"),
    ({"as_of": "yesterday"}, "not a day"),
    ({"as_of": ",".join(f"201{i}-01-01" for i in range(MAX_AS_OF_COLUMNS + 1))}, "at most"),
    ({"without": "no-such-change"}, "no change urlcalc can undo"),
])
def test_a_bad_day_or_change_is_a_bad_request(params: dict[str, str], message: str) -> None:
    with pytest.raises(ModelError, match=message):
        compare_with_columns("http://a/", **params)
    status, body = answer("compare", {"input": "http://a/", **params})
    assert status == 400 and message in body["error"]


def test_the_api_takes_as_of_and_without() -> None:
    status, body = answer("compare", {"input": "http://a<b/", "as_of": "2019-01-01",
                                      "without": variants.HOSTS_FORBID_LT_GT_CARET,
                                      "traces": False})
    assert status == 200
    assert [c["getters"]["host"] for c in body["columns"]] == ["a<b", "a<b"]


def test_the_cli_adds_the_columns() -> None:
    code, out, _ = run("compare", "http://a<b/", "--as-of", "2019-01-01", "--without", "302ba41")
    assert code == 0
    assert "URL Standard on 2019-01-01: href 'http://a<b/'" in out
    assert "today without hosts-forbid-lt-gt-caret (302ba41 'Forbid <, >, and ^ in hosts')" in out
    # the command's own reading stays today's (the columns do not undo anything else)
    assert "standard: today's url.bs" not in out
    code, _, err = run("compare", "http://a/", "--as-of", "2019-02-30")
    assert code != 0 and "not a day" in err


def test_the_cost_estimate_counts_the_columns() -> None:
    base = estimate("compare", {"input": "http://a<b/"}).ms
    one = estimate("compare", {"input": "http://a<b/", "as_of": "2019-01-01"}).ms
    four = estimate("compare", {"input": "http://a<b/", "as_of": "2019-01-01,2020-01-01,"
                                "2021-01-01", "without": "302ba41"}).ms
    assert base < one < four
    assert four - base == pytest.approx(4 * (one - base))


@pytest.mark.parametrize("input", ["http://a<b/", "http://ex\u00e4mple.com/" + "a/" * 800],
                         ids=["short", "long"])
def test_the_columns_cost_no_more_than_estimated(input: str) -> None:
    # as test_cost.py: ratios to a small parse timed in the same run (the short input: resolving
    # the days and the change must not cost more than the parses the estimate counts)
    params = {"input": input, "traces": False,
              "as_of": "2015-06-01,2018-01-01,2021-01-01", "without": "302ba41"}
    plain = {k: v for k, v in params.items() if k not in ("as_of", "without")}
    small = bench.small_ms()
    extra = (bench.cpu_ms("compare", params, runs=3)
             - bench.cpu_ms("compare", plain, runs=3)) / small
    estimated = (estimate("compare", params).ms - estimate("compare", plain).ms) / SMALL_COST_MS
    assert extra <= 3.0 * estimated, f"{extra:.1f}x a small parse, estimated {estimated:.1f}x"
