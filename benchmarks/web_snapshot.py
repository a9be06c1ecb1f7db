"""`python -m benchmarks.web_snapshot`: would a Pyodide memory snapshot boot the page faster,
within the 7 MB cold budget? An experiment, not part of the page. Not a test. (It led to the
page's boot snapshot, which `make snapshot` makes with web/tools/make-snapshot.mjs and the worker
uses; this script keeps its own, simpler snapshot for comparison.)

1. Under node, boots Pyodide 314 from web/node_modules with ``loadPyodide({_makeSnapshot:
   true})``, unpacks bundle.zip, imports urlcalc.answers.kinds, answers one traced parse (the
   worker's warm-up), collects the garbage and writes ``makeMemorySnapshot()``; prints its size raw
   and gzipped (level 9, as ``urlcalc serve`` compresses). ``--zero-free`` zeroes the heap's free
   memory first (garbage compresses worse than zeros).
2. Serves a folder with the Pyodide files, bundle.zip and the snapshot (sent gzip-encoded, as a
   server would) and boots, in a new Chromium each time, a module worker either normally or from
   the snapshot (``loadPyodide({_loadSnapshot})``), then unpacks bundle.zip and answers a few
   parses; prints the time to the first answer (from navigation start) and whether the answers
   of both boots are the same.

Pyodide 314.0.7 sets ``INITIAL_MEMORY`` to the snapshot's size, but its wasm module defines its
own memory (30 MiB at start), so restoring a bigger snapshot throws "RangeError: offset is out of
bounds": the worker here grows the heap first (malloc of 4 MiB blocks, then free; restoring
overwrites the whole heap anyway) through the ``createPyodideModule`` option.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, ClassVar

from benchmarks.web import CHROMIUM, load_average, machine
from urlcalc.site import bundle
from urlcalc.site.files import PYODIDE_FILES

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "web" / "node_modules" / "pyodide"
WARM_UP = {"input": "https://u:p@\u00e9x.com:8/a/../b?q#f", "trace": True}
CHECKS = ["https://fa\u00df.example/a/../b", "HTTP://EXAMPLE.com:80/%7e?q#f",
          "http://[::1]:8/x", "non-spec:/.//p"]

MAKE = """
import { loadPyodide } from %(pyodide)s;
import { readFileSync, writeFileSync } from "node:fs";
const py = await loadPyodide({ _makeSnapshot: true, packages: [] });
const site = py.runPython(
  "import sys, sysconfig\\nsys.dont_write_bytecode = True\\nsysconfig.get_paths()['purelib']");
py.unpackArchive(new Uint8Array(readFileSync(process.argv[2])), "zip", { extractDir: site });
const dispatch = py.pyimport("urlcalc.answers.answer").dispatch_json;
dispatch("parse", JSON.stringify(%(warm)s));
dispatch.destroy();
py.runPython("import gc\\ngc.collect()");
if (process.argv[4] === "zero-free") {
  // Zero the heap's free memory (it compresses better): take every block malloc gives below the
  // heap's break, zero it, give it back; then zero everything above the break.
  const M = py._module;
  const brk = () => M.HEAPU32[M._emscripten_get_sbrk_ptr() >>> 2];
  const top = brk();
  const held = [];
  for (let size = 1 << 22; size >= 64; size >>= 1) {
    for (;;) {
      const p = M._malloc(size);
      if (!p) break;
      if (p + size > top) { M._free(p); break; }
      held.push([p, size]);
    }
  }
  for (const [p, size] of held) M.HEAP8.fill(0, p, p + size);
  for (const [p] of held) M._free(p);
  M.HEAP8.fill(0, brk(), M.HEAP8.length);
}
writeFileSync(process.argv[3], py.makeMemorySnapshot());
"""

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="page.js"></script></head><body></body></html>
"""
PAGE_JS = """const mode = new URLSearchParams(location.search).get("mode");
const worker = new Worker(new URL("worker.js?mode=" + mode, import.meta.url), { type: "module" });
worker.onmessage = (e) => { window.__result = { ...e.data, at: performance.now() }; };
"""
WORKER_JS = """const mode = new URL(import.meta.url).searchParams.get("mode");
const indexURL = new URL("pyodide/", import.meta.url).href;
try {
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const bundle = fetch("bundle.zip").then((r) => r.arrayBuffer());
  let pyodide;
  if (mode === "snapshot") {
    const snapshot = fetch("snapshot.bin").then((r) => r.arrayBuffer())
      .then((b) => new Uint8Array(b));
    const { default: create } = await import(indexURL + "pyodide.asm.mjs");
    const grown = async (settings) => {
      const module = await create(settings);
      const size = (await snapshot).length;
      const held = [];
      while (module.HEAP8.length < size && held.length < 256) held.push(module._malloc(4 << 20));
      for (const p of held) module._free(p);
      return module;
    };
    pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot, createPyodideModule: grown,
                                  packages: [] });
  } else {
    pyodide = await loadPyodide({ indexURL, packages: [] });
  }
  const site = pyodide.runPython(
    "import sys, sysconfig\\nsys.dont_write_bytecode = True\\nsysconfig.get_paths()['purelib']");
  pyodide.unpackArchive(new Uint8Array(await bundle), "zip", { extractDir: site });
  const dispatch = pyodide.pyimport("urlcalc.answers.answer").dispatch_json;
  const answers = %(checks)s.map((input) =>
    dispatch("parse", JSON.stringify({ input, trace: true })));
  self.postMessage({ ok: true, answers });
} catch (e) {
  self.postMessage({ ok: false, error: String(e && e.stack || e) });
}
"""


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files; snapshot.bin is sent as its gzip file (Content-Encoding: gzip)."""

    extensions_map: ClassVar[dict[str, str]] = {
                      **http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript"}

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/snapshot.bin":
            data = Path(self.directory, "snapshot.bin.gz").read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.web_snapshot",
                                 description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="cold boots of each kind (default 5)")
    ap.add_argument("--zero-free", action="store_true",
                    help="zero the heap's free memory before the snapshot (smaller gzip)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    print(f"Pyodide memory snapshot experiment on {machine()}; load {load_average()}")
    with tempfile.TemporaryDirectory(prefix="urlcalc-snapshot-") as tmp:
        folder = Path(tmp)
        (folder / "pyodide").mkdir()
        for name in PYODIDE_FILES:
            (folder / "pyodide" / name).write_bytes((PYODIDE / name).read_bytes())
        (folder / "bundle.zip").write_bytes(bundle.bundle_bytes())
        make = folder / "make.mjs"
        make.write_text(MAKE % {"pyodide": json.dumps(str(PYODIDE / "pyodide.mjs")),
                                "warm": json.dumps(WARM_UP)}, encoding="utf-8")
        subprocess.run(["node", str(make), str(folder / "bundle.zip"),
                        str(folder / "snapshot.bin"), "zero-free" if args.zero_free else ""],
                       check=True, capture_output=True)
        raw = (folder / "snapshot.bin").read_bytes()
        packed = gzip.compress(raw, compresslevel=9, mtime=0)
        (folder / "snapshot.bin.gz").write_bytes(packed)
        boot_gz = sum(len(gzip.compress((PYODIDE / n).read_bytes(), 9)) for n in PYODIDE_FILES)
        print(f"  snapshot: {len(raw) / 1e6:.1f} MB raw, {len(packed) / 1e6:.2f} MB gzipped "
              f"(the Pyodide boot files: {boot_gz / 1e6:.2f} MB gzipped)")
        (folder / "index.html").write_text(PAGE, encoding="utf-8")
        (folder / "page.js").write_text(PAGE_JS, encoding="utf-8")
        (folder / "worker.js").write_text(WORKER_JS % {"checks": json.dumps(CHECKS)},
                                          encoding="utf-8")

        def handler(*a: Any, **k: Any) -> Handler:
            return Handler(*a, directory=str(folder), **k)

        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
        times: dict[str, list[float]] = {"normal": [], "snapshot": []}
        answers: dict[str, list[str]] = {}
        try:
            with sync_playwright() as playwright:
                for _ in range(args.runs):
                    for mode in times:
                        browser = playwright.chromium.launch(executable_path=CHROMIUM)
                        try:
                            page = browser.new_page()
                            page.goto(f"{url}?mode={mode}")
                            page.wait_for_function("() => window.__result !== undefined",
                                                   timeout=120_000)
                            result = page.evaluate("() => window.__result")
                        finally:
                            browser.close()
                        if not result["ok"]:
                            print(f"  {mode} boot failed: {result['error'][:300]}")
                            return 1
                        times[mode].append(result["at"] / 1000)
                        answers.setdefault(mode, result["answers"])
                        print(f"  {mode}: first answers after {result['at'] / 1000:.2f} s")
        finally:
            httpd.shutdown()
        same = answers["normal"] == answers["snapshot"]
        normal, snap = statistics.median(times["normal"]), statistics.median(times["snapshot"])
        print(f"medians of {args.runs}: normal boot {normal:.2f} s, snapshot boot {snap:.2f} s "
              f"({snap / normal:.2f}x); answers identical: {same}; load {load_average()}")
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
