"""`python -m benchmarks.web_profile`: where a keystroke's time goes in the calculator page.

Boots the page (the static export, or ``--mode served``) in Chromium, opens a view, and types
the benchmark's characters one at a time as ``make bench-web`` does, with the browser's tracing
on (CDP Tracing through Playwright's ``browser.start_tracing``). Prints, per keystroke (means over
the keystrokes typed, and the p95 of the whole):

* the worker's part, from the page's own timing marks (``engine.lastTimings``): the request's
  trip to the worker, Python (the model and its JSON text: ``dispatch_json``), the answer's trip
  back (postMessage: the structured clone of one string), JSON.parse on the page;
* the main thread's part, from the trace: self time of the trace events, grouped into script,
  style, layout, paint and compositing, garbage collection and the rest; and the page's own
  measure of its render function (``urlcalcStats.renderMs``: building the DOM);
* the worker thread's busy time from the trace (Python runs there, inside wasm);
* CPython on this machine, for the same inputs: the model alone and its JSON text, apart.

``--cpu`` instead types the keys as ``make bench-web`` does (random phase, no tracing) and
prints the CPU time each process and thread of the machine spent per keystroke (from
``/proc``, Linux only): the page's threads, the server and its node helper, the benchmark's own
driver, against the wall-clock time per keystroke. On a machine with two cores this shows what
an answer waits for besides its own work.

``--trace FILE`` keeps the trace (open it in Chrome's DevTools, Performance panel).
``--js-profile`` also takes a V8 CPU profile of the page's main thread (CDP ``Profiler``) while
typing, and prints the functions with the most self time per keystroke (the page's own JS, the
polling wait for the worker's answer included, and the browser's native work as "(program)").
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks.serve import urlcalc_serve
from benchmarks.web import (
    ARM,
    CHROMIUM,
    TYPED,
    VIEWS,
    WAIT,
    Browser,
    Run,
    machine,
    percentile,
    prepared_site,
    static_server,
    wait_pyodide,
)

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute",
              "blink.user_timing", "v8", "disabled-by-default-v8.gc"]

GROUPS = {
    "script": {"FunctionCall", "EventDispatch", "TimerFire", "FireAnimationFrame",
               "RunMicrotasks", "v8.callFunction", "V8.Execute", "EvaluateScript", "v8.run",
               "v8.evaluateModule", "V8.DeserializeContext", "v8.compile", "v8.compileModule",
               "V8.CompileCode", "V8.CompileLazy", "v8.produceModuleCache",
               "V8.StackGuard", "HandlePostMessage", "XHRReadyStateChange", "ProfileCall"},
    "style": {"UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet",
              "InvalidateLayout", "StyleInvalidatorInvalidationTracking"},
    "layout": {"Layout", "LocalFrameView::RunPostLifecycleSteps",
               "IntersectionObserverController::computeIntersections", "HitTest"},
    "paint & composite": {"Paint", "PrePaint", "Layerize", "UpdateLayer", "Commit",
                          "CompositeLayers", "PaintImage", "UpdateLayerTree", "PaintSetup",
                          "LocalFrameView::RunPaintLifecycleSteps", "ScrollLayer",
                          "LocalFrameView::UpdateAllLifecyclePhases"},
}
GC_PREFIXES = ("MinorGC", "MajorGC", "V8.GC", "BlinkGC", "GCEvent", "V8.Scavenge",
               "ThreadState::", "CppGC")


def group_of(name: str) -> str:
    if name.startswith(GC_PREFIXES):
        return "garbage collection"
    for group, names in GROUPS.items():
        if name in names:
            return group
    return "other"


def self_times(events: list[dict[str, Any]], start: float, end: float
                      ) -> dict[str, float]:
    """Self time (ms) per event name: each event's duration less its direct children's."""
    spans = sorted(((e["ts"], e["ts"] + e.get("dur", 0), e["name"]) for e in events
                    if e.get("ph") == "X" and start <= e["ts"] <= end and e.get("dur", 0) > 0),
                   key=lambda s: (s[0], -s[1]))
    out: dict[str, float] = defaultdict(float)
    stack: list[tuple[float, float, str, list[float]]] = []

    def pop() -> None:
        begin, finish, name, child = stack.pop()
        out[name] += max(0.0, (finish - begin) - child[0]) / 1000
        if stack:
            stack[-1][3][0] += finish - begin

    for begin, finish, name in spans:
        while stack and stack[-1][1] <= begin:
            pop()
        if stack:
            finish = min(finish, stack[-1][1])
        stack.append((begin, finish, name, [0.0]))
    while stack:
        pop()
    return dict(out)


def threads(trace: dict[str, Any]) -> dict[tuple[int, int], str]:
    names = {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    return names


def _frame_label(frame: dict[str, Any]) -> str:
    where = frame.get("url", "").rsplit("/", 1)[-1]
    name = frame.get("functionName") or "(anonymous)"
    return f"{name} ({where}:{frame.get('lineNumber', 0) + 1})" if where else name


def js_self_times(prof: dict[str, Any], top: int = 15) -> list[tuple[float, str]]:
    """The ``top`` functions of a CDP CPU profile by self time (ms): "name (file:line)"."""
    nodes = {n["id"]: n for n in prof["nodes"]}
    ms: dict[str, float] = defaultdict(float)
    deltas = prof.get("timeDeltas", [])
    for sample, delta in zip(prof.get("samples", []), [*deltas[1:], 0], strict=False):
        ms[_frame_label(nodes[sample]["callFrame"])] += delta / 1000
    return sorted(((v, k) for k, v in ms.items()), reverse=True)[:top]


def js_total_times(prof: dict[str, Any], top: int = 20) -> list[tuple[float, str]]:
    """The ``top`` functions of the page's own scripts (/js/) by total time (ms): their own
    time and that of everything they called, each sample counted once per function on its
    stack (recursion is not counted twice)."""
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
    ms: dict[str, float] = defaultdict(float)
    deltas = prof.get("timeDeltas", [])
    for sample, delta in zip(prof.get("samples", []), [*deltas[1:], 0], strict=False):
        seen = set()
        node: int | None = sample
        while node is not None:
            frame = nodes[node]["callFrame"]
            if "/js/" in frame.get("url", ""):
                seen.add(_frame_label(frame))
            node = parent.get(node)
        for label in seen:
            ms[label] += delta / 1000
    return sorted(((v, k) for k, v in ms.items()), reverse=True)[:top]


def profile(playwright: Any, url: str, view: str, keys: str, trace_file: str | None,
            js_profile: bool = False) -> dict[str, Any]:
    run = Run("profile")
    origin = urlsplit(url).netloc
    browser = Browser(playwright, run, origin)
    try:
        page = browser.page()
        page.goto(url, wait_until="commit")
        if wait_pyodide(page, run, 60) is None:
            raise SystemExit("Pyodide did not answer: " + "; ".join(run.errors[:3]))
        page.click(f"#tab-{view}")
        page.wait_for_timeout(500)
        field_ = page.locator("#input")
        field_.fill("")
        page.wait_for_timeout(300)
        field_.focus()
        page.evaluate("() => { window.__urlcalcBench.latencies = []; }")
        cdp = None
        if js_profile:
            cdp = browser.context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 100})
            cdp.send("Profiler.start")
        else:
            browser.browser.start_tracing(page=page, categories=CATEGORIES)
        t_start = page.evaluate("() => performance.timeOrigin + performance.now()")
        stats = []
        for ch in keys:
            page.evaluate(ARM)
            page.keyboard.type(ch)
            page.evaluate(WAIT)
            stats.append(page.evaluate("() => ({...window.urlcalcStats})"))
        t_end = page.evaluate("() => performance.timeOrigin + performance.now()")
        if cdp is not None:
            js = cdp.send("Profiler.stop")["profile"]
            raw = json.dumps({"traceEvents": []}).encode()
        else:
            js = None
            raw = browser.browser.stop_tracing()
        latencies = page.evaluate("() => window.__urlcalcBench.latencies")
    finally:
        browser.close()
    if trace_file:
        Path(trace_file).write_bytes(raw)
    trace = json.loads(raw)
    if isinstance(trace, list):
        trace = {"traceEvents": trace}
    names = threads(trace)
    by_thread: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in trace["traceEvents"]:
        by_thread[(e.get("pid"), e.get("tid"))].append(e)  # type: ignore[index]
    # The page's renderer: the process with the dedicated worker thread.
    worker_keys = [k for k, n in names.items() if n.startswith("DedicatedWorker")]
    pid = worker_keys[0][0] if worker_keys else None
    main_key = next((k for k, n in names.items() if n == "CrRendererMain" and k[0] == pid),
                    None)
    # Each keystroke's window on the trace's clock: its keydown's dispatch until the bench's
    # "settled" mark (the end of the frame after the page rendered it), so that the
    # benchmark's own calls between keystrokes are left out.
    main_events = by_thread.get(main_key, []) if main_key else []
    downs = sorted(e["ts"] for e in main_events if e.get("ph") == "X"
                   and e.get("name") == "EventDispatch"
                   and e.get("args", {}).get("data", {}).get("type") == "keydown")
    marks = sorted(e["ts"] for e in trace["traceEvents"]
                   if e.get("name") == "urlcalc-bench-settled" and e.get("pid") == pid)
    windows = []
    for down in downs:
        after = [m for m in marks if m > down]
        if after:
            windows.append((down - 1, after[0]))
    result: dict[str, Any] = {"keys": len(keys), "latency_p95": percentile(latencies, 95)
                              if latencies else None,
                              "latency_mean": statistics.mean(latencies) if latencies else None,
                              "wall_ms": t_end - t_start}
    main: dict[str, float] = defaultdict(float)
    worker: dict[str, float] = defaultdict(float)
    names_ms: dict[str, float] = defaultdict(float)
    for start, end in windows:
        for name, ms in self_times(main_events, start, end).items():
            main[group_of(name)] += ms
            names_ms[name] += ms
        for key in worker_keys:
            for name, ms in self_times(by_thread[key], start, end).items():
                worker[group_of(name)] += ms
    n = max(1, len(windows))
    result["windows"] = len(windows)
    result["main"] = {k: v / n for k, v in sorted(main.items())}
    result["worker"] = {k: v / n for k, v in sorted(worker.items())}
    result["top"] = sorted(((v / n, k) for k, v in names_ms.items()), reverse=True)[:12]
    parts = ("to_worker_ms", "python_ms", "to_page_ms", "parse_ms", "renderMs", "callMs", "chars")
    result["page"] = {p: statistics.mean([s[p] for s in stats if isinstance(s.get(p), int | float)]
                                         or [0]) for p in parts}
    result["page_p95"] = {p: percentile([s[p] for s in stats if isinstance(s.get(p), int | float)]
                                        or [0], 95) for p in parts}
    result["js"] = [(v / len(keys), k) for v, k in js_self_times(js)] if js else None
    result["js_total"] = [(v / len(keys), k) for v, k in js_total_times(js)] if js else None
    return result


def burst(playwright: Any, url: str, view: str, keys: str, times: int = 5) -> list[float]:
    """``keys`` typed with no pause, ``times`` over: ms from just before the first keydown until
    the page shows the whole input with no engine call in flight (and the frame after)."""
    run = Run("burst")
    browser = Browser(playwright, run, urlsplit(url).netloc)
    out = []
    try:
        page = browser.page()
        page.goto(url, wait_until="commit")
        if wait_pyodide(page, run, 60) is None:
            raise SystemExit("Pyodide did not answer: " + "; ".join(run.errors[:3]))
        page.click(f"#tab-{view}")
        for _ in range(times):
            page.locator("#input").fill("")
            page.wait_for_timeout(300)
            page.locator("#input").focus()
            t0 = page.evaluate("() => performance.now()")
            page.keyboard.type(keys)
            page.wait_for_function(
                """(expected) => window.urlcalc.engine.busy === 0
                   && document.getElementById("input-view").textContent === expected""",
                arg=keys, timeout=60_000)
            out.append(page.evaluate("() => performance.now()") - t0)
    finally:
        browser.close()
    return out


def _threads_cpu() -> dict[tuple[str, str, str], tuple[str, str, int]]:
    """Every thread on the machine: (pid, tid, start time) -> (its process's command line, the
    thread's name, its CPU time in clock ticks, user and system)."""
    import os

    out: dict[tuple[str, str, str], tuple[str, str, int]] = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
                "utf-8", "replace")
            for tid in os.listdir(f"/proc/{pid}/task"):
                stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
                name = stat[stat.index("(") + 1:stat.rindex(")")]
                fields = stat[stat.rindex(")") + 2:].split()
                # fields from the state on: utime 11, stime 12, starttime 19
                out[(pid, tid, fields[19])] = (cmd, name, int(fields[11]) + int(fields[12]))
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
    return out


def _process_label(cmd: str) -> str:
    """A process named by its part in the benchmark."""
    import re

    program = cmd.split(" ")[0].rsplit("/", 1)[-1]
    if program in ("chromium", "chrome") and "--type=" not in cmd:
        return "browser process"
    if "--type=" in cmd:
        kind = re.search(r"--type=([\w-]+)", cmd)
        sub = re.search(r"--utility-sub-type=([\w.]+)", cmd)
        return "browser " + (kind.group(1) if kind else "?") + (f" ({sub.group(1)})" if sub else "")
    if "node_helper" in cmd:
        return "urlcalc server's node helper"
    if "urlcalc" in cmd and "serve" in cmd:
        return "urlcalc server"
    if "playwright" in cmd:
        return "playwright driver"
    if "benchmarks.web_profile" in cmd:
        return "this benchmark"
    return program[-40:] or "?"


def cpu(playwright: Any, url: str, view: str, keys: str
        ) -> tuple[float | None, float, list[tuple[float, str, str]]]:
    """Type ``keys`` into ``view`` as ``make bench-web`` does; (the p95 keystroke, wall-clock ms
    per keystroke, [(CPU ms per keystroke, process, thread)] largest first)."""
    import os

    from benchmarks.web import Phase, type_and_time

    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    run = Run("cpu")
    browser = Browser(playwright, run, urlsplit(url).netloc)
    try:
        page = browser.page()
        page.goto(url, wait_until="commit")
        if wait_pyodide(page, run, 60) is None:
            raise SystemExit("Pyodide did not answer: " + "; ".join(run.errors[:3]))
        page.wait_for_timeout(1000)
        page.click(f"#tab-{view}")
        page.wait_for_timeout(500)
        before = _threads_cpu()
        t = time.monotonic()
        p95 = type_and_time(page, keys, Phase("random"))
        wall = (time.monotonic() - t) * 1000 / len(keys)
        after = _threads_cpu()
    finally:
        browser.close()
    spent: dict[tuple[str, str], float] = defaultdict(float)
    for key, (cmd, name, ticks) in after.items():
        used = ticks - before.get(key, (cmd, name, 0))[2]
        if used > 0:
            spent[(_process_label(cmd), name)] += used * tick_ms / len(keys)
    return p95, wall, sorted(((ms, proc, thread) for (proc, thread), ms in spent.items()),
                             reverse=True)


def cpython(view: str, keys: str) -> dict[str, float]:
    """The model and its JSON text apart, in CPython on this machine (ms per keystroke)."""
    from urlcalc.answers import kinds

    trace = view == "steps"
    build = text = 0.0
    for n in range(1, len(keys) + 1):
        params = {"input": keys[:n], "max_errors": 2000, "trace": trace}
        t = time.perf_counter()
        out = kinds.dispatch("parse", params)
        t2 = time.perf_counter()
        json.dumps(out, separators=(",", ":"), ensure_ascii=False)
        t3 = time.perf_counter()
        build += t2 - t
        text += t3 - t2
    return {"model_ms": build * 1000 / len(keys), "json_ms": text * 1000 / len(keys)}


def fmt_ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.web_profile",
                                 description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--views", default="components,steps", help="views to profile")
    ap.add_argument("--keys", type=int, default=60, help="keystrokes typed per view")
    ap.add_argument("--mode", choices=("served", "static"), default="static")
    ap.add_argument("--trace", help="write the trace of the last view to this file")
    ap.add_argument("--js-profile", action="store_true",
                    help="a V8 CPU profile of the main thread instead of the browser's trace")
    ap.add_argument("--burst", action="store_true",
                    help="instead: the keys typed with no pause, until the last one shows")
    ap.add_argument("--cpu", action="store_true",
                    help="instead: the CPU time of every process and thread per keystroke")
    args = ap.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run `make chromium`", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    views = [v for v in args.views.split(",") if v]
    if bad := [v for v in views if v not in VIEWS]:
        ap.error(f"unknown view: {', '.join(bad)}")
    keys = TYPED[:args.keys]
    print(f"urlcalc keystroke profile on {machine()}, {args.mode}, {len(keys)} keystrokes/view")
    with prepared_site() as site, sync_playwright() as playwright, \
            urlcalc_serve({"URLCALC_WEB_DIR": str(site)}) as served, \
            static_server(site) as static_url:
        url = served.url if args.mode == "served" else static_url
        for view in views:
            if args.burst:
                times = burst(playwright, url, view, keys)
                print(f"{view}: {len(keys)} keys with no pause, until the last shows: median "
                      f"{statistics.median(times):.0f} ms ({', '.join(f'{t:.0f}' for t in times)})")
                continue
            if args.cpu:
                p95, wall, spent = cpu(playwright, url, view, keys)
                total = sum(ms for ms, _, _ in spent)
                print(f"\n{view}: keystroke p95 {fmt_ms(p95)}; CPU per keystroke (ms) over "
                      f"{wall:.1f} ms of wall clock, {total:.1f} ms in all:")
                for ms, proc, thread in spent:
                    if ms >= 0.1:
                        print(f"  {ms:6.2f}  {proc}: {thread}")
                continue
            r = profile(playwright, url, view, keys, args.trace, args.js_profile)
            c = cpython(view, keys)
            page, p95 = r["page"], r["page_p95"]
            print(f"\n{view}: keystroke p95 {r['latency_p95']:.1f} ms, mean "
                  f"{r['latency_mean']:.1f} ms (ms per keystroke below: mean, p95)")
            print(f"  worker round trip      {page['callMs']:6.2f} {p95['callMs']:6.2f}")
            for name, key in (("  request to worker", "to_worker_ms"),
                              ("  Python (model+JSON)", "python_ms"),
                              ("  answer to the page", "to_page_ms"),
                              ("  JSON.parse", "parse_ms")):
                print(f"  {name:<22} {page[key]:6.2f} {p95[key]:6.2f}")
            print(f"  answer size            {page['chars'] / 1000:6.1f} kchars")
            print(f"  render (DOM, in JS)    {page['renderMs']:6.2f} {p95['renderMs']:6.2f}")
            print(f"  main thread, trace self time per keystroke ({r['windows']} keystrokes"
                  " from keydown to the end of the frame that shows it):")
            for group, ms in sorted(r["main"].items(), key=lambda kv: -kv[1]):
                print(f"    {group:<20} {ms:6.2f}")
            print("    (top events: " + ", ".join(f"{k} {v:.2f}" for v, k in r["top"]) + ")")
            if r["js"]:
                print("  main thread, V8 CPU profile, self time per keystroke (ms):")
                for ms, label in r["js"]:
                    print(f"    {ms:6.2f}  {label}")
                print("  the page's own functions, total time per keystroke (ms; with what they "
                      "call):")
                for ms, label in r["js_total"]:
                    print(f"    {ms:6.2f}  {label}")
                continue
            print("  worker thread, trace self time per keystroke:")
            for group, ms in sorted(r["worker"].items(), key=lambda kv: -kv[1]):
                print(f"    {group:<20} {ms:6.2f}")
            print(f"  CPython here: model {c['model_ms']:.2f} ms, JSON text {c['json_ms']:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
