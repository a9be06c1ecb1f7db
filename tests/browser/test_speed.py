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


# Asks through the page's engine with a wait long enough for any machine, then lets only
# microtasks run (no task: a worker's message cannot be taken meanwhile): whether the call was
# settled by then, and the engine's counts of answers taken from the shared buffer.
SAME_TASK = """async (waitMs) => {
  const engine = window.urlcalc.engine;
  const before = engine.sync.waits;
  let answer = null;
  engine.call("parse", { input: "HTTP://EXAMPLE.com:80/a/../b" }, { waitMs })
    .then((a) => { answer = a; });
  for (let i = 0; i < 100 && answer === null; i++) await null;
  return { settled: answer !== null, href: answer?.result?.getters?.href ?? null,
           engine: answer?.engine, sync: engine.sync, taken: engine.sync.waits - before,
           isolated: self.crossOriginIsolated };
}"""


def test_a_served_page_takes_the_answer_in_the_keystrokes_own_task(probe: PageProbe) -> None:
    """`urlcalc serve` makes the page cross-origin isolated (COOP, COEP), so a call may wait for
    Pyodide's answer in the shared buffer (sync-channel.js): settled before the task ends, the
    answer is drawn in the frame that paints the keystroke. Without waitMs it comes by message."""
    page = probe.open(frag(input="https://example.com/"), query="engine=pyodide")
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
    got = page.evaluate(SAME_TASK, 20_000)
    assert got["isolated"] is True and got["sync"]["available"] is True, got
    assert got["settled"] is True and got["taken"] == 1, got
    assert got["href"] == "http://example.com/b" and got["engine"] == "pyodide", got
    # no wait asked for: the same call is settled only by the worker's message, in a later task
    late = page.evaluate(SAME_TASK, 0)
    assert late["settled"] is False and late["taken"] == 0, late
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    probe.assert_clean()


def test_typing_waits_for_the_answer_and_draws_it_before_the_frame(probe: PageProbe) -> None:
    """A keystroke's render happens in the input event's task (then the frame that shows the
    character shows its answer too) whenever the answer came within the wait; the answer the
    page gave up waiting for is still drawn, from the worker's message."""
    page = probe.open(frag(input="https://example.com/"), query="engine=pyodide")
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
    page.evaluate("""() => {
      window.__sameTask = [];
      // On window, capture: before the page's own listener; bubbling: after it and after the
      // microtasks it started (a checkpoint follows each listener of a dispatch). Had the page
      // rendered in between? (A setTimeout(0) task instead raced the worker's messages: on a busy
      // machine an answer that missed its wait could be drawn before that task ran.)
      let before = null;
      addEventListener("input", () => { before = document.body.dataset.renders; }, true);
      addEventListener("input", () => {
        window.__sameTask.push(document.body.dataset.renders !== before);
      });
    }""")
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("abcdefgh", delay=50)
    expect(page.locator("#href-view")).to_have_text("https://example.com/abcdefgh")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    same_task = page.evaluate("() => window.__sameTask")
    sync = page.evaluate("() => window.urlcalc.engine.sync")
    assert len(same_task) == 8
    # each keystroke drawn in its own task took its answer from the buffer (a wait); on a busy
    # machine some waits run out, and those are drawn later, from the worker's message
    assert 1 <= same_task.count(True) <= sync["waits"], (same_task, sync)
    # the counts per channel (the Pyodide worker's here) add up to the totals
    assert "pyodide" in sync["by"], sync
    assert sum(c["waits"] for c in sync["by"].values()) == sync["waits"], sync
    assert sum(c["misses"] for c in sync["by"].values()) == sync["misses"], sync
    probe.assert_clean()


def test_patched_views_keep_the_nodes_that_did_not_change(probe: PageProbe) -> None:
    """Components, the href and the verdict are patched (dom.js patch): a keystroke that changes
    the path leaves the other rows' nodes in place and changes the values that changed."""
    page = probe.open(frag(input="https://example.com/a"))
    expect(page.locator("#href-view")).to_have_text("https://example.com/a")
    page.evaluate("""() => {
      const q = (g) => document.querySelector(`#panel-components [data-getter="${g}"]`);
      window.__kept = { host: q("host"), path: q("pathname"), hostText: q("host").firstChild,
                        table: document.querySelector("#panel-components table.getters") };
    }""")
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("b")
    expect(page.locator("#href-view")).to_have_text("https://example.com/ab")
    kept = page.evaluate("""() => {
      const q = (g) => document.querySelector(`#panel-components [data-getter="${g}"]`);
      const k = window.__kept;
      return { host: q("host") === k.host, hostText: q("host").firstChild === k.hostText,
               path: q("pathname") === k.path, table: k.table.isConnected,
               pathText: q("pathname").textContent };
    }""")
    assert kept == {"host": True, "hostText": True, "path": True, "table": True,
                    "pathText": "/ab"}, kept
    probe.assert_clean()


def test_a_views_own_request_goes_right_behind_the_parse(probe: PageProbe) -> None:
    """Editions, Implementations and the Setters lab ask for something of their own after the
    parse: the page says so before posting the parse (engine.prefetch), the request is posted
    right behind it (Implementations': to the server relay at once), and the view's call takes
    that answer instead of asking again. The answers drawn are those of the last input."""
    views = (
        ("editions", None, '#editions-table td[data-edition="current"][data-getter="pathname"]',
         '"/ab"'),
        ("implementations", None, "td[data-impl='ada'][data-getter='pathname']", "/ab"),
        ("setters", [["hash", "x"]], "#set-results .op-card", "#x"),
    )
    for view, ops, selector, text in views:
        state = {"input": "https://example.com/", "view": view}
        if ops:
            state["ops"] = ops
        page = probe.open(frag(**state), query="")
        page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
        page.wait_for_function("() => window.urlcalc.engine.busy === 0")
        before = page.evaluate("() => window.urlcalc.engine.sync.prefetched")
        page.locator("#input").press("End")
        page.locator("#input").press_sequentially("ab", delay=80)
        if view == "implementations":
            expect(page.locator(selector)).to_have_attribute("data-value", text)
        else:
            expect(page.locator(selector).first).to_contain_text(text)
        page.wait_for_function("() => window.urlcalc.engine.busy === 0")
        after = page.evaluate("() => window.urlcalc.engine.sync.prefetched")
        assert after - before == 2, (view, before, after)
    probe.assert_clean()


def test_memoized_rows_and_step_details_are_kept(probe: PageProbe) -> None:
    """The Editions table's rows are built once per distinct data (dom.js Memo): a keystroke
    that changes the path leaves the host's row alone (not one mutation) and patches the
    pathname's. In
    Steps, typing on after the step on screen leaves its details as they were."""
    page = probe.open(frag(input="https://example.com/a", view="editions"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    row = '#editions-table tr[data-getter="{}"]'
    current_path = page.locator(row.format("pathname") + ' td[data-edition="current"]')
    expect(current_path).to_have_text('"/a"')
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    page.evaluate("""(row) => {
      const rows = { host: document.querySelector(row.replace("{}", "host")),
                     path: document.querySelector(row.replace("{}", "pathname")) };
      window.__touched = { host: 0, path: 0 };
      new MutationObserver((records) => {
        for (const r of records) for (const [name, el] of Object.entries(rows)) {
          if (el.contains(r.target)) window.__touched[name] += 1;
        }
      }).observe(document.querySelector("#editions-table"), { subtree: true, childList: true,
                                                           characterData: true, attributes: true });
      window.__rows = rows;
    }""", row)
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("b")
    expect(current_path).to_have_text('"/ab"')
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    kept = page.evaluate("""(row) => ({
      host: document.querySelector(row.replace("{}", "host")) === window.__rows.host,
      hostTouched: window.__touched.host, pathTouched: window.__touched.path > 0 })""", row)
    assert kept == {"host": True, "hostTouched": 0, "pathTouched": True}, kept

    page.click("#tab-steps")
    page.locator("#step-first").click()
    expect(page.locator("#step-pos")).to_contain_text("step #0")
    page.evaluate("() => { window.__detail = document.querySelector('#step-detail').firstChild; }")
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("c")
    expect(page.locator("#href-view")).to_have_text("https://example.com/abc")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    same = "() => document.querySelector('#step-detail').firstChild === window.__detail"
    assert page.evaluate(same)
    page.locator("#step-last").click()  # another step: drawn anew
    assert not page.evaluate(same)
    probe.assert_clean()


def test_closed_edition_details_stay_and_open_on_the_last_reading(probe: PageProbe) -> None:
    """A closed edition's details show its name, status and count of rules: a keystroke that
    changes none of them (here the path) leaves the six nodes as they were; opening one then
    shows the reading of the last keystroke, not of the one that built the node."""
    page = probe.open(frag(input="https://example.com/a", view="editions"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    row = '#editions-table tr[data-getter="pathname"] td[data-edition="current"]'
    expect(page.locator(row)).to_have_text('"/a"')
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    page.evaluate("""() => { window.__details = [...document.querySelectorAll(
      '#editions-details details')]; }""")
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("bc")
    expect(page.locator(row)).to_have_text('"/abc"')
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    kept = page.evaluate("""() => {
      const now = [...document.querySelectorAll('#editions-details details')];
      return now.length === 6 && now.every((d, i) => d === window.__details[i]); }""")
    assert kept
    rfc = page.locator('#editions-details details[data-edition="rfc3986"]')
    rfc.locator("summary").click()
    expect(rfc).to_contain_text("/abc")
    assert "/a\n" not in rfc.inner_text() and '"/a"' not in rfc.inner_text()
    probe.assert_clean()


# Counts the frames between the Editions view's render of an answer (its summary line is
# written anew each time, in the same call that patches the parts near the screen) and the first
# change in the Editions table after it: window.__framesAtTable (null until the table changes).
# (Not the page's render signal: on a busy machine the view's answer may come a frame after it.)
FRAMES_TO_TABLE = """() => {
  for (const o of window.__framesObservers || []) o.disconnect();
  window.__framesAtTable = null;
  let frames = null;
  const tick = () => {
    frames += 1;
    if (window.__framesAtTable === null) requestAnimationFrame(tick);
  };
  const signal = new MutationObserver(() => {
    if (frames === null) { frames = 0; requestAnimationFrame(tick); }
  });
  signal.observe(document.querySelector("#editions-summary"),
                 { subtree: true, childList: true, characterData: true });
  const table = new MutationObserver(() => {
    if (window.__framesAtTable === null && frames !== null) window.__framesAtTable = frames;
  });
  table.observe(document.querySelector("#editions-table-wrap"),
                { subtree: true, childList: true, characterData: true, attributes: true });
  window.__framesObservers = [signal, table];
}"""


def test_parts_far_below_the_fold_are_updated_after_the_frame(probe: PageProbe) -> None:
    """At 1280x720 the Editions table is far below the URL field: a keystroke's task leaves it
    alone and it is brought up to date frames later, once the typing pauses (dom.js
    OffscreenParts); on screen, it is updated in the keystroke's own task, before its frame."""
    page = probe.open(frag(input="https://example.com/a", view="editions"), query="")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    current = page.locator('#editions-table tr[data-getter="pathname"] td[data-edition="current"]')
    expect(current).to_have_text('"/a"')
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    assert page.evaluate("() => document.querySelector('#editions-table-wrap')"
                         ".getBoundingClientRect().top > 1.1 * innerHeight")
    page.evaluate(FRAMES_TO_TABLE)
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("b")
    expect(current).to_have_text('"/ab"')  # the table is up to date, soon after
    assert page.evaluate("() => window.__framesAtTable") >= 1
    # on screen (a taller window, the URL field still in it): the keystroke's own task patches it
    page.set_viewport_size({"width": 1280, "height": 1600})
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() =>"
                  " requestAnimationFrame(done)))")
    assert page.evaluate("() => document.querySelector('#editions-table-wrap')"
                         ".getBoundingClientRect().top < innerHeight")
    page.evaluate(FRAMES_TO_TABLE)
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("c")
    expect(current).to_have_text('"/abc"')
    assert page.evaluate("() => window.__framesAtTable") == 0
    probe.assert_clean()


def test_the_worker_warms_up_for_typing_after_boot(probe: PageProbe) -> None:
    """Once ready, the worker answers a person's typing requests to itself while the page asks
    for nothing (urlcalc.answers.warmup.typing_requests), then says how much it did; the page's own
    requests go first meanwhile."""
    page = probe.open(frag(input="https://example.com/"), query="engine=pyodide")
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("x", delay=50)  # asked during the warm-up
    expect(page.locator("#href-view")).to_have_text("https://example.com/x")
    page.wait_for_function("() => window.urlcalc.engine.info.pyodide.warm", timeout=30_000)
    warm = page.evaluate("() => window.urlcalc.engine.info.pyodide.warm")
    assert warm["calls"] >= 10 and 0 < warm["python_ms"] <= warm["wall_ms"], warm
    probe.assert_clean()
