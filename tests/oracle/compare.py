"""The calculator's trace beside the oracle's ran steps (issue 26 item 5).

Both sides are flattened into ``Ran`` tuples (depth, algorithm, step, changed fields, errors,
outcome, calls): the oracle's from tests/oracle, the trace's from each event's ``ran`` list
(urlcalc.trace.recorder.TraceRecorder, unbounded) with the event's ``depth`` and algorithm. An
event without ``ran`` (the trace before issue 26) counts as a one-item ran list: its ``step``
with the event's changes, errors and outcome (none when ``step`` is None).

The basic URL parser, its preprocessing steps, the setters and "shorten a url's path" are compared
exactly (aligned by (depth, algorithm, step); a matched step whose changed fields, errors, outcome
or call differ is "... on another step"). For the host algorithms the trace may describe more
steps than the oracle lists: each oracle host step (they all raise an error, return, return
failure or call an algorithm) must appear in the trace at the same depth, in order, with the same
errors, outcome and call, and each trace host step with an error or outcome must be one the
oracle has. Each host parser run must follow the URL step that calls it. UTS #46 stages are not
compared (the oracle uses UTS #46 ToASCII as a black box).

Run: ``python -m tests.oracle.compare [--examples N]`` from the repository's root.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from cases import corpus, setter_cases, url_inputs  # noqa: E402

from urlcalc import URL, URLParseError  # noqa: E402
from urlcalc.standard.parser import basic_url_parse as calc_parse  # noqa: E402
from urlcalc.standard.record import URLRecord as CalcRecord  # noqa: E402
from urlcalc.trace.recorder import TraceRecorder  # noqa: E402

from .record import LAST_RULE, Ran  # noqa: E402
from .setters_literal import SETTERS, set_value  # noqa: E402
from .spec_literal import parse  # noqa: E402

HOST_ALGORITHMS = frozenset({"host parser", "IPv4 parser", "IPv4 number parser", "IPv6 parser",
                             "opaque-host parser", "domain parser"})
CLASSES = ("missing step", "extra step", "change on another step", "error on another step",
           "outcome on another step", "call on another step", "depth", "order")

#: the corpus is compared on every CORPUS_STEP-th line (1: all 10,000 lines; the whole comparison
#: takes about 25 s of CPU, 2,468 cases besides the corpus)
CORPUS_STEP = 1
GENERATED = 300
SEED = 26

#: the inputs named in issue 26 (parse: (input, base); set: (href, setter, value))
ISSUE_PARSES: list[tuple[str, str | None]] = [
    ("http://example.com/", None), ("file:///x", None), ("x", "http://h/a/b"),
    ("http://h/a?q", None), ("http://h/a\\b", None), ("http://1.2.3.4./", None),
    ("mailto:a ?c", None), ("sc:a b", None), ('sc://a%zz"b/', None),
    ("http://[::1.2.3.]/", None), ("http://a b/", None), ("../x", "http://h/a/b/c"),
    ("https://EXAMPLE.com./", None), ("https://xn--a.com/", None),
]
ISSUE_SETS: list[tuple[str, str, str]] = [
    ("https://example.com/", "port", "8080"), ("https://a/", "host", "b"),
    ("https://a/", "hostname", "b"), ("https://a/", "protocol", "http"),
    ("https://a:8080/", "protocol", "http"),
]


def to_usv(s: str) -> str:
    """A JavaScript string as a USVString: surrogate pairs joined, lone surrogates U+FFFD."""
    return s.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _calls(name: object) -> str | None:
    if not isinstance(name, str):
        return None
    if name.startswith("UTS #46") or name == "domain parser ToASCII":
        return "UTS #46 ToASCII"
    return name


def flatten(events: Iterable[Mapping[str, Any]]) -> list[Ran]:
    """The trace's events as ran steps (see the module's docstring)."""
    out: list[Ran] = []
    for event in events:
        if event.get("parser") == "uts46":
            continue
        algorithm = str(event.get("algorithm") or event.get("state"))
        depth = int(event.get("depth", 0))
        ran = event.get("ran")
        if ran is None:
            step = event.get("step")
            ran = [] if step is None else [{
                "step": step, "changes": event.get("changes") or {},
                "errors": event.get("errors") or [], "outcome": event.get("outcome")}]
        for item in ran:
            out.append(Ran(depth, algorithm, item.get("step"),
                           frozenset(item.get("changes") or {}),
                           tuple(item.get("errors") or ()), item.get("outcome"),
                           _calls(item.get("calls"))))
    return out


def trace_parse(input: str, base: str | None) -> list[Ran] | None:
    """The calculator's trace of parsing ``input`` against ``base`` (None: the base fails)."""
    base_record = None
    if base is not None:
        b = calc_parse(base)
        if not isinstance(b, CalcRecord):
            return None
        base_record = b
    rec = TraceRecorder(max_steps=10**9)
    calc_parse(input, base_record, observer=rec)
    return flatten(rec.steps)


def trace_set(href: str, setter: str, value: str) -> list[Ran] | None:
    try:
        url = URL(href)
    except URLParseError:
        return None
    rec = TraceRecorder(max_steps=10**9)
    url.set(setter, value, rec)
    return flatten(rec.steps)


def oracle_set(href: str, setter: str, value: str) -> list[Ran] | None:
    url, _ = parse(href)
    if url is None:
        return None
    return set_value(url, setter, value)


@dataclass
class Result:
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    cases: int = 0
    steps: int = 0
    max_examples: int = 5

    def add(self, cls: str, case: str, detail: str) -> None:
        self.counts[cls] += 1
        got = self.examples.setdefault(cls, [])
        if len(got) < self.max_examples:
            got.append(f"{case}: {detail}")

    def total(self) -> int:
        return sum(self.counts.values())


def _show(r: Ran) -> str:
    bits = [f"d{r.depth} {r.algorithm} {r.step}"]
    if r.changes:
        bits.append("{" + ",".join(sorted(r.changes)) + "}")
    if r.errors:
        bits.append("errors " + ",".join(r.errors))
    if r.outcome:
        bits.append("outcome " + r.outcome)
    if r.calls:
        bits.append("calls " + r.calls)
    return " ".join(bits)


def _key(r: Ran) -> tuple[int, str, str | None]:
    return (r.depth, r.algorithm, r.step)


def _compare_fields(o: Ran, t: Ran, case: str, res: Result) -> None:
    if o.changes != t.changes:
        res.add("change on another step", case, f"oracle {_show(o)}; trace {_show(t)}")
    if sorted(o.errors) != sorted(t.errors):
        res.add("error on another step", case, f"oracle {_show(o)}; trace {_show(t)}")
    if o.outcome != t.outcome:
        res.add("outcome on another step", case, f"oracle {_show(o)}; trace {_show(t)}")
    if o.calls != t.calls:
        res.add("call on another step", case, f"oracle {_show(o)}; trace {_show(t)}")


def _compare_url_level(oracle: list[Ran], trace: list[Ran], case: str, res: Result) -> None:
    ko, kt = [_key(r) for r in oracle], [_key(r) for r in trace]
    unmatched_o: list[Ran] = []
    unmatched_t: list[Ran] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ko, kt, autojunk=False).get_opcodes():
        if tag == "equal":
            for o, t in zip(oracle[i1:i2], trace[j1:j2], strict=True):
                _compare_fields(o, t, case, res)
        else:
            unmatched_o += oracle[i1:i2]
            unmatched_t += trace[j1:j2]
    for o in unmatched_o:
        same = next((t for t in unmatched_t if (t.algorithm, t.step) == (o.algorithm, o.step)),
                    None)
        if same is None:
            res.add("missing step", case, f"oracle {_show(o)}; not in the trace")
            continue
        unmatched_t.remove(same)
        cls = "order" if same.depth == o.depth else "depth"
        res.add(cls, case, f"oracle {_show(o)}; trace {_show(same)}")
    for t in unmatched_t:
        res.add("extra step", case, f"trace {_show(t)}; not in the oracle")


def _host_groups(entries: list[Ran]) -> list[tuple[str, str | None] | None]:
    """For each run of host steps, the URL-level step just before it."""
    out: list[tuple[str, str | None] | None] = []
    prev: Ran | None = None
    for r in entries:
        is_host = r.algorithm in HOST_ALGORITHMS
        if is_host and (prev is None or prev.algorithm not in HOST_ALGORITHMS):
            out.append(None if prev is None else (prev.algorithm, prev.step))
        prev = r
    return out


def _compare_host(oracle: list[Ran], trace: list[Ran], case: str, res: Result) -> None:
    used = [False] * len(trace)
    pos: dict[int, int] = {}  # per depth: where the next search starts
    for o in oracle:
        start = pos.get(o.depth, 0)
        found = next((j for j in range(start, len(trace)) if not used[j]
                      and _key(trace[j]) == _key(o)), None)
        if found is None:
            elsewhere = next((t for j, t in enumerate(trace) if not used[j]
                              and (t.algorithm, t.step) == (o.algorithm, o.step)), None)
            if elsewhere is None:
                res.add("missing step", case, f"oracle {_show(o)}; not in the trace")
            else:
                cls = "order" if elsewhere.depth == o.depth else "depth"
                res.add(cls, case, f"oracle {_show(o)}; trace {_show(elsewhere)}")
                used[trace.index(elsewhere)] = True
            continue
        used[found] = True
        pos[o.depth] = found + 1
        t = trace[found]
        if sorted(o.errors) != sorted(t.errors):
            res.add("error on another step", case, f"oracle {_show(o)}; trace {_show(t)}")
        if o.outcome != t.outcome:
            res.add("outcome on another step", case, f"oracle {_show(o)}; trace {_show(t)}")
        if o.calls != t.calls:
            res.add("call on another step", case, f"oracle {_show(o)}; trace {_show(t)}")
    for j, t in enumerate(trace):
        if used[j] or not (t.errors or t.outcome):
            continue
        if t.errors:
            res.add("error on another step", case, f"trace {_show(t)}; the oracle raises "
                    "no such error on this step")
        else:
            res.add("outcome on another step", case, f"trace {_show(t)}; the oracle has no "
                    "such outcome on this step")


def compare(oracle: list[Ran], trace: list[Ran], case: str, res: Result) -> None:
    res.cases += 1
    res.steps += len(oracle)
    url_o = [r for r in oracle if r.algorithm not in HOST_ALGORITHMS]
    url_t = [r for r in trace if r.algorithm not in HOST_ALGORITHMS]
    _compare_url_level(url_o, url_t, case, res)
    _compare_host([r for r in oracle if r.algorithm in HOST_ALGORITHMS],
                  [r for r in trace if r.algorithm in HOST_ALGORITHMS], case, res)
    go, gt = _host_groups(oracle), _host_groups(trace)
    for a, b in zip(go, gt, strict=False):
        if a != b:
            res.add("order", case, f"the host parser runs after {a} in the oracle, "
                    f"after {b} in the trace")


def parse_inputs(corpus_step: int = CORPUS_STEP,
                 generated: int = GENERATED) -> list[tuple[str, str | None]]:
    from differential import generate

    out = list(ISSUE_PARSES) + url_inputs()
    out += corpus()[::corpus_step]
    out += [(r["input"], r["base"]) for r in generate.cases(generated, SEED)
            if r["op"] == "parse"]
    return [(to_usv(i), None if b is None else to_usv(b)) for i, b in out]


def set_inputs(generated: int = GENERATED) -> list[tuple[str, str, str]]:
    from differential import generate

    out = list(ISSUE_SETS)
    out += [(c["href"], s, c["new_value"]) for s, c in setter_cases() if s in SETTERS]
    out += [(r["href"], r["setter"], r["value"]) for r in generate.cases(generated, SEED)
            if r["op"] == "set" and r["setter"] in SETTERS]
    return [(to_usv(h), s, to_usv(v)) for h, s, v in out]


def compare_all(corpus_step: int = CORPUS_STEP, generated: int = GENERATED,
                max_examples: int = 5) -> Result:
    res = Result(max_examples=max_examples)
    for input, base in parse_inputs(corpus_step, generated):
        trace = trace_parse(input, base)
        if trace is None:
            continue
        case = f"{input!r}" + (f" against {base!r}" if base is not None else "")
        compare(parse(input, base)[1], trace, case, res)
    for href, setter, value in set_inputs(generated):
        trace = trace_set(href, setter, value)
        oracle = oracle_set(href, setter, value)
        if trace is None or oracle is None:
            continue
        compare(oracle, trace, f"{href!r} {setter} setter {value!r}", res)
    return res


def format_report(res: Result) -> str:
    lines = [f"oracle comparison: {res.cases} cases, {res.steps} oracle ran steps, "
             f"{res.total()} differences"]
    for cls in CLASSES:
        lines.append(f"  {cls}: {res.counts.get(cls, 0)}")
    for cls in CLASSES:
        for example in res.examples.get(cls, []):
            lines.append(f"    [{cls}] {example}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tests.oracle.compare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=5, help="examples shown per class")
    ap.add_argument("--corpus-step", type=int, default=CORPUS_STEP,
                    help="compare every Nth corpus line (1: all)")
    ap.add_argument("--generated", type=int, default=GENERATED,
                    help="generated requests (tests/differential/generate.py, seed 26)")
    ap.add_argument("--deciding", action="store_true",
                    help="rule (e) read as the last step that set the next state or ended the "
                    "run (default: the step that applied last)")
    args = ap.parse_args(argv)
    if args.deciding:
        LAST_RULE["rule"] = "deciding"
    res = compare_all(args.corpus_step, args.generated, args.examples)
    print(format_report(res))
    return 0 if res.total() == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
