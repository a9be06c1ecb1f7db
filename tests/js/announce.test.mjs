// What a screen reader hears (issue 29, item 4): the answer's words, the live region written once
// per settle (a fake region and a short settle time; node's test runner), a step's summary.
import { test } from "node:test";
import assert from "node:assert/strict";
import { answerWords, announcer } from "../../web/js/ui/announce.js";
import { MAX_SHOWN_CODE_POINTS } from "../../web/js/facts.js";
import { stepSummary } from "../../web/js/views/steps.js";

test("an href is said as it is, a long one cut at the page's display limit", () => {
  assert.equal(answerWords({ ok: true, getters: { href: "https://example.com/" } }), "href: https://example.com/");
  const long = "https://h/" + "a".repeat(MAX_SHOWN_CODE_POINTS);
  const said = answerWords({ ok: true, getters: { href: long } });
  assert.ok(said.endsWith(" … and 10 more code points"), said.slice(-60));
  assert.equal([...said].length, "href: ".length + MAX_SHOWN_CODE_POINTS + " … and 10 more code points".length);
});

test("a failure says where it began and why, never a time", () => {
  const r = { ok: false, failure: { in: "input", error: null, note: "the result contains a forbidden domain code point, U+0020",
    cause: { algorithm: "domain parser", step: "8" } } };
  assert.equal(answerWords(r), "fails in domain parser, step 8: the result contains a forbidden domain code point, U+0020");
  assert.equal(answerWords({ ok: false, failure: { in: "base" } }), "the base fails");
});

test("the region is written once, after the answers stop coming", async () => {
  const region = { textContent: "" };
  const writes = [];
  const watched = new Proxy(region, { set(t, k, v) { if (k === "textContent") writes.push(v); t[k] = v; return true; } });
  const a = announcer(/** @type {any} */ (watched), { settleMs: 30 });
  for (const href of ["h", "ht", "htt", "http:", "http://x/"]) {
    a.changed();
    a.answered({ ok: true, getters: { href } });
  }
  await new Promise((r) => setTimeout(r, 80));
  assert.deepEqual(writes, ["href: http://x/"]);
  a.changed();
  a.answered({ ok: true, getters: { href: "http://x/" } }); // the same answer again: not said twice
  await new Promise((r) => setTimeout(r, 80));
  assert.deepEqual(writes, ["href: http://x/"]);
});

test("a step's summary: n of m, its state and citation, what it set", () => {
  const s = { state: "scheme state", step: "2.2", changes: { scheme: "https" }, errors: ["special-scheme-missing-following-solidus"] };
  assert.equal(stepSummary(s, 5, 40),
    "step 6 of 40: scheme state, step 2.2; sets scheme; validation error: special-scheme-missing-following-solidus");
  assert.equal(stepSummary({ parser: "host parser", depth: 1, called_by: { algorithm: "host state", step: "3.3" } }, 0, 2),
    "step 1 of 2: host parser, no numbered step; called by host state, step 3.3");
});
