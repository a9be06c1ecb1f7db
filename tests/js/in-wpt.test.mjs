// "Is this in WPT?" (web/js/views/in-wpt.js): the request a state makes, the panel's one line for
// each verdict, entries' names, and what the Copy-as-WPT dialog calls a duplicate (the
// urltestdata.json entry; the Setters lab's operations against setters_tests.json). The answers
// are urlcalc.site.wpt's, written by the Python model in this run. And when the panel asks: never
// while closed; at once when opened; then once typing rests (on a mocked clock).
import { mock, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { FOLLOW_REST_MS, InWptView, duplicateOf, entryLabel, wptRequest, wptSummary } from "../../web/js/views/in-wpt.js";
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

/** A panel on a page whose state is `page.state`; `asked`: the inputs of its "wpt" calls. */
function panelOn(page) {
  globalThis.HTMLElement ??= class {}; // (no DOM here: the panel's slot is never found)
  const asked = [];
  const view = new InWptView(/** @type {any} */ ({ querySelector: () => null }), {
    call: async (kind, params) => {
      asked.push(`${kind} ${params.input}`);
      return { result: exact };
    },
    state: () => page.state,
    report: () => {},
  });
  return { view, asked };
}

test("closed, the panel asks nothing, however long the input rests; nor says anything ahead", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const page = { state: pageState("input=http%3A%2F%2Fa%2F") };
    const { view, asked } = panelOn(page);
    view.update(page.state);
    mock.timers.tick(FOLLOW_REST_MS * 10);
    assert.deepEqual(asked, []);
    let said = 0;
    assert.equal(view.prefetch(() => { said++; }), null);
    view.toggled(true);
    assert.equal(view.prefetch(() => { said++; }), null); // open too: it asks after typing rests
    assert.equal(said, 0);
  } finally {
    mock.timers.reset();
  }
});

test("opened, it asks at once; then once typing rests, for the last input; closed, no more", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const page = { state: pageState("input=http%3A%2F%2Fa%2F") };
    const { view, asked } = panelOn(page);
    view.toggled(true);
    assert.deepEqual(asked, ["wpt http://a/"]);
    for (const input of ["http://a/x", "http://a/xy", "http://a/xyz"]) {
      page.state = { ...page.state, input };
      view.update(page.state);
      mock.timers.tick(FOLLOW_REST_MS - 1); // a keystroke before it rests
    }
    assert.deepEqual(asked, ["wpt http://a/"]);
    mock.timers.tick(1);
    assert.deepEqual(asked, ["wpt http://a/", "wpt http://a/xyz"]);
    view.update(page.state); // the same request: not asked again
    mock.timers.tick(FOLLOW_REST_MS);
    assert.equal(asked.length, 2);
    // closed while a lookup waits: it is dropped, and typing asks nothing
    page.state = { ...page.state, input: "http://b/" };
    view.update(page.state);
    view.toggled(false);
    page.state = { ...page.state, input: "http://c/" };
    view.update(page.state);
    mock.timers.tick(FOLLOW_REST_MS * 10);
    assert.equal(asked.length, 2);
    // open on another view's tab (the Components view not shown): nothing either
    view.toggled(true);
    assert.deepEqual(asked.slice(2), ["wpt http://c/"]);
    page.state = { ...page.state, view: "editions", input: "http://d/" };
    view.update(page.state);
    mock.timers.tick(FOLLOW_REST_MS * 10);
    assert.equal(asked.length, 3);
  } finally {
    mock.timers.reset();
  }
});
