// The engine host: where the page's results come from. Plain ES module, no build step.
//
//   import { createEngine } from "./engine.js";
//   const engine = createEngine({ force: new URLSearchParams(location.search).get("engine") });
//   engine.onchange((e) => showEngine(e.current, e.info));
//   const { result, engine: which, ms } = await engine.call("parse", { input, base, trace: true });
//
// Two engines compute the same result model (urlcalc.answers.kinds.dispatch, see the README):
//   "server"   the JSON API of `urlcalc serve` (POST api/<kind>), and
//   "pyodide"  the same Python package running in Pyodide in a module Web Worker (worker.js).
// Served by `urlcalc serve`, the API answers at once while Pyodide boots in the worker; when the
// worker is ready, `current` switches to "pyodide" and onchange fires. If the worker fails, or does
// not boot within `bootTimeoutMs`, the API stays in charge and `info.error` says why. From a static
// export (config.json says {"api": null}) only Pyodide answers. `force: "pyodide"` makes no API
// call at all; `force: "server"` starts no worker (any other value counts as null). The main
// thread never runs Python. Options beside `force`: bootTimeoutMs (default BOOT_TIMEOUT_MS) and
// callTimeoutMs (CALL_TIMEOUT_MS: a worker that takes longer over one call is terminated).
//
// The host object:
//   call(kind, params, {prefer, waitMs}) -> Promise<{result, engine, ms}>
//       kind as in urlcalc.answers.kinds.dispatch ("parse", "set", "host", "urlencoded", "percent",
//       "validate", "compare", "random", "version", "implementations"); params a plain JSON-able object; engine is who answered; ms the
//       round trip seen by the page. Rejects with Error(message) for a bad request (the answer's
//       status is not 200: its body's {"error"}, the same from every engine) or when no engine
//       can answer. A call made while Pyodide is the only engine and still booting waits for it.
//       Every answer comes as one envelope {id, status, body} (urlcalc/answers/answer.py): from
//       the worker, from the server relay (the socket's message, or the relay's own failure:
//       502 no answer, 504 none in time) and, over HTTP, the response's status and JSON body;
//       status 200 is an answer, any other an error with body.error (see outcomeOf).
//       prefer: "server" asks the API first when there is one (the Implementations view: the
//       server runs more implementations than Pyodide), Pyodide if the API cannot answer.
//       waitMs: when the page is cross-origin isolated, wait up to this long, in this task, for
//       Pyodide's answer (sync-channel.js), so that the promise is already settled when the
//       caller's task ends and the answer is drawn in the same frame as the keystroke that asked;
//       skipped when the last answer of the same kind took Python longer than waitMs. With
//       prefer: "server", the server relay (server-relay-worker.js, a worker of its own) asks
//       the API (over its WebSocket where config.json has one, else by a synchronous request in
//       the worker) and the page waits for that answer the same way.
//       The page's other requests to the API go over that socket too, when there is one (see
//       callServer): there, a refusal is an answer in a message; over HTTP it is a 4xx response,
//       which the browser logs as a console error ("Failed to load resource").
//   prefetch(kind, params, {prefer})
//       says that the page is about to call(kind, params, {prefer}) (a view's own request, after
//       the parse it is drawing first): where calls can wait for their answer, the request is
//       posted to the worker right behind the next request the worker gets, so that the worker
//       computes it while the page draws that one; the call() that asks for it then waits for
//       (or takes) that answer instead of posting the request again. Only the last prefetch is
//       kept; one that no call asks for is dropped. Elsewhere it does nothing.
//   current   "server" | "pyodide" | null: who answers calls now
//   info      {server, pyodide, status, error, where, publicUrl, progress, isolation}
//       server   the API's engine dict (name, python, unicode, idna_tables, idna, urlcalc) plus
//                model_version, or null (not available / not asked)
//       pyodide  the same dict from the worker plus pyodide (version) and timings (ms: the
//                worker's load_pyodide, bundle, import, warm_up, total; started_at and ready_at
//                on the page's clock, since navigation), and, once the worker's typing warm-up
//                after boot is done, warm: {calls, python_ms, wall_ms}; or null
//       status   "booting" | "ready" | "failed": the preferred engine (Pyodide, or the API when
//                forced) is still starting / answers / could not start (then `error` says why,
//                and current is "server" if the API can stand in)
//       error    string | null
//       where    where the page runs, from config.json: "served" (by `urlcalc serve`: the API is
//                there), "static" (an export on a static host: Pyodide only), "file" (opened
//                from a file: URL), or null until config.json has been read
//       publicUrl  the calculator's public address for permalinks (config.json's public_url:
//                `urlcalc export-static --public-url` or `urlcalc serve --public-url`), or null
//       progress the worker's boot progress while it boots ({files: {name: {loaded, total,
//                done}}, phase}: see worker.js), or null
//       isolation  how the page got cross-origin isolated (see sync): {by, reason}; by is
//                "headers" (the host sent COOP and COEP), "service worker" (isolation.js reloaded
//                the page through the site's service worker, or it controlled the page from its
//                first request), or null: not isolated, and reason says why (null while a
//                reload may still come)
//   busy      how many calls (call, both) are in flight now
//   sync      {available, waits, misses, by, relays, prefetched}: whether calls can wait for their
//             answer (the page is cross-origin isolated), how many answers were taken in the
//             caller's task, how many waits ran out of time (by: both per channel, the page's
//             whatwg-url worker's included: sync-channel.js channelCounts), how many API answers
//             the server relay brought, how many calls were answered by a prefetched request
//   lastTimings  the last answer of the worker, in parts (ms): to_worker_ms (posting the request
//                until the worker took it), python_ms, to_page_ms (the answer's postMessage until
//                the page took it), parse_ms (JSON.parse), chars (the JSON text's length); or null
//   onchange(callback) -> unsubscribe function; callback(host) after every change of current/info
//   both(kind, params) -> Promise<{server, pyodide, differs}>
//       asks every engine that is available right now (does not wait for a booting worker);
//       server / pyodide: {result, engine, ms}, or {error, engine} if it rejected, or null if that
//       engine is not available; differs: JSON Pointers (RFC 6901, e.g. "/getters/host",
//       "/record/path/0") where the two results differ, ignoring the top-level "engine" field;
//       [""] if one side failed and the other did not (or both failed differently); [] otherwise.

import { MAX_COMPARED_CHARS } from "../facts.js";
import { SyncChannel, channelAvailable, channelCounts } from "./sync-channel.js";

const ROOT = new URL("../../", import.meta.url); // the page's root: this file is <root>/js/engine/engine.js
const WORKER_URL = new URL("../workers/pyodide-worker.js", import.meta.url);
const RELAY_URL = new URL("../workers/server-relay-worker.js", import.meta.url);

// The worker is started as soon as this module runs, so that Pyodide's boot overlaps the loading
// of the rest of the page if the page loads engine.js early, e.g. in <head>, before app.js:
//   <script type="module" async src="js/engine/engine.js"></script>
// (not when the page's URL says ?engine=server). createEngine adopts it; what it said before
// that is kept and replayed. A page that calls createEngine({force: "server"}) terminates it.
let early = null;
let adopted = false; // createEngine has started or adopted the worker

function startEarly() {
  const started = { worker: null, error: null, startedAt: performance.now(), events: [] };
  started.keep = (event) => {
    if (event.type === "error") event.preventDefault(); // reported when replayed
    started.events.push(event);
  };
  try {
    started.worker = new Worker(WORKER_URL, { type: "module", name: "urlcalc-pyodide" });
  } catch (e) {
    started.error = e;
    return started;
  }
  for (const type of ["message", "error", "messageerror"]) {
    started.worker.addEventListener(type, started.keep);
  }
  return started;
}

// js/engine/isolation.js (a classic script that runs before this module) may be about to reload the
// page through the site's service worker, to make it cross-origin isolated: while it may, no
// worker is started (its boot would be thrown away); when it settles without a reload, the
// worker starts. See isolation.js for {by, reason, pending, settled}.
const isolation = typeof globalThis.urlcalcIsolation === "object" ? globalThis.urlcalcIsolation : null;

/** Run `start` now, or once isolation.js has said the page stays (never if it reloads). */
function unlessReloading(start) {
  if (isolation?.pending === true && isolation.settled instanceof Promise) {
    isolation.settled.then((reloading) => {
      if (!reloading) start();
    });
  } else {
    start();
  }
}

/** How the page got cross-origin isolated: {by: "headers" | "service worker" | null, reason}. */
function isolationInfo() {
  if (isolation !== null && !isolation.pending) {
    return { by: isolation.by ?? null, reason: isolation.reason ?? null };
  }
  if (globalThis.crossOriginIsolated === true) return { by: "headers", reason: null };
  return { by: null, reason: isolation === null ? "not cross-origin isolated" : null };
}

if (
  typeof Worker === "function" &&
  typeof location === "object" &&
  new URLSearchParams(location.search).get("engine") !== "server"
) {
  unlessReloading(() => {
    if (early === null && !adopted) early = startEarly();
  });
}

// Measured in Debian Chromium on a 2-core machine: Pyodide answers 2-3.5 s after navigation
// cold. 20 s leaves room for a slow laptop on a busy classroom network.
export const BOOT_TIMEOUT_MS = 20000;
// A single call that takes longer means the worker is stuck (a 64 KiB input with a trace takes a
// few seconds); it is terminated and the API (if any) takes over.
export const CALL_TIMEOUT_MS = 60000;

function errorMessage(e) {
  return e?.message ?? String(e);
}

function round(ms) {
  return Math.round(ms * 10) / 10;
}

/** What an answer's envelope {id, status, body} means for a call that came `via` "pyodide" or
 *  "relay": {result} (status 200), {error} (body.error), or, for the relay, {askServer: true} from
 *  status 500 up (the relay's own failures, 502 and 504, a busy or failing server): the page then
 *  asks the API itself, by HTTP. */
export function outcomeOf(envelope, via) {
  const status = envelope?.status;
  const body = envelope?.body;
  if (status === 200) return { result: body };
  if (via === "relay" && !(status < 500)) return { askServer: true };
  const error = typeof body?.error === "string" ? body.error : `status ${status} without an error message`;
  return { error };
}

/** The refusal the model gives a request that compares an input (or base) longer than it reads
 *  (facts.js MAX_COMPARED_CHARS, from urlcalc.model.limits), or null: such a request is not
 *  sent, so that no engine computes a known refusal and none goes over HTTP, where the browser
 *  would log it as a failed request. */
export function refusedHere(kind, params) {
  const max = Object.hasOwn(MAX_COMPARED_CHARS, kind) ? MAX_COMPARED_CHARS[kind] : null;
  if (max === null) return null;
  for (const name of ["input", "base"]) {
    const value = params?.[name];
    if (typeof value !== "string" || value.length <= max) continue; // (UTF-16 units >= code points)
    const n = [...value].length;
    if (n > max) return `field '${name}' is too long to compare: ${n} code points (at most ${max})`;
  }
  return null;
}

function escapePointer(key) {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

// JSON Pointers at which two JSON values differ (deepest differing objects/arrays are reported
// by member; arrays of different length are reported as a whole).
export function jsonDiff(a, b, path = "", out = []) {
  if (a === b) return out;
  const aObj = a !== null && typeof a === "object";
  const bObj = b !== null && typeof b === "object";
  if (!aObj || !bObj || Array.isArray(a) !== Array.isArray(b)) {
    out.push(path);
    return out;
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) {
      out.push(path);
      return out;
    }
    for (let i = 0; i < a.length; i++) jsonDiff(a[i], b[i], `${path}/${i}`, out);
    return out;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (path === "" && key === "engine") continue;
    const sub = `${path}/${escapePointer(key)}`;
    if (!(key in a) || !(key in b)) out.push(sub);
    else jsonDiff(a[key], b[key], sub, out);
  }
  return out;
}

export function createEngine({
  force = null,
  bootTimeoutMs = BOOT_TIMEOUT_MS,
  callTimeoutMs = CALL_TIMEOUT_MS,
} = {}) {
  if (force !== "pyodide" && force !== "server") force = null; // e.g. a stray ?engine=

  const listeners = new Set();
  let apiBase = null; // URL of the API root ("<root>/api/") once known to exist
  let socketBase = null; // URL of the API's WebSocket (http: scheme), where config.json has one
  let worker = null;
  let workerReady = false;
  let nextId = 1;
  const pending = new Map(); // id -> {resolve, reject, timer}
  let channel = null; // a SyncChannel shared with the worker (cross-origin isolated pages only)
  const pythonMs = new Map(); // kind -> how long Python took over the last answer of that kind
  let relays = 0; // API answers the server relay brought (prefer: "server" with waitMs)
  let prefetched = 0; // calls answered by the request a prefetch had posted
  // The server relay (server-relay-worker.js) and its shared buffer: {worker, channel}, where
  // the page is served and cross-origin isolated; else null.
  let relay = null;
  // The request of the last prefetch: {key, kind, params, relayTo}, and once posted behind
  // another request, posted: {id, answer} (the answer's promise, settled as any call's).
  let ahead = null;

  let busy = 0; // calls in flight (call and both): what a benchmark waits for
  const host = {
    current: null,
    lastTimings: null,
    info: {
      server: null, pyodide: null, status: "booting", error: null, where: null, publicUrl: null, progress: null,
      isolation: isolationInfo(),
    },
    onchange(callback) {
      listeners.add(callback);
      return () => listeners.delete(callback);
    },
    call: counted(call),
    both: counted(both),
    prefetch,
    /** How many calls (call, both) are in flight. */
    get busy() {
      return busy;
    },
    get sync() {
      const by = channelCounts();
      const sum = (k) => Object.values(by).reduce((n, c) => n + c[k], 0);
      return { available: channel !== null, waits: sum("waits"), misses: sum("misses"), by, relays, prefetched };
    },
  };

  function counted(fn) {
    return async (...args) => {
      busy += 1;
      try {
        return await fn(...args);
      } finally {
        busy -= 1;
      }
    };
  }

  function emit() {
    for (const callback of [...listeners]) {
      try {
        callback(host);
      } catch (e) {
        reportError(e); // a broken listener must not break the engine (nor the other listeners)
      }
    }
  }

  function update(changes, infoChanges = {}) {
    Object.assign(host, changes);
    Object.assign(host.info, infoChanges);
    emit();
  }

  // --- the worker -------------------------------------------------------------------------------

  let resolveBoot;
  let rejectBoot;
  const booted = new Promise((resolve, reject) => {
    resolveBoot = resolve;
    rejectBoot = reject;
  });
  booted.catch(() => {}); // only awaited when Pyodide is the only engine

  function workerFailed(reason) {
    if (worker === null && !workerReady && host.info.status === "failed") return;
    if (worker !== null) worker.terminate();
    worker = null;
    workerReady = false;
    for (const [id, p] of pending) {
      if (p.via !== "pyodide") continue; // the server relay's answers still come
      clearTimeout(p.timer);
      p.reject(new Error(reason));
      pending.delete(id);
    }
    rejectBoot(new Error(reason));
    update({ current: apiBase !== null ? "server" : null }, { status: "failed", error: reason });
  }

  function startWorker() {
    // Adopt the worker started when this module ran (see startEarly), or start one now.
    const started = early ?? startEarly();
    early = null;
    adopted = true;
    if (started.worker === null) {
      workerFailed(`cannot start the Pyodide worker: ${errorMessage(started.error)}`);
      return;
    }
    worker = started.worker;
    if (channelAvailable()) {
      channel = new SyncChannel("pyodide");
      worker.postMessage({ type: "channel", buffer: channel.buffer });
    }
    const left = Math.max(0, bootTimeoutMs - (performance.now() - started.startedAt));
    const timer = setTimeout(() => {
      workerFailed(`Pyodide did not boot within ${Math.round(bootTimeoutMs / 1000)} s`);
    }, left);

    function onMessage(event) {
      const msg = event.data ?? {};
      if (msg.type === "progress") {
        if (!workerReady && worker !== null) update({}, { progress: msg.progress ?? null });
      } else if (msg.type === "ready") {
        clearTimeout(timer);
        workerReady = true;
        resolveBoot();
        // Page-clock times (ms since navigation) beside the worker's own phase timings.
        const timings = {
          ...msg.info?.timings,
          started_at: round(started.startedAt),
          ready_at: round(performance.now()),
        };
        const pyodide = { ...msg.info, timings };
        update({ current: "pyodide" }, { pyodide, status: "ready", error: null });
      } else if (msg.type === "warmed") {
        // the worker's typing warm-up is done (worker.js warmUp): how much it took
        if (host.info.pyodide) update({}, { pyodide: { ...host.info.pyodide, warm: msg.warm ?? null } });
      } else if (msg.type === "error") {
        clearTimeout(timer);
        workerFailed(`Pyodide failed to boot: ${msg.error}`);
      } else if (msg.id !== undefined && pending.has(msg.id)) {
        settleAnswer(msg.id, msg.envelope, msg);
      }
    }

    function onError(event) {
      // A module that fails to load gives an ErrorEvent without a message.
      event.preventDefault();
      clearTimeout(timer);
      const detail = event.message || "the script or one of its imports failed to load";
      workerFailed(`the Pyodide worker failed: ${detail}`);
    }

    function onMessageError() {
      workerFailed("the Pyodide worker sent a message that cannot be read");
    }

    const handlers = { message: onMessage, error: onError, messageerror: onMessageError };
    const listen = () => {
      for (const [type, handler] of Object.entries(handlers)) {
        started.worker.removeEventListener(type, started.keep);
        started.worker.addEventListener(type, handler);
      }
      // What the worker said before this engine listened, in order.
      for (const event of started.events.splice(0)) {
        if (worker !== started.worker) break; // failed meanwhile
        handlers[event.type](event);
      }
    };
    // With something to replay, do it in a later task, so that the page's onchange callbacks
    // (registered after createEngine returns) hear about it; meanwhile events keep queueing.
    if (started.events.length > 0) setTimeout(listen, 0);
    else listen();
  }

  function startRelay() {
    if (!channelAvailable()) return;
    let thread;
    try {
      thread = new Worker(RELAY_URL, { type: "module", name: "urlcalc-server-relay" });
    } catch {
      return; // calls go to the server the ordinary way
    }
    relay = { worker: thread, channel: new SyncChannel("server relay") };
    thread.postMessage({ type: "channel", buffer: relay.channel.buffer, socket: socketUrl() });
    thread.addEventListener("message", (event) => {
      const msg = event.data ?? {};
      if (msg.id !== undefined && pending.has(msg.id)) settleAnswer(msg.id, msg.envelope, msg);
    });
    thread.addEventListener("error", (event) => {
      event.preventDefault();
      thread.terminate();
      if (relay?.worker !== thread) return;
      relay = null; // its pending calls fall back to the page's own request
      for (const [id, p] of pending) {
        if (p.via === "relay") settleAnswer(id, relayFailure(id, 502, "the relay failed"), { python_ms: 0, got_at: 0, sent_at: 0 });
      }
    });
  }

  /** The envelope of the relay's own failure, made here (server-relay-worker.js's statuses). */
  function relayFailure(id, status, why) {
    return JSON.stringify({ id, status, body: { error: `the server relay got no answer: ${why}` } });
  }

  /** Settle the pending call `id` with the thread's envelope (its JSON text, from its message or
   *  the shared buffer) and its timings {python_ms, got_at, sent_at}. */
  function settleAnswer(id, json, times) {
    const p = pending.get(id);
    pending.delete(id);
    clearTimeout(p.timer);
    pythonMs.set(p.kind, times.python_ms);
    const received = performance.timeOrigin + performance.now();
    let envelope;
    try {
      envelope = JSON.parse(json);
      host.lastTimings = {
        to_worker_ms: round(times.got_at - p.posted),
        python_ms: round(times.python_ms),
        to_page_ms: round(received - times.sent_at),
        parse_ms: round(performance.timeOrigin + performance.now() - received),
        chars: json.length,
      };
    } catch (e) {
      p.reject(new Error(`the worker sent bad JSON: ${errorMessage(e)}`));
      return;
    }
    const outcome = outcomeOf(envelope, p.via);
    if (outcome.askServer) p.resolve(null); // the relay brought no answer: the caller asks itself
    else if ("error" in outcome) p.reject(new Error(outcome.error));
    else p.resolve(outcome.result);
  }

  /** Post (kind, params) to the Pyodide worker, or with relayTo (an API URL) to the server relay;
   *  the answer's promise is settled by settleAnswer, from the thread's message or the shared
   *  buffer. `sync`: the thread also puts the answer into the buffer (the page waits there). */
  function request(kind, params, relayTo, sync) {
    const id = nextId++;
    const via = relayTo === null ? "pyodide" : "relay";
    const answer = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (via === "pyodide") workerFailed(`Pyodide did not answer within ${Math.round(callTimeoutMs / 1000)} s`);
        else settleAnswer(id, relayFailure(id, 504, `none within ${Math.round(callTimeoutMs / 1000)} s`), { python_ms: callTimeoutMs, got_at: 0, sent_at: 0 });
      }, callTimeoutMs);
      // kind: for the skip rule (callWorker); posted: for lastTimings
      pending.set(id, { resolve, reject, timer, via, kind: skipKey(kind, relayTo),
        posted: performance.timeOrigin + performance.now() });
    });
    if (via === "pyodide") worker.postMessage({ id, kind, params, sync });
    else relay.worker.postMessage({ id, kind, url: relayTo.href, body: JSON.stringify(params ?? {}), sync });
    return { id, answer, via };
  }

  /** Which answers' times the skip rule compares: Pyodide's per kind, the relay's apart. */
  function skipKey(kind, relayTo) {
    return relayTo === null ? kind : `relay ${kind}`;
  }

  function callWorker(kind, params, waitMs = 0, relayTo = null) {
    if (relayTo === null ? !workerReady || worker === null : relay === null) {
      return Promise.reject(new Error(relayTo === null ? host.info.error ?? "Pyodide is not ready" : "no server relay"));
    }
    const thread = relayTo === null ? channel : relay.channel;
    // the skip rule (see waitMs in call()): the last answer of this kind took longer than the wait
    const sync = thread !== null && waitMs > 0 && !(pythonMs.get(skipKey(kind, relayTo)) > waitMs);
    const posted = request(kind, params, relayTo, sync);
    if (relayTo === null && ahead !== null && ahead.posted === null) postAhead();
    if (sync) take(posted, waitMs);
    return posted.answer;
  }

  /** Wait (in this task, at most waitMs) for the answer to a posted request in its thread's
   *  shared buffer. */
  function take({ id, via }, waitMs) {
    const thread = via === "pyodide" ? channel : relay?.channel;
    if (!thread || !pending.has(id)) return;
    const got = thread.wait(id, waitMs);
    // The thread's message for this id comes later anyway; it finds nothing pending.
    if (got !== null && pending.has(id)) settleAnswer(id, got.text, got.times);
  }

  function requestKey(kind, params, relayTo) {
    return JSON.stringify([kind, params ?? {}, relayTo === null ? null : relayTo.href]);
  }

  /** The API's URL for `kind` (apiBase must be known). */
  function apiUrl(kind) {
    return new URL(encodeURIComponent(kind), apiBase);
  }

  /** The API's WebSocket URL for the server relay, or null where the server has none. */
  function socketUrl() {
    if (socketBase === null) return null;
    const url = new URL(socketBase);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    return url.href;
  }

  /** Whether a call that prefers `prefer` goes to the server first. */
  function toServer(prefer) {
    return prefer === "server" && apiBase !== null && force !== "pyodide";
  }

  function prefetch(kind, params = {}, { prefer = null } = {}) {
    ahead = null;
    if (refusedHere(kind, params) !== null) return; // call() says so without asking
    const relayTo = toServer(prefer) ? apiUrl(kind) : null;
    if (relayTo !== null ? relay === null : channel === null || !workerReady || worker === null) return;
    ahead = { key: requestKey(kind, params, relayTo), kind, params, relayTo, posted: null };
    // The relay is a thread of its own: its request goes out now, while Pyodide parses. Pyodide's
    // goes behind the next request the worker gets (the parse), in callWorker.
    if (relayTo !== null) postAhead();
  }

  function postAhead() {
    ahead.posted = request(ahead.kind, ahead.params, ahead.relayTo, true);
    ahead.posted.answer.catch(() => {}); // a prefetch no call asks for may fail unheard
  }

  /** The answer to (kind, params) from the last prefetch, if it was posted: waited for here (at
   *  most waitMs) when it has not come yet; else null (post the request anew). */
  function fromAhead(kind, params, waitMs, relayTo) {
    if (ahead === null || ahead.key !== requestKey(kind, params, relayTo)) return null;
    const { posted } = ahead;
    ahead = null; // asked for now: posted behind nothing else
    if (posted === null) return null;
    prefetched += 1;
    if (waitMs > 0) take(posted, waitMs);
    return posted.answer;
  }

  // --- the API -----------------------------------------------------------------------------------

  // The page asks the API over the server relay's socket where the server has one (a refusal is
  // then an answer inside a message; a 4xx over HTTP is logged by the browser as a console error,
  // though it is no error of the page's), unless `viaRelay` is false (the relay was just asked);
  // by HTTP otherwise, and when the relay brings no answer (a status from 500 up: outcomeOf).
  // Over HTTP, the server refuses heavy requests beyond its short queue with 503 and Retry-After:
  // the page waits as told and asks again, a few times, rather than showing a refusal for the
  // user's own burst of long inputs.
  async function callServer(kind, params, viaRelay = true) {
    if (viaRelay && relay !== null && socketBase !== null) {
      const relayed = await callWorker(kind, params, 0, apiUrl(kind));
      if (relayed !== null) return relayed;
    }
    for (let attempt = 0; ; attempt += 1) {
      const { body, retryAfter } = await callServerOnce(kind, params);
      if (retryAfter === null) return body;
      if (attempt >= 4) throw new Error(String(body?.error ?? "the server is busy"));
      await new Promise((resolve) => setTimeout(resolve, Math.min(5, retryAfter) * 1000));
    }
  }

  async function callServerOnce(kind, params) {
    let response;
    try {
      response = await fetch(apiUrl(kind), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(params ?? {}),
        cache: "no-store",
      });
    } catch (e) {
      throw new Error(`the server did not answer: ${errorMessage(e)}`);
    }
    let body;
    try {
      body = await response.json();
    } catch (e) {
      throw new Error(`the server sent HTTP ${response.status} without JSON`);
    }
    // (the answer's status is the response's: 200 an answer, any other an error with body.error)
    const retry = Number(response.headers.get("Retry-After"));
    if (response.status === 503 && Number.isFinite(retry) && retry > 0) return { body, retryAfter: retry };
    if (response.status !== 200) {
      throw new Error(typeof body?.error === "string" ? body.error : `HTTP ${response.status}`);
    }
    return { body, retryAfter: null };
  }

  async function readConfig() {
    try {
      const response = await fetch(new URL("config.json", ROOT), { cache: "no-store" });
      if (!response.ok) return null;
      const config = await response.json();
      return config !== null && typeof config === "object" ? config : null;
    } catch {
      return null; // no config: a static host without one; Pyodide alone
    }
  }

  async function findApi() {
    const config = await readConfig();
    const api = typeof config?.api === "string" ? config.api : null;
    const where = location.protocol === "file:" ? "file" : api !== null ? "served" : "static";
    const publicUrl = typeof config?.public_url === "string" ? config.public_url : null;
    update({}, { where, publicUrl });
    if (force === "pyodide") return null;
    // the API's WebSocket, where config.json says the server speaks it (urlcalc/serving/socket_api.py)
    socketBase = typeof config?.socket === "string" ? new URL(config.socket, ROOT) : null;
    if (force === "server") return new URL("api/", ROOT);
    return api !== null ? new URL(api, ROOT) : null;
  }

  let apiSettled = false; // findApi has answered (calls need not wait for it any more)
  const apiFound = findApi().then((base) => {
    apiSettled = true;
    apiBase = base;
    if (base === null) return;
    if (force !== "pyodide") startRelay();
    if (!workerReady) update({ current: "server" });
    callServer("version", {}).then(
      (version) => {
        const server = { ...version.engine, model_version: version.version };
        update({}, force === "server" ? { server, status: "ready" } : { server });
      },
      (e) => {
        if (force === "server") update({}, { status: "failed", error: errorMessage(e) });
      },
    );
  });

  // --- calls -------------------------------------------------------------------------------------

  async function timed(engine, run) {
    const t = performance.now();
    const result = await run();
    return { result, engine, ms: round(performance.now() - t) };
  }

  async function call(kind, params = {}, { prefer = null, waitMs = 0 } = {}) {
    // Once settled, no await before the worker gets the message: it is posted in the caller's
    // task (an input event), not a microtask later, so Python starts while the page goes on.
    const refused = refusedHere(kind, params);
    if (refused !== null) throw new Error(refused);
    if (!apiSettled) await apiFound;
    if (toServer(prefer)) {
      try {
        // Where the page can wait for an answer, the server relay asks the API for it: the
        // page then waits in the shared buffer, as for Pyodide; null if the relay could not.
        const relayed = relay !== null && waitMs > 0;
        if (relayed) {
          const relayTo = apiUrl(kind);
          const answer = await timed("server", () => fromAhead(kind, params, waitMs, relayTo) ?? callWorker(kind, params, waitMs, relayTo));
          if (answer.result !== null) {
            relays += 1;
            return answer;
          }
        }
        return await timed("server", () => callServer(kind, params, !relayed));
      } catch (e) {
        // A refusal ({"error"}) is the answer; a server that did not answer is not.
        if (!workerReady || !String(e?.message).startsWith("the server")) throw e;
      }
    }
    if (workerReady) {
      try {
        return await timed("pyodide", () => fromAhead(kind, params, waitMs, null) ?? callWorker(kind, params, waitMs));
      } catch (e) {
        // The worker died under this call (not a bad request): the API answers instead.
        if (workerReady || apiBase === null) throw e;
      }
    }
    if (apiBase !== null) return timed("server", () => callServer(kind, params));
    if (force === "server") throw new Error("the server API is not available");
    // Pyodide is the only engine: wait for it to boot (or fail).
    await booted;
    return timed("pyodide", () => callWorker(kind, params));
  }

  async function settle(engine, run) {
    try {
      return await timed(engine, run);
    } catch (e) {
      return { error: errorMessage(e), engine };
    }
  }

  async function both(kind, params = {}) {
    await apiFound;
    const [server, pyodide] = await Promise.all([
      apiBase !== null ? settle("server", () => callServer(kind, params)) : null,
      workerReady ? settle("pyodide", () => callWorker(kind, params)) : null,
    ]);
    let differs = [];
    if (server !== null && pyodide !== null) {
      if ("result" in server && "result" in pyodide) {
        differs = jsonDiff(server.result, pyodide.result);
      } else if (server.error !== pyodide.error) {
        differs = [""];
      }
    }
    return { server, pyodide, differs };
  }

  if (isolation?.pending === true) {
    // Settled later: say so (the reason, when the page stays unisolated).
    isolation.settled.then(() => update({}, { isolation: isolationInfo() }));
  }
  if (force !== "server") {
    unlessReloading(startWorker);
  } else {
    adopted = true; // forced to the API: no worker at all, not even one started later
    early?.worker?.terminate();
    early = null;
  }
  return host;
}
