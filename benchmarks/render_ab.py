"""Two renderers of the page's views, side by side in one page (issue 28, "lit-html against
dom.js" in docs/page-speed.md): the views of two checkouts (e.g. git worktrees of two commits)
each draw the same answers (the benchmark's typed URL, one answer per keystroke), alternating
which goes first, with style and layout forced after each render; prints each view's median,
p95 and mean per side, and whether both showed the same text. Less sensitive to a loaded machine
than `make bench-web`: both sides share one page, one moment and one CPU.

    python -m benchmarks.render_ab /tmp/base28 /tmp/after28 [--rounds 5]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import tempfile
import threading
from pathlib import Path

from benchmarks.web import CHROMIUM, TYPED
from urlcalc.serving.app import create_app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>render A/B</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/B/web/css/app.css">
<style>.box{width:1200px}</style></head><body><div id="A" class="box"></div>
<div id="B" class="box"></div><script type="module" src="bench.js"></script></body></html>"""

SCRIPT = """
const results = await (await fetch("results.json")).json();
const load = async (side) => {
  const base = `/${side}/web/js/views/`;
  return { components: (await import(base + "components.js")).renderComponents,
    resolution: (await import(base + "resolution.js")).renderResolution,
    validation: (await import(base + "validation.js")).renderValidation,
    StepsView: (await import(base + "steps.js")).StepsView };
};
const impl = { A: await load("A"), B: await load("B") };
const R = Number(new URLSearchParams(location.search).get("rounds"));
const out = {};
for (const view of ["components", "resolution", "validation", "steps"]) {
  const panels = {}, draw = {};
  for (const side of ["A", "B"]) {
    const panel = document.createElement("section");
    panel.className = "panel";
    document.getElementById(side).replaceChildren(panel);
    panels[side] = panel;
    if (view === "steps") {
      const sv = new impl[side].StepsView(panel, {});
      draw[side] = (r) => sv.render(r);
    }
    else draw[side] = (r) => impl[side][view](panel, r);
  }
  const times = { A: [], B: [] };
  for (let round = 0; round < R; round++) for (let k = 0; k < results.length; k++) {
    for (const side of (k + round) % 2 ? ["A", "B"] : ["B", "A"]) {
      const t0 = performance.now();
      draw[side](results[k]);
      void document.body.offsetHeight;
      times[side].push(performance.now() - t0);
    }
  }
  const stat = (xs) => { const s = [...xs].sort((a, b) => a - b);
    const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
    return { median: q(0.5), p95: q(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length }; };
  out[view] = { A: stat(times.A), B: stat(times.B),
                sameText: panels.A.textContent === panels.B.textContent };
}
window.__out = out;
document.title = "done";
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="checkout A (its web/js/views)")
    parser.add_argument("b", help="checkout B")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keys", type=int, default=100)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    client = create_app().test_client()
    results = [client.post("/api/parse", json={"input": TYPED[:i], "trace": True}).get_json()
               for i in range(1, args.keys + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "A").symlink_to(Path(args.a).resolve())
        (root / "B").symlink_to(Path(args.b).resolve())
        (root / "bench.html").write_text(PAGE)
        (root / "bench.js").write_text(SCRIPT)
        (root / "results.json").write_text(json.dumps(results))
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=tmp)
        handler.func.extensions_map = {**handler.func.extensions_map,
                                       ".js": "text/javascript", ".mjs": "text/javascript"}
        handler.func.log_message = lambda *a: None  # type: ignore[method-assign]
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/bench.html?rounds={args.rounds}")
            page.wait_for_function("() => document.title === 'done'", timeout=900_000)
            out = page.evaluate("() => window.__out")
            browser.close()
        server.shutdown()
    print(f"ms per render ({args.rounds} x {args.keys} per view and side): A {args.a}, B {args.b}")
    for view, d in out.items():
        a, b = d["A"], d["B"]
        print(f"  {view:<11} A median {a['median']:.2f} p95 {a['p95']:.2f} mean {a['mean']:.2f}"
              f" | B median {b['median']:.2f} p95 {b['p95']:.2f} mean {b['mean']:.2f}"
              f" | same text: {d['sameText']}")
    for e in errors:
        print("  page error:", e)


if __name__ == "__main__":
    main()
