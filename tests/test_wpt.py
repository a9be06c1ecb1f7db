"""Every case of the WPT URL data files (tests/data/wpt), one pytest case each."""

from __future__ import annotations

from functools import cache
from typing import Any

import conformance
import pytest


@cache
def results(name: str) -> list[dict[str, Any]]:
    return conformance.RUNNERS[name]()


def _ids(name: str) -> list[str]:
    return [f"{i}" for i in range(len(results(name)))]


EXPECTED_COUNTS = {
    "urltestdata": 891,
    "urltestdata-javascript-only": 1,
    "setters_tests": 278,
    "toascii": 87,
    "IdnaTestV2": 2670,
    "percent-encoding": 16,
    "urlencoded-parser-data": 35,
}


@pytest.mark.parametrize("name", list(EXPECTED_COUNTS))
def test_every_case_is_run(name: str) -> None:
    assert len(results(name)) == EXPECTED_COUNTS[name]


def _cases(name: str) -> list[Any]:
    params = []
    for i, case in enumerate(results(name)):
        marks = []
        if case.get("known"):
            marks.append(pytest.mark.xfail(reason=case["known"], strict=True))
        params.append(pytest.param(name, i, marks=marks, id=f"{name}-{i}"))
    return params


ALL = [p for name in EXPECTED_COUNTS for p in _cases(name)]


@pytest.mark.parametrize(("name", "index"), ALL)
def test_case(name: str, index: int) -> None:
    case = results(name)[index]
    assert case["problems"] == [], case


def test_known_stale_cases_are_exactly_the_listed_ones() -> None:
    known = [c["input"] for c in results("IdnaTestV2") if c.get("known")]
    # two forms (composed and decomposed Hangul) of the same entry
    assert len(known) == 2
    assert all(k.startswith("\U0003e8ac") for k in known)


# --- the harness checks what the WPT file expects ------------------------------------------------
# Counted by hand from tests/data/wpt/urltestdata.json: 267 entries with "failure": true, 205 of
# them with "base": null; 9 entries with a "searchParams" expectation.


def test_failure_cases_with_and_without_a_base_are_all_checked() -> None:
    failures = [c for c in results("urltestdata") if c["failure"]]
    assert len(failures) == 267
    assert sum(1 for c in failures if c["base"] is None) == 205


def test_the_harness_catches_a_wrong_can_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    # can_parse answering true for everything must fail every failure case, based or not
    monkeypatch.setattr(conformance.URL, "can_parse", staticmethod(lambda *a, **k: True))
    failed = [c for c in conformance.run_urltestdata() if "can_parse should be false" in
              c["problems"]]
    assert len(failed) == 267
    assert sum(1 for c in failed if c["base"] is None) == 205


def test_the_harness_checks_search_params(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = [c for c in results("urltestdata") if c["actual"] and "searchParams" in c["actual"]]
    assert len(checked) == 9
    # the searchParams serialisation is compared with the file's: a wrong one is reported
    monkeypatch.setattr(conformance.URLSearchParams, "__str__", lambda self: "wrong")
    wrong = [c for c in conformance.run_urltestdata()
             if any(p.startswith("searchParams:") for p in c["problems"])]
    assert len(wrong) == 9


def test_percent_encoded_fragment_is_wpts_utf8_output(monkeypatch: pytest.MonkeyPatch) -> None:
    # url/percent-encoding.window.js: the hash is always "#" + output["utf-8"]. An entry whose
    # "utf-8" output is altered must fail on the fragment for every encoding it lists (and on
    # the query for UTF-8 only): the expectation is read from the file, not computed by urlcalc.
    real = conformance.load

    def altered(name: str) -> list[Any]:
        data = real(name)
        if name == "percent-encoding.json":
            for case in data:
                if case["input"] == "\u2020":
                    case["output"]["utf-8"] = "%E2%80%A1"
        return data

    monkeypatch.setattr(conformance, "load", altered)
    dagger = [c for c in conformance.run_percent_encoding() if c["input"] == "\u2020"]
    assert sorted(c["encoding"] for c in dagger) == ["big5", "euc-kr", "utf-8", "windows-1252"]
    for c in dagger:
        assert any(p.startswith("fragment:") for p in c["problems"]), c
        assert any(p.startswith("query:") for p in c["problems"]) == (c["encoding"] == "utf-8")


def test_the_recorded_wpt_revision_is_the_data_tested() -> None:
    """version answers which WPT data urlcalc passes: each file's sha256 must be the file's."""
    import hashlib
    from pathlib import Path

    from urlcalc.model.results import version_model
    from urlcalc.standard import steps as spec

    data = Path(__file__).parent / "data" / "wpt"
    recorded = spec.wpt_revision()["sha256"]
    assert recorded == {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                        for p in sorted(data.glob("*.json"))}
    assert version_model()["wpt"]["sha256"] == recorded
