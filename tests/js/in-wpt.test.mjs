// "Is this in WPT?" (web/js/views/in-wpt.js): the request a state makes, the panel's one line for
// each verdict, entries' names, and what the Copy-as-WPT dialog calls a duplicate (the
// urltestdata.json entry; the Setters lab's operations against setters_tests.json). The answers
// are urlcalc.site.wpt's, written by the Python model in this run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { duplicateOf, entryLabel, wptRequest, wptSummary } from "../../web/js/views/in-wpt.js";
import { pageState } from "../../web/js/state/page-state.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The model's answers to these [input, base] pairs. */
function answers(pairs) {
  const code = "import json, sys\nfrom urlcalc.site.wpt import wpt_model\n" +
    "print(json.dumps([wpt_model(i, b) for i, b in json.loads(sys.argv[1])]))";
  return JSON.parse(execFileSync(path.join(ROOT, ".venv", "bin", "python"), ["-c", code, JSON.stringify(pairs)],
    { cwd: ROOT, encoding: "utf-8" }));
}

const [exact, variant, miss, setters] = answers([
  ["http://a b/", null], ["HTTP://EXAMPLE.COM/%66oo", null], ["http://1.2.3.4.5.6/", null], ["http://example.com/", null],
]);

test("the request: input, and base only when there is one; nothing over the limit", () => {
  assert.deepEqual(wptRequest(pageState("input=http%3A%2F%2Fa%2F")), { kind: "wpt", params: { input: "http://a/" } });
  assert.deepEqual(wptRequest(pageState("input=x&base=http%3A%2F%2Fb%2F")).params, { input: "x", base: "http://b/" });
  assert.equal(wptRequest({ ...pageState(""), input: "x".repeat(70000) }), null);
});

test("the panel's line: exactly, modulo case and percent-encoding, or the nearest", () => {
  assert.equal(wptSummary(exact), `In WPT: exactly (urltestdata.json #${exact.exact[0].index})`);
  assert.match(wptSummary(variant), /^In WPT: modulo ASCII case and percent-encoding \(urltestdata\.json #\d+\)$/);
  assert.equal(wptSummary(miss), "Not in WPT; nearest: " + miss.nearest.slice(0, 3).map(entryLabel).join(", "));
  assert.equal(wptSummary({ ...miss, nearest: [] }), "Not in WPT");
});

test("entry names: the file and its index, and the setter for setters_tests.json", () => {
  const s = setters.setters.find((e) => e.setter === "host");
  assert.equal(entryLabel(s), `setters_tests.json host #${s.index}`);
  assert.equal(entryLabel(exact.exact[0]), `urltestdata.json #${exact.exact[0].index}`);
});

test("a duplicate: the same input and base, not a variant; a setter with the same value", () => {
  assert.equal(duplicateOf(exact), `urltestdata.json #${exact.exact[0].index}`);
  assert.equal(duplicateOf(variant), null);
  assert.equal(duplicateOf(miss), null);
  assert.equal(duplicateOf(null), null);
  const s = setters.setters.find((e) => e.setter === "host");
  assert.equal(duplicateOf(setters, [["host", s.new_value]]), entryLabel(s));
  assert.equal(duplicateOf(setters, [["host", "never.a.wpt.value.invalid"]]), null);
  assert.equal(duplicateOf(setters, [["hash", s.new_value]]) === entryLabel(s), false);
});
