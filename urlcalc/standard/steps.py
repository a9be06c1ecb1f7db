"""The spec's own words: the numbered steps of every algorithm urlcalc cites.

The data (``urlcalc/data/url_steps.json``) is extracted from the URL Standard's source
(``spec/url.bs``, CC BY 4.0) by ``spec/extract_steps.py``; tests check that it matches url.bs and
that every citation the parser makes resolves in it. A citation is an (algorithm, step) pair:
the algorithm by the name the trace uses ("port state", "host parser", "port setter"), the step
as url.bs numbers it ("2.1.2"), or ``None`` when no numbered step applies (an algorithm without
steps, or a state where no step's condition holds, e.g. the fragment state at EOF).

UTS #46 is a different document: its stages are cited by section and step with urlcalc's
one-line summary (marked ``words: "summary"``), not its text.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, NamedTuple, TypedDict

SPEC_URL = "https://url.spec.whatwg.org/"
UTS46_URL = "https://www.unicode.org/reports/tr46/"


class Algorithm(NamedTuple):
    name: str
    anchor: str
    intro: str
    steps: dict[str, str]
    document: str  # "url.bs" or "UTS #46"
    url: str


class Citation(TypedDict):
    """A citation in the JSON result model."""

    algorithm: str
    step: str | None
    anchor: str
    document: str
    text: str
    words: str  # "spec" (the spec's own words) or "summary" (urlcalc's, for UTS #46)


# UTS #46 (Unicode IDNA Compatibility Processing), sections 4 (Processing) and 4.2 (ToASCII):
# urlcalc's one-line summaries; UTS #46's own text is not shipped.
_UTS46: dict[str, tuple[str, str, dict[str, str]]] = {
    "UTS #46 Processing": ("Processing", "Section 4, Processing: the steps ToASCII and ToUnicode "
                           "share.", {
        "1": "Map: each code point by its status in the IDNA mapping table (valid, mapped, "
             "deviation, disallowed, ignored).",
        "2": "Normalize: the domain to Unicode Normalization Form C.",
        "3": "Break: the domain into labels at U+002E (.).",
        "4": "Convert/Validate: an \"xn--\" label is Punycode-decoded (4.1-4.3); each label is "
             "checked against the validity criteria (section 4.1).",
    }),
    "UTS #46 ToASCII": ("ToASCII", "Section 4.2, ToASCII.", {
        "1": "Apply the Processing steps (section 4).",
        "2": "Break the result into labels at U+002E (.).",
        "3": "Convert each label with non-ASCII code points to Punycode, prefixed \"xn--\".",
        "4": "VerifyDnsLength: the domain is 1 to 253 long, each label 1 to 63.",
        "5": "If an error was recorded, the result is an error.",
        "6": "Otherwise join the labels with U+002E (.).",
    }),
}


#: The UTS #46 stages urlcalc.standard.uts46 reports (as urlcalc.standard.host's steps), in UTS
#: #46's order, and the step each cites.
UTS46_STAGES: dict[str, tuple[str, str]] = {
    "map": ("UTS #46 Processing", "1"), "normalize": ("UTS #46 Processing", "2"),
    "break": ("UTS #46 Processing", "3"), "convert": ("UTS #46 Processing", "4"),
    "validate": ("UTS #46 Processing", "4"), "encode": ("UTS #46 ToASCII", "3"),
    "verify-dns-length": ("UTS #46 ToASCII", "4"),
}


@cache
def _data() -> dict[str, Any]:
    text = resources.files("urlcalc").joinpath("data/url_steps.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def source() -> dict[str, str]:
    """Which url.bs the step data was extracted from (sha256, review draft, licence)."""
    src: dict[str, str] = _data()["source"]
    return src


@cache
def wpt_revision() -> dict[str, Any]:
    """Which web-platform-tests URL data urlcalc is tested against (urlcalc/data/
    wpt_revision.json: where from, and each file's sha256; tests/test_wpt.py checks the hashes
    against tests/data/wpt)."""
    text = resources.files("urlcalc").joinpath("data/wpt_revision.json").read_text("utf-8")
    revision: dict[str, Any] = json.loads(text)
    return revision


@cache
def algorithms() -> dict[str, Algorithm]:
    out = {name: Algorithm(name, a["anchor"], a["intro"], a["steps"], "url.bs", SPEC_URL)
           for name, a in _data()["algorithms"].items()}
    for name, (anchor, intro, steps) in _UTS46.items():
        out[name] = Algorithm(name, anchor, intro, steps, "UTS #46", UTS46_URL)
    return out


def algorithm(name: str) -> Algorithm | None:
    return algorithms().get(name)


def resolves(name: str, step: str | None) -> bool:
    """True when ``step`` is a step of the algorithm ``name`` (``None``: the algorithm exists)."""
    alg = algorithms().get(name)
    return alg is not None and (step is None or step in alg.steps)


def step_text(name: str, step: str | None) -> str | None:
    """The spec's words for ``step`` of ``name`` (its introduction when ``step`` is None)."""
    alg = algorithms().get(name)
    if alg is None:
        return None
    if step is None:
        return alg.intro or None
    return alg.steps.get(step)


def cite(name: str, step: str | None) -> Citation:
    """The citation of (``name``, ``step``) with the spec's words; raises KeyError when it does
    not resolve (a citation naming no step of the spec is a bug, not a result)."""
    alg = algorithms()[name]
    if step is not None and step not in alg.steps:
        raise KeyError(f"{name} has no step {step}")
    text = alg.steps[step] if step is not None else alg.intro
    return {"algorithm": name, "step": step, "anchor": alg.anchor,
            "document": alg.document, "text": text,
            "words": "summary" if alg.document == "UTS #46" else "spec"}


def label(name: str, step: str | None) -> str:
    """A short human label: "port state, step 2.1.2"."""
    return name if step is None else f"{name}, step {step}"
