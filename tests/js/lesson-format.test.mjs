// The lesson file format (web/js/state/lesson-format.js; docs/lessons.md): reading, writing,
// the link, and the messages for files that are not lessons.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  LessonError, lessonFileName, lessonFromLinkValue, lessonToJSON, lessonToLinkValue, parseLesson,
  serializeLesson,
} from "../../web/js/state/lesson-format.js";

import { OPERATIONS } from "../../web/js/facts.js";
import { LESSON_VIEWS, VIEW_ALIASES } from "../../web/js/state/view-names.js";

// The names the page gives the reader (web/js/app.js).
const NAMES = { views: LESSON_VIEWS, operations: OPERATIONS, aliases: VIEW_ALIASES };

const lesson = (steps, extra = {}) => JSON.stringify({ format: "urlcalc-lesson", version: 1, title: "T", ...extra, steps });

function rejects(text, message) {
  assert.throws(() => parseLesson(text, { ...NAMES, name: "l.json" }), (e) => {
    assert.ok(e instanceof LessonError, e);
    assert.equal(e.message, message);
    return true;
  });
}

test("a step's defaults are filled in, and left out again when written", () => {
  const L = parseLesson(lesson([{ input: "a" }]), NAMES);
  assert.deepEqual(L, { title: "T", description: "", steps: [
    { input: "a", base: "", view: "components", step: 0, note: "", ops: [], enc: "", href: undefined }] });
  assert.equal(serializeLesson(L),
    '{\n  "format": "urlcalc-lesson",\n  "version": 1,\n  "title": "T",\n  "steps": [\n    {\n      "input": "a"\n    }\n  ]\n}\n');
});

test("every key survives a round trip; ops pairs are written on one line; step only with Steps", () => {
  const steps = [
    { input: "../c", base: "https://e/a/b", view: "steps", step: 12, note: "n", href: "https://e/c" },
    { input: "https://e/", view: "setters", ops: [["port", "8080"], ["searchParams.sort", ""]], enc: "windows-1252", href: null },
    { input: "x", view: "resolution", step: 4 },
  ];
  const L = parseLesson(lesson(steps, { description: "d" }), NAMES);
  const text = serializeLesson(L);
  assert.match(text, /\["port", "8080"\],\n\s+\["searchParams\.sort", ""\]/);
  const again = parseLesson(text, NAMES);
  assert.deepEqual(lessonToJSON(again), lessonToJSON(L));
  assert.equal(serializeLesson(again), text);
  assert.equal(lessonToJSON(L).steps[2].step, undefined); // a trace step means nothing outside Steps
  assert.equal(lessonToJSON(L).steps[1].href, null); // null: the step was a failure
});

test("the old name of a view is read as the new one; a BOM is skipped", () => {
  const L = parseLesson("\ufeff" + lesson([{ input: "a", view: "compare" }]), NAMES);
  assert.equal(L.steps[0].view, "implementations");
});

test("the example lessons read, and write back byte for byte", () => {
  for (const name of ["relative-resolution.json", "hosts.json", "setters.json"]) {
    const text = readFileSync(new URL(`../../web/js/lessons/${name}`, import.meta.url), "utf8");
    assert.equal(serializeLesson(parseLesson(text, NAMES)), text, name);
  }
});

test("malformed files: what is wrong, and where", () => {
  rejects("", "l.json is empty");
  rejects("[]", "l.json: a lesson is a JSON object, not an array");
  rejects('{"format": "x"}', 'l.json: this is not a urlcalc lesson: "format" is "x", not "urlcalc-lesson"');
  rejects('{"format": "urlcalc-lesson", "version": 3}',
    "l.json: this lesson is format version 3, made by a newer urlcalc; this page reads version 1");
  rejects('{"format": "urlcalc-lesson", "version": "1"}', 'l.json: "version" must be 1, not "1"');
  rejects(lesson([{ input: "a" }], { author: "me" }),
    'l.json: unknown key "author" (a lesson has format, version, title, description, steps)');
  rejects(lesson([], {}), 'l.json: "steps" is empty: a lesson has at least one step');
  rejects(lesson([{ input: "a" }], { title: "  " }), 'l.json: "title" is empty');
  rejects(lesson([{ input: "a" }, { base: "b" }]), 'l.json: step 2 (steps[1]) has no "input"');
  rejects(lesson([{ input: "a", notes: "x" }]),
    'l.json: step 1 (steps[0]): unknown key "notes" (a step has input, base, view, step, note, ops, enc, href, hide)');
  rejects(lesson([{ input: "a", step: 1.5 }]), 'l.json: step 1 (steps[0]): "step" must be a whole number >= 0, not 1.5');
  rejects(lesson([{ input: "a", ops: [["port", 80]] }]),
    'l.json: step 1 (steps[0]): ops[0] must be a pair of strings [operation, value], not ["port",80]');
  rejects(lesson([{ input: "a", href: 5 }]), 'l.json: step 1 (steps[0]): "href" must be a string or null (a failure), not a number');
  rejects(lesson([{ input: "a", note: "x".repeat(1001) }]),
    'l.json: step 1 (steps[0]): "note" is too long: 1,001 characters, at most 1,000');
  rejects(lesson(Array.from({ length: 501 }, () => ({ input: "a" }))), "l.json: the lesson has 501 steps: at most 500");
  rejects(" ".repeat(1024 * 1024 + 1), "l.json is 1.0 MB: a lesson file is at most 1 MB");
  assert.throws(() => parseLesson('{"a": }', { ...NAMES, name: "l.json" }), /^LessonError: l\.json is not JSON: /);
  // __proto__ is a key like any other (JSON.parse makes it an own property): refused, not merged
  rejects('{"format": "urlcalc-lesson", "version": 1, "title": "T", "steps": [{"input": "a"}], "__proto__": {}}',
    'l.json: unknown key "__proto__" (a lesson has format, version, title, description, steps)');
});

test("a lesson link carries the whole lesson, and a damaged one says so", async () => {
  const L = parseLesson(lesson([{ input: "https://e/é?q=<b>", note: "“quoted”" }], { title: "Ünïcode" }), NAMES);
  const value = await lessonToLinkValue(L);
  assert.match(value, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(lessonToJSON(await lessonFromLinkValue(value, NAMES)), lessonToJSON(L));
  const damaged = async (v, message) => {
    await assert.rejects(lessonFromLinkValue(v, NAMES), (e) => e instanceof LessonError && e.message === message);
  };
  await damaged("", "the lesson link is empty");
  await damaged("ab+c", "the lesson link is damaged: it holds characters a lesson link never has");
  await damaged(value.slice(0, (value.length >> 3) * 4), "the lesson link is damaged: it does not unpack (was it cut short?)");
  await damaged(value.slice(0, (value.length >> 3) * 4 + 1), "the lesson link is damaged: it is not base64url (was it cut short?)");
  // a link that unpacks to more than a lesson file may hold is refused before it is read whole
  const bomb = await lessonToLinkValue({ title: "x".repeat(10), description: "", steps: [{ input: "a".repeat(2_000_000) }] });
  await damaged(bomb, "the lesson link unpacks to over 1 MB: a lesson is at most that");
});

test("file names: the title, in lower-case ASCII", () => {
  assert.equal(lessonFileName({ title: "Hosts: IPv4 forms, IPv6, IDNA" }), "hosts-ipv4-forms-ipv6-idna.urlcalc-lesson.json");
  assert.equal(lessonFileName({ title: "Résumé à l'école" }), "resume-a-l-ecole.urlcalc-lesson.json");
  assert.equal(lessonFileName({ title: "日本語" }), "lesson.urlcalc-lesson.json");
});
