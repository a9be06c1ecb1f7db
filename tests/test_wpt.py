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
