// @ts-check
// What the Lessons view's modules share: their types, the browser storage they may use, a file
// download, and small pure helpers (a tape entry as a step, a kept lesson's text, a string as
// text for a lit-html binding).
import { vis } from "../../render/dom.js";
import { lessonToJSON } from "../../state/lesson-format.js";

/** A lesson step (docs/lessons.md; href: what urlcalc gave when it was written, null a failure,
 *  undefined not known: the step was edited since).
 *  @typedef {import("../../state/lesson-format.js").LessonStep} Step */
/** @typedef {import("../../state/lesson-format.js").Lesson} Lesson */
/** A limit of the lesson format (LIMITS in lesson-format.js).
 *  @typedef {import("../../state/lesson-format.js").Limit} Limit */
/** The names a step may use (views, operations, and old view names as aliases).
 *  @typedef {import("../../state/lesson-format.js").LessonNames} Names */
/** A stored lesson this page cannot read: kept as it is, shown with its problem.
 *  @typedef {import("../../state/lesson-store.js").KeptValue} Kept */

/**
 * A lesson in the lists: an example (shipped file, order 0), or one of ours (stored in this
 * browser). unsaved: storage refused it; bytesBound: at most what its file is now (the editor's
 * bound). @typedef {{id: string, lesson: Lesson, order: number, example?: boolean, file?: string,
 *   unsaved?: boolean, bytesBound?: number}} Entry
 */

/** A paper-tape entry (views/tape.js): what the page computed.
 *  @typedef {{input: string, base?: string, view?: string, note?: string, enc?: string,
 *   ok?: boolean, out?: string}} TapeEntry */

/** The message over the lists: its text, ok or bad, an Undo, and another way out (action: a
 *  file that is not UTF-8 read as Latin-1).
 *  @typedef {{text: string, kind: string, undo: (() => void) | null,
 *   action?: {label: string, run: () => void}}} Message */

/** What went wrong, for a message: an error's message, else what was thrown.
 *  @param {unknown} e */
export function why(e) {
  return String((e !== null && typeof e === "object" && "message" in e ? e.message : null) ?? e);
}

/** localStorage, or null where the page may not use it (a sandboxed or locked-down browser).
 *  @returns {Storage | null} */
export function local() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** @param {string} key @param {Storage} storage @returns {any} the stored JSON, or null */
export function readStore(key, storage) {
  try {
    return JSON.parse(storage.getItem(key) || "null");
  } catch {
    return null;
  }
}

/** @param {string} key @param {unknown} value null removes it @param {Storage} storage */
export function writeStore(key, value, storage) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // storage full or disabled: the lessons live in memory for this page
  }
}

/** @param {Lesson} a @param {Lesson} b */
export function sameLesson(a, b) {
  return JSON.stringify(lessonToJSON(a)) === JSON.stringify(lessonToJSON(b));
}

/** Save text as a file (a blob: link we made ourselves, clicked once).
 *  @param {string} name @param {string} text */
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The text of a kept (unreadable) stored lesson, for its Export and Copy: the lesson as stored
 *  (pretty-printed JSON, to mend by hand and import), or the stored text itself when it is not
 *  JSON with a lesson in it.
 *  @param {Kept} k */
export function keptText(k) {
  try {
    const obj = JSON.parse(k.raw);
    if (obj && typeof obj === "object" && !Array.isArray(obj) && "lesson" in obj) return JSON.stringify(obj.lesson, null, 2) + "\n";
  } catch {
    // not JSON: as it is
  }
  return k.raw;
}

/** A paper-tape entry as a lesson step (`views`: the names a step may use).
 *  @param {TapeEntry} t @param {string[]} views @returns {Step} */
export function tapeStep(t, views) {
  return {
    input: String(t.input), base: t.base ? String(t.base) : "", view: t.view && views.includes(t.view) ? t.view : "components",
    step: 0, note: t.note ? String(t.note).slice(0, 1000) : "", ops: [], enc: t.enc ? String(t.enc) : "",
    href: t.ok ? String(t.out) : null,
  };
}

/** maxlength for a field of `limit`, holding `value` now: code points for "characters" (the
 *  browser counts UTF-16 units, so each astral character already typed widens it by one); for
 *  "bytes", the byte limit (never fewer bytes than units), the input handler cuts the rest.
 *  @param {string} value @param {Limit} limit */
export function maxLengthFor(value, limit) {
  return String(limit.unit === "bytes" ? limit.max : limit.max + (value.length - [...value].length));
}

/** At most what lesson entry `e`'s file can be now that one of its fields holds `v`.
 *  @param {Entry} e @param {string} v */
export function sizeBound(e, v) {
  return (e.bytesBound ?? Infinity) + 6 * new TextEncoder().encode(v).length;
}

/** A string from a lesson (a URL, a title, a note) for a lit-html child binding: the string
 *  itself (a text binding) when it shows as plain text, else vis()'s nodes (invisible code points
 *  as badges, break opportunities, the "more" note of a long one): text only, never markup.
 *  @param {string} str @returns {string | DocumentFragment} */
export function vt(str) {
  const frag = vis(str);
  const only = frag.childNodes.length === 1 ? frag.firstChild : null;
  if (frag.childNodes.length === 0) return "";
  return only && only.nodeType === Node.TEXT_NODE ? String(only.nodeValue) : frag;
}
