// @ts-check
// What the engine makes of an answer, with no engine state: an envelope's outcome (outcomeOf),
// a request refused without asking (refusedHere), where two answers differ (jsonDiff). engine.js
// re-exports them; tests/js/envelope.test.mjs and diff.test.mjs test them.

import { MAX_COMPARED_CHARS } from "../facts.js";

/**
 * An answer's envelope, as every engine sends it (urlcalc/answers/answer.py).
 * @typedef {{id?: unknown, status?: number, body?: any}} Envelope
 */

/**
 * What an envelope means: an answer, a refusal, or (from the relay) "ask the server yourself".
 * @typedef {{result: any} | {error: string} | {askServer: true}} Outcome
 */

/** A thrown value's message.
 *  @param {unknown} e
 *  @returns {string} */
export function errorMessage(e) {
  return /** @type {{message?: string}|null|undefined} */ (e)?.message ?? String(e);
}

/** `ms` to a tenth of a millisecond.
 *  @param {number} ms */
export function round(ms) {
  return Math.round(ms * 10) / 10;
}

/** What an answer's envelope {id, status, body} means for a call that came `via` "pyodide" or
 *  "relay": {result} (status 200), {error} (body.error), or, for the relay, {askServer: true} from
 *  status 500 up (the relay's own failures, 502 and 504, a busy or failing server): the page then
 *  asks the API itself, by HTTP.
 *  @param {Envelope|null|undefined} envelope
 *  @param {string} via
 *  @returns {Outcome} */
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
 *  would log it as a failed request.
 *  @param {string} kind
 *  @param {Record<string, unknown>|null|undefined} params
 *  @returns {string|null} */
export function refusedHere(kind, params) {
  /** @type {Record<string, number>} */
  const limits = MAX_COMPARED_CHARS;
  const max = Object.hasOwn(limits, kind) ? limits[kind] : null;
  if (max === null) return null;
  for (const name of ["input", "base"]) {
    const value = params?.[name];
    if (typeof value !== "string" || value.length <= max) continue; // (UTF-16 units >= code points)
    const n = [...value].length;
    if (n > max) return `field '${name}' is too long to compare: ${n} code points (at most ${max})`;
  }
  return null;
}

/** @param {string|number} key */
function escapePointer(key) {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** JSON Pointers at which two JSON values differ (deepest differing objects/arrays are reported
 *  by member; arrays of different length are reported as a whole); the top-level "engine" member
 *  is not compared.
 *  @param {unknown} a
 *  @param {unknown} b
 *  @param {string} [path]
 *  @param {string[]} [out]
 *  @returns {string[]} */
export function jsonDiff(a, b, path = "", out = []) {
  if (a === b) return out;
  if (a === null || typeof a !== "object" || b === null || typeof b !== "object" ||
      Array.isArray(a) !== Array.isArray(b)) {
    out.push(path);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.push(path);
      return out;
    }
    for (let i = 0; i < a.length; i++) jsonDiff(a[i], b[i], `${path}/${i}`, out);
    return out;
  }
  const x = /** @type {Record<string, unknown>} */ (a);
  const y = /** @type {Record<string, unknown>} */ (b);
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const key of keys) {
    if (path === "" && key === "engine") continue;
    const sub = `${path}/${escapePointer(key)}`;
    if (!(key in x) || !(key in y)) out.push(sub);
    else jsonDiff(x[key], y[key], sub, out);
  }
  return out;
}
