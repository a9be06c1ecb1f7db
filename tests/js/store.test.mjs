// The page's store (web/js/state/store.js): named actions, frozen states, how history takes each
// action, and the lesson's place carried by the state (so Back and Forward bring the lesson bar).
import assert from "node:assert/strict";
import test from "node:test";

import { Store, fullState, sameParse, tooLong } from "../../web/js/state/store.js";
import { DEFAULTS } from "../../web/js/render/share.js";

function recorded(store) {
  const seen = [];
  store.subscribe((state, previous, action) => seen.push({ state, previous, action }));
  return seen;
}

test("a state has every field, defaults where not given, and is frozen", () => {
  const s = fullState({ input: "a:b" });
  for (const key of Object.keys(DEFAULTS)) assert.ok(key in s, key);
  assert.equal(s.input, "a:b");
  assert.equal(s.view, "components");
  assert.equal(s.playing, null);
  assert.ok(Object.isFrozen(s) && Object.isFrozen(s.ops));
  assert.throws(() => { "use strict"; s.input = "x"; }, TypeError);
});

test("actions change the state and say how history takes them", () => {
  const store = new Store({ input: "a" });
  const seen = recorded(store);
  store.dispatch("type", { input: "ab" });
  store.dispatch("selectView", "steps");
  store.dispatch("setOps", [["pathname", "/x"]]);
  store.dispatch("setOpsStructural", [["pathname", "/x"], ["hash", "y"]]);
  store.dispatch("setErrata", true);
  store.dispatch("setPresenter", true);
  store.dispatch("setStep", 4);
  assert.deepEqual(seen.map((e) => [e.action.name, e.action.history]), [
    ["type", "typing"], ["selectView", "push"], ["setOps", "replace"], ["setOpsStructural", "push"],
    ["setErrata", "push"], ["setPresenter", "replace"], ["setStep", "typing"],
  ]);
  const s = store.state;
  assert.deepEqual([s.input, s.view, s.ops.length, s.errata, s.presenter, s.step], ["ab", "steps", 2, true, true, 4]);
  // each change is a new object; the one before is left as it was
  assert.equal(seen[0].previous.input, "a");
  assert.notEqual(seen[0].state, seen[1].state);
});

test("an action that changes nothing calls no listener", () => {
  const store = new Store({ input: "a", ops: [["hash", "x"]] });
  const seen = recorded(store);
  const before = store.state;
  assert.equal(store.dispatch("type", { input: "a" }), before);
  assert.equal(store.dispatch("setOps", [["hash", "x"]]), before);
  assert.equal(seen.length, 0);
});

test("the operations given are copied: the caller's arrays stay the caller's", () => {
  const store = new Store({});
  const ops = [["hash", "x"]];
  store.dispatch("setOps", ops);
  ops[0][1] = "changed";
  assert.equal(store.state.ops[0][1], "x");
  assert.ok(Object.isFrozen(store.state.ops[0]));
});

test("a lesson step carries the lesson's place; restore brings it back", () => {
  const store = new Store({});
  store.dispatch("showLessonStep", { input: "http://a/", view: "steps", step: 2, playing: { id: "mine:1", at: 0 } });
  const first = store.state;
  store.dispatch("showLessonStep", { input: "http://b/", view: "components", step: 0, playing: { id: "mine:1", at: 1 } });
  assert.deepEqual(store.state.playing, { id: "mine:1", at: 1 });
  const seen = recorded(store);
  store.dispatch("restore", JSON.parse(JSON.stringify(first))); // (as history.state holds it)
  assert.equal(seen[0].action.history, "none");
  assert.deepEqual(store.state.playing, { id: "mine:1", at: 0 });
  assert.equal(store.state.input, "http://a/");
  store.dispatch("stopLesson");
  assert.equal(store.state.playing, null);
});

test("sameParse looks at the input, the base and the encoding only", () => {
  const a = fullState({ input: "x", base: "", enc: "" });
  assert.ok(sameParse(a, fullState({ input: "x", view: "steps", ops: [["hash", "y"]] })));
  assert.ok(!sameParse(a, fullState({ input: "x", base: "http://h/" })));
  assert.ok(!sameParse(a, fullState({ input: "x", enc: "shift_jis" })));
});

test("an unknown action is an error, not a silent no-op", () => {
  assert.throws(() => new Store({}).dispatch("nope"), /unknown action/);
});

test("tooLong counts UTF-8 bytes against the model's limit", async () => {
  const { MAX_INPUT_BYTES } = await import("../../web/js/facts.js");
  assert.ok(!tooLong("a".repeat(MAX_INPUT_BYTES)));
  assert.ok(tooLong("a".repeat(MAX_INPUT_BYTES + 1)));
  assert.ok(tooLong("\u00e9".repeat(MAX_INPUT_BYTES / 2 + 1)));
  assert.ok(!tooLong(undefined, null));
});
