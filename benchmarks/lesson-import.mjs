// Importing a lesson file (docs/lessons.md, "Predict, then reveal" and "Import messages"), in
// node: the file's bytes checked as UTF-8 (firstInvalidUtf8, so that a Latin-1 file is refused
// with its line and byte, never read with U+FFFD) and validated (parseLessonBytes), beside the
// floor measured in the same run: the same bytes through TextDecoder and JSON.parse alone. Also a
// 1 MB file of nested brackets, refused with a short message (quoted: described, not repeated).
// Run: node benchmarks/lesson-import.mjs
import { LessonError, parseLessonBytes, serializeLesson } from "../web/js/state/lesson-format.js";
import { OPERATIONS } from "../web/js/facts.js";
import { LESSON_VIEWS, VIEW_ALIASES } from "../web/js/state/view-names.js";

const NAMES = { views: LESSON_VIEWS, operations: OPERATIONS, aliases: VIEW_ALIASES, name: "l.json" };
const step = (i) => ({ input: "https://exämple.com/" + "x".repeat(1700) + i, base: "", view: "components", step: 0,
  note: "é".repeat(100), ops: [], enc: "", href: undefined, hide: ["host", "pathname"] });
const lesson = { title: "t", description: "d", steps: Array.from({ length: 500 }, (_, i) => step(i)) };
const bytes = new TextEncoder().encode(serializeLesson(lesson));
const depth = 480_000;
const bomb = new TextEncoder().encode(`{"format": "urlcalc-lesson", "version": 1, "title": "t", "steps": [{"input": "a", "ops": ${"[".repeat(depth)}${"]".repeat(depth)}}]}`);

/** @param {() => unknown} fn @param {number} n */
function time(fn, n) {
  for (let i = 0; i < 3; i++) fn();
  const ts = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    ts.push(performance.now() - t);
  }
  ts.sort((a, b) => a - b);
  return ts[n >> 1];
}

const floor = time(() => JSON.parse(new TextDecoder().decode(bytes)), 40);
console.log(`floor: TextDecoder + JSON.parse of a ${bytes.length.toLocaleString("en")}-byte, 500-step lesson: p50 ${floor.toFixed(2)} ms`);
const full = time(() => parseLessonBytes(bytes, NAMES), 40);
console.log(`parseLessonBytes (UTF-8 check + validation, hide on every step): p50 ${full.toFixed(2)} ms (${(full / floor).toFixed(2)}x floor)`);
let said = "";
const refused = time(() => {
  try {
    parseLessonBytes(bomb, NAMES);
  } catch (e) {
    if (!(e instanceof LessonError)) throw e;
    said = e.message;
  }
}, 20);
const bombFloor = time(() => JSON.parse(new TextDecoder().decode(bomb)), 20);
console.log(`${bomb.length.toLocaleString("en")} bytes of brackets nested ${depth.toLocaleString("en")} deep: refused in p50 ${refused.toFixed(2)} ms ` +
  `(${(refused / bombFloor).toFixed(2)}x its own TextDecoder + JSON.parse, ${bombFloor.toFixed(2)} ms), a message of ${said.length} characters:\n  ${said}`);
