// The Pyodide engine: a module Web Worker (`new Worker(url, {type: "module"})`, started by
// engine.js) that boots Pyodide from ../pyodide/ (served by us: never a CDN), unpacks
// ../bundle.zip (urlcalc + idna, built from the source tree) into site-packages and imports
// urlcalc.model.
//
// Messages it sends:
//   {type: "ready", info}        booted; info = urlcalc.engine.engine_info() plus pyodide (its
//                                version), model_version and timings (ms)
//   {type: "error", error}       boot failed (a one-line message)
//   {id, json, python_ms}        the answer to {id, kind, params}: the JSON text returned by
//                                urlcalc.model.dispatch_json(kind, JSON.stringify(params)), which is
//                                {"error": ...} for a bad request; python_ms: how long that took
//   {id, error}                  Python raised (a bug): the exception's last line
// Messages received before the boot is done are answered once it is.
//
// Only strings cross into Python (no proxies), so nothing leaks and nothing needs destroy().

const ROOT = new URL("../", import.meta.url); // the page's root: this file is <root>/js/worker.js
const t0 = performance.now();

let dispatchJson = null; // urlcalc.model.dispatch_json (a PyProxy), set once booted
let bootError = null; // set once the boot failed
const settled = () => dispatchJson !== null || bootError !== null;
const queue = [];

function message(e) {
  // Pyodide's errors stringify as [object Object]: use e.message. A Python exception's message is
  // its whole traceback: keep the last line ("ValueError: ..."). Otherwise keep the whole text
  // but the "setDebug" hint.
  const text = String(e?.message ?? e).trim();
  if (e?.type !== undefined && text.startsWith("Traceback")) {
    const lines = text.split("\n");
    return lines[lines.length - 1];
  }
  return text
    .split("\n")
    .filter((line) => line && !line.includes("pyodide.setDebug"))
    .join(" ");
}

// Pyodide's fetches fail with a bare "Failed to fetch": name the file.
const realFetch = self.fetch.bind(self);
self.fetch = async (resource, init) => {
  try {
    return await realFetch(resource, init);
  } catch (e) {
    const url = String(resource?.url ?? resource);
    throw new TypeError(`${message(e)} (${url.slice(url.lastIndexOf("/") + 1)})`);
  }
};

function answer({ id, kind, params }) {
  if (bootError !== null) {
    self.postMessage({ id, error: `Pyodide failed to boot: ${bootError}` });
    return;
  }
  try {
    const t = performance.now();
    const json = dispatchJson(String(kind), JSON.stringify(params ?? {}));
    // How long Python took (ms), beside the answer: the page's round trip minus this is messaging.
    self.postMessage({ id, json, python_ms: performance.now() - t });
  } catch (e) {
    self.postMessage({ id, error: message(e) });
  }
}

self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!msg || typeof msg !== "object" || msg.id === undefined) return;
  if (!settled()) queue.push(msg);
  else answer(msg);
});

async function boot() {
  const timings = {};
  let t = performance.now();
  // Fetch the bundle while Pyodide boots (boot is CPU-bound, the fetch is not).
  const bundle = fetch(new URL("bundle.zip", ROOT)).then((response) => {
    if (!response.ok) throw new Error(`bundle.zip: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  bundle.catch(failed); // fail at once, not after loadPyodide

  const indexURL = new URL("pyodide/", ROOT).href;
  // A wasm served with the wrong type (or not at all) makes loadPyodide hang: check it first,
  // concurrently (a HEAD request, no body).
  fetch(new URL("pyodide.asm.wasm", indexURL), { method: "HEAD" }).then(
    (response) => {
      const type = response.headers.get("Content-Type") ?? "";
      if (!response.ok) failed(new Error(`pyodide.asm.wasm: HTTP ${response.status}`));
      else if (!type.startsWith("application/wasm")) {
        failed(new Error(`pyodide.asm.wasm is served as ${type || "?"}, not application/wasm`));
      }
    },
    (e) => failed(e),
  );
  const { loadPyodide, version } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await loadPyodide({
    indexURL,
    packages: [],
    stdout: (line) => console.log(`[python] ${line}`),
    stderr: (line) => console.warn(`[python] ${line}`),
  });
  timings.load_pyodide = performance.now() - t;

  t = performance.now();
  // No __pycache__ in the in-memory file system: it would be lost with the worker anyway.
  const sitePackages = pyodide.runPython(
    "import sys, sysconfig\nsys.dont_write_bytecode = True\nsysconfig.get_paths()['purelib']",
  );
  pyodide.unpackArchive(new Uint8Array(await bundle), "zip", { extractDir: sitePackages });
  timings.bundle = performance.now() - t;

  t = performance.now();
  // Held for the worker's lifetime (and so is the module it belongs to).
  const dispatch = pyodide.pyimport("urlcalc.model").dispatch_json;
  const info = JSON.parse(
    pyodide.runPython(
      "import json, urlcalc.engine, urlcalc.model\n" +
        "json.dumps({**urlcalc.engine.engine_info(), 'model_version': urlcalc.model.MODEL_VERSION})",
    ),
  );
  timings.import = performance.now() - t;

  // One traced call through every layer (URL parser, host parser, IDNA) so that the first real
  // keystroke does not pay for lazy imports and table loading.
  t = performance.now();
  dispatch("parse", JSON.stringify({ input: "https://u:p@\u00e9x.com:8/a/../b?q#f", trace: true }));
  // Move everything alive now (the package, the idna tables) out of the cyclic GC's sight: its
  // full collections otherwise walk them in the middle of a keystroke's answer (p95 +1-3 ms).
  pyodide.runPython("import gc\ngc.collect()\ngc.freeze()");
  timings.warm_up = performance.now() - t;
  timings.total = performance.now() - t0;
  for (const key of Object.keys(timings)) timings[key] = Math.round(timings[key]);
  return { dispatch, info: { ...info, pyodide: version, timings } };
}

function failed(e) {
  if (settled()) return;
  bootError = message(e);
  self.postMessage({ type: "error", error: bootError });
  for (const msg of queue.splice(0)) answer(msg);
}

// When a boot file cannot be fetched, loadPyodide neither resolves nor rejects: it logs, and
// leaves an unhandled rejection behind. Turn that into a boot failure at once.
// Once boot has settled, a late rejection from the same failed boot (another file that could not
// be fetched) is already reported: swallow it too, or it reaches the page as an error event.
self.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  if (!settled()) failed(event.reason);
});

boot().then(({ dispatch, info }) => {
  if (settled()) return;
  dispatchJson = dispatch;
  self.postMessage({ type: "ready", info });
  for (const msg of queue.splice(0)) answer(msg);
}, failed);
