// The Pyodide engine: a module Web Worker (`new Worker(url, {type: "module"})`, started by
// engine.js) that boots Pyodide from ../pyodide/ (served by us: never a CDN), unpacks
// ../bundle.zip (urlcalc + idna, built from the source tree) into site-packages and imports
// urlcalc.model.
//
// Messages it sends:
//   {type: "progress", progress} while booting: {files: {name: {loaded, total, done}}, phase};
//                                files are the big downloads (BOOT_FILES: the wasm, the standard
//                                library, bundle.zip) as their bytes arrive (loaded and total
//                                count decoded bytes; total is null when the server does not say);
//                                phase is "download", "start" (Python starting: the wasm compiles),
//                                "unpack" (bundle.zip), "import" (urlcalc) or "warm-up"
//   {type: "ready", info}        booted; info = urlcalc.engine.engine_info() plus pyodide (its
//                                version), model_version and timings (ms)
//   {type: "error", error}       boot failed (a one-line message)
//   {id, json, python_ms, got_at, sent_at}
//                                the answer to {id, kind, params}: the JSON text returned by
//                                urlcalc.kinds.dispatch_json(kind, JSON.stringify(params)), which is
//                                {"error": ...} for a bad request; python_ms: how long that took;
//                                got_at, sent_at: when the request came in and the answer went out
//                                (ms, performance.timeOrigin + performance.now())
//   {id, error}                  Python raised (a bug): the exception's last line
// Messages received before the boot is done are answered once it is.
//
// Messages it takes: {id, kind, params, sync}: a request (above); with sync: true, the answer's
// JSON text is also put into the page's shared buffer (sync-channel.js), where the page may be
// waiting for it; {type: "channel", buffer}: that buffer (a SharedArrayBuffer), sent once.
//
// Only strings cross into Python (no proxies), so nothing leaks and nothing needs destroy().

import { channelWriter } from "./sync-channel.js";

const ROOT = new URL("../", import.meta.url); // the page's root: this file is <root>/js/worker.js
const t0 = performance.now();

let dispatchJson = null; // urlcalc.kinds.dispatch_json (a PyProxy), set once booted
let putShared = null; // writes an answer into the page's shared buffer, once the page sent it
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

// ---- boot progress ------------------------------------------------------------------------

// The downloads that take the time of a cold boot, in the order the page lists them.
const BOOT_FILES = ["pyodide.asm.wasm", "python_stdlib.zip", "bundle.zip"];
const progress = { files: {}, phase: "download" };
// A progress message at most every 1% of a file (or every 256 KiB when its size is unknown).
const STEP_UNKNOWN = 256 * 1024;

function postProgress() {
  self.postMessage({ type: "progress", progress: structuredClone(progress) });
}

function setPhase(phase) {
  progress.phase = phase;
  postProgress();
}

/** The decoded size of a response body, or null: Content-Length counts the bytes on the wire,
 *  which are the body's only when it is not compressed (`urlcalc serve` sends the decoded size of
 *  a gzipped asset as X-Decompressed-Content-Length). */
function decodedSize(response) {
  const encoding = (response.headers.get("Content-Encoding") ?? "identity").trim().toLowerCase();
  const header = encoding === "identity" ? "Content-Length" : "X-Decompressed-Content-Length";
  const n = Number(response.headers.get(header));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The same response, its body counted into progress.files[name] as it is read. */
function counted(response, name) {
  const file = { loaded: 0, total: decodedSize(response), done: false };
  progress.files[name] = file;
  postProgress();
  const reader = response.body.getReader();
  let reported = 0;
  const step = file.total ? Math.max(64 * 1024, Math.ceil(file.total / 100)) : STEP_UNKNOWN;
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        file.done = true;
        if (file.total === null || file.total < file.loaded) file.total = file.loaded;
        if (BOOT_FILES.every((f) => progress.files[f]?.done)) progress.phase = "start";
        postProgress();
        controller.close();
        return;
      }
      file.loaded += value.byteLength;
      if (file.loaded - reported >= step) {
        reported = file.loaded;
        postProgress();
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A wasm served with the wrong type (or not at all) makes loadPyodide hang: say so at once,
 *  from the one request Pyodide makes for it (no separate probe). */
function checkWasm(response) {
  const type = response.headers.get("Content-Type") ?? "";
  if (!response.ok) return `pyodide.asm.wasm: HTTP ${response.status}`;
  if (!type.startsWith("application/wasm")) return `pyodide.asm.wasm is served as ${type || "?"}, not application/wasm`;
  return null;
}

// Pyodide's fetches fail with a bare "Failed to fetch": name the file. The boot files' bodies
// are counted on the way (boot progress).
const realFetch = self.fetch.bind(self);
self.fetch = async (resource, init) => {
  const url = String(resource?.url ?? resource);
  const name = url.slice(url.lastIndexOf("/") + 1).split(/[?#]/)[0];
  let response;
  try {
    response = await realFetch(resource, init);
  } catch (e) {
    throw new TypeError(`${message(e)} (${name})`);
  }
  if (name === "pyodide.asm.wasm") {
    const problem = checkWasm(response);
    if (problem !== null) {
      failed(new Error(problem));
      throw new TypeError(problem);
    }
  }
  if (!settled() && BOOT_FILES.includes(name) && response.ok && response.body) return counted(response, name);
  return response;
};

function answer({ id, kind, params, sync }) {
  if (bootError !== null) {
    self.postMessage({ id, error: `Pyodide failed to boot: ${bootError}` });
    return;
  }
  try {
    const t = performance.now();
    const json = dispatchJson(String(kind), JSON.stringify(params ?? {}));
    // How long Python took (ms), beside the answer: the page's round trip minus this is messaging.
    // got_at / sent_at: when the request arrived and the answer left, on the shared clock
    // (timeOrigin + now), for the page's breakdown of a round trip (engine.js lastTimings).
    const python = performance.now() - t;
    const times = { python_ms: python, got_at: performance.timeOrigin + t,
      sent_at: performance.timeOrigin + performance.now() };
    // The page may be waiting in the buffer (then it ignores the message below); or it gave up
    // waiting, and takes the message.
    if (sync && putShared !== null) putShared(id, json, times);
    self.postMessage({ id, json, ...times });
  } catch (e) {
    if (sync && putShared !== null) putShared(id, JSON.stringify({ error: message(e) }));
    self.postMessage({ id, error: message(e) });
  }
}

// {id, relay: {url, body}, sync}: the page's API request, made from here with a synchronous
// XMLHttpRequest (allowed in a worker), so that the page can wait for the server's answer in the
// shared buffer as it waits for Pyodide's. The answer is the API's JSON text; when the server
// did not answer 200 (or asks to retry later) it is {"relay_failed": why} and the page asks the
// API itself.
const RELAY_TIMEOUT_MS = 10000;
function relay({ id, relay: { url, body }, sync }) {
  const t = performance.now();
  let json;
  try {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url, false);
    xhr.timeout = RELAY_TIMEOUT_MS; // allowed for a synchronous request in a worker
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.setRequestHeader("X-Urlcalc-Soft-Errors", "1");
    xhr.send(body);
    const retry = xhr.getResponseHeader("Retry-After");
    json = xhr.status === 200 && !retry ? xhr.responseText
      : JSON.stringify({ relay_failed: `HTTP ${xhr.status}${retry ? ", retry later" : ""}` });
  } catch (e) {
    json = JSON.stringify({ relay_failed: message(e) });
  }
  const times = { python_ms: performance.now() - t, got_at: performance.timeOrigin + t,
    sent_at: performance.timeOrigin + performance.now() };
  if (sync && putShared !== null) putShared(id, json, times);
  self.postMessage({ id, json, ...times });
}

self.addEventListener("message", (event) => {
  const msg = event.data;
  if (msg?.relay !== undefined && msg.id !== undefined) {
    relay(msg);
    return;
  }
  if (msg?.type === "channel" && typeof SharedArrayBuffer === "function" && msg.buffer instanceof SharedArrayBuffer) {
    putShared = channelWriter(msg.buffer);
    return;
  }
  if (!msg || typeof msg !== "object" || msg.id === undefined) return;
  if (!settled()) queue.push(msg);
  else answer(msg);
});

async function boot() {
  const timings = {};
  let t = performance.now();
  postProgress();
  // Fetch the bundle while Pyodide boots (boot is CPU-bound, the fetch is not).
  const bundle = fetch(new URL("bundle.zip", ROOT)).then((response) => {
    if (!response.ok) throw new Error(`bundle.zip: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  bundle.catch(failed); // fail at once, not after loadPyodide

  const indexURL = new URL("pyodide/", ROOT).href;
  const { loadPyodide, version } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await loadPyodide({
    indexURL,
    packages: [],
    stdout: (line) => console.log(`[python] ${line}`),
    stderr: (line) => console.warn(`[python] ${line}`),
  });
  timings.load_pyodide = performance.now() - t;

  t = performance.now();
  setPhase("unpack");
  // No __pycache__ in the in-memory file system: it would be lost with the worker anyway.
  const sitePackages = pyodide.runPython(
    "import sys, sysconfig\nsys.dont_write_bytecode = True\nsysconfig.get_paths()['purelib']",
  );
  pyodide.unpackArchive(new Uint8Array(await bundle), "zip", { extractDir: sitePackages });
  timings.bundle = performance.now() - t;

  t = performance.now();
  setPhase("import");
  // Held for the worker's lifetime (and so is the module it belongs to).
  const dispatch = pyodide.pyimport("urlcalc.kinds").dispatch_json;
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
  setPhase("warm-up");
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
