// The History view's pure parts (issue 27): the word diff of the spec text (web/js/views/history.js),
// the days of its slider and the permalink's asof (web/js/state/as-of.js, page-state.js, share.js),
// its request (views/requests.js) and the line that says what urlcalc cannot undo yet.
import { test } from "node:test";
import assert from "node:assert/strict";

import { notUndoableLine, timelinePlace, timelineYears, wordDiff } from "../../web/js/views/history.js";
import { FIRST_DAY, dayAt, dayIndex, today, validAsOf } from "../../web/js/state/as-of.js";
import { pageState } from "../../web/js/state/page-state.js";
import { fullState } from "../../web/js/state/store.js";
import { stateToFragment } from "../../web/js/render/share.js";
import { historyRequest } from "../../web/js/views/requests.js";
import { refusedHere } from "../../web/js/engine/answers.js";
import { MAX_COMPARED_CHARS } from "../../web/js/facts.js";

const join = (pieces) => pieces.map((p) => p.text).join("");

test("wordDiff: the changed words marked, each side whole", () => {
  const before = "U+003A (:), U+003F (?), U+0040 (@), or U+005D (]).";
  const after = "U+003A (:), U+003C (<), U+003E (>), U+003F (?), U+0040 (@), U+005D (]), or U+005E (^).";
  const d = wordDiff(before, after);
  assert.equal(join(d.before), before);
  assert.equal(join(d.after), after);
  assert.ok(d.before.every((p) => p.op !== "ins") && d.after.every((p) => p.op !== "del"));
  const ins = d.after.filter((p) => p.op === "ins").map((p) => p.text).join("|");
  assert.match(ins, /U\+003C \(<\), U\+003E \(>\), /);
  assert.match(ins, /U\+005E \(\^\)/);
  assert.deepEqual(wordDiff("a b", "a b"), { before: [{ op: "same", text: "a b" }], after: [{ op: "same", text: "a b" }] });
  assert.deepEqual(wordDiff(null, "new step"), { before: [], after: [{ op: "ins", text: "new step" }] });
  assert.deepEqual(wordDiff("old step", null), { before: [{ op: "del", text: "old step" }], after: [] });
  const long = "w ".repeat(2000);
  assert.deepEqual(wordDiff(long, long + "x").after, [{ op: "ins", text: long + "x" }]);
});

test("the slider's days: 2015-01-01 to today, asof checked", () => {
  assert.equal(FIRST_DAY, "2015-01-01");
  assert.equal(dayIndex(FIRST_DAY), 0);
  assert.equal(dayAt(dayIndex("2019-12-31")), "2019-12-31");
  assert.equal(dayAt(dayIndex("2020-02-29") + 1), "2020-03-01");
  assert.equal(today(new Date("2026-11-27T23:59:00Z")), "2026-11-27");
  assert.equal(validAsOf("2019-12-31", "2026-11-27"), "2019-12-31");
  for (const bad of ["2014-12-31", "2014-02-30", "2019-02-29", "2027-01-01", "2019-1-1", "x", 7, null]) {
    assert.equal(validAsOf(bad, "2026-11-27"), "", String(bad));
  }
  assert.deepEqual(timelineYears("2016-05-01"), [2014, 2015, 2016]);
  assert.equal(timelinePlace("2014-01-01", "2020-01-01"), 0);
  assert.equal(timelinePlace("2030-01-01", "2020-01-01"), 1);
});

test("asof in the permalink: written when chosen, read back, a bad one dropped; the request", () => {
  const s = fullState({ input: "sc://a<b/", view: "history", asof: "2019-12-31" });
  const f = stateToFragment(s);
  assert.equal(f, "input=sc%3A%2F%2Fa%3Cb%2F&view=history&asof=2019-12-31");
  assert.equal(pageState(f).asof, "2019-12-31");
  assert.equal(pageState(f).view, "history");
  assert.equal(pageState("input=x&asof=2019-13-01").asof, "");
  assert.ok(!stateToFragment(fullState({ input: "x" })).includes("asof"));
  assert.deepEqual(historyRequest(s), { kind: "history", params: { input: "sc://a<b/", as_of: "2019-12-31" } });
  assert.deepEqual(historyRequest(fullState({ input: "a", base: "http://b/" })), { kind: "history", params: { input: "a", base: "http://b/" } });
  // an input longer than the history reads is refused where every request is (engine/answers.js
  // refusedHere, from facts.js MAX_COMPARED_CHARS.history: urlcalc.model.limits.MAX_HISTORY_CHARS)
  const long = historyRequest(fullState({ input: "a".repeat(MAX_COMPARED_CHARS.history + 1) }));
  assert.equal(long.kind, "history");
  assert.match(String(refusedHere(long.kind, long.params)), /too long to compare/);
  const fits = historyRequest(fullState({ input: "a".repeat(MAX_COMPARED_CHARS.history) }));
  assert.equal(refusedHere(fits.kind, fits.params), null);
});

test("the cannot-undo line: never an empty timeline read as 'always meant this'", () => {
  const line = notUndoableLine({ changes: [], undoable: 69, normative_since_2015: 106 });
  assert.match(line, /^37 changes of the 106 normative changes to the URL Standard since 2015 urlcalc cannot undo yet/);
  assert.match(line, /an empty timeline does not mean/);
  assert.match(line, /The other 69 changes urlcalc can undo leave this input's result as it is\./);
  assert.match(notUndoableLine({ changes: [1], undoable: 2, normative_since_2015: 3 }), /^1 change of the 3 .* its effect .* other 1 change /);
});
