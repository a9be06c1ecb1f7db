// The lesson editor's work for one keystroke (docs/lessons.md, "Limits where you type"), in node:
// the field cut to its limit, the lesson file's size checked only when an upper bound could pass
// 1 MB, and the lesson's own key written (views/lessons.js, views/lesson-store.js). Beside it, the
// same keystroke measuring the file exactly every time, and a one-step lesson's keystroke (the
// floor). Run: node benchmarks/lesson-keystroke.mjs
import { LIMITS, fitToLimit, lessonBytes } from "../web/js/state/lesson-format.js";
import { writeLesson } from "../web/js/state/lesson-store.js";

const storage = { setItem() {}, getItem() { return null; } }; // the write's JSON, not the browser's disk
const step = (len, i) => ({ input: "https://example.com/" + "x".repeat(len) + i, base: "", view: "components", step: 0, note: "n".repeat(100), ops: [], enc: "", href: undefined });
const lesson = (n, len) => ({ title: "t", description: "d".repeat(2000), steps: Array.from({ length: n }, (_, i) => step(len, i)) });

function keystroke(e, exact) {
  const v = fitToLimit("x".repeat(100), LIMITS.note);
  const bound = (e.bound ?? Infinity) + 6 * v.length;
  e.bound = exact || bound > LIMITS.file.max ? lessonBytes(e.lesson) : bound;
  writeLesson(storage, { id: "a", order: 1, lesson: e.lesson });
}

function time(L, n, exact = false) {
  const e = { lesson: L };
  for (let i = 0; i < 5; i++) keystroke(e, exact);
  const ts = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    keystroke(e, exact);
    ts.push(performance.now() - t);
  }
  ts.sort((a, b) => a - b);
  return { p50: ts[n >> 1], p95: ts[Math.floor(n * 0.95)] };
}

const floor = time(lesson(1, 10), 2000);
console.log(`floor (1 step): p50 ${floor.p50.toFixed(4)} ms`);
for (const [name, L] of [["500 steps, 0.5 MB", lesson(500, 900)], ["500 steps, 1 MB", lesson(500, 1900)]]) {
  for (const exact of [false, true]) {
    const t = time(L, 200, exact);
    console.log(`${name} (${lessonBytes(L).toLocaleString("en")} bytes), ${exact ? "measured every keystroke" : "bound"}: ` +
      `p50 ${t.p50.toFixed(3)} ms (${(t.p50 / floor.p50).toFixed(0)}x floor), p95 ${t.p95.toFixed(3)} ms`);
  }
}
