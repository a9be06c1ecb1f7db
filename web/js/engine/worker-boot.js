// @ts-check
// Listening to the Pyodide worker while it boots and after: its progress, "ready" (with its
// engine dict and timings), "warmed", a boot error, and its answers, each handed to the engine
// (engine.js startWorker). The boot timeout is counted from when the worker was started.

import { round } from "./answers.js";

/** @typedef {import("./early-worker.js").StartedWorker} StartedWorker */

/**
 * What the engine does with what the worker says.
 * @typedef {object} WorkerListeners
 * @property {() => boolean} isCurrent whether the worker is still the engine's (not failed)
 * @property {(progress: unknown) => void} progress the boot's progress (pyodide-worker.js)
 * @property {(info: Record<string, any>) => void} ready booted: the worker's engine dict, with
 *   timings (the worker's phases plus started_at and ready_at on the page's clock)
 * @property {(warm: unknown) => void} warmed the typing warm-up after boot is done
 * @property {(reason: string) => void} failed the worker failed (or did not boot in time)
 * @property {(msg: {id: number, envelope: string, python_ms: number, got_at: number, sent_at: number}) => void} answer
 *   an answer to request msg.id
 */

/** Listen to `started.worker` (replaying what it said before anyone listened), and fail it when
 *  it has not booted within bootTimeoutMs of its start.
 *  @param {StartedWorker & {worker: Worker}} started
 *  @param {number} bootTimeoutMs
 *  @param {WorkerListeners} on */
export function listenToWorker(started, bootTimeoutMs, on) {
  const left = Math.max(0, bootTimeoutMs - (performance.now() - started.startedAt));
  const timer = setTimeout(() => {
    on.failed(`Pyodide did not boot within ${Math.round(bootTimeoutMs / 1000)} s`);
  }, left);

  /** @param {MessageEvent} event */
  function onMessage(event) {
    const msg = event.data ?? {};
    if (msg.type === "progress") {
      on.progress(msg.progress ?? null);
    } else if (msg.type === "ready") {
      clearTimeout(timer);
      // Page-clock times (ms since navigation) beside the worker's own phase timings.
      const timings = {
        ...msg.info?.timings,
        started_at: round(started.startedAt),
        ready_at: round(performance.now()),
      };
      on.ready({ ...msg.info, timings });
    } else if (msg.type === "warmed") {
      // the worker's typing warm-up is done (worker.js warmUp): how much it took
      on.warmed(msg.warm ?? null);
    } else if (msg.type === "error") {
      clearTimeout(timer);
      on.failed(`Pyodide failed to boot: ${msg.error}`);
    } else if (msg.id !== undefined) {
      on.answer(msg);
    }
  }

  /** @param {ErrorEvent} event */
  function onError(event) {
    // A module that fails to load gives an ErrorEvent without a message.
    event.preventDefault();
    clearTimeout(timer);
    const detail = event.message || "the script or one of its imports failed to load";
    on.failed(`the Pyodide worker failed: ${detail}`);
  }

  function onMessageError() {
    on.failed("the Pyodide worker sent a message that cannot be read");
  }

  /** @type {Record<string, (event: any) => void>} */
  const handlers = { message: onMessage, error: onError, messageerror: onMessageError };
  const listen = () => {
    for (const [type, handler] of Object.entries(handlers)) {
      started.worker.removeEventListener(type, started.keep);
      started.worker.addEventListener(type, handler);
    }
    // What the worker said before this engine listened, in order.
    for (const event of started.events.splice(0)) {
      if (!on.isCurrent()) break; // failed meanwhile
      handlers[event.type](event);
    }
  };
  // With something to replay, do it in a later task, so that the page's onchange callbacks
  // (registered after createEngine returns) hear about it; meanwhile events keep queueing.
  if (started.events.length > 0) setTimeout(listen, 0);
  else listen();
}
