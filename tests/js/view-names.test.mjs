// The views' names (web/js/state/view-names.js) agree with the tabs of web/index.html, old names
// still open their view, and a fragment becomes the page's state (web/js/state/page-state.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { LESSON_VIEWS, VIEWS, viewNamed } from "../../web/js/state/view-names.js";
import { DEFAULT_INPUT, pageState } from "../../web/js/state/page-state.js";

const INDEX = readFileSync(new URL("../../web/index.html", import.meta.url), "utf8");

test("the views, in tab order (keys 1 to 9, then 0; History: h, Survey: s)", () => {
  assert.deepEqual(VIEWS, ["components", "steps", "resolution", "setters", "validation", "editions",
    "implementations", "calculators", "examples", "lessons", "history", "survey"]);
  assert.deepEqual(LESSON_VIEWS, VIEWS.filter((v) => v !== "lessons" && v !== "survey"));
});

test("each tab: its label, tab id, panel id and data-view say the view's name", () => {
  const tabs = [...INDEX.matchAll(/<button role="tab"([^>]*)>([^<]*)<\/button>/g)].map(([, attrs, label]) => ({
    id: /\bid="([^"]*)"/.exec(attrs)[1],
    controls: /\baria-controls="([^"]*)"/.exec(attrs)[1],
    view: /\bdata-view="([^"]*)"/.exec(attrs)[1],
    label,
  }));
  assert.deepEqual(tabs.map((t) => t.view), VIEWS);
  for (const t of tabs) {
    assert.equal(t.id, "tab-" + t.view);
    assert.equal(t.controls, "panel-" + t.view);
    assert.match(INDEX, new RegExp(`<section role="tabpanel" id="panel-${t.view}" aria-labelledby="tab-${t.view}"`));
  }
  assert.deepEqual(tabs.map((t) => t.label), ["Components", "Steps", "Resolution", "Setters lab", "Validation",
    "Editions", "Implementations", "Calculators", "Examples", "Lessons", "History", "Survey"]);
  // the help dialog lists the same labels for the number keys
  assert.match(INDEX, /switch view \(Components, Steps, Resolution, Setters lab, Validation, Editions, Implementations, Calculators, Examples, Lessons\)/);
});

test("viewNamed: current names, old names (view=compare was the Browser view), nothing else", () => {
  for (const v of VIEWS) assert.equal(viewNamed(v), v);
  assert.equal(viewNamed("compare"), "implementations");
  for (const v of ["Browser", "browser", "Editions", "", "__proto__", "toString", "constructor"]) {
    assert.equal(viewNamed(v), null, v);
  }
  assert.equal(viewNamed(undefined), null);
  assert.equal(viewNamed(["editions"]), null);
});

test("pageState: an old permalink opens its view; unknown views, labels and operations are cleaned", () => {
  assert.equal(pageState("input=x&view=compare").view, "implementations");
  assert.equal(pageState("input=x&view=editions").view, "editions");
  assert.equal(pageState("input=x&view=browser").view, "components");
  assert.equal(pageState("input=x&view=__proto__").view, "components");
  const s = pageState("input=a&enc=WINDOWS-1252&pctenc=utf8&ops=" +
    encodeURIComponent(JSON.stringify([["port", "81"], ["eval", "x"], ["searchParams.sort", ""]])));
  assert.equal(s.input, "a");
  assert.equal(s.enc, "windows-1252"); // as the select names it
  assert.equal(pageState("input=a&enc=latin1").enc, ""); // a label, not a name: the default
  assert.equal(s.pctenc, ""); // UTF-8: the default
  assert.deepEqual(s.ops, [["port", "81"], ["searchParams.sort", ""]]);
});

test("pageState: no input= in the fragment is the page's default input; input= (empty) is empty", () => {
  assert.equal(pageState("").input, DEFAULT_INPUT);
  assert.equal(pageState("view=steps").input, DEFAULT_INPUT);
  assert.equal(pageState("input=").input, "");
  assert.equal(DEFAULT_INPUT, "HTTPS://user@EXAMPLE.com:443/a/./b/../%7Ec?q=1#top");
});
