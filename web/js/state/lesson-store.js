// @ts-check
// Where the teacher's own lessons are kept in this browser: one localStorage key per lesson
// ("urlcalc.lesson:<id>", the value {id, order, lesson}), so that a tab saves only the lesson it
// changed and never the whole list it read at load (two tabs used to overwrite each other's
// lessons). Pure functions over a Storage-like object (getItem, setItem, removeItem, key,
// length): the page (views/lessons.js) and the node tests share them.
//
// A stored lesson that no longer validates (damaged, edited by hand, or written by a newer
// urlcalc) is never deleted: it is returned "kept", with its text as stored and its problem, for
// the page to show with an Export button.
//
// The old form, one key "urlcalc.lessons" holding the whole list, is moved to per-lesson keys the
// first time a page reads it; the old key is removed only once every item is written (a full
// storage leaves it in place, and it is read again next time).
import { lessonToJSON, validateLesson } from "./lesson-format.js";

/** @typedef {import("./lesson-format.js").Lesson} Lesson */
/** @typedef {import("./lesson-format.js").LessonNames} LessonNames */
/** A stored lesson: its id, its place among mine, the lesson.
 *  @typedef {{id: string, order: number, lesson: Lesson}} StoredLesson */
/** A stored value this page does not read as a lesson, kept as it is (and why).
 *  @typedef {{id: string, key: string, raw: string, problem: string, title: string|null, order?: number}} KeptValue */
/** The part of Web Storage this uses (localStorage, or a test's stand-in).
 *  @typedef {Pick<Storage, "getItem"|"setItem"|"removeItem"|"key"|"length">} LessonStorage */

export const OLD_KEY = "urlcalc.lessons";
export const KEY_PREFIX = "urlcalc.lesson:";

/** The storage key of lesson `id`.
 *  @param {string} id */
export function lessonKey(id) {
  return KEY_PREFIX + id;
}

/** A new lesson id (letters and digits). */
export function newId() {
  return "l" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
}

/** Is `name` the storage key of a lesson?
 *  @param {unknown} name
 *  @returns {name is string} */
export function isLessonKey(name) {
  return typeof name === "string" && name.startsWith(KEY_PREFIX) && name.length > KEY_PREFIX.length;
}

/** What a failed write says, for a person: the quota, or storage refused.
 *  @param {unknown} e */
export function storageProblem(e) {
  const name = e && typeof e === "object" && "name" in e ? String(e.name) : "";
  if (name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED") return "this browser's storage for the page is full (QuotaExceededError)";
  return `this browser refused to store it (${name || String(e)})`;
}

/** Read one stored value (`raw`, the text under `key`): {entry: {id, order, lesson}} when it is a
 *  lesson this page reads, else {kept: {id, key, raw, problem, title}}.
 *  @param {string} key
 *  @param {string} raw
 *  @param {LessonNames} names
 *  @returns {{entry: StoredLesson, kept?: undefined} | {kept: KeptValue, entry?: undefined}} */
export function readStored(key, raw, names) {
  const id = key.slice(KEY_PREFIX.length);
  let obj;
  try {
    obj = JSON.parse(raw);
  } catch (e) {
    return { kept: { id, key, raw, problem: `not JSON: ${e.message}`, title: null } };
  }
  const title = obj && typeof obj === "object" && obj.lesson && typeof obj.lesson.title === "string" ? obj.lesson.title : null;
  const order = obj && Number.isFinite(obj.order) ? obj.order : 0;
  if (!obj || typeof obj !== "object" || Array.isArray(obj) || !("lesson" in obj)) {
    return { kept: { id, key, raw, problem: "not a stored lesson (it has no \"lesson\")", title, order } };
  }
  try {
    return { entry: { id, order, lesson: validateLesson(obj.lesson, names) } };
  } catch (e) {
    return { kept: { id, key, raw, problem: e.message, title, order } };
  }
}

/** Move the old single-key list to per-lesson keys. Items already under their own key (written
 *  by a page that moved them before) are left as they are. Returns {moved, problem}: problem is
 *  null when the old key is gone (or never was).
 *  @param {LessonStorage} storage
 *  @returns {{moved: number, problem: string|null}} */
export function migrate(storage) {
  const raw = storage.getItem(OLD_KEY);
  if (raw === null) return { moved: 0, problem: null };
  let list;
  try {
    list = JSON.parse(raw);
  } catch (e) {
    return { moved: 0, problem: `the old list of lessons is not JSON: ${e.message}` };
  }
  if (!Array.isArray(list)) return { moved: 0, problem: "the old list of lessons is not a list" };
  let moved = 0;
  try {
    list.forEach((item, i) => {
      const id = item && typeof item.id === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(item.id) ? item.id : `old${i}`;
      const key = lessonKey(id);
      if (storage.getItem(key) !== null) return;
      const lesson = item && typeof item === "object" && "lesson" in item ? item.lesson : item;
      storage.setItem(key, JSON.stringify({ id, order: i, lesson }));
      moved += 1;
    });
  } catch (e) {
    return { moved, problem: `the old list of lessons could not be moved: ${storageProblem(e)}` };
  }
  storage.removeItem(OLD_KEY);
  return { moved, problem: null };
}

/** Every stored lesson: {mine: [{id, order, lesson}] (in the order they were made), kept: [...]
 *  (see readStored; an old list that could not be moved is kept too, under its own key)}.
 *  @param {LessonStorage} storage
 *  @param {LessonNames} names
 *  @returns {{mine: StoredLesson[], kept: KeptValue[]}} */
export function readLessons(storage, names) {
  const { problem } = migrate(storage);
  /** @type {StoredLesson[]} */
  const mine = [];
  /** @type {KeptValue[]} */
  const kept = [];
  /** @type {string[]} */
  const keys = [];
  for (let i = 0; i < storage.length; i++) {
    const k = storage.key(i);
    if (isLessonKey(k)) keys.push(k);
  }
  for (const key of keys) {
    const raw = storage.getItem(key);
    if (raw === null) continue;
    const r = readStored(key, raw, names);
    if (r.entry) mine.push(r.entry);
    else kept.push(r.kept);
  }
  if (problem) {
    const raw = storage.getItem(OLD_KEY);
    if (raw !== null) kept.push({ id: "old-list", key: OLD_KEY, raw, problem, title: "Lessons saved by an older page", order: -1 });
  }
  /** @type {(a: {order?: number, id: string}, b: {order?: number, id: string}) => number} */
  const byOrder = (a, b) => (a.order - b.order) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  mine.sort(byOrder);
  kept.sort(byOrder);
  return { mine, kept };
}

/** Store one lesson ({id, order, lesson}): null when stored, else what went wrong (for a
 *  person; the lesson stays in the page).
 *  @param {LessonStorage} storage
 *  @param {StoredLesson} entry
 *  @returns {string|null} */
export function writeLesson(storage, entry) {
  try {
    storage.setItem(lessonKey(entry.id), JSON.stringify({ id: entry.id, order: entry.order, lesson: lessonToJSON(entry.lesson) }));
    return null;
  } catch (e) {
    return storageProblem(e);
  }
}

/** Remove one stored lesson (or a kept value, by its key): null, or what went wrong.
 *  @param {LessonStorage} storage
 *  @param {string} key
 *  @returns {string|null} */
export function removeStored(storage, key) {
  try {
    storage.removeItem(key);
    return null;
  } catch (e) {
    return storageProblem(e);
  }
}
