// @ts-check
// What each view asks the engine for in a state: the page's parse and the asking views' requests
// (views/asking-view.js), as pure functions of the page's state (tests/js/requests.test.mjs).
import { tooLong } from "../state/store.js";
import { MAX_CELLS } from "../render/dom.js";
import { MAX_INPUT_BYTES } from "../facts.js";
import { columnParams } from "../state/columns.js";

/** @typedef {import("../state/store.js").PageState} PageState */

/** The page's parse of `state` (with its trace if `traced`).
 *  @param {PageState} state @param {boolean} traced */
export function parseRequest(state, traced) {
  /** @type {Record<string, any>} */
  // max_errors: the views show the validation errors of the first MAX_CELLS code points at most
  const p = { input: state.input, max_errors: MAX_CELLS };
  if (state.base !== "") p.base = state.base;
  if (state.enc !== "") p.encoding = state.enc;
  if (traced) p.trace = true;
  return p;
}

/** The Editions view's comparison (the editions' traces only while one edition's details are
 *  open: a fifth of the answer). @param {PageState} state @param {boolean} traces */
export function compareRequest(state, traces) {
  /** @type {Record<string, any>} */
  const p = { input: state.input };
  if (state.base !== "") p.base = state.base;
  if (state.errata) p.errata = true;
  if (!traces) p.traces = false;
  Object.assign(p, columnParams(state.cols));
  return { kind: "compare", params: p };
}

/** The Implementations view's readings: the server runs every implementation, Pyodide only
 *  urllib, so the server is asked where there is one. @param {PageState} state */
export function implementationsRequest(state) {
  /** @type {Record<string, any>} */
  const p = { input: state.input };
  if (state.base !== "") p.base = state.base;
  return { kind: "implementations", params: p, options: { prefer: "server" } };
}

/** The Setters lab's operations on the input (and their traces, if shown), or the refusal of an
 *  input or value over the model's limit. @param {PageState} state */
export function setRequest(state) {
  if (tooLong(state.input, state.base, ...state.ops.map((o) => o[1]))) {
    return { refuse: `An input or a value is over ${MAX_INPUT_BYTES / 1024} KiB: urlcalc does not take inputs that long.` };
  }
  /** @type {Record<string, any>} */
  const params = { input: state.input, ops: state.ops };
  if (state.base !== "") params.base = state.base;
  if (state.strace) params.trace = true;
  return { kind: "set", params };
}

/** The History view's changes of the standard that alter the input (and the input as of the
 *  view's day, if one is chosen), or the refusal of an input too long for it. @param {PageState} state */
export function historyRequest(state) {
  // (an input or base over facts.js MAX_COMPARED_CHARS.history is refused by engine/answers.js)
  if (tooLong(state.input, state.base)) {
    return { refuse: `An input or a value is over ${MAX_INPUT_BYTES / 1024} KiB: urlcalc does not take inputs that long.` };
  }
  /** @type {Record<string, any>} */
  const p = { input: state.input };
  if (state.base !== "") p.base = state.base;
  if (state.asof !== "") p.as_of = state.asof;
  return { kind: "history", params: p };
}
