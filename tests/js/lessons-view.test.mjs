// The Lessons view's pure helpers (web/js/views/lessons/common.js): a paper-tape entry as a step,
// a kept lesson's text for Export and Copy, the editor's maxlength and file-size bound; and that
// the view's modules load without a page (lit-html's node build), with the example list.
import { test } from "node:test";
import assert from "node:assert/strict";

import { LIMITS, lessonBytes, stepProblem } from "../../web/js/state/lesson-format.js";
import { keptText, maxLengthFor, sizeBound, tapeStep, why } from "../../web/js/views/lessons/common.js";
import { EXAMPLE_LESSONS, Lessons } from "../../web/js/views/lessons.js";

const VIEWS = ["components", "steps", "resolution", "setters"];

test("a tape entry becomes a step the format accepts", () => {
  const ok = tapeStep({ input: "https://a/", base: "https://b/", view: "resolution", ok: true, out: "https://a/", note: "n".repeat(1200) }, VIEWS);
  assert.deepEqual({ ...ok, note: ok.note.length }, {
    input: "https://a/", base: "https://b/", view: "resolution", step: 0, note: 1000, ops: [], enc: "", href: "https://a/",
  });
  assert.equal(stepProblem(ok, { views: VIEWS, operations: [] }), null);
  // a failure records null; a view a step cannot use (or none) shows Components
  const failed = tapeStep({ input: "x", ok: false, out: "failure", view: "editions" }, VIEWS);
  assert.equal(failed.href, null);
  assert.equal(failed.view, "components");
  assert.equal(tapeStep({ input: "x" }, VIEWS).view, "components");
});

test("a kept lesson is exported as its lesson, pretty-printed, or as stored", () => {
  const lesson = { format: "urlcalc-lesson", version: 2, title: "Newer", steps: [] };
  assert.equal(keptText({ id: "a", key: "urlcalc.lesson:a", raw: JSON.stringify({ id: "a", order: 1, lesson }), problem: "", title: null }),
    JSON.stringify(lesson, null, 2) + "\n");
  for (const raw of ["not JSON {", "[1, 2]", '{"id": "a"}']) {
    assert.equal(keptText({ id: "a", key: "urlcalc.lesson:a", raw, problem: "", title: null }), raw);
  }
});

test("maxlength counts code points where the browser counts UTF-16 units", () => {
  assert.equal(maxLengthFor("abc", LIMITS.title), String(LIMITS.title.max));
  assert.equal(maxLengthFor("a😀😀", LIMITS.title), String(LIMITS.title.max + 2));
  assert.equal(maxLengthFor("a😀", LIMITS.input), String(LIMITS.input.max)); // bytes: cut by the handler
});

test("the file-size bound is never under the file's size (a field the file holds, edited)", () => {
  const lesson = { title: "t", description: "", steps: [tapeStep({ input: "https://a/", ok: true, out: "https://a/" }, VIEWS)] };
  const e = { id: "a", order: 1, lesson, bytesBound: lessonBytes(lesson) };
  for (const v of ["x", "\u0000\u0001", "é😀\"\\"]) {
    const edited = { ...lesson, title: v };
    assert.ok(sizeBound(e, v) >= lessonBytes(edited), v);
  }
  assert.equal(sizeBound({ id: "b", order: 1, lesson }, "x"), Infinity); // not measured yet
});

test("the view's modules load without a page", () => {
  assert.deepEqual(EXAMPLE_LESSONS, ["relative-resolution.json", "hosts.json", "setters.json"]);
  assert.equal(typeof Lessons, "function");
  for (const m of ["play", "go", "stop", "resume", "follow", "observe", "openLink", "show", "exportTape", "lessonFromTape"]) {
    assert.equal(typeof Lessons.prototype[m], "function", m);
  }
  assert.equal(why(new Error("boom")), "boom");
  assert.equal(why("plain"), "plain");
});
