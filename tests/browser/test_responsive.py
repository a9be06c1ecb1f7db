"""Issue 5: the page stays responsive with a huge input, in every view; asserted without timing.

For each input shape below, the input is pasted into #input (one fill: an input event with the
whole text) and a few characters are typed after it while the engine's answers are held back
(the API requests are intercepted and answered only later): every keystroke must be handled at
once (the field, the escapes field and the tabs follow) although no answer has come, the typed
characters are coalesced behind the request in flight (issue 14), and when its answer is
released the newest input is asked for at once and the page shows it, not a stale one.
Then every view tab is visited in turn, each must render, and the whole document must stay
under DOM_CEILING elements: what the page draws for any input is bounded (at most 2,000 code
point cells, a window of the trace, the first errors), which is what keeps each render short on
any machine. How long the page's tasks take is measured by `make bench-web`, not asserted here.

Two sizes: about 100 KB (issue 5's figure: over the model's 64 KiB limit, so the page says it
does not parse it without asking the engine; one shape, as the size alone decides), and, for
every shape, just under 64 KiB, which the model parses and every view renders (the coloured
input, the trace, the validation errors...).

The engine is the server's API (?engine=server): the rendering under test is the same for both
engines, and the Pyodide boot (already tested elsewhere) would only slow the test down.
``URLCALC_RESPONSIVE_REPORT=1`` prints, per input, the document's size and the worst main-thread
task seen (for the curious: not asserted).
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest
from liveserver import PageProbe

from urlcalc.model.limits import MAX_INPUT_BYTES

# Measured: 4,900 to 9,700 elements after every view has rendered a 63 KB input of each shape;
# unbounded rendering (a cell per code point) would be over 60,000.
DOM_CEILING = 16_000
TYPED = "x/y"
MODEL_LIMIT = MAX_INPUT_BYTES
UNDER = MODEL_LIMIT - 512  # bytes, UTF-8, with room for the prefix
OVER = 100_000

# Installed before the page's own scripts: every long task from the page's load on (reported with
# URLCALC_RESPONSIVE_REPORT, never asserted).
LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.__longTasks.push({ start: Math.round(e.startTime), ms: Math.round(e.duration) });
  }
}).observe({ type: "longtask", buffered: true });
"""

ZERO_WIDTH_AND_BIDI = "\u200b\u200c\u200d\u2060\ufeff\u202e\u202d\u2066\u2067\u2069\u200e\u200f"


def _fill(prefix: str, unit: str, suffix: str, size: int) -> str:
    """prefix + unit repeated + suffix, at most ``size`` bytes in UTF-8."""
    room = size - len((prefix + suffix).encode("utf-8"))
    body = unit * (room // len(unit.encode("utf-8")) + 1)
    while len(body.encode("utf-8")) > room:
        body = body[:-1]
    return prefix + body + suffix


SHAPES = {
    "path": ("https://example.com/", "seg/", "?q#f"),
    "query": ("https://example.com/p?", "a=1&b=%zz&", "#f"),
    "percent": ("https://example.com/", "%", ""),
    "host": ("https://", "a.b-", ".example/x"),
    "zero-width-bidi": ("https://example.com/", ZERO_WIDTH_AND_BIDI, "?\u202eq#\u200bf"),
}

# Every shape just under the limit; over it, the page refuses the input by its size alone
# (before any engine or view reads it), so one shape stands for all: the one whose escapes field
# and code point cells are the longest to draw.
OVER_SHAPE = "zero-width-bidi"
INPUTS = [pytest.param(_fill(*SHAPES[name], size), id=f"{name}-{label}")
          for name in SHAPES for size, label in ((OVER, "100KB"), (UNDER, "63KB"))
          if size == UNDER or name == OVER_SHAPE]


class InFlight:
    """The requests in flight in a context (the page's and its workers'), and when the last one
    started or ended: what _settle waits for besides the page's render signal."""

    def __init__(self, context: Any) -> None:
        self.pending: set[Any] = set()
        self.changed = time.monotonic()
        context.on("request", self._started)
        context.on("requestfinished", self._ended)
        context.on("requestfailed", self._ended)

    def _started(self, request: Any) -> None:
        self.pending.add(request)
        self.changed = time.monotonic()

    def _ended(self, request: Any) -> None:
        self.pending.discard(request)
        self.changed = time.monotonic()


# How long the page must stay quiet (no request in flight, no new render) to count as settled.
# A fixed 400 ms of no new render, whether or not an answer was still awaited, was most of each
# case's time (and returned before a slow answer: the Steps view's trace of a 63 KB input);
# waiting for every request to end makes a shorter quiet enough. The Implementations view also
# waits for whatwg-url, run in a worker after its files have arrived: the old 400 ms there.
QUIET_MS = 150
WORKER_QUIET_MS = 400


def _settle(page: Any, inflight: InFlight, quiet_ms: int = QUIET_MS,
            timeout_ms: int = 60_000) -> None:
    """Wait until the page has stopped rendering: no request in flight (every engine answer,
    every module or file a view loads has arrived), no new render signal (body[data-renders])
    for ``quiet_ms``, then two animation frames (layout and paint done)."""
    deadline = time.monotonic() + timeout_ms / 1000
    last, since = _renders(page), time.monotonic()
    while True:
        page.wait_for_timeout(25)  # (Playwright delivers the request events meanwhile)
        now = time.monotonic()
        renders = _renders(page)  # (waits for the page's main thread: a long render is not quiet)
        if renders != last or inflight.pending:
            last, since = renders, now
        since = max(since, inflight.changed)
        if now - since >= quiet_ms / 1000:
            break
        assert now < deadline, ("the page did not settle within "
                                f"{timeout_ms} ms: {[r.url for r in inflight.pending]}")
    page.evaluate("() => new Promise((resolve) => "
                  "requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))")


def _views(page: Any) -> list[str]:
    views: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#tabs [role=tab]')].map((t) => t.dataset.view)")
    return views


def _described(routes: list[Any]) -> list[str]:
    """Held requests, for a failure message: the input's length and the other parameters."""
    out = []
    for route in routes:
        body = json.loads(route.request.post_data or "{}")
        n = len(body.pop("input", ""))
        out.append(f"input of {n} code units, {body}")
    return out


def _renders(page: Any) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.renders || 0)"))


@pytest.mark.parametrize("text", INPUTS)
def test_huge_input_keeps_the_page_interactive(probe: PageProbe, text: str,
                                               request: pytest.FixtureRequest) -> None:
    page = probe.page
    probe.context.add_init_script(LONG_TASKS)
    page.set_default_timeout(60_000)
    inflight = InFlight(probe.context)
    probe.open()
    _settle(page, inflight)
    parsed = len(text.encode("utf-8")) <= MODEL_LIMIT

    # Hold every parse request: the engine is "still working" on the pasted input.
    held: list[Any] = []

    def hold(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        if str(body.get("input", "")).startswith(text[:40]):
            held.append(route)
        else:  # e.g. the idle-time engines check of the previous input
            route.continue_()

    page.route("**/api/parse", hold)
    renders = _renders(page)
    page.fill("#input", text)  # a paste: one input event with the whole text
    page.locator("#input").press("End")
    for ch in TYPED:
        page.keyboard.type(ch)
    # every input event was handled without waiting for an answer
    assert page.input_value("#input") == text + TYPED
    assert page.input_value("#input-escaped").endswith(TYPED)
    page.click("#tab-validation")  # and the tabs still answer
    assert page.evaluate("() => document.body.dataset.view") == "validation"
    page.click("#tab-components")
    assert page.evaluate("() => document.body.dataset.view") == "components"
    if parsed:
        # the paste's request, not answered yet; the characters typed meanwhile are coalesced
        # (issue 14): no request queues behind the one in flight
        for _ in range(200):  # let the route events arrive (at most 10 s)
            if held:
                break
            page.wait_for_timeout(50)
        page.wait_for_timeout(300)
        assert len(held) == 1, _described(held)
        assert _renders(page) == renders  # nothing rendered meanwhile: no answer came
        held[0].continue_()
        # its answer is stale: the newest input is asked for at once, in one request
        for _ in range(200):
            if len(held) >= 2:
                break
            page.wait_for_timeout(50)
        assert len(held) == 2, _described(held)
        assert json.loads(held[1].request.post_data or "{}")["input"] == text + TYPED
        held[1].continue_()
    else:
        # over 64 KiB: the page says so at once and asks no engine
        assert held == [], _described(held)
        assert "64 KiB" in page.locator("#request-error").inner_text()
    page.unroute("**/api/parse")
    _settle(page, inflight)

    views = _views(page)
    assert {"components", "steps", "resolution", "setters", "validation", "implementations",
            "calculators", "examples"} <= set(views)
    for view in views:
        page.click(f"#tab-{view}")
        _settle(page, inflight, WORKER_QUIET_MS if view == "implementations" else QUIET_MS)
        assert page.evaluate("() => document.body.dataset.view") == view
    # what the page shows of a long input is the last input (not a stale answer), in part
    total = len(text) + len(TYPED)
    if parsed:
        page.click("#tab-components")
        _settle(page, inflight)
        note = page.locator("#input-view .trunc-note")
        assert note.get_attribute("data-total") == str(total)
        assert page.locator("#request-error").is_hidden()
    else:
        assert "64 KiB" in page.locator("#request-error").inner_text()
    elements = int(page.evaluate("() => document.querySelectorAll('*').length"))
    if os.environ.get("URLCALC_RESPONSIVE_REPORT"):
        tasks: list[dict[str, int]] = page.evaluate("() => window.__longTasks")
        worst = max((t["ms"] for t in tasks), default=0)
        print(f"\n{request.node.callspec.id}: {elements} elements; worst main-thread task "
              f"{worst} ms, {len(tasks)} over 50 ms (not asserted)")
    assert elements < DOM_CEILING
    probe.assert_clean()
