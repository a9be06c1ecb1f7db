// The form calculator's table of name-value pairs is bounded by the page's one limit on what it
// shows (MAX_SHOWN_CODE_POINTS): a 63 KB query prefilled from the page's URL is thousands of
// pairs, and a row each made 140,000 elements (tests/browser/test_responsive.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { shownPairs } from "../../web/js/views/calculators.js";
import { MAX_SHOWN_CODE_POINTS } from "../../web/js/facts.js";

test("shownPairs keeps the first pairs within the limit, counting = and & as the query has them", () => {
  assert.equal(shownPairs([]), 0);
  assert.equal(shownPairs([["a", "1"], ["b", "2"]]), 2);
  // "a=1&" is 4 code points: 10 of them fill 40
  const many = Array.from({ length: 5_000 }, () => ["a", "1"]);
  assert.equal(shownPairs(many, 40), 10);
  assert.equal(shownPairs(many, 41), 10);
  assert.equal(shownPairs(many), MAX_SHOWN_CODE_POINTS / 4);
  // code points, not UTF-16 units: an astral name counts once
  assert.equal(shownPairs([["😀", ""], ["😀", ""]], 6), 2);
  assert.equal(shownPairs([["😀", ""], ["😀", ""]], 5), 1);
  // the first pair always (its cells are cut where every string is)
  assert.equal(shownPairs([["x".repeat(70_000), ""], ["b", ""]]), 1);
});
