"""Differential testing against the reference implementation of the URL Standard (npm
whatwg-url 17, installed in tests/differential/ by `make differential-deps`).

One batch: every WPT urltestdata input, every WPT setter case, every toascii/IdnaTestV2 host (as
a special URL's host, through the host setter and as an opaque host), and 6,000 generated tricky
inputs (tests/differential/generate.py, seed 5), in parse mode (getters, searchParams and the
validation error names) and setter mode (getters and searchParams after the setter, whether the
href setter threw). 0 disagreements, except the reference divergences documented in
tests/differential/known.py. `make fuzz` runs 100,000 generated cases.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from differential import generate
from differential.runner import Reference, compare, describe, reference_available
from required import missing

GENERATED = 6000
SEED = 5
#: The last batch's summary, printed at the end of the pytest run (tests/conftest.py).
SUMMARY: list[str] = []



@pytest.fixture(scope="module")
def reference() -> Iterator[Reference]:
    why_not = reference_available()
    if why_not is not None:
        missing(f"the differential test needs whatwg-url under node: {why_not}")
    with Reference() as ref:
        yield ref


def test_urlcalc_agrees_with_the_reference(reference: Reference) -> None:
    requests = generate.fixed_cases() + generate.cases(GENERATED, SEED)
    for req in requests:
        if req["op"] == "parse":
            req["errors"] = True
    outcome = compare(requests, reference.run(requests))
    SUMMARY[:] = [outcome.summary()]
    assert outcome.cases >= 5000 and outcome.set_cases >= 1000
    assert not outcome.disagreements, f"{outcome.summary()}\n" + "\n".join(
        describe(*d) for d in outcome.disagreements[:25])


def test_generator_is_deterministic() -> None:
    assert generate.cases(300, 11) == generate.cases(300, 11)
    assert generate.cases(300, 11) != generate.cases(300, 12)


def test_lone_surrogates_cross_to_node_and_back(reference: Reference) -> None:
    # \udXXX escapes in JSON become lone UTF-16 code units in JavaScript; a high-low pair written
    # as two escapes is one code point there, as it is for urlcalc's USVString conversion.
    requests: list[dict[str, Any]] = [
        {"op": "parse", "input": "http://h/\ud800?\udfff#\ud800x", "base": None},
        {"op": "parse", "input": "http://h/\ud83d\ude00", "base": None},
        {"op": "parse", "input": "\ud800", "base": "http://h/a/"},
        {"op": "set", "href": "http://h/", "setter": "hash", "value": "\udc00"},
        {"op": "set", "href": "http://h/", "setter": "search", "value": "a=\ud800&\ud800=b"},
    ]
    answers = reference.run(requests)
    hrefs = [a["getters"]["href"] for a in answers]
    assert hrefs == [
        "http://h/%EF%BF%BD?%EF%BF%BD#%EF%BF%BDx",
        "http://h/%F0%9F%98%80",
        "http://h/a/%EF%BF%BD",
        "http://h/#%EF%BF%BD",
        "http://h/?a=%EF%BF%BD&%EF%BF%BD=b",
    ]
    assert answers[4]["searchParams"] == "a=%EF%BF%BD&%EF%BF%BD=b"
    assert compare(requests, answers).disagreements == []
    # and the wire format itself is ASCII JSON
    assert json.dumps(requests[0], ensure_ascii=True).isascii()
