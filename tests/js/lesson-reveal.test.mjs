// Predict, then reveal (issue 29, item 1) in the lesson format (web/js/state/lesson-format.js:
// a step's "hide", validated and kept) and its checks (web/js/views/lessons/reveal.js); and the
// lessons' defects of issue 29: a file of 5,000 nested brackets gets a short message saying what
// and where; a file that is not UTF-8 (Latin-1) is refused with its line and byte, never read
// with U+FFFD in its notes.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  HIDE_GETTERS, LessonEncodingError, LessonError, MAX_QUOTED, decodeLessonBytes, firstInvalidUtf8,
  hideFor, lessonFromLinkValue, lessonToJSON, lessonToLinkValue, parseLesson, parseLessonBytes, quoted,
  serializeLesson, stepProblem,
} from "../../web/js/state/lesson-format.js";
import { checkGuess, hiddenValues, hideAttribute } from "../../web/js/views/lessons/reveal.js";
import { GETTERS, OPERATIONS } from "../../web/js/facts.js";
import { LESSON_VIEWS, VIEW_ALIASES } from "../../web/js/state/view-names.js";

const NAMES = { views: LESSON_VIEWS, operations: OPERATIONS, aliases: VIEW_ALIASES };
const file = (steps) => JSON.stringify({ format: "urlcalc-lesson", version: 1, title: "T", steps });

/** @param {string} text @param {string} message */
function rejects(text, message) {
  assert.throws(() => parseLesson(text, { ...NAMES, name: "l.json" }), (e) => {
    assert.ok(e instanceof LessonError, String(e));
    assert.equal(e.message, message);
    return true;
  });
}

test("hide: all, a list of getters, or next-step (in Steps); kept through a file and a link", async () => {
  const steps = [
    { input: "https://a/", hide: "all" },
    { input: "https://a/", hide: ["host", "pathname"] },
    { input: "https://a/", view: "steps", step: 3, hide: "next-step" },
    { input: "https://a/" },
  ];
  const L = parseLesson(file(steps), NAMES);
  assert.deepEqual(L.steps.map((s) => s.hide), ["all", ["host", "pathname"], "next-step", undefined]);
  assert.equal("hide" in L.steps[3], false); // nothing hidden: no key (as before hide existed)
  const text = serializeLesson(L);
  assert.match(text, /"hide": \["host", "pathname"\]/);
  assert.deepEqual(lessonToJSON(parseLesson(text, NAMES)), lessonToJSON(L));
  const back = await lessonFromLinkValue(await lessonToLinkValue(L), NAMES);
  assert.deepEqual(back.steps.map((s) => s.hide), ["all", ["host", "pathname"], "next-step", undefined]);
  // the getters a step may hide are the URL API's, written once (facts.js)
  assert.equal(HIDE_GETTERS, GETTERS);
});

test("an unknown hide is refused, saying what and where", () => {
  const allowed = `"all", "next-step" or a list of getters (${GETTERS.join(", ")})`;
  rejects(file([{ input: "a", hide: "everything" }]), `l.json: step 1 (steps[0]): "hide" is "everything", not ${allowed}`);
  rejects(file([{ input: "a" }, { input: "a", hide: ["host", "hots"] }]), `l.json: step 2 (steps[1]): hide[1] is "hots", not a getter (${GETTERS.join(", ")})`);
  rejects(file([{ input: "a", hide: ["host", "host"] }]), `l.json: step 1 (steps[0]): hide[1]: "host" is listed twice`);
  rejects(file([{ input: "a", hide: [] }]), `l.json: step 1 (steps[0]): "hide" is an empty list: name the getters to hide, or leave "hide" out`);
  rejects(file([{ input: "a", hide: true }]), `l.json: step 1 (steps[0]): "hide" must be ${allowed}, not true`);
  rejects(file([{ input: "a", hide: [7] }]), `l.json: step 1 (steps[0]): hide[0] is 7, not a getter (${GETTERS.join(", ")})`);
  rejects(file([{ input: "a", view: "components", hide: "next-step" }]),
    `l.json: step 1 (steps[0]): "hide": "next-step" hides the trace's next step, so the step's "view" must be "steps", not "components"`);
  // "Add what the page shows" checks a step the same way
  assert.match(String(stepProblem({ input: "a", base: "", view: "resolution", step: 0, note: "", ops: [], enc: "", hide: "next-step" }, NAMES)), /must be "steps"/);
  // null is no hide, as for the other optional keys
  assert.equal(parseLesson(file([{ input: "a", hide: null }]), NAMES).steps[0].hide, undefined);
});

test("a view change drops next-step (the editor keeps every lesson valid)", () => {
  assert.equal(hideFor("next-step", "components"), undefined);
  assert.equal(hideFor("next-step", "steps"), "next-step");
  assert.deepEqual(hideFor(["host"], "components"), ["host"]);
  assert.equal(hideFor("all", "setters"), "all");
});

test("a file of 5,000 nested brackets gets a short message: what and where", () => {
  const deep = "[".repeat(5000) + "]".repeat(5000);
  const cases = [
    ["[".repeat(5000), "l.json is not JSON: "],
    [`{"format": ${deep}}`, `l.json: this is not a urlcalc lesson: "format" is an array of 1 item, nested 5,000 deep, not "urlcalc-lesson"`],
    [`{"format": "urlcalc-lesson", "version": ${deep}}`, `l.json: "version" must be 1, not an array of 1 item, nested 5,000 deep`],
    [`{"format": "urlcalc-lesson", "version": 1, "title": "t", "steps": [{"input": "a", "ops": ${deep}}]}`,
      "l.json: step 1 (steps[0]): ops[0] must be a pair of strings [operation, value], not an array of 1 item, nested 4,999 deep"],
    [`{"format": "urlcalc-lesson", "version": 1, "title": "t", "steps": [{"input": "a", "hide": ${deep}}]}`,
      "l.json: step 1 (steps[0]): hide[0] is an array of 1 item, nested 4,999 deep, not a getter"],
    [`{"format": "urlcalc-lesson", "version": 1, "title": "t", "steps": [{"input": "a", "view": "${"[".repeat(5000)}"}]}`,
      `l.json: step 1 (steps[0]): "view" is "${"[".repeat(MAX_QUOTED)}"… (a string of 5,000 characters), not a view`],
    [`{"format": "urlcalc-lesson", "version": 1, "title": "t", "steps": [{"input": "a", "${"[".repeat(5000)}": 1}]}`,
      `l.json: step 1 (steps[0]): unknown key "${"[".repeat(MAX_QUOTED)}"… (a string of 5,000 characters)`],
  ];
  for (const [text, start] of cases) {
    assert.throws(() => parseLesson(text, { ...NAMES, name: "l.json" }), (e) => {
      assert.ok(e instanceof LessonError);
      assert.ok(e.message.startsWith(start), e.message.slice(0, 300));
      assert.ok(e.message.length < 320, `${e.message.length} characters`);
      assert.ok((e.message.match(/\[/g) ?? []).length <= MAX_QUOTED + 1, "brackets repeated");
      return true;
    });
  }
});

test("quoted: short values as JSON, long ones described", () => {
  assert.equal(quoted("Browser"), '"Browser"');
  assert.equal(quoted(undefined), "missing");
  assert.equal(quoted(2), "2");
  assert.equal(quoted(["port", 1]), '["port",1]');
  assert.equal(quoted({ a: "x".repeat(100) }), "an object with 1 keys");
  assert.equal(quoted(Array(5000).fill(0)), "an array of 5,000 items");
  // a nesting far deeper than JSON.stringify's stack: described without recursing
  let v = [];
  for (let i = 0; i < 200_000; i++) v = [v];
  assert.equal(quoted(v), "an array of 1 item, nested 200,001 deep");
});

test("a Latin-1 file is refused with its line and byte, never read with U+FFFD", () => {
  const text = '{"format": "urlcalc-lesson", "version": 1, "title": "t",\n"steps": [{"input": "a", "note": "h\u00e9"}]}';
  const latin1 = Uint8Array.from(text, (c) => c.charCodeAt(0));
  assert.throws(() => parseLessonBytes(latin1, { ...NAMES, name: "l.json" }), (e) => {
    assert.ok(e instanceof LessonEncodingError);
    assert.equal(e.line, 2);
    assert.equal(e.column, 36);
    assert.equal(e.offset, text.indexOf("\u00e9"));
    assert.equal(e.latin1, true);
    assert.equal(e.message, "l.json is not UTF-8: line 2, byte 36 of the line (byte 93 of the file) is 0xE9, which UTF-8 does not allow there; the file may be Latin-1 (Windows-1252), where 0xE9 is “é”: save it again as UTF-8, or read it as Latin-1");
    assert.ok(!e.message.includes("\ufffd"));
    return true;
  });
  // asked to, it reads as Latin-1
  assert.equal(parseLessonBytes(latin1, { ...NAMES, as: "windows-1252" }).steps[0].note, "h\u00e9");
  // the same file in UTF-8 (with or without a BOM) reads at once
  const utf8 = new TextEncoder().encode(text);
  assert.equal(parseLessonBytes(utf8, NAMES).steps[0].note, "h\u00e9");
  assert.equal(parseLessonBytes(Uint8Array.of(0xef, 0xbb, 0xbf, ...utf8), NAMES).steps[0].note, "h\u00e9");
  // UTF-16 is named; bytes Windows-1252 leaves undefined: no Latin-1 offer
  assert.throws(() => decodeLessonBytes(Uint8Array.of(0xff, 0xfe, 0x7b, 0), "u.json"), /u\.json is UTF-16 text/);
  assert.throws(() => decodeLessonBytes(Uint8Array.of(0x7b, 0x81), "b.json"), (e) => {
    assert.ok(e instanceof LessonEncodingError && !e.latin1 && !e.message.includes("Latin-1"));
    assert.match(e.message, /line 1, byte 2 of the line \(byte 2 of the file\) is 0x81/);
    return true;
  });
});

test("firstInvalidUtf8 agrees with a fatal TextDecoder (edge cases and random bytes)", () => {
  const fatal = new TextDecoder("utf-8", { fatal: true });
  const ok = (/** @type {Uint8Array} */ b) => {
    try {
      fatal.decode(b);
      return true;
    } catch {
      return false;
    }
  };
  const edges = [[0xc0, 0x80], [0xc2, 0x80], [0xe0, 0x9f, 0x80], [0xe0, 0xa0, 0x80], [0xed, 0xa0, 0x80],
    [0xed, 0x9f, 0xbf], [0xf0, 0x8f, 0x80, 0x80], [0xf0, 0x90, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80],
    [0xf4, 0x8f, 0xbf, 0xbf], [0xf5], [0xe2, 0x82], [0x41, 0xe2, 0x82, 0xac]];
  let seed = 29;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const cases = edges.map((e) => Uint8Array.from(e));
  for (let i = 0; i < 3000; i++) {
    const n = 1 + Math.floor(rand() * 6);
    cases.push(Uint8Array.from({ length: n }, () => (rand() < 0.5 ? 0x80 + Math.floor(rand() * 0x80) : Math.floor(rand() * 256))));
  }
  for (const b of cases) {
    const bad = firstInvalidUtf8(b);
    assert.equal(bad < 0, ok(b), Array.from(b).join(","));
    if (bad >= 0) {
      assert.ok(ok(b.subarray(0, bad)), "the bytes before the first bad one are UTF-8");
    }
  }
});

test("guesses: the value, a failure by name, a trace step by its state's name", () => {
  const answer = { ok: true, getters: { href: "https://example.com/b", host: "example.com", pathname: "/b", port: "" } };
  const hidden = hiddenValues(["host", "pathname", "port"], answer);
  assert.deepEqual(hidden.map((h) => [h.name, h.answer]), [["host", "example.com"], ["pathname", "/b"], ["port", ""]]);
  assert.equal(checkGuess(hidden[0], "example.com"), true);
  assert.equal(checkGuess(hidden[0], "  example.com "), true);
  assert.equal(checkGuess(hidden[0], "EXAMPLE.com"), false); // the getter's value, exactly
  assert.equal(checkGuess(hidden[1], "/a/../b"), false);
  assert.equal(checkGuess(hidden[1], ""), null); // no guess: neither right nor wrong
  const fails = hiddenValues("all", { ok: false });
  assert.deepEqual(fails.map((h) => [h.name, h.answer]), [["href", null]]);
  assert.equal(checkGuess(fails[0], "failure"), true);
  assert.equal(checkGuess(fails[0], "TypeError"), true);
  assert.equal(checkGuess(fails[0], "http://a b/"), false);
  assert.equal(checkGuess(hiddenValues("all", answer)[0], "https://example.com/b"), true);
  const next = hiddenValues("next-step", { ok: true, getters: {}, next: "scheme state" })[0];
  assert.equal(checkGuess(next, "Scheme"), true);
  assert.equal(checkGuess(next, "scheme  state"), true);
  assert.equal(checkGuess(next, "host"), false);
  // not known yet (no answer drawn): not marked
  assert.equal(checkGuess(hiddenValues("all", null)[0], "x"), null);
  assert.deepEqual(hiddenValues(undefined, answer), []);
  assert.equal(hideAttribute(["host", "port"]), "getters host port");
  assert.equal(hideAttribute("all"), "all");
  assert.equal(hideAttribute(undefined), "");
});
