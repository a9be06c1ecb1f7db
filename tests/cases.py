"""The suite's shared test data, read in one place: the web-platform-tests URL data files
(tests/data/wpt, see its README) and the benchmark corpus of 10,000 URLs
(tests/data/bench/corpus-10k.txt: one URL a line, a tab then a base on some).

Standard library only: tests/conformance.py imports it inside Pyodide too (tests/pyodide/run.mjs
mounts this folder and puts it first on sys.path). Every call reads the file again and returns
new objects, so that a test may alter what it got (tests/test_wpt.py does) without changing what
the next one reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
WPT = DATA / "wpt"
CORPUS = DATA / "bench" / "corpus-10k.txt"


def wpt_json(name: str) -> Any:
    """A WPT data file as it is (setters_tests.json is an object, the others are lists)."""
    return json.loads((WPT / name).read_text(encoding="utf-8"))


def wpt_entries(name: str) -> list[Any]:
    """The entries of a WPT list file, without its comments (the strings between entries)."""
    data: list[Any] = wpt_json(name)
    return [entry for entry in data if not isinstance(entry, str)]


def url_inputs(*, javascript_only: bool = False) -> list[tuple[str, str | None]]:
    """(input, base or None) of every urltestdata.json entry; with ``javascript_only``, then of
    every urltestdata-javascript-only.json entry."""
    names = ["urltestdata.json"] + (["urltestdata-javascript-only.json"] if javascript_only else [])
    return [(case["input"], case.get("base")) for name in names for case in wpt_entries(name)]


def host_inputs() -> list[str]:
    """The inputs of toascii.json, then of IdnaTestV2.json (hosts)."""
    return [case["input"] for name in ("toascii.json", "IdnaTestV2.json")
            for case in wpt_entries(name)]


def setter_cases() -> list[tuple[str, dict[str, Any]]]:
    """(setter, case) for every setters_tests.json case, in the file's order; a case is
    {"href", "new_value", "expected", ...}."""
    data: dict[str, list[dict[str, Any]]] = wpt_json("setters_tests.json")
    return [(setter, case) for setter, cases in data.items() if setter != "comment"
            for case in cases]


def corpus() -> list[tuple[str, str | None]]:
    """(input, base or None) of every line of the corpus."""
    out: list[tuple[str, str | None]] = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line:
            input, _, base = line.partition("\t")
            out.append((input, base or None))
    return out
