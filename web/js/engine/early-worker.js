// @ts-check
// The Pyodide worker, started as soon as the engine's modules run (engine.js imports this one),
// so that Pyodide's boot overlaps the loading of the rest of the page when the page loads
// engine.js early, e.g. in <head>, before app.js:
//   <script type="module" async src="js/engine/engine.js"></script>
// (not when the page's URL says ?engine=server). createEngine adopts it (adoptEarly); what it
// said before that is kept and replayed. A page that calls createEngine({force: "server"})
// terminates it (dropEarly).
//
// js/engine/isolation.js (a classic script that runs before these modules) may be about to
// reload the page through the site's service worker, to make it cross-origin isolated: while it
// may, no worker is started (its boot would be thrown away); when it settles without a reload,
// the worker starts. See isolation.js for {by, reason, pending, settled}.

const WORKER_URL = new URL("../workers/pyodide-worker.js", import.meta.url);

/**
 * A worker started here, and what it said before anyone listened.
 * @typedef {object} StartedWorker
 * @property {Worker|null} worker null when it could not be started (then error says why)
 * @property {unknown} error
 * @property {number} startedAt performance.now() when it was started
 * @property {Event[]} events its message, error and messageerror events until adopted
 * @property {(event: Event) => void} keep the listener that keeps them
 */

/** @type {StartedWorker|null} */
let early = null;
let adopted = false; // createEngine has started or adopted the worker

/** @returns {StartedWorker} */
function startEarly() {
  /** @type {StartedWorker} */
  const started = {
    worker: null,
    error: null,
    startedAt: performance.now(),
    events: [],
    keep: (event) => {
      if (event.type === "error") event.preventDefault(); // reported when replayed
      started.events.push(event);
    },
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

/** What isolation.js says, or null where it did not run (node's tests, another page). */
export const isolation = typeof globalThis.urlcalcIsolation === "object" ? globalThis.urlcalcIsolation : null;

/** Run `start` now, or once isolation.js has said the page stays (never if it reloads).
 *  @param {() => void} start */
export function unlessReloading(start) {
  if (isolation?.pending === true && isolation.settled instanceof Promise) {
    isolation.settled.then((reloading) => {
      if (!reloading) start();
    });
  } else {
    start();
  }
}

/** How the page got cross-origin isolated: {by: "headers" | "service worker" | null, reason}.
 *  @returns {{by: UrlcalcIsolation["by"], reason: string|null}} */
export function isolationInfo() {
  if (isolation !== null && !isolation.pending) {
    return { by: isolation.by ?? null, reason: isolation.reason ?? null };
  }
  if (globalThis.crossOriginIsolated === true) return { by: "headers", reason: null };
  return { by: null, reason: isolation === null ? "not cross-origin isolated" : null };
}

/** The worker started early, or one started now: the engine's from here on.
 *  @returns {StartedWorker} */
export function adoptEarly() {
  const started = early ?? startEarly();
  early = null;
  adopted = true;
  return started;
}

/** No worker at all (the engine is forced to the API), not even one started later. */
export function dropEarly() {
  adopted = true;
  early?.worker?.terminate();
  early = null;
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
