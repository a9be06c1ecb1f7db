// @ts-check
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
// The host object (EngineHost, each member's meaning: host-types.js): call(kind, params, {prefer,
// waitMs}) -> Promise<{result, engine, ms}>; prefetch(kind, params, {prefer}); both(kind, params)
// -> Promise<{server, pyodide, differs}>; current; info; busy; sync; lastTimings; onchange(cb).
//
// The modules beside this one: answers.js (outcomeOf, refusedHere, jsonDiff: re-exported here),
// early-worker.js (the worker started as soon as these modules run; isolation.js's word),
// worker-boot.js (listening to the worker), relay.js (the server relay), server-api.js
// (config.json, one HTTP request to the API), sync-channel.js (waiting for an answer in a task).

import { SyncChannel, channelAvailable, channelCounts } from "./sync-channel.js";
import { errorMessage, jsonDiff, outcomeOf, refusedHere, round } from "./answers.js";
import { adoptEarly, dropEarly, isolation, isolationInfo, unlessReloading } from "./early-worker.js";
import { callServerOnce, findApi, socketUrl } from "./server-api.js";
import { startRelay as startRelayWorker } from "./relay.js";
import { createRequests } from "./requests.js";
import { listenToWorker } from "./worker-boot.js";

export { jsonDiff, outcomeOf, refusedHere };

/** @typedef {import("./relay.js").Relay} Relay */

const ROOT = new URL("../../", import.meta.url); // the page's root: this file is <root>/js/engine/engine.js

// Measured in Debian Chromium on a 2-core machine: Pyodide answers 2-3.5 s after navigation
// cold. 20 s leaves room for a slow laptop on a busy classroom network.
export const BOOT_TIMEOUT_MS = 20000;
// A single call that takes longer means the worker is stuck (a 64 KiB input with a trace takes a
// few seconds); it is terminated and the API (if any) takes over.
export const CALL_TIMEOUT_MS = 60000;

/** @typedef {import("./requests.js").Posted} Posted */

/** The engine host (see the top of this file and host-types.js).
 *  @param {object} [options]
 *  @param {string|null} [options.force] "pyodide" or "server" (any other value counts as null)
 *  @param {number} [options.bootTimeoutMs]
 *  @param {number} [options.callTimeoutMs]
 *  @returns {import("./host-types.js").EngineHost} */
export function createEngine({
  force = null,
  bootTimeoutMs = BOOT_TIMEOUT_MS,
  callTimeoutMs = CALL_TIMEOUT_MS,
} = {}) {
  if (force !== "pyodide" && force !== "server") force = null; // e.g. a stray ?engine=

  /** @type {Set<(host: import("./host-types.js").EngineHost) => void>} */
  const listeners = new Set();
  /** @type {URL|null} */
  let apiBase = null; // URL of the API root ("<root>/api/") once known to exist
  /** @type {URL|null} */
  let socketBase = null; // URL of the API's WebSocket (http: scheme), where config.json has one
  /** @type {Worker|null} */
  let worker = null;
  let workerReady = false;
  /** @type {SyncChannel|null} */
  let channel = null; // a SyncChannel shared with the worker (cross-origin isolated pages only)
  let relays = 0; // API answers the server relay brought (prefer: "server" with waitMs)
  let prefetched = 0; // calls answered by the request a prefetch had posted
  // The server relay (server-relay-worker.js) and its shared buffer: {worker, channel}, where
  // the page is served and cross-origin isolated; else null.
  /** @type {Relay|null} */
  let relay = null;
  // The request of the last prefetch: {key, kind, params, relayTo}, and once posted behind
  // another request, posted: {id, answer} (the answer's promise, settled as any call's).
  /** @type {{key: string, kind: string, params: object, relayTo: URL|null, posted: Posted|null}|null} */
  let ahead = null;

  const requests = createRequests(callTimeoutMs, {
    stuck: (reason) => workerFailed(reason),
    timings: (timings) => {
      host.lastTimings = timings;
    },
  });

  let busy = 0; // calls in flight (call and both): what a benchmark waits for
  /** @type {import("./host-types.js").EngineHost} */
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

  /** `fn`, counted in `busy` while it runs.
   *  @template {any[]} A
   *  @template R
   *  @param {(...args: A) => Promise<R>} fn
   *  @returns {(...args: A) => Promise<R>} */
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

  /** @param {{current?: import("./host-types.js").EngineName|null}} changes
   *  @param {Partial<import("./host-types.js").EngineInfo>} [infoChanges] */
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

  /** @param {string} reason */
  function workerFailed(reason) {
    if (worker === null && !workerReady && host.info.status === "failed") return;
    if (worker !== null) worker.terminate();
    worker = null;
    workerReady = false;
    requests.failPyodide(reason); // the server relay's answers still come
    rejectBoot(new Error(reason));
    update({ current: apiBase !== null ? "server" : null }, { status: "failed", error: reason });
  }

  function startWorker() {
    // Adopt the worker started when the engine's modules ran (early-worker.js), or start one now.
    const started = adoptEarly();
    if (started.worker === null) {
      workerFailed(`cannot start the Pyodide worker: ${errorMessage(started.error)}`);
      return;
    }
    worker = started.worker;
    if (channelAvailable()) {
      channel = new SyncChannel("pyodide");
      worker.postMessage({ type: "channel", buffer: channel.buffer });
    }
    listenToWorker(/** @type {typeof started & {worker: Worker}} */ (started), bootTimeoutMs, {
      isCurrent: () => worker === started.worker,
      progress(progress) {
        if (!workerReady && worker !== null) update({}, { progress });
      },
      ready(pyodide) {
        workerReady = true;
        resolveBoot();
        update({ current: "pyodide" }, { pyodide, status: "ready", error: null });
      },
      warmed(warm) {
        if (host.info.pyodide) update({}, { pyodide: { ...host.info.pyodide, warm } });
      },
      failed: workerFailed,
      answer: requests.answered,
    });
  }

  function startRelay() {
    relay = startRelayWorker(socketUrl(socketBase), {
      answer: requests.answered,
      failed(thread) {
        if (relay !== thread) return;
        relay = null;
        requests.failRelay(); // its pending calls fall back to the page's own request
      },
    });
  }

  /** Post a request to the Pyodide worker, or with relayTo (an API URL) to the server relay.
   *  @param {string} kind
   *  @param {object} params
   *  @param {URL|null} relayTo
   *  @param {boolean} sync
   *  @returns {Posted} */
  function request(kind, params, relayTo, sync) {
    return requests.post(relayTo === null ? worker : relay.worker, kind, params, relayTo, sync);
  }

  /** Ask the Pyodide worker, or with relayTo (the API's URL) the server relay.
   *  @param {string} kind
   *  @param {object} params
   *  @param {number} [waitMs]
   *  @param {URL|null} [relayTo]
   *  @returns {Promise<any>} */
  function callWorker(kind, params, waitMs = 0, relayTo = null) {
    if (relayTo === null ? !workerReady || worker === null : relay === null) {
      return Promise.reject(new Error(relayTo === null ? host.info.error ?? "Pyodide is not ready" : "no server relay"));
    }
    const thread = relayTo === null ? channel : relay.channel;
    // the skip rule (see waitMs in call()): the last answer of this kind took longer than the wait
    const sync = thread !== null && requests.mayWait(kind, relayTo, waitMs);
    const posted = request(kind, params, relayTo, sync);
    if (relayTo === null && ahead !== null && ahead.posted === null) postAhead();
    if (sync) take(posted, waitMs);
    return posted.answer;
  }

  /** Wait (in this task, at most waitMs) for the answer to a posted request in its thread's
   *  shared buffer.
   *  @param {Posted} posted
   *  @param {number} waitMs */
  function take(posted, waitMs) {
    requests.take(posted, posted.via === "pyodide" ? channel : relay?.channel, waitMs);
  }

  /** @param {string} kind
   *  @param {object} params
   *  @param {URL|null} relayTo */
  function requestKey(kind, params, relayTo) {
    return JSON.stringify([kind, params ?? {}, relayTo === null ? null : relayTo.href]);
  }

  /** The API's URL for `kind` (apiBase must be known).
   *  @param {string} kind */
  function apiUrl(kind) {
    return new URL(encodeURIComponent(kind), apiBase);
  }

  /** Whether a call that prefers `prefer` goes to the server first.
   *  @param {string|null} prefer */
  function toServer(prefer) {
    return prefer === "server" && apiBase !== null && force !== "pyodide";
  }

  /** @type {import("./host-types.js").EngineHost["prefetch"]} */
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
   *  most waitMs) when it has not come yet; else null (post the request anew).
   *  @param {string} kind
   *  @param {object} params
   *  @param {number} waitMs
   *  @param {URL|null} relayTo
   *  @returns {Promise<any>|null} */
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
  /** @param {string} kind
   *  @param {object} params
   *  @param {boolean} [viaRelay]
   *  @returns {Promise<any>} */
  async function callServer(kind, params, viaRelay = true) {
    if (viaRelay && relay !== null && socketBase !== null) {
      const relayed = await callWorker(kind, params, 0, apiUrl(kind));
      if (relayed !== null) return relayed;
    }
    for (let attempt = 0; ; attempt += 1) {
      const { body, retryAfter } = await callServerOnce(apiUrl(kind), params);
      if (retryAfter === null) return body;
      if (attempt >= 4) throw new Error(String(body?.error ?? "the server is busy"));
      await new Promise((resolve) => setTimeout(resolve, Math.min(5, retryAfter) * 1000));
    }
  }

  let apiSettled = false; // findApi has answered (calls need not wait for it any more)
  const apiFound = findApi(ROOT, force).then((place) => {
    update({}, { where: place.where, publicUrl: place.publicUrl });
    socketBase = place.socket;
    apiSettled = true;
    const base = place.api;
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

  /** @param {import("./host-types.js").EngineName} engine
   *  @param {() => Promise<any>} run
   *  @returns {Promise<import("./host-types.js").Answered>} */
  async function timed(engine, run) {
    const t = performance.now();
    const result = await run();
    return { result, engine, ms: round(performance.now() - t) };
  }

  /** @type {import("./host-types.js").EngineHost["call"]} */
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

  /** @param {import("./host-types.js").EngineName} engine
   *  @param {() => Promise<any>} run
   *  @returns {Promise<import("./host-types.js").Settled>} */
  async function settle(engine, run) {
    try {
      return await timed(engine, run);
    } catch (e) {
      return { error: errorMessage(e), engine };
    }
  }

  /** @type {import("./host-types.js").EngineHost["both"]} */
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
      } else if (("error" in server ? server.error : null) !== ("error" in pyodide ? pyodide.error : null)) {
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
    dropEarly(); // forced to the API: no worker at all, not even one started later
  }
  return host;
}
