// @ts-check
// The lesson file format (version 1), read and written here only: a lesson is a titled sequence
// of steps, each an input with its base, the view to show, the trace step and a one-line note.
// Documented in docs/lessons.md. Pure functions, no DOM: the page (views/lessons.js) and the
// tests share them.
//
//   {
//     "format": "urlcalc-lesson",
//     "version": 1,
//     "title": "Relative resolution and dot segments",
//     "description": "optional, one paragraph",
//     "steps": [
//       {"input": "../c", "base": "https://example.com/a/b", "view": "resolution",
//        "step": 0, "note": "one line for the class", "href": "https://example.com/c"}
//     ]
//   }
//
// Step keys: input (required), base (string; absent, null or "" for none), view (a view name as
// in the page's permalinks, default "components"), step (the selected trace step when the view is
// "steps", an integer >= 0, default 0; not written for other views), note (default ""), ops (Setters lab operations, [[name, value], ...]),
// enc (the query encoding label), href (what urlcalc gave when the step was written: a string, or
// null for a failure; the page says when the engine now answers something else), hide (predict,
// then reveal: "all", a list of getters, or "next-step"; what the page keeps hidden until the
// presenter reveals it). Any other key is an error: a misspelt "notes" must not vanish silently.
// A message quotes at most MAX_QUOTED characters of what the file holds (a value of 5,000 nested
// brackets is described, not repeated), and a file that is not UTF-8 is refused with the line and
// byte where it stops being UTF-8 (decodeLessonBytes), never read with U+FFFD in its notes.

import { GETTERS, MAX_INPUT_BYTES, MAX_OPS } from "../facts.js";

/**
 * A step of a (normalised) lesson: every optional key present.
 * @typedef {object} LessonStep
 * @property {string} input
 * @property {string} base "" for none
 * @property {string} view
 * @property {number} step
 * @property {string} note
 * @property {Array<[string, string]>} ops
 * @property {string} enc
 * @property {string|null} [href] undefined when not given
 * @property {Hide} [hide] what the page hides until it is revealed; absent: nothing
 */

/**
 * Predict, then reveal: "all" (the answer: the href or the failure, and every view's values),
 * getters (their values, and the href and record that hold them), or "next-step" (in Steps: the
 * trace after the selected step).
 * @typedef {"all" | "next-step" | string[]} Hide
 */

/**
 * A (normalised) lesson.
 * @typedef {{title: string, description?: string, steps: LessonStep[]}} Lesson
 */

/**
 * The page's names a lesson is checked against.
 * @typedef {{views: readonly string[], operations: readonly string[], aliases?: Readonly<Record<string, string>>}} LessonNames
 */

/**
 * One of LIMITS: the most allowed, in `unit`.
 * @typedef {{max: number, unit: string, what: string}} Limit
 */

export const LESSON_FORMAT = "urlcalc-lesson";
export const LESSON_VERSION = 1;

// Bounds: a lesson is read whole into the page (and a link carries all of it).
export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_STEPS = 500;
export const MAX_TITLE = 200;
export const MAX_DESCRIPTION = 2000;
export const MAX_NOTE = 1000;
export const MAX_FIELD_BYTES = MAX_INPUT_BYTES; // an input, a base or a value: the model's limit
export const MAX_ENC = 100;
export { MAX_OPS };

/** The limits of a lesson, written once: validateLesson checks them and the editor
 *  (views/lessons.js) enforces them where you type (maxlength, a counter, Add disabled at a
 *  cap), so that whatever the editor lets you make, storage and files accept. A string's length
 *  is counted in `unit`: "characters" (code points) or "bytes" (UTF-8). */
export const LIMITS = Object.freeze({
  title: Object.freeze({ max: MAX_TITLE, unit: "characters", what: "the title" }),
  description: Object.freeze({ max: MAX_DESCRIPTION, unit: "characters", what: "the description" }),
  note: Object.freeze({ max: MAX_NOTE, unit: "characters", what: "a note" }),
  input: Object.freeze({ max: MAX_FIELD_BYTES, unit: "bytes", what: "a URL" }),
  base: Object.freeze({ max: MAX_FIELD_BYTES, unit: "bytes", what: "a base" }),
  value: Object.freeze({ max: MAX_FIELD_BYTES, unit: "bytes", what: "a setter's value" }),
  enc: Object.freeze({ max: MAX_ENC, unit: "characters", what: "an encoding label" }),
  steps: Object.freeze({ max: MAX_STEPS, unit: "steps", what: "a lesson" }),
  ops: Object.freeze({ max: MAX_OPS, unit: "operations", what: "a step" }),
  file: Object.freeze({ max: MAX_FILE_BYTES, unit: "bytes", what: "a lesson file" }),
});

/** The size of a lesson's file (what Export writes and Import reads back), in bytes.
 *  @param {Lesson} lesson */
export function lessonBytes(lesson) {
  return utf8Length(serializeLesson(lesson));
}

/** How long `value` is in the unit of `limit` (one of LIMITS).
 *  @param {string} value
 *  @param {Limit} limit */
export function measure(value, limit) {
  return limit.unit === "bytes" ? utf8Length(value) : [...value].length;
}

/** `value` cut (at a code point) to what `limit` allows: itself when it fits.
 *  @param {string} value
 *  @param {Limit} limit */
export function fitToLimit(value, limit) {
  if (measure(value, limit) <= limit.max) return value;
  let n = 0;
  let out = "";
  for (const ch of value) {
    n += limit.unit === "bytes" ? utf8Length(ch) : 1;
    if (n > limit.max) break;
    out += ch;
  }
  return out;
}

/** "1,234 / 2,000" (with the unit when it is bytes: "1,234 / 65,536 bytes").
 *  @param {string|number} value
 *  @param {Limit} limit */
export function counterText(value, limit) {
  const n = typeof value === "number" ? value : measure(value, limit);
  return `${n.toLocaleString("en")} / ${limit.max.toLocaleString("en")}${limit.unit === "bytes" ? " bytes" : ""}`;
}

/** Why the (normalised) step `s` cannot go into a lesson, or null when it can: what "Add what the
 *  page shows", "Use the page" and the paper tape check before they add a step.
 *  @param {LessonStep} s
 *  @param {LessonNames} names
 *  @returns {string|null} */
export function stepProblem(s, names) {
  try {
    validateLesson({ format: LESSON_FORMAT, version: LESSON_VERSION, title: "t", steps: [lessonToJSON({ title: "t", steps: [s] }).steps[0]] }, names);
    return null;
  } catch (e) {
    if (e instanceof LessonError) return e.message.replace(/^step 1 \(steps\[0\]\): /, "");
    throw e;
  }
}

const TOP_KEYS = ["format", "version", "title", "description", "steps"];
const STEP_KEYS = ["input", "base", "view", "step", "note", "ops", "enc", "href", "hide"];

/** The words "hide" may be (besides a list of getters). */
export const HIDE_WORDS = Object.freeze(["all", "next-step"]);
/** The getters a step may hide: the URL API's (facts.js GETTERS). */
export const HIDE_GETTERS = GETTERS;

/** `hide` as it may stay on a step shown in `view` ("next-step" only in Steps), else undefined.
 *  @param {Hide | undefined} hide @param {string} view
 *  @returns {Hide | undefined} */
export function hideFor(hide, view) {
  return hide === "next-step" && view !== "steps" ? undefined : hide;
}

/** The most characters of a file's own text a message quotes. */
export const MAX_QUOTED = 60;

/** A lesson that cannot be read: `message` says what and where, for a person. */
export class LessonError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "LessonError";
  }
}

/** @param {unknown} v */
function typeName(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "a string";
  if (typeof v === "number") return "a number";
  if (typeof v === "boolean") return "a boolean";
  return typeof v;
}

/** How deep arrays and objects nest in `v` (0 for a scalar), counted without recursion: a file
 *  may nest 100,000 deep.
 *  @param {unknown} v */
function nesting(v) {
  let deepest = 0;
  /** @type {Array<[unknown, number]>} */
  const todo = [[v, 0]];
  while (todo.length) {
    const [x, d] = /** @type {[unknown, number]} */ (todo.pop());
    if (x === null || typeof x !== "object") continue;
    deepest = Math.max(deepest, d + 1);
    for (const y of Object.values(x)) if (y !== null && typeof y === "object") todo.push([y, d + 1]);
  }
  return deepest;
}

/** A value of the file, for a message: itself when short (JSON), else what it is and its start;
 *  never more than MAX_QUOTED characters of it.
 *  @param {unknown} v */
export function quoted(v) {
  if (v === undefined) return "missing";
  if (typeof v === "string") {
    const cps = [...v];
    return cps.length <= MAX_QUOTED ? JSON.stringify(v)
      : `${JSON.stringify(cps.slice(0, MAX_QUOTED).join(""))}… (a string of ${cps.length.toLocaleString("en")} characters)`;
  }
  if (v === null || typeof v !== "object") return String(v);
  const depth = nesting(v);
  let text = null;
  if (depth <= 8) {
    try {
      text = JSON.stringify(v);
    } catch {
      text = null;
    }
  }
  if (text !== null && text.length <= MAX_QUOTED) return text;
  const size = Array.isArray(v) ? `of ${v.length.toLocaleString("en")} item${v.length === 1 ? "" : "s"}` : `with ${Object.keys(v).length.toLocaleString("en")} keys`;
  return `${typeName(v)} ${size}${depth > 1 ? `, nested ${depth.toLocaleString("en")} deep` : ""}`;
}

/** @param {string} s */
function utf8Length(s) {
  return new TextEncoder().encode(s).length;
}

/** @param {number} i */
function where(i) {
  return `step ${i + 1} (steps[${i}])`;
}

/** @param {unknown} value
 *  @param {string} what
 *  @param {Limit} limit
 *  @returns {string} */
function stringField(value, what, limit) {
  if (typeof value !== "string") throw new LessonError(`${what} must be a string, not ${typeName(value)}`);
  const n = measure(value, limit);
  if (n > limit.max) throw new LessonError(`${what} is too long: ${n.toLocaleString("en")} ${limit.unit}, at most ${limit.max.toLocaleString("en")}`);
  return value;
}

/** Check a parsed lesson object and return a normalised copy: {title, description, steps: [{input,
 *  base, view, step, note, ops, enc, href}]} with every optional key present (base "" for none,
 *  href undefined when not given). `views` and `operations` are the page's names (VIEWS and the
 *  Setters lab's OPERATIONS); `aliases` maps old view names to current ones, as permalinks do
 *  (view=compare is the Implementations view). Throws LessonError.
 *  @param {any} obj
 *  @param {LessonNames} names
 *  @returns {Lesson} */
export function validateLesson(obj, { views, operations, aliases = {} }) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) {
    throw new LessonError(`a lesson is a JSON object, not ${typeName(obj)}`);
  }
  if (obj.format !== LESSON_FORMAT) {
    throw new LessonError(obj.format === undefined
      ? `this is not a urlcalc lesson: it has no "format": "${LESSON_FORMAT}"`
      : `this is not a urlcalc lesson: "format" is ${quoted(obj.format)}, not "${LESSON_FORMAT}"`);
  }
  if (obj.version !== LESSON_VERSION) {
    if (Number.isInteger(obj.version) && obj.version > LESSON_VERSION) {
      throw new LessonError(`this lesson is format version ${obj.version}, made by a newer urlcalc; this page reads version ${LESSON_VERSION}`);
    }
    throw new LessonError(`"version" must be ${LESSON_VERSION}, not ${quoted(obj.version)}`);
  }
  for (const k of Object.keys(obj)) {
    if (!TOP_KEYS.includes(k)) throw new LessonError(`unknown key ${quoted(k)} (a lesson has ${TOP_KEYS.join(", ")})`);
  }
  if (obj.title === undefined) throw new LessonError(`the lesson has no "title"`);
  const title = stringField(obj.title, `"title"`, LIMITS.title).trim();
  if (!title) throw new LessonError(`"title" is empty`);
  const description = obj.description === undefined || obj.description === null
    ? "" : stringField(obj.description, `"description"`, LIMITS.description);
  if (!Array.isArray(obj.steps)) {
    throw new LessonError(obj.steps === undefined ? `the lesson has no "steps"` : `"steps" must be an array, not ${typeName(obj.steps)}`);
  }
  if (obj.steps.length === 0) throw new LessonError(`"steps" is empty: a lesson has at least one step`);
  if (obj.steps.length > LIMITS.steps.max) throw new LessonError(`the lesson has ${obj.steps.length} steps: at most ${LIMITS.steps.max}`);
  const steps = obj.steps.map((s, i) => validateStep(s, i, { views, operations, aliases }));
  return { title, description, steps };
}

/** @param {any} s
 *  @param {number} i
 *  @param {LessonNames} names
 *  @returns {LessonStep} */
function validateStep(s, i, { views, operations, aliases }) {
  const at = where(i);
  if (s === null || typeof s !== "object" || Array.isArray(s)) throw new LessonError(`${at} must be an object, not ${typeName(s)}`);
  for (const k of Object.keys(s)) {
    if (!STEP_KEYS.includes(k)) throw new LessonError(`${at}: unknown key ${quoted(k)} (a step has ${STEP_KEYS.join(", ")})`);
  }
  if (s.input === undefined) throw new LessonError(`${at} has no "input"`);
  const input = stringField(s.input, `${at}: "input"`, LIMITS.input);
  const base = s.base === undefined || s.base === null ? "" : stringField(s.base, `${at}: "base"`, LIMITS.base);
  let view = "components";
  if (s.view !== undefined) {
    const named = typeof s.view === "string" && Object.hasOwn(aliases, s.view) ? aliases[s.view] : s.view;
    if (typeof named !== "string" || !views.includes(named)) {
      throw new LessonError(`${at}: "view" is ${quoted(s.view)}, not a view (${views.join(", ")})`);
    }
    view = named;
  }
  let step = 0;
  if (s.step !== undefined) {
    if (!Number.isSafeInteger(s.step) || s.step < 0) throw new LessonError(`${at}: "step" must be a whole number >= 0, not ${quoted(s.step)}`);
    step = s.step;
  }
  const note = s.note === undefined || s.note === null ? "" : stringField(s.note, `${at}: "note"`, LIMITS.note);
  let ops = [];
  if (s.ops !== undefined) {
    if (!Array.isArray(s.ops)) throw new LessonError(`${at}: "ops" must be an array of [operation, value] pairs, not ${typeName(s.ops)}`);
    if (s.ops.length > LIMITS.ops.max) throw new LessonError(`${at}: ${s.ops.length} operations, at most ${LIMITS.ops.max}`);
    ops = s.ops.map((o, j) => {
      if (!Array.isArray(o) || o.length !== 2 || typeof o[0] !== "string" || typeof o[1] !== "string") {
        throw new LessonError(`${at}: ops[${j}] must be a pair of strings [operation, value], not ${quoted(o)}`);
      }
      if (!operations.includes(o[0])) throw new LessonError(`${at}: ops[${j}]: ${quoted(o[0])} is not an operation (${operations.join(", ")})`);
      stringField(o[1], `${at}: ops[${j}] value`, LIMITS.value);
      return [o[0], o[1]];
    });
  }
  const enc = s.enc === undefined || s.enc === null ? "" : stringField(s.enc, `${at}: "enc"`, LIMITS.enc);
  let href;
  if (s.href !== undefined) {
    if (s.href !== null && typeof s.href !== "string") throw new LessonError(`${at}: "href" must be a string or null (a failure), not ${typeName(s.href)}`);
    href = s.href;
  }
  /** @type {LessonStep} */
  const out = { input, base, view, step, note, ops, enc, href };
  if (s.hide !== undefined && s.hide !== null) out.hide = validateHide(s.hide, at, view);
  return out;
}

/** A step's "hide": "all", "next-step" (Steps only), or a list of distinct getters.
 *  @param {unknown} hide @param {string} at @param {string} view
 *  @returns {Hide} */
function validateHide(hide, at, view) {
  const allowed = `"all", "next-step" or a list of getters (${HIDE_GETTERS.join(", ")})`;
  if (typeof hide === "string") {
    if (!HIDE_WORDS.includes(hide)) throw new LessonError(`${at}: "hide" is ${quoted(hide)}, not ${allowed}`);
    if (hide === "next-step" && view !== "steps") {
      throw new LessonError(`${at}: "hide": "next-step" hides the trace's next step, so the step's "view" must be "steps", not ${quoted(view)}`);
    }
    return /** @type {Hide} */ (hide);
  }
  if (!Array.isArray(hide)) throw new LessonError(`${at}: "hide" must be ${allowed}, not ${quoted(hide)}`);
  if (hide.length === 0) throw new LessonError(`${at}: "hide" is an empty list: name the getters to hide, or leave "hide" out`);
  /** @type {string[]} */
  const out = [];
  hide.forEach((g, j) => {
    if (typeof g !== "string" || !HIDE_GETTERS.includes(g)) {
      throw new LessonError(`${at}: hide[${j}] is ${quoted(g)}, not a getter (${HIDE_GETTERS.join(", ")})`);
    }
    if (out.includes(g)) throw new LessonError(`${at}: hide[${j}]: "${g}" is listed twice`);
    out.push(g);
  });
  return out;
}

/** The first byte of `bytes` where UTF-8 goes wrong (as the Encoding Standard's decoder reads
 *  it), or -1 when it is all UTF-8.
 *  @param {Uint8Array} bytes */
export function firstInvalidUtf8(bytes) {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = i + k < n ? bytes[i + k] : -1;
      if (c < (k === 1 ? lower : 0x80) || c > (k === 1 ? upper : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** A lesson file that is not UTF-8: where (the byte's offset, 0-based; its line and column,
 *  1-based, the column in bytes), and whether it reads as Windows-1252 (Latin-1): the page then
 *  offers to read it so. */
export class LessonEncodingError extends LessonError {
  /** @param {string} message @param {{offset: number, line: number, column: number, latin1: boolean}} where */
  constructor(message, where) {
    super(message);
    this.name = "LessonEncodingError";
    this.offset = where.offset;
    this.line = where.line;
    this.column = where.column;
    this.latin1 = where.latin1;
  }
}

/** A lesson file's bytes as text: UTF-8 (a BOM skipped), or LessonEncodingError saying where it
 *  stops being UTF-8, never U+FFFD in its place. `as` "windows-1252": read as Latin-1 (what the
 *  page offers when the file is not UTF-8 and has no byte Windows-1252 leaves undefined).
 *  @param {Uint8Array} bytes @param {string} [name] @param {"utf-8" | "windows-1252"} [as]
 *  @returns {string} */
export function decodeLessonBytes(bytes, name = "the file", as = "utf-8") {
  if (as === "windows-1252") return new TextDecoder("windows-1252").decode(bytes);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new LessonEncodingError(`${name} is UTF-16 text: a lesson file is UTF-8 (save it again as UTF-8)`, { offset: 0, line: 1, column: 1, latin1: false });
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes); // (a BOM is skipped by the decoder)
  } catch {
    // not UTF-8: where, below
  }
  const bad = Math.max(0, firstInvalidUtf8(bytes));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < bad; i++) {
    if (bytes[i] === 0x0a) {
      line += 1;
      lineStart = i + 1;
    }
  }
  const hex = "0x" + bytes[bad].toString(16).toUpperCase().padStart(2, "0");
  // Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined: a file with them is not Latin-1
  const latin1 = !bytes.some((b) => b === 0x81 || b === 0x8d || b === 0x8f || b === 0x90 || b === 0x9d);
  const as1252 = latin1 ? new TextDecoder("windows-1252").decode(bytes.subarray(bad, bad + 1)) : "";
  throw new LessonEncodingError(`${name} is not UTF-8: line ${line}, byte ${bad - lineStart + 1} of the line (byte ${(bad + 1).toLocaleString("en")} of the file) is ${hex}, which UTF-8 does not allow there${
    latin1 ? `; the file may be Latin-1 (Windows-1252), where ${hex} is “${as1252}”: save it again as UTF-8, or read it as Latin-1` : ""}`,
  { offset: bad, line, column: bad - lineStart + 1, latin1 });
}

/** Read a lesson file's bytes (`name` for the messages): decodeLessonBytes, then parseLesson.
 *  Throws LessonError (LessonEncodingError when it is not UTF-8).
 *  @param {Uint8Array} bytes
 *  @param {LessonNames & {name?: string, as?: "utf-8" | "windows-1252"}} names
 *  @returns {Lesson} */
export function parseLessonBytes(bytes, { views, operations, aliases = {}, name = "the file", as = "utf-8" }) {
  if (bytes.length > MAX_FILE_BYTES) {
    throw new LessonError(`${name} is ${(bytes.length / 1048576).toFixed(1)} MB: a lesson file is at most ${MAX_FILE_BYTES / 1048576} MB`);
  }
  return parseLesson(decodeLessonBytes(bytes, name, as), { views, operations, aliases, name });
}

/** Read a lesson file's text (`name` for the messages). Throws LessonError. */
/** @param {string} text
 *  @param {LessonNames & {name?: string}} names
 *  @returns {Lesson} */
export function parseLesson(text, { views, operations, aliases = {}, name = "the file" }) {
  const bytes = utf8Length(text);
  if (bytes > MAX_FILE_BYTES) {
    throw new LessonError(`${name} is ${(bytes / 1048576).toFixed(1)} MB: a lesson file is at most ${MAX_FILE_BYTES / 1048576} MB`);
  }
  if (!text.trim()) throw new LessonError(`${name} is empty`);
  let obj;
  try {
    obj = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    // the engine's words, cut short: some quote the text around the error
    const words = [...String(e instanceof Error ? e.message : e)];
    throw new LessonError(`${name} is not JSON: ${words.length > 2 * MAX_QUOTED ? words.slice(0, 2 * MAX_QUOTED).join("") + "…" : words.join("")}`);
  }
  try {
    return validateLesson(obj, { views, operations, aliases });
  } catch (e) {
    if (e instanceof LessonError) throw new LessonError(`${name}: ${e.message}`);
    throw e;
  }
}

/** The file form of a (normalised) lesson: defaults left out, in the documented key order.
 *  @param {Lesson} lesson
 *  @returns {Record<string, any>} */
export function lessonToJSON(lesson) {
  /** @type {Record<string, any>} */
  const out = { format: LESSON_FORMAT, version: LESSON_VERSION, title: lesson.title };
  if (lesson.description) out.description = lesson.description;
  out.steps = lesson.steps.map((s) => {
    /** @type {Record<string, any>} */
    const o = { input: s.input };
    if (s.base) o.base = s.base;
    if (s.view && s.view !== "components") o.view = s.view;
    if (s.step && o.view === "steps") o.step = s.step;
    if (s.note) o.note = s.note;
    if (s.ops && s.ops.length) o.ops = s.ops.map((x) => [x[0], x[1]]);
    if (s.enc) o.enc = s.enc;
    if (s.href !== undefined) o.href = s.href;
    if (s.hide) o.hide = Array.isArray(s.hide) ? s.hide.slice() : s.hide;
    return o;
  });
  return out;
}

/** The text of a lesson file: pretty-printed, each [operation, value] pair on one line.
 *  @param {Lesson} lesson */
export function serializeLesson(lesson) {
  return JSON.stringify(lessonToJSON(lesson), null, 2)
    .replace(/\[\n\s+("(?:[^"\\]|\\.)*"),\n\s+("(?:[^"\\]|\\.)*")\n\s+\]/g, "[$1, $2]") + "\n";
}

/** A file name for a lesson: its title in lower case, letters and digits, dashes between.
 *  @param {Lesson} lesson */
export function lessonFileName(lesson) {
  const slug = String(lesson.title).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return (slug || "lesson") + ".urlcalc-lesson.json";
}

// ---- the lesson link: #lesson=<base64url of the deflate-raw compressed file, compact JSON> ----

export const LINK_KEY = "lesson";
export const MAX_LINK_CHARS = 512 * 1024;

/** @param {Uint8Array} bytes */
function toBase64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {string} s */
function fromBase64url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new LessonError("the lesson link is damaged: it holds characters a lesson link never has");
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4);
  let bin;
  try {
    bin = atob(b64);
  } catch {
    throw new LessonError("the lesson link is damaged: it is not base64url (was it cut short?)");
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** `bytes` through a (de)compression stream, at most `limit` bytes out (else LessonError).
 *  @param {Uint8Array<ArrayBuffer>} bytes
 *  @param {CompressionStream|DecompressionStream} stream
 *  @param {number} limit
 *  @returns {Promise<Uint8Array<ArrayBuffer>>} */
async function pipe(bytes, stream, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > limit) {
      await reader.cancel();
      throw new LessonError(`the lesson link unpacks to over ${limit / 1048576} MB: a lesson is at most that`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The fragment value of a lesson link (without "lesson=").
 *  @param {Lesson} lesson
 *  @returns {Promise<string>} */
export async function lessonToLinkValue(lesson) {
  const json = new TextEncoder().encode(JSON.stringify(lessonToJSON(lesson)));
  return toBase64url(await pipe(json, new CompressionStream("deflate-raw"), Infinity));
}

/** Read a lesson link's fragment value. Throws LessonError.
 *  @param {string} value
 *  @param {LessonNames} names
 *  @returns {Promise<Lesson>} */
export async function lessonFromLinkValue(value, { views, operations, aliases = {} }) {
  if (typeof DecompressionStream !== "function") throw new LessonError("this browser cannot read lesson links (it has no DecompressionStream)");
  if (!value) throw new LessonError("the lesson link is empty");
  if (value.length > MAX_LINK_CHARS) throw new LessonError(`the lesson link is ${value.length.toLocaleString("en")} characters long: at most ${MAX_LINK_CHARS.toLocaleString("en")}`);
  let bytes;
  try {
    bytes = await pipe(fromBase64url(value), new DecompressionStream("deflate-raw"), MAX_FILE_BYTES);
  } catch (e) {
    if (e instanceof LessonError) throw e;
    throw new LessonError("the lesson link is damaged: it does not unpack (was it cut short?)");
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new LessonError("the lesson link is damaged: it is not UTF-8 text");
  }
  return parseLesson(text, { views, operations, aliases, name: "the lesson link" });
}
