// Lessons kept in this browser (web/js/state/lesson-store.js), the limits the editor enforces
// (LIMITS in web/js/state/lesson-format.js) and the paper tape's bound (web/js/views/tape.js):
// nothing is lost, whatever storage holds.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  LIMITS, LessonError, counterText, fitToLimit, lessonBytes, measure, parseLesson, stepProblem,
  validateLesson,
} from "../../web/js/state/lesson-format.js";
import {
  KEY_PREFIX, OLD_KEY, lessonKey, migrate, readLessons, readStored, removeStored, writeLesson,
} from "../../web/js/state/lesson-store.js";
import { TAPE_MAX, addToTape, readTape } from "../../web/js/views/tape.js";

import { OPERATIONS } from "../../web/js/facts.js";
import { LESSON_VIEWS, VIEW_ALIASES } from "../../web/js/state/view-names.js";

const NAMES = { views: LESSON_VIEWS, operations: OPERATIONS, aliases: VIEW_ALIASES };

/** localStorage, in memory: `quota` bytes (UTF-16 units of keys and values, as browsers count). */
class FakeStorage {
  constructor(quota = Infinity) {
    this.map = new Map();
    this.quota = quota;
  }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) {
    const used = [...this.map].reduce((n, [a, b]) => n + (a === k ? 0 : a.length + b.length), 0);
    if (used + k.length + String(v).length > this.quota) {
      const e = new Error("quota");
      e.name = "QuotaExceededError";
      throw e;
    }
    this.map.set(k, String(v));
  }
  removeItem(k) { this.map.delete(k); }
}

const lesson = (title, extra = {}) => ({ format: "urlcalc-lesson", version: 1, title, steps: [{ input: "https://e/" }], ...extra });
const steps1 = (over) => ({ title: "t", description: "", steps: [{ input: "a", base: "", view: "components", step: 0, note: "", ops: [], enc: "", href: undefined, ...over }] });

test("what the editor lets through, validation accepts, and one more is refused", () => {
  const cases = [
    ["description", (v) => ({ ...lesson("t"), description: v })],
    ["title", (v) => lesson(v)],
    ["note", (v) => lesson("t", { steps: [{ input: "a", note: v }] })],
    ["input", (v) => lesson("t", { steps: [{ input: v }] })],
    ["base", (v) => lesson("t", { steps: [{ input: "a", base: v }] })],
  ];
  for (const [field, make] of cases) {
    const limit = LIMITS[field];
    // ASCII, three-byte CJK and four-byte (astral, two UTF-16 units) characters, over the limit
    for (const ch of ["x", "字", "😀"]) {
      const long = ch.repeat(limit.max + 5);
      const fitted = fitToLimit(long, limit);
      assert.ok(measure(fitted, limit) <= limit.max, `${field} ${ch}`);
      assert.ok(measure(fitted + ch, limit) > limit.max, `${field} ${ch}: cut no more than needed`);
      assert.doesNotThrow(() => validateLesson(make(fitted), NAMES), `${field} ${ch}`);
      assert.throws(() => validateLesson(make(fitted + ch), NAMES), LessonError, `${field} ${ch}`);
    }
  }
  // a cut never splits a character
  assert.equal(fitToLimit("a😀", { max: 4, unit: "bytes" }), "a");
  assert.equal(fitToLimit("字字", { max: 5, unit: "bytes" }), "字");
});

test("the counts the counter shows", () => {
  assert.equal(counterText("x".repeat(1234), LIMITS.description), "1,234 / 2,000");
  assert.equal(counterText("字", LIMITS.input), "3 / 65,536 bytes");
  assert.equal(counterText("😀", LIMITS.title), "1 / 200");
  assert.equal(counterText(500, LIMITS.steps), "500 / 500");
});

test("a step the page would add is checked against the same limits", () => {
  assert.equal(stepProblem(steps1({}).steps[0], NAMES), null);
  assert.equal(stepProblem(steps1({ input: "字".repeat(21_846) }).steps[0], NAMES), '"input" is too long: 65,538 bytes, at most 65,536');
  const ops = Array.from({ length: 65 }, () => ["searchParams.sort", ""]);
  assert.equal(stepProblem(steps1({ ops }).steps[0], NAMES), "65 operations, at most 64");
  assert.equal(stepProblem(steps1({ ops: ops.slice(1) }).steps[0], NAMES), null);
  assert.equal(LIMITS.ops.max, 64);
  assert.equal(LIMITS.steps.max, 500);
  // the file the editor's lesson exports is what Import reads back
  const L = { title: "t", description: "", steps: [{ input: "a\"\\\u0001" }] };
  assert.equal(lessonBytes(L), new TextEncoder().encode(JSON.stringify({ format: "urlcalc-lesson", version: 1, title: "t", steps: [{ input: "a\"\\\u0001" }] }, null, 2) + "\n").length);
  assert.ok(LIMITS.file.max === 1024 * 1024);
});

test("the old single-key list moves to one key per lesson, keeping every item", () => {
  const s = new FakeStorage();
  const old = [{ id: "a1", lesson: lesson("A") }, { id: "b2", lesson: lesson("B", { notes: "x" }) }, { lesson: lesson("C") }, "junk"];
  s.setItem(OLD_KEY, JSON.stringify(old));
  const { mine, kept } = readLessons(s, NAMES);
  assert.equal(s.getItem(OLD_KEY), null);
  assert.deepEqual(mine.map((e) => [e.id, e.lesson.title]), [["a1", "A"], ["old2", "C"]]);
  assert.deepEqual(kept.map((k) => [k.id, k.title]), [["b2", "B"], ["old3", null]]);
  assert.match(kept[0].problem, /unknown key "notes"/);
  assert.deepEqual(JSON.parse(s.getItem(lessonKey("b2"))).lesson, lesson("B", { notes: "x" }));
  assert.equal(JSON.parse(s.getItem(lessonKey("old3"))).lesson, "junk");
  // read again: the same (nothing moves twice, nothing is dropped)
  assert.deepEqual(readLessons(s, NAMES), { mine, kept });
});

test("a migration that does not fit leaves the old list in place, and reads it as kept", () => {
  const old = JSON.stringify([{ id: "a1", lesson: lesson("A") }, { id: "b2", lesson: lesson("B".repeat(150)) }]);
  const s = new FakeStorage(OLD_KEY.length + old.length + 200);
  s.setItem(OLD_KEY, old);
  const r = migrate(s);
  assert.equal(r.moved, 1);
  assert.match(r.problem, /QuotaExceededError/);
  assert.equal(s.getItem(OLD_KEY), old);
  const { mine, kept } = readLessons(s, NAMES);
  assert.deepEqual(mine.map((e) => e.id), ["a1"]);
  assert.equal(kept.length, 1);
  assert.equal(kept[0].key, OLD_KEY);
  assert.equal(kept[0].raw, old);
});

test("a stored value this page cannot read is kept, with its text as stored", () => {
  const s = new FakeStorage();
  s.setItem(KEY_PREFIX + "x", "{oops");
  s.setItem(KEY_PREFIX + "y", JSON.stringify({ id: "y", order: 1, lesson: { ...lesson("Y"), version: 2 } }));
  s.setItem(KEY_PREFIX + "z", JSON.stringify({ id: "z" }));
  s.setItem("urlcalc.other", "not ours");
  const { mine, kept } = readLessons(s, NAMES);
  assert.equal(mine.length, 0);
  assert.deepEqual(kept.map((k) => k.id).sort(), ["x", "y", "z"]);
  const byId = Object.fromEntries(kept.map((k) => [k.id, k]));
  assert.match(byId.x.problem, /^not JSON: /);
  assert.equal(byId.x.raw, "{oops");
  assert.match(byId.y.problem, /made by a newer urlcalc/);
  assert.match(byId.z.problem, /has no "lesson"/);
  // reading never writes or removes them
  assert.equal(s.length, 4);
  assert.equal(s.getItem(KEY_PREFIX + "x"), "{oops");
});

test("two tabs: each writes only its own lesson, and reads the other's", () => {
  const s = new FakeStorage();
  // tab A and tab B each read the (empty) store, then each makes a lesson
  const a = readLessons(s, NAMES);
  const b = readLessons(s, NAMES);
  const fromA = { id: "A", order: 1, lesson: parseLesson(JSON.stringify(lesson("From A")), NAMES) };
  const fromB = { id: "B", order: 2, lesson: parseLesson(JSON.stringify(lesson("From B")), NAMES) };
  a.mine.push(fromA);
  b.mine.push(fromB);
  assert.equal(writeLesson(s, fromA), null);
  assert.equal(writeLesson(s, fromB), null);
  // B edits its lesson again (A's is not in B's list, and is not dropped)
  fromB.lesson.title = "From B, edited";
  assert.equal(writeLesson(s, fromB), null);
  assert.deepEqual(readLessons(s, NAMES).mine.map((e) => e.lesson.title), ["From A", "From B, edited"]);
  // what B's storage event reads for A's key
  const seen = readStored(lessonKey("A"), s.getItem(lessonKey("A")), NAMES);
  assert.equal(seen.entry.lesson.title, "From A");
  // a delete in A removes only A's key
  assert.equal(removeStored(s, lessonKey("A")), null);
  assert.deepEqual(readLessons(s, NAMES).mine.map((e) => e.id), ["B"]);
});

test("a full storage: the write says so (the page keeps the lesson)", () => {
  const s = new FakeStorage(50);
  const e = { id: "A", order: 1, lesson: parseLesson(JSON.stringify(lesson("A")), NAMES) };
  assert.match(writeLesson(s, e), /storage for the page is full \(QuotaExceededError\)/);
  assert.equal(s.length, 0);
});

test("the tape keeps its last TAPE_MAX entries and counts the dropped ones", () => {
  const tape = readTape(null);
  assert.deepEqual(tape, { entries: [], dropped: 0 });
  for (let i = 0; i < TAPE_MAX + 3; i++) assert.equal(addToTape(tape, { input: `u${i}`, base: "", out: `u${i}` }), true);
  assert.equal(tape.entries.length, TAPE_MAX);
  assert.equal(tape.dropped, 3);
  assert.equal(tape.entries[0].input, "u3");
  // the same entry twice in a row is one entry
  assert.equal(addToTape(tape, { ...tape.entries.at(-1) }), false);
  // as stored, and an old tape (a bare list) reads too
  assert.deepEqual(readTape(JSON.stringify(tape)), tape);
  assert.deepEqual(readTape(JSON.stringify([{ input: "a" }, 5, null])), { entries: [{ input: "a" }], dropped: 0 });
  assert.deepEqual(readTape("{oops"), { entries: [], dropped: 0 });
});
