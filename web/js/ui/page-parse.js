// @ts-check
// The page's parse: the "parse" request of the page's state, asked at every change of the input,
// base or encoding (with the trace when the open view draws it), and drawn above every view
// (ui/glance.js) and in the open view (views/index.js).
//
// Keystrokes that arrive while a parse is in flight are coalesced: no request is queued behind
// it; when its answer comes, the newest state is asked for at once and the stale answer is
// dropped (drawn only when nothing was drawn for STALE_DRAW_MS, so that a long burst on a slow
// machine still shows progress). The engine is never more than one request behind the input.
import { KEYSTROKE_WAIT_MS } from "../engine/sync-channel.js";
import { Latest } from "../engine/latest.js";
import { parseRequest } from "../views/requests.js";
import { tooLong } from "../state/store.js";
import { MAX_INPUT_BYTES } from "../facts.js";

const STALE_DRAW_MS = 250;

/**
 * @param {object} page
 * @param {() => import("../state/store.js").PageState} page.state
 * @param {() => import("../views/index.js").View} page.view the open view
 * @param {(kind: string, params: object, options?: object) => Promise<any>} page.call
 * @param {any} page.engine
 * @param {(answer: any) => void} page.drawn after an answer drawn above the views (before the view)
 * @param {(answer: any) => void} page.done after the view drew it
 * @param {(message: string) => void} page.refused an error instead of an answer
 */
export function pageParse({ state, view, call, engine, drawn, done, refused }) {
  const latest = new Latest();
  /** @type {any} the parse answer drawn */
  let result = null;
  let inFlight = false;
  let again = false;
  let lastDrawAt = 0;

  /** The open view, drawn from the state and the parse (asking for the trace if it needs it). */
  function drawView() {
    const v = view();
    if (v.traced && result && !result.trace) {
      compute(); // the last answer had no trace: ask again, with it
      return;
    }
    v.update(state(), result);
  }

  async function compute() {
    if (inFlight) {
      again = true;
      return;
    }
    const n = latest.next();
    if (tooLong(state().input, state().base)) {
      latest.take(n);
      refused(`The input is over ${MAX_INPUT_BYTES / 1024} KiB: urlcalc does not parse inputs that long.`);
      return;
    }
    inFlight = true;
    let answer;
    try {
      // The open view's own request is said to the engine first (the worker computes it right
      // behind the parse); then the parse, waited for (a few ms at most) in this task where the
      // page can: the answer is then drawn in the keystroke's frame (sync-channel.js).
      const v = view();
      if (engine && v.prefetch) v.prefetch(engine.prefetch);
      answer = await call("parse", parseRequest(state(), !!v.traced), { waitMs: KEYSTROKE_WAIT_MS });
    } finally {
      inFlight = false;
    }
    if (again) {
      again = false;
      const drop = performance.now() - lastDrawAt < STALE_DRAW_MS;
      compute(); // the newest input, posted now (before this stale answer is drawn, if it is)
      if (drop) return;
    }
    if (!latest.take(n)) return; // an older answer arriving late
    lastDrawAt = performance.now();
    if (answer.error) {
      refused(answer.error);
      return;
    }
    const t0 = performance.now();
    result = answer.result;
    drawn(answer);
    drawView();
    done(answer);
    // timings for benchmarks and the curious: the engine's round trip and our render
    /** @type {any} */ (window).urlcalcStats = { callMs: answer.ms, renderMs: Math.round((performance.now() - t0) * 10) / 10,
      ...(answer.engine === "pyodide" && engine ? engine.lastTimings : null) };
  }

  return { compute, drawView, result: () => result };
}
