// What each view asks the engine for in a state (web/js/views/requests.js).
import assert from "node:assert/strict";
import test from "node:test";

import { fullState } from "../../web/js/state/store.js";
import { compareRequest, implementationsRequest, parseRequest, setRequest } from "../../web/js/views/requests.js";
import { MAX_CELLS } from "../../web/js/render/dom.js";
import { MAX_INPUT_BYTES } from "../../web/js/facts.js";

test("the page's parse: base and encoding only when given, the trace only when drawn", () => {
  assert.deepEqual(parseRequest(fullState({ input: "a:b" }), false), { input: "a:b", max_errors: MAX_CELLS });
  assert.deepEqual(parseRequest(fullState({ input: "x", base: "http://h/", enc: "shift_jis" }), true),
    { input: "x", max_errors: MAX_CELLS, base: "http://h/", encoding: "shift_jis", trace: true });
});

test("the Editions view: errata when chosen, the editions' traces only while details are open", () => {
  const s = fullState({ input: "a\\b", base: "http://h/", errata: true });
  assert.deepEqual(compareRequest(s, false), { kind: "compare", params: { input: "a\\b", base: "http://h/", errata: true, traces: false } });
  assert.deepEqual(compareRequest(fullState({ input: "x" }), true), { kind: "compare", params: { input: "x" } });
});

test("the Implementations view asks the server where there is one", () => {
  assert.deepEqual(implementationsRequest(fullState({ input: "x", base: "http://h/" })),
    { kind: "implementations", params: { input: "x", base: "http://h/" }, options: { prefer: "server" } });
});

test("the Setters lab: its operations, the trace when shown, a refusal over the limit", () => {
  const s = fullState({ input: "http://h/", ops: [["pathname", "/a"]], strace: true });
  assert.deepEqual(setRequest(s), { kind: "set", params: { input: "http://h/", ops: [["pathname", "/a"]], trace: true } });
  assert.deepEqual(setRequest(fullState({ input: "http://h/" })), { kind: "set", params: { input: "http://h/", ops: [] } });
  const long = setRequest(fullState({ input: "http://h/", ops: [["hash", "x".repeat(MAX_INPUT_BYTES + 1)]] }));
  assert.ok("refuse" in long && /over 64 KiB/.test(long.refuse));
});
