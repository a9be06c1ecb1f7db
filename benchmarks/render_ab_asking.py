"""The asking views' and the header's renderers of two checkouts, side by side in one page (issue
28, "lit-html against dom.js" in docs/page-speed.md): the Editions and Implementations views and
the Setters lab with two operations (their `show`), and the header (ui/glance.js: the input's
code points, the href, the verdict) of each checkout draw the same answers (the benchmark's typed
URL, one answer per keystroke), alternating which goes first, with style and layout forced after
each render; prints each one's median, p95 and mean per side, and whether both showed the same
text. As benchmarks/render_ab.py does for the parse views: both sides share one page, one moment
and one CPU.

    python -m benchmarks.render_ab_asking /tmp/base28 /tmp/after28 [--rounds 5] [--keys 60]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import tempfile
import threading
from pathlib import Path
from typing import Any

from benchmarks.web import CHROMIUM, TYPED
from urlcalc.serving.app import create_app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>render A/B</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/B/web/css/app.css">
<style>.box{width:1200px}</style></head><body><div id="A" class="box"></div>
<div id="B" class="box"></div><script type="module" src="bench.js"></script></body></html>"""

SCRIPT = """
const data = await (await fetch("results.json")).json();
const R = Number(new URLSearchParams(location.search).get("rounds"));
const state = () => ({ input: "", base: "", errata: false, ops: [], strace: false });
const ctx = { call: async () => ({ error: "no" }), state, report: () => {},
  setErrata: () => {}, onRandom: () => {} };
const load = async (side) => ({
  E: (await import(`/${side}/web/js/views/editions.js`)).EditionsView,
  I: (await import(`/${side}/web/js/views/implementations.js`)).ImplementationsView,
  glance: (await import(`/${side}/web/js/ui/glance.js`)).glance,
  S: (await import(`/${side}/web/js/views/setters.js`)).SettersView,
});
const impl = { A: await load("A"), B: await load("B") };
const out = {};
for (const view of ["editions", "implementations", "setters", "header"]) {
  const draw = {}, roots = {};
  for (const side of ["A", "B"]) {
    const panel = document.createElement("section");
    panel.className = "panel";
    document.getElementById(side).replaceChildren(panel);
    roots[side] = panel;
    if (view === "editions") {
      const v = new impl[side].E(panel, ctx);
      draw[side] = (k) => v.show({ result: data.compare[k] });
    } else if (view === "setters") {
      let k = 0;
      const sctx = { ...ctx, state: () => ({ ...state(), input: data.typed[k], ops: data.ops }),
        setOps: () => {}, setTrace: () => {}, onModel: () => {} };
      const v = new impl[side].S(panel, sctx);
      draw[side] = (i) => {
        k = i;
        v.show({ result: data.set[i] }, null, { input: data.typed[i], ops: data.ops });
      };
    } else if (view === "implementations") {
      const v = new impl[side].I(panel, ctx);
      const params = (k) => ({ input: data.typed[k], base: null });
      draw[side] = (k) => v.show({ result: data.impl[k] }, { error: "not here" }, params(k));
    } else {
      const mk = (cls) => {
        const e = document.createElement("div");
        e.className = cls;
        panel.append(e);
        return e;
      };
      const els = { inputView: mk("codeline"), hrefView: mk("codeline"), verdictSlot: mk(""),
        answerLine: mk("answer-line"), inputs: mk(""), moreFields: mk(""), escaped: mk("") };
      const g = impl[side].glance(els);
      draw[side] = (k) => g.render(data.parse[k]);
    }
  }
  const times = { A: [], B: [] };
  for (let round = 0; round < R; round++) for (let k = 0; k < data.typed.length; k++) {
    for (const side of (k + round) % 2 ? ["A", "B"] : ["B", "A"]) {
      const t0 = performance.now();
      draw[side](k);
      void document.body.offsetHeight;
      times[side].push(performance.now() - t0);
    }
  }
  const stat = (xs) => { const s = [...xs].sort((a, b) => a - b);
    const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
    return { median: q(0.5), p95: q(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length }; };
  const sameText = roots.A.textContent === roots.B.textContent;
  out[view] = { A: stat(times.A), B: stat(times.B), sameText };
}
window.__out = out;
document.title = "done";
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="checkout A (its web/js)")
    parser.add_argument("b", help="checkout B")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keys", type=int, default=60)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    client = create_app().test_client()
    typed = [TYPED[:i] for i in range(1, args.keys + 1)]

    def answer(kind: str, text: str) -> Any:
        return client.post(f"/api/{kind}", json={"input": text}).get_json()


    ops = [["pathname", "a b/../c"], ["search", "q=2"]]
    data = {"typed": typed, "parse": [answer("parse", t) for t in typed], "ops": ops,
            "set": [client.post("/api/set", json={"input": t, "ops": ops}).get_json()
                    for t in typed],
            "compare": [answer("compare", t) for t in typed],
            "impl": [answer("implementations", t) for t in typed]}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "A").symlink_to(Path(args.a).resolve())
        (root / "B").symlink_to(Path(args.b).resolve())
        (root / "bench.html").write_text(PAGE)
        (root / "bench.js").write_text(SCRIPT)
        (root / "results.json").write_text(json.dumps(data))
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=tmp)
        handler.func.extensions_map = {**handler.func.extensions_map,  # type: ignore[attr-defined]
                                       ".js": "text/javascript", ".mjs": "text/javascript"}
        handler.func.log_message = lambda *a: None  # type: ignore[attr-defined]
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/bench.html?rounds={args.rounds}")
            try:
                page.wait_for_function("() => document.title === 'done'", timeout=900_000)
                out = page.evaluate("() => window.__out")
            finally:
                for e in errors:
                    print("  page error:", e)
            browser.close()
        server.shutdown()
    print(f"ms per render ({args.rounds} x {args.keys}): A {args.a}, B {args.b}")
    for view, d in out.items():
        a, b = d["A"], d["B"]
        print(f"  {view:<15} A median {a['median']:.2f} p95 {a['p95']:.2f} mean {a['mean']:.2f}"
              f" | B median {b['median']:.2f} p95 {b['p95']:.2f} mean {b['mean']:.2f}"
              f" | same text: {d['sameText']}")


if __name__ == "__main__":
    main()
