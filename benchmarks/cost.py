"""The cost model (urlcalc.answers.cost) against the clock: each sample request's measured CPU time
beside its estimate, both as ratios to a small parse timed in the same run, and the CPU budget
of its kind (urlcalc.model.limits.CPU_BUDGET_S) against the costliest legal request of the kind.

    python -m benchmarks.cost            # the table
    python -m benchmarks.cost --json     # the same, as JSON

A sample whose measured ratio is over its estimated ratio means an estimate too low (a heavy
request that would run in the server's own threads); tests/test_cost.py fails past 3x."""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from typing import Any

from urlcalc.answers.answer import answer
from urlcalc.answers.cost import SMALL_COST_MS, estimate
from urlcalc.model.limits import CPU_BUDGET_S

SMALL = ("parse", {"input": "http://example.com/"})


def _cjk(n: int) -> str:
    return "".join(chr(0x4E00 + i) for i in range(n))


def samples() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, kind, params): small and large requests of every kind."""
    out: list[tuple[str, str, dict[str, Any]]] = [("small parse", *SMALL)]
    for n in (2_000, 16_000, 60_000):
        url = "http://example.com/" + "a" * n
        out += [
            (f"parse {n}", "parse", {"input": url}),
            (f"parse {n} traced", "parse", {"input": url, "trace": True}),
            (f"validate {n}", "validate", {"input": url}),
            (f"host {n}", "host", {"input": "a" * n}),
            (f"host {n} traced", "host", {"input": "a" * n, "trace": True}),
            (f"urlencoded {n}", "urlencoded", {"input": "a=b&" * (n // 4)}),
            (f"percent {n}", "percent", {"input": "\u00e9" * (n // 2)}),
            (f"set sort {n}", "set", {"input": "http://h/?" + "b=1&a=2&" * (n // 8),
                                      "ops": [["searchParams.sort", ""]] * 8}),
        ]
    for n in (300, 2_000, 8_000):
        out += [
            (f"parse cjk host {n}", "parse", {"input": f"http://{_cjk(n)}.com/"}),
            (f"parse cjk host {n} traced", "parse",
             {"input": f"http://{_cjk(n)}.com/", "trace": True}),
            (f"host cjk {n}", "host", {"input": _cjk(n)}),
        ]
    out += [
        ("set pathname 16000 traced", "set",
         {"input": "http://h/", "ops": [["pathname", "a" * 16_000]], "trace": True}),
        ("set 64 hrefs 1000", "set",
         {"input": "http://h/", "ops": [["href", "http://h/" + "b" * 1_000]] * 64}),
        ("compare small", "compare", {"input": "http://example.com/"}),
        ("compare 2000", "compare", {"input": "http://example.com/" + "a" * 2_000}),
        ("compare cjk 2040", "compare", {"input": f"http://{_cjk(2_040)}/"}),
        ("implementations small", "implementations", {"input": "http://example.com/"}),
        ("implementations 4000", "implementations",
         {"input": "http://example.com/" + "a" * 4_000}),
        ("implementations cjk 4000", "implementations", {"input": f"http://{_cjk(4_000)}/"}),
        ("random", "random", {"seed": 1}),
        ("version", "version", {}),
        ("spec", "spec", {}),
    ]
    return out


def cpu_ms(kind: str, params: dict[str, Any], runs: int = 3) -> float:
    """The least CPU time (ms, this thread) of ``runs`` answers, after one to warm up."""
    answer(kind, params)
    best = float("inf")
    for _ in range(runs):
        start = time.thread_time()
        answer(kind, params)
        best = min(best, time.thread_time() - start)
    return best * 1000


def small_ms() -> float:
    """A small parse's CPU time (ms): the median of 21 least-of-3 measurements."""
    return statistics.median(cpu_ms(*SMALL) for _ in range(21))


def measure(runs: int = 3) -> dict[str, Any]:
    floor = small_ms()
    rows = []
    for label, kind, params in samples():
        measured = cpu_ms(kind, params, runs)
        estimated = estimate(kind, params).ms
        rows.append({"label": label, "kind": kind, "measured_ms": round(measured, 3),
                     "measured_x": round(measured / floor, 1),
                     "estimate_x": round(estimated / SMALL_COST_MS, 1),
                     "over_estimate": round((measured / floor) / (estimated / SMALL_COST_MS), 2),
                     "heavy": estimate(kind, params).heavy,
                     "budget_s": CPU_BUDGET_S[kind]})
    return {"machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
            "python": platform.python_version(), "small_parse_ms": round(floor, 4), "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    result = measure(args.runs)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"small parse: {result['small_parse_ms']} ms CPU ({result['machine']}, "
          f"Python {result['python']})")
    print(f"{'request':32} {'ms':>9} {'x small':>8} {'estimate x':>10} {'over':>5} heavy budget")
    for r in result["rows"]:
        print(f"{r['label']:32} {r['measured_ms']:9.2f} {r['measured_x']:8.1f} "
              f"{r['estimate_x']:10.1f} {r['over_estimate']:5.2f} {'yes' if r['heavy'] else ''!s:5}"
              f" {r['budget_s']} s")


if __name__ == "__main__":
    main()
