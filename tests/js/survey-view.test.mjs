// The Survey view's pure parts (issue 30, web/js/views/survey.js): reading a report (what a
// malformed or foreign file is told), rates with their denominators as the Markdown report
// writes them, the pasted URLs as the "survey" request reads them and the page's limit, the
// same-origin rule for report=<url>, what an example opens, the filter; and the permalink's
// view=survey&report=<url>.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  exampleTarget, filterBuckets, isCut, rateText, readReport, reportURL, surveyLines, surveyRefusal,
} from "../../web/js/views/survey.js";
import { pageState } from "../../web/js/state/page-state.js";
import { stateToFragment } from "../../web/js/render/share.js";
import { MAX_SURVEY_URLS } from "../../web/js/facts.js";

const REPORT = {
  report: "urlcalc survey", version: 1,
  meta: { sources: ["a.txt"], base: "http://b/", options: {}, urlcalc_version: "0.1.0", started: null, finished: null, partitions: 1 },
  denominators: { lines: 5, urls: 4, parsed: 3, failed: 1, unreadable: 1 },
  families: [
    { family: "outcome", title: "Parses or fails", denominator: "urls", buckets: [
      { key: "parses", count: 3, rate: 0.75, examples: ["a", "http://a/"] },
      { key: "fails", count: 1, rate: 0.25, examples: ["http://a b/"] }] },
    { family: "unreadable", title: "Unreadable lines", denominator: "lines", buckets: [
      { key: "NUL", count: 1, rate: 0.2, examples: ["a.txt:3"] }] },
  ],
};
const copy = () => JSON.parse(JSON.stringify(REPORT));

test("readReport: a report reads; a foreign or malformed one says why", () => {
  assert.equal(readReport(copy()).denominators.urls, 4);
  assert.throws(() => readReport({ hello: 1 }), /not a urlcalc survey report/);
  assert.throws(() => readReport(null), /not a urlcalc survey report/);
  assert.throws(() => readReport({ ...copy(), version: 2 }), /version 2/);
  const noDen = copy();
  delete noDen.denominators.failed;
  assert.throws(() => readReport(noDen), /denominator failed/);
  const badBucket = copy();
  badBucket.families[0].buckets[0].examples = [1];
  assert.throws(() => readReport(badBucket), /bucket of outcome/);
  const badFamily = copy();
  badFamily.families[0].denominator = "everything";
  assert.throws(() => readReport(badFamily), /malformed/);
});

test("rateText: count of denominator, with the percentage (as the Markdown report)", () => {
  assert.equal(rateText(1234, 98765), "1,234 of 98,765 URLs (1.25%)");
  assert.equal(rateText(1, 1000000, "lines"), "1 of 1,000,000 lines (<0.01%)");
  assert.equal(rateText(0, 0), "0 of 0 URLs (0.00%)");
});

test("surveyLines and the page's limit (facts.js MAX_SURVEY_URLS)", () => {
  assert.deepEqual(surveyLines("http://a/\r\n\n  \nx\r\n\u2028y\n"), ["http://a/", "x", "\u2028y"]);
  assert.equal(surveyRefusal(""), "Paste URLs (one a line) or pick a text file first.");
  assert.equal(surveyRefusal("x\n".repeat(MAX_SURVEY_URLS)), "");
  assert.match(surveyRefusal("x\n".repeat(MAX_SURVEY_URLS + 1)), /10,001 URLs: the page surveys at most 10,000/);
});

test("reportURL: only the page's own origin", () => {
  const page = "http://127.0.0.1:8000/?x#view=survey";
  assert.equal(reportURL("/reports/r.json", page), "http://127.0.0.1:8000/reports/r.json");
  assert.equal(reportURL("r.json", page), "http://127.0.0.1:8000/r.json");
  assert.equal(reportURL("https://evil.example/r.json", page), null);
  assert.equal(reportURL("//evil.example/r.json", page), null);
  assert.equal(reportURL("javascript:alert(1)", page), null);
  assert.equal(reportURL("data:application/json,{}", page), null);
  assert.equal(reportURL("http://[", page), null);
});

test("exampleTarget: the example with the survey's base; never a cut one or an unreadable line's place", () => {
  const r = readReport(copy());
  assert.deepEqual(exampleTarget("http://a b/", "outcome", r), { input: "http://a b/", base: "http://b/" });
  assert.equal(exampleTarget("a.txt:3", "unreadable", r), null);
  const cut = "x".repeat(2048) + "… (5000 code points)";
  assert.ok(isCut(cut));
  assert.equal(exampleTarget(cut, "outcome", r), null);
  assert.ok(!isCut("http://a/… (3 code points)"), "a URL that only looks cut is opened");
  const noBase = copy();
  noBase.meta.base = null;
  assert.deepEqual(exampleTarget("a", "outcome", readReport(noBase)), { input: "a", base: "" });
});

test("filterBuckets: by key or example, case-insensitive", () => {
  const f = REPORT.families[0];
  assert.deepEqual(filterBuckets(f, "").map((b) => b.key), ["parses", "fails"]);
  assert.deepEqual(filterBuckets(f, "FAIL").map((b) => b.key), ["fails"]);
  assert.deepEqual(filterBuckets(f, "a b").map((b) => b.key), ["fails"]);
});

test("the permalink: view=survey&report=<url>", () => {
  const s = pageState("view=survey&report=%2Freports%2Fr.json");
  assert.equal(s.view, "survey");
  assert.equal(s.report, "/reports/r.json");
  assert.ok(stateToFragment(s).endsWith("&view=survey&report=%2Freports%2Fr.json"));
  assert.equal(pageState("").report, "");
});
