"""`make bench-web`: the calculator page in a real browser, cold, several times. Not a test.

Starts ``urlcalc serve`` (waitress) on a free loopback port in a subprocess, then for each run
launches Debian's Chromium through Playwright (a new browser each time: empty HTTP cache, no
compiled-wasm cache), counts every request that is not for the server (must be 0), and
measures:

* time to first visible result: navigation start until ``document.body.dataset.engine`` is set
  (the page sets it once results show; served by Flask the first results come from the API);
* time until Pyodide answers: until ``document.body.dataset.engine === "pyodide"``;
* keystroke-to-render p95: 200 characters typed into ``#input`` one key at a time, each timed from
  the keydown event to the page's next render signal (``document.body.dataset.renders``, a
  counter the page increments after every render), twice: in the page's default view
  (Components: the page asks for no trace, the model still follows every parser step for the
  coloured input), then in the Steps view (the trace is asked for and shown: every keystroke
  brings the whole trace, and the step list, the caret and the record are drawn from it);
  the target holds for both;
* bytes transferred on a cold boot: the sum of the response bodies as sent (compressed),
  every request of the page and of its worker, until Pyodide answers.

Prints the median of each over the runs beside its target. ``--strict`` exits 1 when a target is
missed. Needs /usr/bin/chromium (``make chromium``), web/node_modules (``make npm``) and
web/index.html. Playwright's string predicates use eval(), which the page's CSP forbids: only
function predicates are used here.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks.serve import urlcalc_serve

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
# Playwright's defaults (--headless, --no-sandbox when root, ...) suffice for Debian's build.
CHROMIUM_ARGS: list[str] = []

TARGET_FIRST_S = 0.5
TARGET_PYODIDE_S = 3.0
TARGET_KEY_P95_MS = 16.0
TARGET_BYTES = 7_000_000

# 200 characters that walk through every URL component (and the host parser).
TYPED = (
    "https://us%65r:p@ss@EXAMPLE.xn--nxasmq6b.com:8080/a/./b/../c/%7Efoo/d%2e%2E/"
    "e?q=1&r=%zz&s=\u00e9#frag/ment"
)
TYPED = (TYPED + "/seg" * 50)[:200]

# Installed before any of the page's scripts: records when the page signals results/renders.
INIT_SCRIPT = """
(() => {
  const bench = { first: null, pyodide: null, renders: 0, lastRender: null, keydown: null,
                  latencies: [], next: null, resolveNext: null };
  window.__urlcalcBench = bench;
  addEventListener("keydown", (event) => { bench.keydown = event.timeStamp; }, true);
  new MutationObserver(() => {
    const body = document.body;
    if (!body) return;
    const now = performance.now();
    const engine = body.dataset.engine;
    if (engine && bench.first === null) bench.first = now;
    if (engine === "pyodide" && bench.pyodide === null) bench.pyodide = now;
    const renders = Number(body.dataset.renders || 0);
    if (renders !== bench.renders) {
      bench.renders = renders;
      bench.lastRender = now;
      if (bench.keydown !== null) {
        bench.latencies.push(now - bench.keydown);
        bench.keydown = null;
      }
      if (bench.resolveNext) bench.resolveNext(true);
    }
  }).observe(document, {
    subtree: true, attributes: true, attributeFilter: ["data-engine", "data-renders"],
  });
})();
"""


@dataclass
class Run:
    first_s: float | None = None
    pyodide_s: float | None = None
    key_p95_ms: float | None = None
    key_engine: str | None = None
    steps_p95_ms: float | None = None
    bytes: int = 0
    requests: int = 0
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(0, math.ceil(p / 100 * len(ordered)) - 1)
    return ordered[rank]


@contextmanager
def server(web_dir: str | None) -> Iterator[str]:
    """``urlcalc serve --port 0`` in a subprocess (serving ``web_dir`` if given); yields its URL."""
    with urlcalc_serve({"URLCALC_WEB_DIR": web_dir} if web_dir else None) as served:
        yield served.url


def one_run(playwright: Any, url: str, keys: str, timeout_s: float) -> Run:
    run = Run()
    origin = urlsplit(url).netloc
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        context = browser.new_context()
        context.add_init_script(INIT_SCRIPT)

        # Observed, not intercepted: routing every request through Playwright (context.route)
        # slows the wasm download and compile several-fold and would distort the timings.
        def outside(request: Any) -> None:
            if urlsplit(request.url).netloc != origin and not request.url.startswith("data:"):
                run.outside.append(request.url)

        context.on("request", outside)
        finished: list[Any] = []
        context.on("requestfinished", lambda request: finished.append(request))
        page = context.new_page()
        page.on("console", lambda m: run.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: run.errors.append(str(e)))

        page.goto(url, wait_until="commit")
        page.wait_for_function("() => window.__urlcalcBench.first !== null",
                               timeout=timeout_s * 1000)
        try:
            page.wait_for_function("() => window.__urlcalcBench.pyodide !== null",
                                   timeout=timeout_s * 1000)
        except Exception:
            run.errors.append(f"Pyodide did not answer within {timeout_s:.0f} s")
        bench = page.evaluate("() => window.__urlcalcBench")
        run.first_s = bench["first"] / 1000
        run.pyodide_s = bench["pyodide"] / 1000 if bench["pyodide"] is not None else None
        for request in finished:
            sizes = request.sizes()
            body = sizes["responseBodySize"]
            response = request.response()
            if body <= 0 and response is not None:  # e.g. the worker's own script
                body = int(response.headers.get("content-length", "0") or 0)
            run.bytes += max(body, 0)
        run.requests = len(finished)

        if keys:
            run.key_p95_ms, run.key_engine = type_and_time(page, keys)
            page.click("#tab-steps")
            page.wait_for_timeout(300)
            run.steps_p95_ms, _ = type_and_time(page, keys)
        context.close()
    finally:
        browser.close()
    return run


def type_and_time(page: Any, keys: str) -> tuple[float | None, str | None]:
    """Type ``keys`` into #input one at a time, each timed keydown -> next render signal."""
    field_ = page.locator("#input")
    field_.fill("")
    page.wait_for_timeout(200)  # let the render for the cleared field land
    page.evaluate("() => { window.__urlcalcBench.latencies = []; }")
    field_.focus()
    missed = 0
    # No polling while a keystroke is in flight (wait_for_function polls on every animation
    # frame, which competes with the page): arm a promise, type, then await the promise.
    arm = """() => {
      const bench = window.__urlcalcBench;
      bench.next = new Promise((resolve) => { bench.resolveNext = resolve; });
    }"""
    wait = """() => Promise.race([window.__urlcalcBench.next,
                            new Promise((resolve) => setTimeout(() => resolve(false), 5000))])"""
    for ch in keys:
        page.evaluate(arm)
        page.keyboard.type(ch)
        if not page.evaluate(wait):
            missed += 1
    latencies: list[float] = page.evaluate("() => window.__urlcalcBench.latencies")
    engine = page.evaluate("() => document.body.dataset.engine")
    if missed:
        print(f"  ({missed} keystrokes gave no render signal within 5 s)", file=sys.stderr)
    return (percentile(latencies, 95) if latencies else None), engine


def fmt(value: float | None, unit: str, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f} {unit}"


def median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.web", description=__doc__.split(
        "\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="cold runs (default 5)")
    ap.add_argument("--url", help="benchmark this running server instead of starting one")
    ap.add_argument("--web-dir", help="serve this folder as the page, with node_modules/pyodide "
                    "inside it (default: web/)")
    ap.add_argument("--page-suffix", default="", help="appended to the page URL, e.g. '#...'")
    ap.add_argument("--no-typing", action="store_true", help="skip the keystroke measure")
    ap.add_argument("--timeout", type=float, default=60, help="seconds to wait for a result")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args(argv)

    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run `make chromium`", file=sys.stderr)
        return 2
    web_dir = Path(args.web_dir) if args.web_dir else ROOT / "web"
    if args.url is None and not (web_dir / "index.html").is_file():
        print(f"{web_dir / 'index.html'} is missing: nothing to benchmark yet", file=sys.stderr)
        return 2
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("playwright is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return 2

    runs: list[Run] = []
    with (server(args.web_dir) if args.url is None else _given(args.url)) as url, \
            sync_playwright() as playwright:
        page_url = url + args.page_suffix
        print(f"urlcalc web benchmark: {args.runs} cold runs of {page_url} in {CHROMIUM}")
        for i in range(args.runs):
            run = one_run(playwright, page_url, "" if args.no_typing else TYPED, args.timeout)
            runs.append(run)
            print(f"  run {i + 1}: first result {fmt(run.first_s, 's')}, Pyodide "
                  f"{fmt(run.pyodide_s, 's')}, keystroke p95 {fmt(run.key_p95_ms, 'ms', 1)}"
                  f" ({run.key_engine}), in Steps {fmt(run.steps_p95_ms, 'ms', 1)},"
                  f" {run.bytes / 1e6:.2f} MB in {run.requests} requests"
                  + (f", {len(run.outside)} requests outside the server" if run.outside else ""))
            for message in run.errors[:5]:
                print(f"    console/page error: {message[:200]}")

    first = median([r.first_s for r in runs])
    pyodide = median([r.pyodide_s for r in runs])
    key = median([r.key_p95_ms for r in runs])
    steps = median([r.steps_p95_ms for r in runs])
    size = median([float(r.bytes) for r in runs])
    rows = [
        ("time to first visible result", fmt(first, "s"), f"< {TARGET_FIRST_S} s",
         first is not None and first < TARGET_FIRST_S),
        ("time until Pyodide answers", fmt(pyodide, "s"), f"< {TARGET_PYODIDE_S:g} s",
         pyodide is not None and pyodide < TARGET_PYODIDE_S),
        (f"keystroke-to-render p95 ({len(TYPED)} chars)", fmt(key, "ms", 1),
         f"< {TARGET_KEY_P95_MS:g} ms", key is not None and key < TARGET_KEY_P95_MS),
        ("  the same in Steps (trace shown)", fmt(steps, "ms", 1),
         f"< {TARGET_KEY_P95_MS:g} ms", steps is not None and steps < TARGET_KEY_P95_MS),
        ("bytes transferred, cold boot", fmt(None if size is None else size / 1e6, "MB"),
         f"<= {TARGET_BYTES / 1e6:g} MB", size is not None and size <= TARGET_BYTES),
    ]
    if args.no_typing:
        del rows[2:4]
    print(f"\nmedians of {len(runs)} cold runs:")
    for name, value, target, ok in rows:
        print(f"  {name:<36} {value:>10}   target {target:<9} {'ok' if ok else 'MISSED'}")
    outside = sum(len(r.outside) for r in runs)
    print(f"  requests outside the server: {outside} (must be 0)")
    missed = any(not ok for *_, ok in rows) or outside > 0
    return 1 if args.strict and missed else 0


@contextmanager
def _given(url: str) -> Iterator[str]:
    yield url if url.endswith("/") else url + "/"


if __name__ == "__main__":
    raise SystemExit(main())
