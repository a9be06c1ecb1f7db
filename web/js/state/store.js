// @ts-check
// The page's state, in one store: the input, base and encoding, the view, the Setters lab's
// operations and trace, the Steps view's step, the Editions view's errata, presenter mode, the
// calculators' fields, and the lesson being played (its id and step). It changes only through the
// named actions below; each change makes a new, frozen state and tells the subscribers which
// action made it and how the browser's history takes it:
//
//   "push"     a new history entry (a view chosen, a lesson step, an example picked, Enter)
//   "replace"  the current entry rewritten (a toggle)
//   "typing"   the current entry rewritten, at most every TYPING_HISTORY_MS (state/history.js)
//   "none"     history untouched (the state came from history: Back and Forward)
//
// The permalink (render/share.js stateToFragment), the history entries (state/history.js) and the
// lesson bar (views/lessons) are derived from the state, so they cannot disagree. Pure: no DOM,
// so node tests import it.
import { DEFAULTS } from "../render/share.js";
import { MAX_INPUT_BYTES } from "../facts.js";

/** @typedef {[string, string]} Operation a setter operation: [setter, value] */
/** @typedef {{ id: string, at: number }} Playing a lesson being played, at its step `at` (from 0) */
/**
 * @typedef {object} PageState
 * @property {string} input
 * @property {string} base
 * @property {string} enc the encoding select's value ("" is UTF-8)
 * @property {string} view
 * @property {Operation[]} ops
 * @property {number} step the Steps view's step
 * @property {boolean} strace the Setters lab shows each operation's trace
 * @property {string} pct
 * @property {string} pctset
 * @property {string} pctenc
 * @property {string} host
 * @property {string} form
 * @property {boolean} presenter
 * @property {boolean} errata
 * @property {string} asof the History view's day (YYYY-MM-DD; "": none chosen)
 * @property {string} cols the Editions view's columns of the standard (state/columns.js)
 * @property {string} report the Survey view's report (a same-origin URL; "": none)
 * @property {boolean} answer the answer-only display (ui/answer-only.js)
 * @property {Playing | null} playing
 */
/** @typedef {"push" | "replace" | "typing" | "none"} HistoryMode */
/** @typedef {{ name: string, history: HistoryMode }} Action */
/** @typedef {(state: PageState, previous: PageState, action: Action) => void} Listener */

/** The fields that decide the parse answer (a change asks the engine again). */
export const PARSE_FIELDS = /** @type {const} */ (["input", "base", "enc"]);

/**
 * A state with every field (defaults where `partial` has none), frozen.
 * @param {Partial<PageState>} partial
 * @returns {PageState}
 */
export function fullState(partial) {
  const base = /** @type {PageState} */ ({ ...structuredClone(DEFAULTS), playing: null });
  const out = { ...base, ...partial };
  out.ops = (out.ops ?? []).map((o) => /** @type {Operation} */ ([o[0], o[1]]));
  for (const o of out.ops) Object.freeze(o);
  Object.freeze(out.ops);
  if (out.playing) out.playing = Object.freeze({ ...out.playing });
  return Object.freeze(out);
}

/** The actions: name -> (state, payload) -> the changed fields, and how history takes them. */
const ACTIONS = {
  /** typed into the URL, escapes or base field, or the encoding chosen */
  type: { history: "typing", apply: (/** @type {{input?: string, base?: string, enc?: string}} */ p) => p },
  /** inputs loaded at once (an example, a random input, Enter) */
  load: { history: "push", apply: (/** @type {{input?: string, base?: string, enc?: string}} */ p) => p },
  selectView: { history: "push", apply: (/** @type {string} */ view) => ({ view }) },
  /** the Setters lab's operations; `structural` (added, removed, moved): a history entry */
  setOps: { history: "replace", apply: (/** @type {Operation[]} */ ops) => ({ ops }) },
  setOpsStructural: { history: "push", apply: (/** @type {Operation[]} */ ops) => ({ ops }) },
  setSetterTrace: { history: "replace", apply: (/** @type {boolean} */ strace) => ({ strace }) },
  setStep: { history: "typing", apply: (/** @type {number} */ step) => ({ step }) },
  setErrata: { history: "push", apply: (/** @type {boolean} */ errata) => ({ errata }) },
  /** the History view's day (its slider: rewritten as it moves) */
  setAsOf: { history: "typing", apply: (/** @type {string} */ asof) => ({ asof }) },
  /** the Editions view's columns of the standard on a day or without a change (one added or removed) */
  setCols: { history: "push", apply: (/** @type {string} */ cols) => ({ cols }) },
  setPresenter: { history: "replace", apply: (/** @type {boolean} */ presenter) => ({ presenter }) },
  /** the answer-only display on or off (issue 29) */
  setAnswerOnly: { history: "replace", apply: (/** @type {boolean} */ answer) => ({ answer }) },
  /** a calculator's fields */
  setCalculator: { history: "typing", apply: (/** @type {Partial<PageState>} */ p) => p },
  /** a lesson step shown: its inputs, operations, view and trace step, and the lesson's place */
  showLessonStep: { history: "push", apply: (/** @type {Partial<PageState>} */ p) => p },
  /** the lesson ended (or another one plays: showLessonStep) */
  stopLesson: { history: "replace", apply: () => ({ playing: null }) },
  /** the lesson bar's place after a reload (the page already shows its step) */
  resumeLesson: { history: "replace", apply: (/** @type {Playing | null} */ playing) => ({ playing }) },
  /** Back or Forward: the state the history entry holds */
  restore: { history: "none", apply: (/** @type {Partial<PageState>} */ s) => fullState(s) },
};

/** @typedef {keyof typeof ACTIONS} ActionName */

export class Store {
  /** @param {Partial<PageState>} initial */
  constructor(initial) {
    /** @type {PageState} */
    this.state = fullState(initial);
    /** @type {Listener[]} */
    this.listeners = [];
  }

  /** Call `listener` after every change, in the order subscribed.
   *  @param {Listener} listener */
  subscribe(listener) {
    this.listeners.push(listener);
  }

  /**
   * Apply an action. Returns the new state (the same object when nothing changed: then no
   * listener is called).
   * @param {ActionName} name
   * @param {any} [payload]
   * @returns {PageState}
   */
  dispatch(name, payload) {
    const action = ACTIONS[name];
    if (!action) throw new Error(`unknown action ${name}`);
    const previous = this.state;
    const apply = /** @type {(payload: any) => Partial<PageState>} */ (action.apply);
    const changes = apply(payload);
    const next = name === "restore" ? /** @type {PageState} */ (changes) : fullState({ ...previous, ...changes });
    if (sameState(previous, next)) return previous;
    this.state = next;
    const done = { name, history: /** @type {HistoryMode} */ (action.history) };
    for (const listener of this.listeners) listener(next, previous, done);
    return next;
  }
}

/** @param {PageState} a @param {PageState} b */
export function sameState(a, b) {
  for (const key of /** @type {(keyof PageState)[]} */ (Object.keys(a))) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x !== "object" || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/** Whether the parse answer of `a` and `b` is the same (only the fields it depends on differ).
 *  @param {PageState} a @param {PageState} b */
export function sameParse(a, b) {
  return PARSE_FIELDS.every((k) => a[k] === b[k]);
}

/** Whether a field is over the model's limit (MAX_INPUT_BYTES of UTF-8): the page says so without
 *  asking. @param {...string} fields */
export function tooLong(...fields) {
  const enc = new TextEncoder();
  return fields.some((f) => typeof f === "string" && enc.encode(f).length > MAX_INPUT_BYTES);
}
