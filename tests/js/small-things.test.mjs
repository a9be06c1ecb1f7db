// Issue 29's small things whose logic is pure: a permalink's ignored parts, the paper tape's one
// entry per input, the Markdown footer's escaping.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ignoredParts, pageState } from "../../web/js/state/page-state.js";
import { addToTape, readTape } from "../../web/js/views/tape.js";
import { mdWords } from "../../web/js/render/share.js";

test("ignoredParts names each part of a permalink the page drops, and nothing else", () => {
  assert.deepEqual(ignoredParts(""), []);
  assert.deepEqual(ignoredParts("input=http%3A%2F%2Fa%2F&view=steps&step=3&presenter=1&enc=windows-1252"), []);
  assert.deepEqual(ignoredParts("input=x&view=compare"), []); // an old name, read as Implementations
  const [view] = ignoredParts("input=x&view=browser");
  assert.match(view, /^view=browser: no such view/);
  assert.equal(pageState("input=x&view=browser").view, "components");
  const [input] = ignoredParts("input=%E0%A4");
  assert.match(input, /^input: “%E0%A4” is not percent-encoded UTF-8/);
  assert.equal(pageState("input=%E0%A4").input, "");
  assert.match(ignoredParts("input=x&ops=notjson")[0], /^ops: not a JSON list/);
  const ops = encodeURIComponent(JSON.stringify([["href", "x"], ["nope", "y"], [1, 2]]));
  assert.match(ignoredParts("input=x&ops=" + ops)[0], /^ops: 2 of 3 operations dropped/);
  assert.equal(ignoredParts("input=x&foo=1&step=x&enc=bogus&asof=2019-13-01").length, 4);
});

test("the tape keeps one entry when another view draws the same input, with its note", () => {
  const tape = readTape(null);
  assert.equal(addToTape(tape, { input: "http://a/", base: "", ok: true, out: "http://a/" }), true);
  // the Editions view draws it: its count replaces nothing but the note and view
  assert.equal(addToTape(tape, { input: "http://a/", base: "", ok: true, out: "http://a/", view: "editions", note: "1 of 6 editions differ" }), true);
  assert.equal(tape.entries.length, 1);
  assert.equal(tape.entries[0].note, "1 of 6 editions differ");
  // back in Components: nothing new
  assert.equal(addToTape(tape, { input: "http://a/", base: "", ok: true, out: "http://a/" }), false);
  assert.equal(tape.entries[0].note, "1 of 6 editions differ");
  // another base, or another encoding: another entry
  assert.equal(addToTape(tape, { input: "http://a/", base: "http://b/", ok: true, out: "http://a/" }), true);
  assert.equal(addToTape(tape, { input: "http://a/", base: "http://b/", enc: "windows-1252", ok: true, out: "http://a/" }), true);
  assert.equal(tape.entries.length, 3);
});

test("mdWords escapes only what Markdown reads", () => {
  const line = "urlcalc 0.1.0 via Pyodide (in this page): Python 3.14.2, Unicode 16.0.0, idna 3.20";
  assert.equal(mdWords(line), line);
  assert.equal(mdWords("a `b` [c](https://e.example) *d* <e> f|g ~h~ &amp; www.e.example x@y.example"),
    "a \\`b\\` \\[c\\](https\\://e.example) \\*d\\* \\<e\\> f\\|g \\~h\\~ \\&amp; www\\.e.example x\\@y.example");
  assert.equal(mdWords("# h"), "\\# h");
  assert.equal(mdWords("12. x"), "12\\. x");
  assert.equal(mdWords("a\nb"), "a\\\\u{A}b"); // a newline shown as its escape, as mdText does
});
