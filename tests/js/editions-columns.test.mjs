// The Editions view's extra columns of the URL Standard (issue 27, item 4): the permalink's cols=
// (web/js/state/columns.js, page-state.js, share.js), the "compare" request's as_of and without
// (views/requests.js), the header's link to the History view (views/editions.js); and the History
// view's folded line (views/history.js foldLine).
import { test } from "node:test";
import assert from "node:assert/strict";

import { addColumn, columnParams, readColumns, removeColumn, validColumns } from "../../web/js/state/columns.js";
import { pageState } from "../../web/js/state/page-state.js";
import { fullState } from "../../web/js/state/store.js";
import { stateToFragment } from "../../web/js/render/share.js";
import { compareRequest } from "../../web/js/views/requests.js";
import { historyFragment } from "../../web/js/views/editions.js";
import { foldLine } from "../../web/js/views/history.js";
import { MAX_AS_OF_COLUMNS, VARIANTS } from "../../web/js/facts.js";

const LAST = "2026-07-02";
const CARET = "hosts-forbid-lt-gt-caret";

test("the variants and the limit come from facts.js", () => {
  assert.equal(MAX_AS_OF_COLUMNS, 3);
  assert.ok(VARIANTS.some(([name, sha]) => name === CARET && sha === "302ba41"));
});

test("cols=: real days in order, at most MAX_AS_OF_COLUMNS, one known change, the rest dropped", () => {
  assert.deepEqual(readColumns("2019-01-01,without:" + CARET, LAST),
    [{ kind: "as_of", day: "2019-01-01" }, { kind: "without", change: CARET }]);
  assert.equal(validColumns("2019-02-30,nonsense,2019-01-01,2019-01-01,without:nope,2027-01-01,2014-06-01", LAST), "2019-01-01");
  assert.equal(validColumns("2016-01-01,2017-01-01,2018-01-01,2019-01-01", LAST), "2016-01-01,2017-01-01,2018-01-01");
  assert.equal(validColumns(42, LAST), "");
  assert.equal(validColumns("without:" + CARET + ",2020-01-01", LAST), "2020-01-01,without:" + CARET);
});

test("adding and removing columns", () => {
  let cols = addColumn("", { kind: "as_of", day: "2019-01-01" }, LAST);
  assert.equal(cols, "2019-01-01");
  cols = addColumn(cols, { kind: "without", change: CARET }, LAST);
  assert.equal(cols, "2019-01-01,without:" + CARET);
  assert.equal(addColumn(cols, { kind: "as_of", day: "2019-01-01" }, LAST), cols); // already there
  cols = addColumn(cols, { kind: "without", change: "path-percent-encode-caret" }, LAST); // replaces
  assert.equal(cols, "2019-01-01,without:path-percent-encode-caret");
  cols = addColumn(addColumn(cols, { kind: "as_of", day: "2020-01-01" }, LAST), { kind: "as_of", day: "2021-01-01" }, LAST);
  cols = addColumn(cols, { kind: "as_of", day: "2022-01-01" }, LAST); // the oldest added goes
  assert.equal(cols, "2020-01-01,2021-01-01,2022-01-01,without:path-percent-encode-caret");
  assert.equal(removeColumn(cols, "as_of:2021-01-01", LAST), "2020-01-01,2022-01-01,without:path-percent-encode-caret");
  assert.equal(removeColumn(cols, "without:path-percent-encode-caret", LAST), "2020-01-01,2021-01-01,2022-01-01");
});

test("the permalink keeps cols=, and the comparison asks for them", () => {
  const state = fullState({ input: "http://a<b/", view: "editions", cols: "2019-01-01,without:" + CARET });
  const fragment = stateToFragment(state);
  assert.match(fragment, /cols=2019-01-01%2Cwithout%3Ahosts-forbid-lt-gt-caret/);
  assert.equal(pageState(fragment).cols, "2019-01-01,without:" + CARET);
  assert.equal(pageState("input=x&cols=%3Cscript%3E").cols, "");
  assert.deepEqual(compareRequest(state, false).params,
    { input: "http://a<b/", traces: false, as_of: "2019-01-01", without: CARET });
  assert.deepEqual(compareRequest(fullState({ input: "x" }), true).params, { input: "x" });
  assert.deepEqual(columnParams("2019-01-01,2020-01-01", LAST), { as_of: "2019-01-01,2020-01-01" });
});

test("a column's header opens the History view on its day", () => {
  const state = fullState({ input: "http://a<b/", view: "editions", cols: "2019-01-01" });
  const onDay = pageState(historyFragment(state, { kind: "as_of", key: "2019-01-01" }));
  assert.equal(onDay.view, "history");
  assert.equal(onDay.asof, "2019-01-01");
  assert.equal(onDay.input, "http://a<b/");
  const without = pageState(historyFragment({ ...state, asof: "2018-01-01" }, { kind: "without", key: CARET }));
  assert.equal(without.view, "history");
  assert.equal(without.asof, "");
});

test("foldLine: the count of the changes that leave the input as it is", () => {
  assert.equal(foldLine({ changes: [1, 2], unchanged: new Array(48) }), "48 other changes do not change this input");
  assert.equal(foldLine({ changes: [], unchanged: new Array(75) }), "75 changes do not change this input");
  assert.equal(foldLine({ changes: [1], unchanged: [1] }), "1 other change does not change this input");
});
