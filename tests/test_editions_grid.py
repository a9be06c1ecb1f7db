"""Compare never raises, and every difference line it writes names a rule of its edition.

The grid: every WPT urltestdata input (with its own base, and against each base of BASES:
``file:``, ``blob:``, opaque, special, IPv6 and failing bases) plus the differential generator's
first 1,000 cases of seed 5 (tests/differential/generate.py: parse requests with their bases, and
setter requests' hrefs and values as inputs), and the WPT inputs read with errata (with their own
bases and against ``file:///``), each through ``urlcalc.editions.view.compare_model`` (what the
CLI, the API and the page call). Over all of it:

* 0 exceptions (an input over MAX_COMPARE_CHARS would be the API's 4xx answer: counted apart);
* every section a difference line or a note cites is a key of its edition's ``SECTIONS`` (whose
  quotes tests/test_editions_citations.py finds in the seeds);
* at most 5% of the difference lines say "getter mapping" (urlcalc's mapping rather than a rule
  of the edition; measured: 0).

The counts and the measured shares are printed at the end of the pytest run (tests/conftest.py).
"""

from __future__ import annotations

import collections
import json
import time

from differential import generate

from urlcalc.editions import EDITIONS
from urlcalc.editions.view import MAX_COMPARE_CHARS, compare_model

#: Bases every WPT input is compared against (besides its own).
BASES: tuple[str | None, ...] = (
    None,
    "file:///",
    "file:///C:/a/b",
    "blob:https://a.example/uuid",
    "mailto:x",
    "sc:a",
    "http://a/b/c/d;p?q",
    "https://[::1]:8080/p",
    "not a url",  # fails everywhere
    "http://a b/",  # fails in the current standard
)
#: Generated cases from the differential generator (seed 5, as tests/test_differential.py).
GENERATED = 1000
#: The last run's figures, printed at the end of the pytest run (tests/conftest.py).
SUMMARY: list[str] = []


def grid() -> list[tuple[str, str | None]]:
    """The (input, base) pairs, deterministic, without repeats."""
    pairs: list[tuple[str, str | None]] = list(generate.wpt_inputs())
    inputs = list(dict.fromkeys(i for i, _ in pairs))
    for base in BASES:
        pairs += [(i, base) for i in inputs]
    for req in generate.cases(GENERATED, 5):
        if req["op"] == "parse":
            pairs.append((req["input"], req["base"]))
        else:
            pairs.append((req["href"], None))
            pairs.append((req["value"], req["href"]))
    return list(dict.fromkeys(pairs))


def test_compare_never_raises_and_every_line_names_a_rule() -> None:
    counts: collections.Counter[str] = collections.Counter()
    errors: list[str] = []
    uncited: set[tuple[str, str]] = set()
    mapping_lines: list[str] = []
    kinds: collections.Counter[str] = collections.Counter()
    pairs = grid()
    # read with errata too: every WPT input with its own base, and against a file: base
    runs = [(t, b, False) for t, b in pairs]
    runs += [(t, b, True) for t, b in dict.fromkeys(generate.wpt_inputs())]
    runs += [(t, "file:///", True) for t in dict.fromkeys(i for i, _ in generate.wpt_inputs())]
    start = time.perf_counter()
    for text, base, errata in runs:
        if len(text) > MAX_COMPARE_CHARS or len(base or "") > MAX_COMPARE_CHARS:
            counts["too long (4xx)"] += 1
            continue
        try:
            out = compare_model(text, base, errata=errata)
            json.dumps(out)
        except Exception as e:
            errors.append(f"{text!r} against {base!r} (errata {errata}): {type(e).__name__}: {e}")
            continue
        counts["compared"] += 1
        for ed in out["editions"]:
            sections = EDITIONS[ed["id"]].SECTIONS
            counts["status " + ed["status"]] += 1
            for n in ed["notes"]:
                if n["section"] not in sections:
                    uncited.add((ed["id"], n["section"]))
        for d in out["differences"]:
            counts["difference lines"] += 1
            kinds[d["kind"]] += 1
            if d["kind"] != "mapping" and d["section"] not in EDITIONS[d["edition"]].SECTIONS:
                uncited.add((d["edition"], d["section"]))
            if d["kind"] == "mapping":
                mapping_lines.append(f"{d['edition']} {d['getter']}: {text!r} / {base!r}")
    seconds = time.perf_counter() - start
    lines = counts["difference lines"]
    share = len(mapping_lines) / lines if lines else 0.0
    SUMMARY[:] = [
        f"{len(pairs):,} (input, base) pairs + {len(runs) - len(pairs):,} WPT runs with errata "
        f"({counts['compared']:,} compared, "
        f"{counts['too long (4xx)']} over {MAX_COMPARE_CHARS} code points) in {seconds:.1f} s; "
        f"exceptions: {len(errors)}; {lines:,} difference lines: "
        + ", ".join(f"{k} {v:,}" for k, v in sorted(kinds.items()))
        + f"; 'getter mapping' share {share:.2%}"
    ]
    assert not errors, "\n".join(errors[:20])
    assert not uncited, sorted(uncited)
    assert counts["compared"] > 9_000 and lines > 20_000, counts
    assert share <= 0.05, mapping_lines[:20]
    # the edition says "unspecified" where its text is silent: e.g. every file: base in 2012
    assert counts["status unspecified"] > 0


def test_every_file_base_is_unspecified_in_2012() -> None:
    for base in ("file:///", "file:///C:/a/b", "file://host/share/x", "FILE:x"):
        out = compare_model("x", base)
        w3c = next(e for e in out["editions"] if e["id"] == "w3c_2012")
        assert w3c["status"] == "unspecified", base
        assert any("null base" in u for u in w3c["unspecified"])
        assert not any(d["edition"] == "w3c_2012" for d in out["differences"])
        assert out["rows"][0]["status"]["w3c_2012"] == "unspecified"

