"""What the page does (and does not do) per keystroke, the behaviour behind `make bench-web`'s
figures; nothing here is timed: keystrokes that arrive while a computation runs are coalesced
(the engine is never more than one request behind, and the last render shows the last input), a
view that is not shown asks for nothing, and the engine counts its calls in flight."""

from __future__ import annotations

from typing import Any

from liveserver import PageProbe, frag
from playwright.sync_api import expect

# Wraps the page's engine: every call is logged ({kind, params}); each waits window.__delay ms
# before it is sent (a slow engine, so that keystrokes arrive while a computation runs).
SPY = """() => {
  const engine = window.urlcalc.engine;
  const real = engine.call;
  window.__calls = [];
  window.__delay = 0;
  engine.call = async (kind, params, options) => {
    window.__calls.push({ kind, params: JSON.parse(JSON.stringify(params ?? {})) });
    if (window.__delay) await new Promise((resolve) => setTimeout(resolve, window.__delay));
    return real(kind, params, options);
  };
}"""


def calls(page: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.evaluate("() => window.__calls")
    return result


def test_keystrokes_during_a_computation_are_coalesced(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/"))
    expect(page.locator("#href-view")).to_have_text("https://example.com/")
    page.evaluate(SPY)
    page.evaluate("() => { window.__delay = 400; }")
    typed = "https://coalesced.example/abcdefghijklmnopqrstuvwxyz"
    page.fill("#input", "")
    page.locator("#input").press_sequentially(typed)  # no delay between keys
    expect(page.locator("#href-view")).to_have_text(typed, timeout=20_000)
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    parses = [c for c in calls(page) if c["kind"] == "parse"]
    # one request per keystroke would be len(typed) + 1 (the fill): far fewer were sent, each
    # for the newest input at the time, and the last one for the whole of it
    assert 2 <= len(parses) < len(typed) // 2, [c["params"]["input"] for c in parses]
    assert parses[-1]["params"]["input"] == typed
    inputs = [c["params"]["input"] for c in parses]
    assert inputs == sorted(inputs, key=len), inputs  # never an older input after a newer one
    assert page.locator("#input-view").inner_text().replace("\n", "") == typed
    probe.assert_clean()


def test_views_not_shown_ask_for_nothing(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/"))
    expect(page.locator("#href-view")).to_have_text("https://example.com/")
    page.evaluate(SPY)
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("x/y")
    expect(page.locator("#href-view")).to_have_text("https://example.com/x/y")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    seen = calls(page)
    # Components shows no trace, no comparison of editions or implementations: none asked for
    assert seen and all(c["kind"] == "parse" for c in seen), seen
    assert not any(c["params"].get("trace") for c in seen), seen
    # Steps shows the trace: asked for once it is shown, and with every keystroke there
    page.click("#tab-steps")
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("z")
    expect(page.locator("#href-view")).to_have_text(
        "https://example.com/x/yz")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    last = [c for c in calls(page) if c["kind"] == "parse"][-1]
    assert last["params"].get("trace") is True and last["params"]["input"].endswith("yz")
    assert not any(c["kind"] in ("compare", "implementations") for c in calls(page))
    probe.assert_clean()


def test_pyodide_answers_carry_their_timings(probe: PageProbe) -> None:
    """The worker's answer in parts (engine.lastTimings), what benchmarks.web_profile reads."""
    page = probe.open(frag(input="https://example.com/"), query="engine=pyodide")
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("a")
    expect(page.locator("#href-view")).to_have_text("https://example.com/a")
    timings = page.evaluate("() => window.urlcalc.engine.lastTimings")
    assert set(timings) == {"to_worker_ms", "python_ms", "to_page_ms", "parse_ms", "chars"}
    assert timings["python_ms"] > 0 and timings["chars"] > 100
    assert all(v >= -5 for v in timings.values()), timings  # clocks of two threads: ~equal
    probe.assert_clean()
