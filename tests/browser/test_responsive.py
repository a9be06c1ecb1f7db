"""Issue 5: the page stays responsive with a huge input, in every view.

For each input shape below, the input is pasted into #input (one fill: an input event with the
whole text), a few characters are typed after it, and every view tab is visited in turn. From the
page's load to the end, Chromium's PerformanceObserver reports each main-thread task longer than
50 ms ("longtask" entries); none may last LONG_TASK_LIMIT_MS or more.

Two sizes per shape: about 100 KB (issue 5's figure: over the model's 64 KiB limit, so the page
says it does not parse it, and must not freeze over it either), and just under 64 KiB, which the
model parses and every view renders (the coloured input, the trace, the validation errors...).

The engine is the server's API (?engine=server): the rendering under test is the same for both
engines, and the Pyodide boot (already tested elsewhere) would only slow the test down.
``URLCALC_RESPONSIVE_REPORT=1`` prints the worst long task per input.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from liveserver import PageProbe

LONG_TASK_LIMIT_MS = 200
MODEL_LIMIT = 64 * 1024  # urlcalc.model.MAX_INPUT_BYTES
UNDER = MODEL_LIMIT - 512  # bytes, UTF-8, with room for the prefix
OVER = 100_000

# Installed before the page's own scripts: every long task from the page's load on.
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


worst_seen: dict[str, int] = {}


@pytest.mark.parametrize("text", INPUTS)
def test_no_long_task_with_a_huge_input(probe: PageProbe, text: str,
                                        request: pytest.FixtureRequest) -> None:
    page = probe.page
    probe.context.add_init_script(LONG_TASKS)
    page.set_default_timeout(60_000)
    probe.open()
    _settle(page)
    page.fill("#input", text)  # a paste: one input event with the whole text
    _settle(page)
    page.locator("#input").press("End")
    for ch in "x/y":
        page.keyboard.type(ch)
    _settle(page)
    views = _views(page)
    assert {"components", "steps", "resolution", "setters", "validation", "implementations",
            "calculators", "examples"} <= set(views)
    for view in views:
        page.click(f"#tab-{view}")
        _settle(page)
        assert page.evaluate("() => document.body.dataset.view") == view
    # what the page shows of a long input says it is a part
    total = len(text) + 3
    if len(text.encode("utf-8")) <= MODEL_LIMIT:
        page.click("#tab-components")
        _settle(page)
        note = page.locator("#input-view .trunc-note")
        assert note.get_attribute("data-total") == str(total)
    else:
        assert "64 KiB" in page.locator("#request-error").inner_text()
    tasks: list[dict[str, int]] = page.evaluate("() => window.__longTasks")
    worst = max((t["ms"] for t in tasks), default=0)
    worst_seen[request.node.callspec.id] = worst
    if os.environ.get("URLCALC_RESPONSIVE_REPORT"):
        print(f"\n{request.node.callspec.id}: worst long task {worst} ms, {len(tasks)} over 50 ms")
    assert worst < LONG_TASK_LIMIT_MS, tasks
    probe.assert_clean()
