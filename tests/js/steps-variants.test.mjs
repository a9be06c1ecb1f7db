// The Steps view's citations under a variant (web/js/views/steps.js): a step that ran with a
// change of the standard undone shows a badge ("as before 4bf85a0") and the step's old words,
// said apart from today's (the trace's `variants`, urlcalc.history.cite).
import { test } from "node:test";
import assert from "node:assert/strict";

import { variantCitations, variantsHtml } from "../../web/js/views/steps.js";

const HASH = {
  parser: "setter", algorithm: "hash setter", state: "hash setter", step: "1", depth: 0,
  ran: [{ step: "1", outcome: "return" }], outcome: "return",
  variants: [{
    variant: "hash-setter-javascript", commit: "4bf85a0", where: ["hash setter, step 1"],
    date: "2017-02-22", title: "Remove javascript URL special case from the API",
    summary: "the hash setter returned at once when the URL's scheme was \"javascript\"",
    before: [{ where: "hash setter, step 1", text: "If context object's url's scheme is \"javascript\", then return.", source: "url.bs" }],
  }],
};

/** A lit-html template as the markup it draws (its static parts with its values in place,
 * nested; the <wbr> break hints left out). */
function strings(t) {
  if (t === null || t === undefined || typeof t === "symbol") return [];
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.flatMap(strings);
  if (typeof t === "object" && "strings" in t) {
    return [t.strings.map((part, i) => part + (i < t.values.length ? strings(t.values[i]).join("") : "")).join("").replaceAll("<wbr>", "")];
  }
  return [String(t)];
}

test("a step under a change undone: badge, date and title, the old words", () => {
  assert.deepEqual(variantCitations(HASH), [{
    variant: "hash-setter-javascript", badge: "as before 4bf85a0",
    label: "2017-02-22 · Remove javascript URL special case from the API",
    olds: [{ where: "hash setter, step 1", text: "If context object's url's scheme is \"javascript\", then return.", summary: false }],
  }]);
  const text = strings(variantsHtml(HASH)).join("");
  assert.match(text, /as before 4bf85a0/);
  assert.match(text, /the words quoted below it are today's/);
  assert.match(text, /hash setter, step 1, then: /);
  assert.match(text, /If context object's url's scheme is "javascript", then return\./);
});

test("a step the change added, and urlcalc's summary, are marked as such", () => {
  const s = { ...HASH, variants: [{ ...HASH.variants[0], before: [
    { where: "port setter, step 2", text: null, source: "url.bs" },
    { where: "port state, step 2.1.2", text: "no upper bound", source: "variant" }] }] };
  const [c] = variantCitations(s);
  assert.equal(c.olds[0].text, "(no such step before this change: " + HASH.variants[0].summary + ")");
  assert.equal(c.olds[0].summary, true);
  assert.deepEqual(c.olds[1], { where: "port state, step 2.1.2", text: "no upper bound", summary: true });
  assert.match(strings(variantsHtml(s)).join(""), /then \(urlcalc's summary\): /);
});

test("today's standard: no citation, nothing drawn", () => {
  const { variants: _, ...today } = HASH;
  assert.deepEqual(variantCitations(today), []);
  assert.equal(typeof variantsHtml(today), "symbol");
});
