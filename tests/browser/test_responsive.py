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

Two sizes per shape: about 100 KB (issue 5's figure: over the model's 64 KiB limit, so the page
says it does not parse it without asking the engine), and just under 64 KiB, which the model
parses and every view renders (the coloured input, the trace, the validation errors...).

The engine is the server's API (?engine=server): the rendering under test is the same for both
engines, and the Pyodide boot (already tested elsewhere) would only slow the test down.
``URLCALC_RESPONSIVE_REPORT=1`` prints, per input, the document's size and the worst main-thread
task seen (for the curious: not asserted).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from liveserver import PageProbe

from urlcalc.limits import MAX_INPUT_BYTES

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

INPUTS = [pytest.param(_fill(*SHAPES[name], size), id=f"{name}-{label}")
          for name in SHAPES for size, label in ((OVER, "100KB"), (UNDER, "63KB"))]


def _settle(page: Any, quiet_ms: int = 400, timeout_ms: int = 60_000) -> None:
    """Wait until the page has stopped rendering: no new render signal (body[data-renders]) and
    no pending answer for ``quiet_ms``, then two animation frames (layout and paint done)."""
    page.wait_for_function(
        """([quiet]) => new Promise((resolve) => {
          let last = document.body.dataset.renders;
          let since = performance.now();
          const tick = () => {
            const now = document.body.dataset.renders;
            if (now !== last) { last = now; since = performance.now(); }
            if (performance.now() - since >= quiet) {
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
            } else setTimeout(tick, 50);
          };
          tick();
        })""",
        arg=[quiet_ms],
        timeout=timeout_ms,
    )


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
    probe.open()
    _settle(page)
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
    _settle(page)

    views = _views(page)
    assert {"components", "steps", "resolution", "setters", "validation", "implementations",
            "calculators", "examples"} <= set(views)
    for view in views:
        page.click(f"#tab-{view}")
        _settle(page)
        assert page.evaluate("() => document.body.dataset.view") == view
    # what the page shows of a long input is the last input (not a stale answer), in part
    total = len(text) + len(TYPED)
    if parsed:
        page.click("#tab-components")
        _settle(page)
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
