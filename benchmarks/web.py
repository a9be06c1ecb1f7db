"""`make bench-web`: the calculator page in a real browser, as ratios to floors measured in the
same run and the same Chromium. Not a test.

Absolute page timings differ twofold between machines of the same kind, so each figure is
reported beside a floor measured in the same run, on the same server, in the same browser:

* **boot**: a bare Pyodide boot (a page whose module worker runs ``loadPyodide`` from the same
  ``pyodide/`` files and imports re, json and unicodedata) against the calculator's first Pyodide
  answer (the start of the tab's first navigation until ``document.body.dataset.engine ===
  "pyodide"``: on the static export a first visit reloads once through the site's service
  worker, web/js/engine/isolation.js, and that reload is counted, as are both documents' bytes).
  Target: the calculator <= 0.8x the bare boot.
* **keystrokes**: the floor is a page with one input that does nothing with it (keydown to the
  end of the next frame); each of the nine views (the tabs but Lessons) is timed from keydown to
  the end of the first frame after the page has rendered the keystroke and has no engine call in
  flight (``window.urlcalc.engine.busy``: Editions and Implementations ask for more after the
  parse). Target: every view's p95 <= 2x the floor and <= 33 ms. The Steps view shows the whole
  trace (it asks for it on every keystroke). A second floor, measured the same way, is a page
  whose worker answers each keystroke at once (by postMessage): the least any answer from a
  worker costs when it comes by message (two frames). The page beats it where it is cross-origin
  isolated (served): a keystroke's call waits, a few ms at most, for Pyodide's answer in a
  SharedArrayBuffer (web/js/engine/sync-channel.js) and draws it in the keystroke's own frame; each
  view reports how many answers came so and how many waits ran out.
* **phase**: a typist's keystrokes fall anywhere in the browser's frame; a loop that types the
  next key as soon as the last one settled puts every keydown at the same point of the frame
  (here a few ms before the next frame). ``--phase random`` (the default) pauses before each
  keystroke for a time drawn uniformly from one frame (seeded: ``--seed``); ``--phase lockstep``
  types at once, as the first version of this benchmark did.

Both on the page served by ``urlcalc serve`` (waitress, brotli or gzip) and on the static export
(``urlcalc export-static``, served by ``python -m http.server``: no compression). One export is
written to a temporary folder with the floor pages added under ``js/_floor/``; ``urlcalc serve``
serves that folder (``URLCALC_WEB_DIR``: a staged copy, the same files) and so does the static
server, so the floors are served exactly as the page is.

Every run launches a new Chromium for each boot measure (empty HTTP cache, no compiled-wasm
cache), with a 1280x720 window (``--viewport``: there every view's body is below the fold while
one types in the URL field; at 1920x1080 the top of the big views is on screen). Also checked:
no request leaves localhost; the bytes of a cold boot of the served page (response bodies as
sent, until Pyodide answers) within the 7 MB budget. Each run says how the
calculator's page got cross-origin isolated (or why not) and how many documents it loaded. On
the static export the keystroke floors are opened after the calculator, in the same browser: its
service worker then controls them too (isolated, with the CSP), as the served floors are. Prints
the machine (CPU, cores, load average at the start and the end), every run, then the medians with
their targets.
``--strict`` exits 1 when a target is missed. Needs /usr/bin/chromium (``make chromium``) and
web/node_modules (``make npm``). Playwright's string predicates use eval(), which the page's CSP
forbids: only function predicates are used here.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks.serve import static_server, urlcalc_serve

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
# Playwright's defaults (--headless, --no-sandbox when root, ...) suffice for Debian's build.
CHROMIUM_ARGS: list[str] = []

TARGET_BOOT_RATIO = 0.8
TARGET_KEY_RATIO = 2.0
TARGET_KEY_MS = 33.0
TARGET_BYTES = 7_000_000

# The views timed (tab order); Lessons shows no result of its own.
VIEWS = ("components", "steps", "resolution", "setters", "validation", "editions",
         "implementations", "calculators", "examples")
MODES = ("served", "static")

# Characters that walk through every URL component (and the host parser); the first KEYS of it
# are typed into each view.
TYPED = (
    "https://us%65r:p@ss@EXAMPLE.xn--nxasmq6b.com:8080/a/./b/../c/%7Efoo/d%2e%2E/"
    "e?q=1&r=%zz&s=\u00e9#frag/ment"
)
TYPED = (TYPED + "/seg" * 50)[:200]
KEYS = 100
QUICK_KEYS = 40

# The floor pages, written into the export's js/_floor/ (served like the page's own scripts).
FLOOR_FILES = {
    "boot.html": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>floor: a bare Pyodide boot</title>
<link rel="icon" href="data:,"><script type="module" src="boot.js"></script></head>
<body></body></html>
""",
    "boot.js": """// A module worker booting Pyodide from the page's pyodide/ files, nothing more.
const worker = new Worker(new URL("boot-worker.js", import.meta.url), { type: "module" });
worker.addEventListener("message", (event) => {
  if (event.data && event.data.ok) document.body.dataset.engine = "pyodide";
  else document.body.dataset.error = String(event.data && event.data.error);
});
""",
    "boot-worker.js": """const indexURL = new URL("../../pyodide/", import.meta.url).href;
try {
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL, packages: [] });
  pyodide.runPython("import re, json, unicodedata");
  self.postMessage({ ok: true });
} catch (e) {
  self.postMessage({ ok: false, error: String(e && e.message || e) });
}
""",
    "key.html": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>floor: a keystroke</title>
<link rel="icon" href="data:,"><script type="module" src="key.js"></script></head>
<body><input id="input" aria-label="input"></body></html>
""",
    "key.js": """// A keystroke that does nothing: the page signals a render as the calculator does.
let renders = 0;
document.getElementById("input").addEventListener("input", () => {
  renders += 1;
  document.body.dataset.renders = String(renders);
});
""",
    # The floor of any answer from a worker: each keystroke posted to a worker that answers at
    # once (the upper-cased input), drawn when the answer comes, by postMessage.
    "echo.html": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>floor: a worker's answer</title>
<link rel="icon" href="data:,"><script type="module" src="echo.js"></script></head>
<body><input id="input" aria-label="input"><p id="answer"></p></body></html>
""",
    "echo.js": """// A keystroke answered by a worker that does no work: the page signals the render
// of the answer as the calculator does (and says it is busy while the answer is on its way).
const worker = new Worker(new URL("echo-worker.js", import.meta.url), { type: "module" });
const input = document.getElementById("input");
const answer = document.getElementById("answer");
const engine = { busy: 0 };
window.urlcalc = { engine };
let renders = 0;
input.addEventListener("input", () => {
  engine.busy += 1;
  worker.postMessage(input.value);
});
worker.addEventListener("message", (event) => {
  answer.textContent = event.data;
  engine.busy -= 1;
  renders += 1;
  document.body.dataset.renders = String(renders);
});
""",
    "echo-worker.js": """self.addEventListener("message",
  (event) => self.postMessage(event.data.toUpperCase()));
""",
}

# Installed before any of the page's scripts, in every document (a reload included): records
# when the page signals results and renders, and times each keystroke from its keydown to the end
# of the first frame after the page rendered it and has no engine call in flight. Boot times
# count from the FIRST navigation of the tab: on a first visit to a static export the page
# reloads once through its service worker (web/js/engine/isolation.js), which starts a new document
# and its clock; the first document's time origin is kept in sessionStorage (``documents``: how many
# documents the tab has loaded).
INIT_SCRIPT = """
(() => {
  const bench = { first: null, pyodide: null, renders: 0, keydown: null, signalled: false,
                  latencies: [], next: null, resolveNext: null, origin: performance.timeOrigin,
                  documents: 1 };
  window.__urlcalcBench = bench;
  try {
    const kept = sessionStorage.getItem("urlcalc-bench-origin");
    if (kept === null) sessionStorage.setItem("urlcalc-bench-origin", String(bench.origin));
    else bench.origin = Number(kept);
    bench.documents = Number(sessionStorage.getItem("urlcalc-bench-documents") || 0) + 1;
    sessionStorage.setItem("urlcalc-bench-documents", String(bench.documents));
  } catch (e) {
    // about:blank and the like: no storage, and nothing to time
  }
  // ms since the tab's first navigation started
  const sinceFirst = () => performance.timeOrigin + performance.now() - bench.origin;
  // The end of a frame: a task posted from requestAnimationFrame runs after its paint.
  const afterFrame = (fn) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = fn;
    channel.port2.postMessage(0);
  });
  const busy = () => {
    const engine = window.urlcalc && window.urlcalc.engine;
    return engine && typeof engine.busy === "number" ? engine.busy : 0;
  };
  function settle() {
    afterFrame(() => {
      if (bench.keydown === null) return;
      if (busy() > 0) { settle(); return; }
      bench.latencies.push(performance.now() - bench.keydown);
      performance.mark("urlcalc-bench-settled"); // for benchmarks.web_profile's trace
      bench.keydown = null;
      if (bench.resolveNext) bench.resolveNext(true);
    });
  }
  addEventListener("keydown", (event) => {
    bench.keydown = event.timeStamp;
    bench.signalled = false;
  }, true);
  // A character no key of the US layout types (Playwright inserts it as text): no keydown, the
  // keystroke starts at its beforeinput.
  addEventListener("beforeinput", (event) => {
    if (bench.keydown !== null) return;
    bench.keydown = event.timeStamp;
    bench.signalled = false;
  }, true);
  new MutationObserver(() => {
    const body = document.body;
    if (!body) return;
    const now = sinceFirst();
    const engine = body.dataset.engine;
    if (engine && bench.first === null) bench.first = now;
    if (engine === "pyodide" && bench.pyodide === null) bench.pyodide = now;
    const renders = Number(body.dataset.renders || 0);
    if (renders !== bench.renders) {
      bench.renders = renders;
      if (bench.keydown !== null && !bench.signalled) {
        bench.signalled = true;
        settle();
      }
    }
  }).observe(document, {
    subtree: true, attributes: true, attributeFilter: ["data-engine", "data-renders"],
  });
})();
"""


@dataclass
class Run:
    """One cold run of one mode (served or static)."""

    mode: str
    bare_s: float | None = None
    first_s: float | None = None
    pyodide_s: float | None = None
    documents: int = 1  # documents the calculator's tab loaded until Pyodide answered
    isolation: str = ""  # how the calculator's page got cross-origin isolated, or why not
    floor_ms: float | None = None
    echo_ms: float | None = None
    # per view: answers the page took in the keystroke's own task / waits that ran out of time
    sync: dict[str, tuple[int, int]] = field(default_factory=dict)
    # per view, per channel (the Pyodide worker, the server relay, the whatwg-url worker)
    sync_by: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    views_ms: dict[str, float | None] = field(default_factory=dict)
    bytes: int = 0
    requests: int = 0
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    rank = max(0, math.ceil(p / 100 * len(ordered)) - 1)
    return ordered[rank]


def machine() -> str:
    """CPU model and cores of this machine (the absolute figures are its own)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


@contextmanager
def prepared_site() -> Iterator[Path]:
    """The static export in a temporary folder, with the floor pages in js/_floor/."""
    from urlcalc.site.export import export_static

    with tempfile.TemporaryDirectory(prefix="urlcalc-bench-") as tmp:
        site = export_static(Path(tmp) / "site")
        floor = site / "js" / "_floor"
        floor.mkdir()
        for name, text in FLOOR_FILES.items():
            (floor / name).write_text(text, encoding="utf-8")
        yield site


# The window (CSS pixels): a 1280x720 projector's, Playwright's default. There, while one types
# in the URL field, every view's body is below the fold; ``--viewport 1920x1080`` has the top of
# the Steps list and of the Editions and Implementations tables on screen.
VIEWPORT = {"width": 1280, "height": 720}


class Browser:
    """A new Chromium with one context: empty HTTP cache, no compiled-wasm cache."""

    def __init__(self, playwright: Any, run: Run, origin: str) -> None:
        self.browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        self.context = self.browser.new_context(viewport=VIEWPORT)
        self.context.add_init_script(INIT_SCRIPT)
        self.finished: list[Any] = []

        # Observed, not intercepted: routing every request through Playwright (context.route)
        # slows the wasm download and compile several-fold and would distort the timings.
        def outside(request: Any) -> None:
            if urlsplit(request.url).netloc != origin and not request.url.startswith("data:"):
                run.outside.append(request.url)

        self.context.on("request", outside)
        self.context.on("requestfinished", lambda request: self.finished.append(request))
        self.run = run

    def page(self) -> Any:
        page = self.context.new_page()
        page.on("console",
                lambda m: self.run.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.run.errors.append(str(e)))
        return page

    def close(self) -> None:
        self.context.close()
        self.browser.close()


def wait_pyodide(page: Any, run: Run, timeout_s: float) -> float | None:
    """Seconds from the tab's first navigation until the page's first Pyodide answer (a reload
    on the way included: web/js/engine/isolation.js), or None."""
    deadline = time.monotonic() + timeout_s
    while True:
        left = deadline - time.monotonic()
        try:
            page.wait_for_function("() => window.__urlcalcBench.pyodide !== null",
                                   timeout=max(left, 0.001) * 1000)
            value = page.evaluate("() => window.__urlcalcBench.pyodide")
            break
        except Exception as e:
            # The page reloading under the wait destroys its context: wait in the new one.
            if "context was destroyed" in str(e) and time.monotonic() < deadline:
                continue
            run.errors.append(f"Pyodide did not answer within {timeout_s:.0f} s ({page.url})")
            return None
    return float(value) / 1000


ISOLATION = """() => {
  const info = window.urlcalc.engine.info.isolation;
  return info.by ? "isolated by " + info.by : "not isolated: " + info.reason;
}"""


def from_service_worker(request: Any) -> bool:
    """Whether the service worker made up the response (from a request of its own)."""
    response = request.response()
    return response is not None and bool(response.from_service_worker)


def bytes_of(requests: list[Any]) -> int:
    """Response bytes of ``requests`` as sent by the server: every document of the tab (a reload
    included) and the service worker's own requests; a response the service worker made up from
    one of those is not counted again."""
    total = 0
    for request in requests:
        if from_service_worker(request):
            continue
        response = request.response()
        # (sizes() of the service worker's own requests never settles: Playwright 1.65)
        body = request.sizes()["responseBodySize"] if request.service_worker is None else 0
        if body <= 0 and response is not None:  # e.g. the worker's own script
            body = int(response.headers.get("content-length", "0") or 0)
        total += max(body, 0)
    return total


def one_run(playwright: Any, mode: str, url: str, keys: str, views: tuple[str, ...],
            timeout_s: float, phase: Phase) -> Run:
    run = Run(mode)
    origin = urlsplit(url).netloc

    # 1. the floor of a boot: a bare Pyodide, cold
    browser = Browser(playwright, run, origin)
    try:
        page = browser.page()
        page.goto(url + "js/_floor/boot.html", wait_until="commit")
        run.bare_s = wait_pyodide(page, run, timeout_s)
    finally:
        browser.close()

    # 2. the calculator, cold; then the keystroke floor and the views in the same browser
    browser = Browser(playwright, run, origin)
    try:
        page = browser.page()
        page.goto(url, wait_until="commit")
        run.pyodide_s = wait_pyodide(page, run, timeout_s)
        if run.pyodide_s is not None:
            run.first_s = page.evaluate("() => window.__urlcalcBench.first") / 1000
            run.documents = page.evaluate("() => window.__urlcalcBench.documents")
            run.isolation = page.evaluate(ISOLATION)
        run.bytes = bytes_of(browser.finished)
        run.requests = sum(1 for r in browser.finished if not from_service_worker(r))
        if keys and run.pyodide_s is not None:
            for floor_page in ("key", "echo"):
                floor = browser.page()
                floor.goto(url + f"js/_floor/{floor_page}.html")
                floor.bring_to_front()
                ms = type_and_time(floor, keys, phase)
                if floor_page == "key":
                    run.floor_ms = ms
                else:
                    run.echo_ms = ms
                floor.close()
            page.bring_to_front()
            page.wait_for_timeout(300)
            for view in views:
                page.click(f"#tab-{view}")
                page.wait_for_timeout(300)
                before = page.evaluate(SYNC)
                run.views_ms[view] = type_and_time(page, keys, phase)
                after = page.evaluate(SYNC)
                run.sync[view] = (after["waits"] - before["waits"],
                                  after["misses"] - before["misses"])
                zero = {"waits": 0, "misses": 0}
                run.sync_by[view] = {
                    name: (c["waits"] - before["by"].get(name, zero)["waits"],
                           c["misses"] - before["by"].get(name, zero)["misses"])
                    for name, c in after["by"].items()
                    if c != before["by"].get(name, zero)}
    finally:
        browser.close()
    return run


ARM = """() => {
  const bench = window.__urlcalcBench;
  bench.next = new Promise((resolve) => { bench.resolveNext = resolve; });
}"""
WAIT = """() => Promise.race([window.__urlcalcBench.next,
                          new Promise((resolve) => setTimeout(() => resolve(false), 5000))])"""


# The page's count of answers taken in the keystroke's own task and of waits that ran out.
SYNC = """() => { const s = window.urlcalc.engine.sync;
                  return { waits: s.waits, misses: s.misses, by: s.by }; }"""
FRAME_MS = 1000 / 60


class Phase:
    """When each keystroke is typed. "random": after a pause drawn uniformly from one frame
    (seeded), so that keystrokes fall at every point of the browser's frame, as a typist's do.
    "lockstep": at once after the previous keystroke settled, which puts every keydown at about
    the same point of the frame (here a few ms before the next one begins): only that point of
    the frame is sampled, and an answer that takes longer than those few ms always waits a
    whole frame more."""

    def __init__(self, kind: str, seed: int = 14) -> None:
        self.kind = kind
        self.rng = random.Random(seed)

    def pause(self, page: Any) -> None:
        if self.kind == "random":
            page.wait_for_timeout(self.rng.uniform(0, FRAME_MS))


def type_and_time(page: Any, keys: str, phase: Phase) -> float | None:
    """Type ``keys`` into #input one at a time, each timed; the p95 in ms."""
    field_ = page.locator("#input")
    field_.fill("")
    page.wait_for_timeout(200)  # let the render for the cleared field land
    page.evaluate("() => { window.__urlcalcBench.latencies = []; }")
    field_.focus()
    missed = 0
    # No polling while a keystroke is in flight (wait_for_function polls on every animation
    # frame, which competes with the page): arm a promise, type, then await the promise.
    for ch in keys:
        page.evaluate(ARM)
        phase.pause(page)
        page.keyboard.type(ch)
        if not page.evaluate(WAIT):
            missed += 1
    latencies: list[float] = page.evaluate("() => window.__urlcalcBench.latencies")
    if missed:
        print(f"  ({missed} keystrokes gave no render signal within 5 s)", file=sys.stderr)
    return percentile(latencies, 95) if latencies else None


def fmt(value: float | None, unit: str, digits: int = 2) -> str:
    if value is None:
        return "n/a"
    return f"{value:.{digits}f}{unit}" if unit == "x" else f"{value:.{digits}f} {unit}"


def median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def report_run(i: int, run: Run) -> None:
    views = ", ".join(f"{v} {fmt(ms, 'ms', 1)}" for v, ms in run.views_ms.items())
    print(f"  run {i} {run.mode}: bare Pyodide {fmt(run.bare_s, 's')}, first result "
          f"{fmt(run.first_s, 's')}, Pyodide answers {fmt(run.pyodide_s, 's')} "
          f"({fmt(ratio(run.pyodide_s, run.bare_s), 'x')}); {run.bytes / 1e6:.2f} MB in "
          f"{run.requests} requests; {run.isolation or 'isolation n/a'}"
          + (f", {run.documents} documents (a reload)" if run.documents > 1 else "")
          + (f", {len(run.outside)} requests outside the server" if run.outside else ""))
    if run.floor_ms is not None:
        print(f"    keystroke p95: floor {fmt(run.floor_ms, 'ms', 1)}, a worker's answer "
              f"{fmt(run.echo_ms, 'ms', 1)}; {views}")
        print("    answers in the keystroke's task (waited / ran out): "
              + ", ".join(f"{v} {w}/{m}" + (" (" + ", ".join(
                  f"{name} {cw}/{cm}" for name, (cw, cm) in run.sync_by[v].items()) + ")"
                  if len(run.sync_by.get(v, {})) > 1 else "")
                  for v, (w, m) in run.sync.items()))
    for message in run.errors[:5]:
        print(f"    console/page error: {message[:200]}")


def summary(runs: list[Run], mode: str, views: tuple[str, ...]) -> bool:
    """Print the medians of one mode beside their targets; True if every target holds."""
    mine = [r for r in runs if r.mode == mode]
    if not mine:
        return True
    ok_all = True

    def row(name: str, value: str, rel: str, target: str, ok: bool | None) -> None:
        nonlocal ok_all
        verdict = "" if ok is None else ("ok" if ok else "MISSED")
        ok_all = ok_all and ok is not False
        print(f"  {name:<34} {value:>10} {rel:>8}   {target:<24} {verdict}")

    bare = median([r.bare_s for r in mine])
    pyo = median([r.pyodide_s for r in mine])
    first = median([r.first_s for r in mine])
    boot_ratio = median([ratio(r.pyodide_s, r.bare_s) for r in mine])
    print(f"\n{mode}: medians of {len(mine)} cold runs (ratio: median of the per-run ratios)")
    row("bare Pyodide boot (floor)", fmt(bare, "s"), "1.00x", "", None)
    row("first visible result", fmt(first, "s"), fmt(ratio(first, bare), "x"), "", None)
    row("first Pyodide answer", fmt(pyo, "s"), fmt(boot_ratio, "x"),
        f"<= {TARGET_BOOT_RATIO:g}x the floor",
        boot_ratio is not None and boot_ratio <= TARGET_BOOT_RATIO)
    if mode == "served":
        size = median([float(r.bytes) for r in mine])
        row("bytes transferred, cold boot", fmt(None if size is None else size / 1e6, "MB"), "",
            f"<= {TARGET_BYTES / 1e6:g} MB", size is not None and size <= TARGET_BYTES)
    floor = median([r.floor_ms for r in mine])
    if floor is not None:
        row("keystroke p95, floor", fmt(floor, "ms", 1), "1.00x", "", None)
        echo = median([r.echo_ms for r in mine])
        row("keystroke p95, a worker's answer", fmt(echo, "ms", 1),
            fmt(median([ratio(r.echo_ms, r.floor_ms) for r in mine]), "x", 1), "", None)
        for view in views:
            value = median([r.views_ms.get(view) for r in mine])
            rel = median([ratio(r.views_ms.get(view), r.floor_ms) for r in mine])
            row(f"keystroke p95, {view}", fmt(value, "ms", 1), fmt(rel, "x", 1),
                f"<= {TARGET_KEY_RATIO:g}x, <= {TARGET_KEY_MS:g} ms",
                value is not None and rel is not None and rel <= TARGET_KEY_RATIO
                and value <= TARGET_KEY_MS)
    return ok_all


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.web",
                                 description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="cold runs per mode (default 5)")
    ap.add_argument("--quick", action="store_true",
                    help=f"one run, {QUICK_KEYS} keystrokes per view (a smoke test, not figures)")
    ap.add_argument("--keys", type=int, default=None,
                    help=f"keystrokes per view (default {KEYS}, at most {len(TYPED)})")
    ap.add_argument("--modes", default=",".join(MODES),
                    help="served, static or both (default served,static)")
    ap.add_argument("--views", default=",".join(VIEWS), help="views to type in (default: all nine)")
    ap.add_argument("--no-typing", action="store_true", help="boot figures only")
    ap.add_argument("--timeout", type=float, default=60, help="seconds to wait for a result")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--phase", choices=("random", "lockstep"), default="random",
                    help="when each keystroke is typed within the frame (default random)")
    ap.add_argument("--seed", type=int, default=14, help="the random phase's seed")
    ap.add_argument("--viewport", default="1280x720",
                    help="the window's size in CSS pixels, WIDTHxHEIGHT (default 1280x720)")
    args = ap.parse_args(argv)

    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: run `make chromium`", file=sys.stderr)
        return 2
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("playwright is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return 2
    modes = tuple(m for m in args.modes.split(",") if m)
    views = tuple(v for v in args.views.split(",") if v)
    if bad := [m for m in modes if m not in MODES] + [v for v in views if v not in VIEWS]:
        ap.error(f"unknown mode or view: {', '.join(bad)}")
    try:
        width, height = (int(n) for n in args.viewport.lower().split("x"))
    except ValueError:
        ap.error(f"--viewport: WIDTHxHEIGHT, not {args.viewport!r}")
    VIEWPORT.update(width=width, height=height)
    runs_n = 1 if args.quick else args.runs
    n_keys = args.keys if args.keys is not None else (QUICK_KEYS if args.quick else KEYS)
    keys = "" if args.no_typing else TYPED[:n_keys]

    print(f"urlcalc web benchmark on {machine()}")
    print(f"  Chromium {CHROMIUM}; {runs_n} cold runs per mode ({', '.join(modes)}); "
          f"{len(keys)} keystrokes per view, {args.phase} phase, a {width}x{height} window")
    print(f"  load average at start: {load_average()}")
    runs: list[Run] = []
    started = time.monotonic()
    with prepared_site() as site, sync_playwright() as playwright, \
            urlcalc_serve({"URLCALC_WEB_DIR": str(site)}) as served, \
            static_server(site) as static_url:
        urls = {"served": served.url, "static": static_url}
        for i in range(runs_n):
            for mode in modes:  # interleaved: a change of load weighs on both alike
                run = one_run(playwright, mode, urls[mode], keys, views, args.timeout,
                              Phase(args.phase, args.seed + i))
                runs.append(run)
                report_run(i + 1, run)
    print(f"  load average at end: {load_average()} ({time.monotonic() - started:.0f} s)")

    ok = all([summary(runs, mode, views if keys else ()) for mode in modes])
    outside = sum(len(r.outside) for r in runs)
    print(f"\n  requests outside the server: {outside} (must be 0)")
    return 1 if args.strict and (not ok or outside > 0) else 0


if __name__ == "__main__":
    raise SystemExit(main())
