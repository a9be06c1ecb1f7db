// @ts-check
// The Pyodide engine: a module Web Worker (`new Worker(url, {type: "module"})`, started by
// engine.js) that boots Pyodide from ../pyodide/ (served by us: never a CDN), unpacks
// ../bundle.zip (urlcalc + idna, built from the source tree) into site-packages and imports
// urlcalc.model.results.
//
// Or, when ../boot.json names a snapshot made from the bundle.zip served and this Pyodide: boots
// from ../boot/snapshot.bin (web/tools/make-snapshot.mjs: Pyodide's memory with urlcalc imported
// and warmed up), with no standard library zip and no bundle.zip. Any failure of that (a stale,
// corrupt or missing snapshot) is a normal boot, said in the console and in info.boot.
//
// Messages it sends:
//   {type: "progress", progress} while booting: {files: {name: {loaded, total, done}}, phase,
//                                order: the names of the files this boot downloads};
//                                files are the big downloads (BOOT_FILES: the wasm, the standard
//                                library, bundle.zip) as their bytes arrive (loaded and total
//                                count decoded bytes; total is null when the server does not say);
//                                phase is "download", "start" (Python starting: the wasm compiles),
//                                "unpack" (bundle.zip), "import" (urlcalc) or "warm-up"
//   {type: "ready", info}        booted; info = urlcalc.model.runtime.engine_info() plus pyodide (its
//                                version), model_version, timings (ms) and boot: {kind:
//                                "snapshot" or "normal", reason: why not a snapshot, or null}
//   {type: "error", error}       boot failed (a one-line message)
//   {type: "warmed", warm}       the typing warm-up after boot is done (warmUp below): warm =
//                                {calls, python_ms, wall_ms}
//   {id, envelope, python_ms, got_at, sent_at}
//                                the answer to {id, kind, params}: envelope is the JSON text
//                                {"id":ID,"status":STATUS,"body":BODY} returned by
//                                urlcalc.answers.answer.answer_envelope(id, kind, params as JSON),
//                                the one answer of every transport (status 200 and the result,
//                                400 and {"error": ...} for a bad request, 404 for an unknown
//                                kind, 500 for a bug); or, made here, 500 when calling Python
//                                failed (the exception's last line) and 503 when Pyodide failed
//                                to boot; python_ms: how long that took; got_at, sent_at: when
//                                the request came in and the answer went out (ms,
//                                performance.timeOrigin + performance.now())
// Messages received before the boot is done are answered once it is.
//
// Messages it takes: {id, kind, params, sync}: a request (above); with sync: true, the answer's
// envelope is also put into the page's shared buffer (sync-channel.js), where the page may be
// waiting for it; {type: "channel", buffer}: that buffer (a SharedArrayBuffer), sent once.
//
// Only strings cross into Python (no proxies), so nothing leaks and nothing needs destroy().

import { channelFrom } from "../engine/sync-channel.js";

const ROOT = new URL("../../", import.meta.url); // the page's root: this file is <root>/js/workers/pyodide-worker.js
const t0 = performance.now();

let answerEnvelope = null; // urlcalc.answers.answer.answer_envelope (a PyProxy), set once booted
let putShared = null; // writes an answer into the page's shared buffer, once the page sent it
let bootError = null; // set once the boot failed
const settled = () => answerEnvelope !== null || bootError !== null;
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

// The downloads that take the time of a cold boot, in the order the page lists them: a normal
// boot's, or a snapshot boot's (progress.order says which; views/boot.js lists those).
const NORMAL_FILES = ["pyodide.asm.wasm", "python_stdlib.zip", "bundle.zip"];
const SNAPSHOT_FILES = ["pyodide.asm.wasm", "snapshot.bin"];
let BOOT_FILES = NORMAL_FILES;
const progress = { files: {}, phase: "download", order: BOOT_FILES };
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
  const url = resource instanceof Request ? resource.url : String(resource);
  // (a static site's snapshot.bin.gz counts as snapshot.bin in the boot progress)
  const name = url.slice(url.lastIndexOf("/") + 1).split(/[?#]/)[0].replace(/^snapshot\.bin\.gz$/, "snapshot.bin");
  if (url === NO_STDLIB) return new Response(EMPTY_ZIP, { headers: { "Content-Type": "application/zip" } });
  let response;
  try {
    response = await realFetch(resource, init);
  } catch (e) {
    const problem = `${message(e)} (${name})`;
    // Without the wasm no boot can go on (a snapshot boot would wait for it until the page's
    // boot timeout): fail now.
    if (name === "pyodide.asm.wasm") failed(new Error(problem));
    throw new TypeError(problem);
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

/** An envelope made here, not by Python: {id, status, body: {error}}. */
function failure(id, status, error) {
  return JSON.stringify({ id, status, body: { error } });
}

function answer({ id, kind, params, sync }) {
  if (bootError !== null) {
    const envelope = failure(id, 503, `Pyodide failed to boot: ${bootError}`);
    if (sync && putShared !== null) putShared(id, envelope);
    self.postMessage({ id, envelope, python_ms: 0, got_at: 0, sent_at: 0 });
    return;
  }
  try {
    const t = performance.now();
    const envelope = answerEnvelope(id, String(kind), JSON.stringify(params ?? {}));
    // How long Python took (ms), beside the answer: the page's round trip minus this is messaging.
    // got_at / sent_at: when the request arrived and the answer left, on the shared clock
    // (timeOrigin + now), for the page's breakdown of a round trip (engine.js lastTimings).
    const python = performance.now() - t;
    const times = { python_ms: python, got_at: performance.timeOrigin + t,
      sent_at: performance.timeOrigin + performance.now() };
    // The page may be waiting in the buffer (then it ignores the message below); or it gave up
    // waiting, and takes the message.
    if (sync && putShared !== null) putShared(id, envelope, times);
    self.postMessage({ id, envelope, ...times });
  } catch (e) {
    // (Python answers its own exceptions with 500: this is Pyodide failing under it)
    const envelope = failure(id, 500, message(e));
    if (sync && putShared !== null) putShared(id, envelope);
    self.postMessage({ id, envelope, python_ms: 0, got_at: 0, sent_at: 0 });
  }
}

self.addEventListener("message", (event) => {
  const msg = /** @type {MessageEvent} */ (event).data;
  if (msg?.id !== undefined) lastAsked = performance.now(); // the typing warm-up waits
  const put = channelFrom(msg);
  if (put !== null) {
    putShared = put;
    return;
  }
  if (!msg || typeof msg !== "object" || msg.id === undefined) return;
  if (!settled()) queue.push(msg);
  else answer(msg);
});

// ---- the boot snapshot (web/tools/make-snapshot.mjs) --------------------------------------

// boot.json (written by urlcalc's server and export): {pyodide, bundle, snapshot, size, gzip?}:
// the Pyodide version and the sha256 of the bundle.zip served, the snapshot's path or null (none,
// or made from other sources), its size, and gzip: true when the path is a gzip file to
// decompress here (a static site's), or reason: why there is none for this browser (urlcalc's
// server offers it only to browsers that take brotli). The snapshot is used only when it names
// the same two.
async function bootPlan() {
  try {
    const response = await realFetch(new URL("boot.json", ROOT));
    if (!response.ok) return { snapshot: null, reason: `boot.json: HTTP ${response.status}` };
    const plan = await response.json();
    return { ...plan, reason: plan.snapshot ? null : plan.reason ?? "no snapshot made from this bundle.zip" };
  } catch (e) {
    return { snapshot: null, reason: `boot.json: ${message(e)}` };
  }
}

/** make-snapshot.mjs's hash of a byte range (a multiple of 4 bytes long, 4-aligned). */
function hash32(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** snapshot.bin's header and body, checked against the plan and this Pyodide; throws why not. */
function readSnapshot(bytes, plan, version) {
  if (bytes.length < 8 || new TextDecoder().decode(bytes.subarray(0, 4)) !== "UCSN") throw new Error("not a snapshot file");
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  if (header.format !== 1) throw new Error(`unknown snapshot format ${header.format}`);
  if (header.pyodide !== version) throw new Error(`made for Pyodide ${header.pyodide}, this is ${version}`);
  if (header.bundle !== plan.bundle) throw new Error("stale: made from another bundle.zip than the one served");
  const body = bytes.subarray(8 + headerLength);
  if (body.length !== header.body || (8 + headerLength) % 4 !== 0) throw new Error("truncated");
  if (hash32(body) !== header.body_hash) throw new Error("corrupt (its hash differs)");
  return { header, body };
}

// What Python finds at /lib/python3XX.zip after a snapshot boot: an empty zip (every module it
// needs is in the snapshot; the worker answers this URL itself, nothing is downloaded).
const NO_STDLIB = new URL("boot/no-stdlib.zip", ROOT).href;
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);

/** loadPyodide from the snapshot: the file holds the memory XOR the wasm's fresh memory (as
 *  instantiated: its data segments), rebuilt once the wasm is instantiated, before Pyodide
 *  restores it. Pyodide is given an array of the snapshot's size (boot.json says it) at once, so
 *  that the wasm downloads and compiles while the snapshot downloads; the array is filled in
 *  when both are there. */
async function loadFromSnapshot(loadPyodide, indexURL, snapshotBytes, plan, version, options, timings) {
  if (!Number.isSafeInteger(plan.size) || plan.size <= 0) throw new Error("boot.json gives no snapshot size");
  let snapshot = new Uint8Array(plan.size);
  const read = snapshotBytes.then((bytes) => {
    const t = performance.now();
    const { header, body } = readSnapshot(new Uint8Array(bytes), plan, version);
    if (header.size !== plan.size) throw new Error("its size is not the one boot.json gives");
    snapshot.set(body);
    timings.snapshot_check = performance.now() - t;
    return header;
  });
  read.catch(() => {}); // reported by create() below, through loadPyodide
  const { default: createModule } = await import(new URL("pyodide.asm.mjs", indexURL).href);
  const create = async (settings) => {
    // The memory as instantiated, before any code ran: the wasm's data segments.
    let fresh = null;
    let problem = null;
    const instantiate = settings.instantiateWasm;
    settings.instantiateWasm = (imports, receive) => instantiate(imports, (instance, wasmModule) => {
      read.then((header) => {
        fresh = new Uint8Array(instance.exports.memory.buffer);
        if (fresh.length < header.fresh || hash32(fresh.subarray(0, header.fresh)) !== header.fresh_hash) {
          problem = "this wasm's fresh memory is not the one the snapshot was made against";
        } else {
          const out = new Uint32Array(snapshot.buffer, header.fresh_offset, header.fresh >>> 2);
          const words = new Uint32Array(fresh.buffer, 0, header.fresh >>> 2);
          for (let i = 0; i < out.length; i++) out[i] ^= words[i];
        }
      }, (e) => {
        problem = message(e);
      }).finally(() => receive(instance, wasmModule));
    });
    const module = await createModule(settings);
    if (problem !== null) throw new Error(problem);
    // The wasm defines a 30 MiB memory and Pyodide's restore does not grow it: grow it here
    // (the restore overwrites everything malloc wrote).
    const held = [];
    while (module.HEAPU8.length < snapshot.length && held.length < 256) held.push(module._malloc(4 << 20));
    for (const p of held) module._free(p);
    if (module.HEAPU8.length < snapshot.length) throw new Error("could not grow the memory to the snapshot's size");
    return module;
  };
  const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot, createPyodideModule: create, stdLibURL: NO_STDLIB });
  // Let go of the snapshot's bytes (45 MB): Pyodide's config keeps what it was given, and the
  // closures above would keep this array.
  delete pyodide._api.config._loadSnapshot;
  snapshot = null;
  return pyodide;
}

async function boot() {
  const timings = {};
  let t = performance.now();
  postProgress();
  const plan = bootPlan();
  const indexURL = new URL("pyodide/", ROOT).href;
  const { loadPyodide, version } = await import(new URL("pyodide.mjs", indexURL).href);
  const options = {
    indexURL,
    packages: [],
    stdout: (line) => console.log(`[python] ${line}`),
    stderr: (line) => console.warn(`[python] ${line}`),
  };
  const { snapshot: snapshotPath, reason, ...key } = await plan;
  const bootInfo = { kind: "normal", reason };

  if (snapshotPath && key.pyodide === version) {
    BOOT_FILES = progress.order = SNAPSHOT_FILES;
    postProgress();
    const bytes = fetch(new URL(snapshotPath, ROOT)).then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = await response.arrayBuffer();
      // A static site's boot.json names snapshot.bin.gz (a static host may not compress): gunzip
      // it here, unless the host already did (no gzip magic number).
      const head = new Uint8Array(data, 0, Math.min(2, data.byteLength));
      if (!key.gzip || head[0] !== 0x1f || head[1] !== 0x8b) return data;
      return new Response(new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    });
    try {
      const pyodide = await loadFromSnapshot(loadPyodide, indexURL, bytes, key, version, options, timings);
      timings.load_pyodide = performance.now() - t;
      t = performance.now();
      const { dispatch, info, typing } = engineOf(pyodide);
      timings.import = performance.now() - t;
      timings.total = performance.now() - t0;
      for (const k of Object.keys(timings)) timings[k] = Math.round(timings[k]);
      return { dispatch, typing, info: { ...info, pyodide: version, timings, boot: { kind: "snapshot", reason: null } } };
    } catch (e) {
      bytes.catch(() => {});
      bootInfo.reason = `the boot snapshot failed (${message(e)}): booted without it`;
      console.warn(`urlcalc: ${bootInfo.reason}`);
      BOOT_FILES = progress.order = NORMAL_FILES;
      progress.files = {};
      setPhase("download");
      t = performance.now();
    }
  } else if (snapshotPath) {
    bootInfo.reason = `boot.json names Pyodide ${key.pyodide}, this is ${version}`;
  }

  // Fetch the bundle while Pyodide boots (boot is CPU-bound, the fetch is not).
  const bundle = fetch(new URL("bundle.zip", ROOT)).then((response) => {
    if (!response.ok) throw new Error(`bundle.zip: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  bundle.catch(failed); // fail at once, not after loadPyodide

  const pyodide = await loadPyodide(options);
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
  const { dispatch, info, typing } = engineOf(pyodide);
  timings.import = performance.now() - t;

  // One traced call through every layer (URL parser, host parser, IDNA) so that the first real
  // keystroke does not pay for lazy imports and table loading.
  t = performance.now();
  setPhase("warm-up");
  dispatch(null, "parse", JSON.stringify({ input: "https://u:p@\u00e9x.com:8/a/../b?q#f", trace: true }));
  // Move everything alive now (the package, the idna tables) out of the cyclic GC's sight: its
  // full collections otherwise walk them in the middle of a keystroke's answer (p95 +1-3 ms).
  pyodide.runPython("import gc\ngc.collect()\ngc.freeze()");
  timings.warm_up = performance.now() - t;
  timings.total = performance.now() - t0;
  for (const key of Object.keys(timings)) timings[key] = Math.round(timings[key]);
  return { dispatch, typing, info: { ...info, pyodide: version, timings, boot: bootInfo } };
}

/** urlcalc in a booted Pyodide: answer_envelope (a PyProxy, held for the worker's lifetime, and
 *  so is the module it belongs to), the engine's info, and the typing warm-up's plan
 *  (urlcalc.answers.warmup.typing_plan: {requests, budget_ms}). */
function engineOf(pyodide) {
  const dispatch = pyodide.pyimport("urlcalc.answers.answer").answer_envelope;
  const { info, typing } = JSON.parse(pyodide.runPython(
    "import json, urlcalc.model.runtime, urlcalc.model.results, urlcalc.answers.warmup\n" +
      "json.dumps({'info': {**urlcalc.model.runtime.engine_info(), 'model_version': urlcalc.model.results.MODEL_VERSION},\n" +
      "            'typing': json.loads(urlcalc.answers.warmup.typing_plan())})",
  ));
  return { dispatch, info, typing };
}

// ---- after boot: the typing warm-up (urlcalc.answers.warmup.typing_requests) ----------------------
// The browser runs Pyodide's WebAssembly as compiled by its baseline compiler until a function
// has run long enough to be recompiled by the optimizing one: the first keystrokes after boot
// took Python two to five times as long as later ones. While the page asks for nothing, the
// worker answers a person's typing requests to itself, one per task (so that a request from the
// page is never behind more than one of them), round after round, until it has spent the plan's
// budget of Python time. It waits while the page is asking (until WARM_IDLE_MS after its last
// request: the page's own requests warm the same code). Then it says {type: "warmed", warm:
// {calls, python_ms, wall_ms}}.
const WARM_IDLE_MS = 250;
let lastAsked = -Infinity; // when the page's last request came in

function warmUp({ requests, budget_ms: budget }) {
  const started = performance.now();
  let next = 0;
  let spent = 0;
  const tick = new MessageChannel(); // a task with no timer clamping
  const step = () => {
    if (requests.length === 0 || spent >= budget) {
      tick.port1.close();
      self.postMessage({ type: "warmed", warm: { calls: next, python_ms: Math.round(spent), wall_ms: Math.round(performance.now() - started) } });
      return;
    }
    const idle = performance.now() - lastAsked;
    if (idle < WARM_IDLE_MS) {
      setTimeout(() => tick.port2.postMessage(0), WARM_IDLE_MS - idle);
      return;
    }
    const [kind, params] = requests[next++ % requests.length]; // round again until the budget is spent
    const t = performance.now();
    try {
      answerEnvelope(null, kind, params);
    } catch {
      // a warm-up answer is thrown away; so is its failure
    }
    spent += performance.now() - t;
    tick.port2.postMessage(0);
  };
  tick.port1.onmessage = step;
  tick.port2.postMessage(0);
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

boot().then(({ dispatch, info, typing }) => {
  if (settled()) return;
  answerEnvelope = dispatch;
  self.postMessage({ type: "ready", info });
  for (const msg of queue.splice(0)) answer(msg);
  warmUp(typing);
}, failed);
