// @ts-check
// The engine's requests to its threads (the Pyodide worker, the server relay) and their
// answers: each request has an id and a pending promise, settled from the thread's message or
// from the shared buffer the page waits in (sync-channel.js), whichever comes first; a call
// that takes longer than callTimeoutMs is the thread's failure. engine.js decides what to ask
// and where; this keeps the pending calls, the last answers' Python times (the skip rule) and
// the last answer's timings.

import { errorMessage, outcomeOf, round } from "./answers.js";
import { relayFailure } from "./relay.js";

/**
 * A call posted to a thread and not answered yet.
 * @typedef {object} Pending
 * @property {(result: any) => void} resolve
 * @property {(error: Error) => void} reject
 * @property {ReturnType<typeof setTimeout>} timer the call's timeout
 * @property {"pyodide"|"relay"} via
 * @property {string} kind the skip rule's key (skipKey)
 * @property {number} posted when it was posted (timeOrigin + now)
 */

/**
 * A request posted to a thread: its id, its answer's promise and the thread.
 * @typedef {{id: number, answer: Promise<any>, via: "pyodide"|"relay"}} Posted
 */

/** @typedef {{python_ms: number, got_at: number, sent_at: number}} ThreadTimes */

/** Which answers' times the skip rule compares: Pyodide's per kind, the relay's apart.
 *  @param {string} kind
 *  @param {URL|null} relayTo */
function skipKey(kind, relayTo) {
  return relayTo === null ? kind : `relay ${kind}`;
}

/** The engine's pending requests.
 *  @param {number} callTimeoutMs
 *  @param {object} on
 *  @param {(reason: string) => void} on.stuck the Pyodide worker took longer than callTimeoutMs
 *  @param {(timings: import("./host-types.js").Timings) => void} on.timings an answer's timings */
export function createRequests(callTimeoutMs, on) {
  let nextId = 1;
  /** @type {Map<number, Pending>} */
  const pending = new Map();
  /** @type {Map<string, number>} */
  const pythonMs = new Map(); // kind -> how long Python took over the last answer of that kind

  /** Settle the pending call `id` with the thread's envelope (its JSON text, from its message or
   *  the shared buffer) and its timings {python_ms, got_at, sent_at}.
   *  @param {number} id
   *  @param {string} json
   *  @param {ThreadTimes} times */
  function settle(id, json, times) {
    const p = pending.get(id);
    pending.delete(id);
    clearTimeout(p.timer);
    pythonMs.set(p.kind, times.python_ms);
    const received = performance.timeOrigin + performance.now();
    let envelope;
    try {
      envelope = JSON.parse(json);
      on.timings({
        to_worker_ms: round(times.got_at - p.posted),
        python_ms: round(times.python_ms),
        to_page_ms: round(received - times.sent_at),
        parse_ms: round(performance.timeOrigin + performance.now() - received),
        chars: json.length,
      });
    } catch (e) {
      p.reject(new Error(`the worker sent bad JSON: ${errorMessage(e)}`));
      return;
    }
    const outcome = outcomeOf(envelope, p.via);
    if ("askServer" in outcome) p.resolve(null); // the relay brought no answer: the caller asks itself
    else if ("error" in outcome) p.reject(new Error(outcome.error));
    else p.resolve(outcome.result);
  }

  return {
    settle,

    /** Whether request `id` waits for its answer.
     *  @param {unknown} id */
    has(id) {
      return pending.has(/** @type {number} */ (id));
    },

    /** Settle `msg` (a thread's message with an envelope) if its request still waits.
     *  @param {{id: number, envelope: string} & ThreadTimes} msg */
    answered(msg) {
      if (pending.has(msg.id)) settle(msg.id, msg.envelope, msg);
    },

    /** Post (kind, params) to `thread`: the Pyodide worker, or with relayTo (an API URL) the
     *  server relay; the answer's promise is settled by settle, from the thread's message or the
     *  shared buffer. `sync`: the thread also puts the answer into the buffer (the page waits
     *  there).
     *  @param {Worker} thread
     *  @param {string} kind
     *  @param {object} params
     *  @param {URL|null} relayTo
     *  @param {boolean} sync
     *  @returns {Posted} */
    post(thread, kind, params, relayTo, sync) {
      const id = nextId++;
      /** @type {"pyodide"|"relay"} */
      const via = relayTo === null ? "pyodide" : "relay";
      const answer = new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          if (via === "pyodide") on.stuck(`Pyodide did not answer within ${Math.round(callTimeoutMs / 1000)} s`);
          else settle(id, relayFailure(id, 504, `none within ${Math.round(callTimeoutMs / 1000)} s`), { python_ms: callTimeoutMs, got_at: 0, sent_at: 0 });
        }, callTimeoutMs);
        // kind: for the skip rule (waits); posted: for lastTimings
        pending.set(id, { resolve, reject, timer, via, kind: skipKey(kind, relayTo),
          posted: performance.timeOrigin + performance.now() });
      });
      if (via === "pyodide") thread.postMessage({ id, kind, params, sync });
      else thread.postMessage({ id, kind, url: relayTo.href, body: JSON.stringify(params ?? {}), sync });
      return { id, answer, via };
    },

    /** The skip rule (see waitMs in the engine's call()): whether a call of `kind` may wait
     *  waitMs for its answer, i.e. the last answer of this kind did not take Python longer.
     *  @param {string} kind
     *  @param {URL|null} relayTo
     *  @param {number} waitMs */
    mayWait(kind, relayTo, waitMs) {
      return waitMs > 0 && !(pythonMs.get(skipKey(kind, relayTo)) > waitMs);
    },

    /** Wait (in this task, at most waitMs) for the answer to a posted request in its thread's
     *  shared buffer.
     *  @param {Posted} posted
     *  @param {import("./sync-channel.js").SyncChannel|null|undefined} channel
     *  @param {number} waitMs */
    take({ id }, channel, waitMs) {
      if (!channel || !pending.has(id)) return;
      const got = channel.wait(id, waitMs);
      // The thread's message for this id comes later anyway; it finds nothing pending.
      if (got !== null && pending.has(id)) settle(id, got.text, got.times);
    },

    /** Reject every request to the Pyodide worker (it failed); the relay's answers still come.
     *  @param {string} reason */
    failPyodide(reason) {
      for (const [id, p] of pending) {
        if (p.via !== "pyodide") continue;
        clearTimeout(p.timer);
        p.reject(new Error(reason));
        pending.delete(id);
      }
    },

    /** Settle every request to the server relay with its failure (its worker failed): their
     *  callers ask the API themselves. */
    failRelay() {
      for (const [id, p] of pending) {
        if (p.via === "relay") settle(id, relayFailure(id, 502, "the relay failed"), { python_ms: 0, got_at: 0, sent_at: 0 });
      }
    },
  };
}
