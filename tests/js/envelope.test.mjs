// The one envelope of every answer, {id, status, body} (urlcalc/answers/answer.py): how the page
// reads it (engine.js outcomeOf) and how the server relay makes and reads it
// (server-relay-worker.js: the socket's messages, HTTP answers, its own failures).
import { test } from "node:test";
import assert from "node:assert/strict";

import { outcomeOf } from "../../web/js/engine/engine.js";
import {
  MAX_SOCKET_MESSAGE_BYTES, NO_ANSWER, NO_ANSWER_IN_TIME, failed, fitsSocket, headOf, httpEnvelope,
} from "../../web/js/workers/server-relay-worker.js";

test("outcomeOf: status 200 is the answer, any other an error with body.error", () => {
  const result = { model: "urlcalc", kind: "parse", error: "a member named error is still a result" };
  assert.deepEqual(outcomeOf({ id: 1, status: 200, body: result }, "pyodide"), { result });
  assert.deepEqual(outcomeOf({ id: 1, status: 200, body: result }, "relay"), { result });
  for (const status of [400, 404, 413]) {
    assert.deepEqual(outcomeOf({ id: 1, status, body: { error: "no" } }, "relay"), { error: "no" });
  }
  // from the worker every other status is an error (500: a bug; 503: Pyodide did not boot)
  for (const status of [500, 503]) {
    assert.deepEqual(outcomeOf({ id: 1, status, body: { error: "bug" } }, "pyodide"), { error: "bug" });
  }
  assert.deepEqual(outcomeOf({ id: 1, status: 400, body: {} }, "pyodide"),
    { error: "status 400 without an error message" });
});

test("outcomeOf: from the relay, 500 and up (its own failures too) send the page to HTTP", () => {
  for (const status of [500, 502, 503, NO_ANSWER, NO_ANSWER_IN_TIME]) {
    assert.deepEqual(outcomeOf({ id: 1, status, body: { error: "x" } }, "relay"), { askServer: true });
  }
  assert.deepEqual(outcomeOf({ id: 1, body: {} }, "relay"), { askServer: true }); // no status
  assert.equal(NO_ANSWER, 502);
  assert.equal(NO_ANSWER_IN_TIME, 504);
});

test("headOf: id and status from the envelope's first bytes, or from the whole of it", () => {
  assert.deepEqual(headOf('{"id":7,"status":200,"body":{"a":1}}'), { id: 7, status: 200 });
  assert.deepEqual(headOf('{"id":-3,"status":404,"body":{"error":"x"}}'), { id: -3, status: 404 });
  assert.deepEqual(headOf('{"id":"a\\"b","status":400,"body":{}}'), { id: 'a"b', status: 400 });
  assert.deepEqual(headOf('{"id":null,"status":400,"body":{"error":"JSON"}}'), { id: null, status: 400 });
  // the body is not parsed when the head is read from the first bytes (it may be large)
  assert.deepEqual(headOf('{"id":1,"status":200,"body":not parsed'), { id: 1, status: 200 });
  // another member order: parsed whole
  assert.deepEqual(headOf('{ "status": 200, "id": 2, "body": {} }'), { id: 2, status: 200 });
  assert.equal(headOf('{"id": 1, "status": 200}\n{}'), null); // the old two-part answer
  assert.equal(headOf("nonsense"), null);
  assert.equal(headOf('{"id":1}'), null);
});

test("httpEnvelope: an HTTP answer's status and JSON body, as they came", () => {
  const ok = httpEnvelope(4, 200, "application/json; charset=utf-8", '{"model":"urlcalc"}');
  assert.equal(ok, '{"id":4,"status":200,"body":{"model":"urlcalc"}}');
  assert.deepEqual(JSON.parse(httpEnvelope(4, 400, "application/json", '{"error":"bad"}')),
    { id: 4, status: 400, body: { error: "bad" } });
  assert.deepEqual(JSON.parse(httpEnvelope(4, 503, "application/json", '{"error":"busy"}')).status, 503);
  // not JSON (a proxy's page): the status stays, the body says so; a 200 of it is no answer
  assert.deepEqual(JSON.parse(httpEnvelope(4, 404, "text/html", "<h1>")),
    { id: 4, status: 404, body: { error: "HTTP 404 without JSON" } });
  assert.equal(JSON.parse(httpEnvelope(4, 200, "text/html", "<h1>")).status, NO_ANSWER);
  assert.equal(JSON.parse(httpEnvelope(4, 200, null, "")).status, NO_ANSWER);
});

test("failed: the relay's own failure is an envelope with a status and an error", () => {
  assert.deepEqual(JSON.parse(failed(9, NO_ANSWER_IN_TIME, "none within 10 s")),
    { id: 9, status: 504, body: { error: "the server relay got no answer: none within 10 s" } });
});

test("fitsSocket: UTF-8 bytes within the socket's message limit, with room for id and kind", () => {
  assert.equal(MAX_SOCKET_MESSAGE_BYTES, 16 * 1024); // urlcalc/model/limits.py, via facts.js
  assert.equal(fitsSocket('{"input":"x"}'), true);
  assert.equal(fitsSocket("a".repeat(16000)), true);
  assert.equal(fitsSocket("a".repeat(16 * 1024)), false);
  assert.equal(fitsSocket("\u00e9".repeat(7000)), true); // 14000 bytes
  assert.equal(fitsSocket("\u00e9".repeat(8100)), false); // 16200 bytes
});

test("refusedHere: a compare or implementations request over its limit is refused in the page", async () => {
  const { refusedHere } = await import("../../web/js/engine/engine.js");
  const { MAX_COMPARED_CHARS } = await import("../../web/js/facts.js");
  const at = MAX_COMPARED_CHARS.compare;
  assert.equal(refusedHere("compare", { input: "a".repeat(at) }), null);
  assert.equal(refusedHere("compare", { input: "a".repeat(at + 1) }),
    `field 'input' is too long to compare: ${at + 1} code points (at most ${at})`);
  // code points, not UTF-16 units: at astral characters are 2 * at units, and allowed
  assert.equal(refusedHere("compare", { input: "\u{1F600}".repeat(at) }), null);
  assert.match(refusedHere("implementations", { input: "x", base: "b".repeat(MAX_COMPARED_CHARS.implementations + 1) }), /^field 'base' is too long/);
  assert.equal(refusedHere("parse", { input: "a".repeat(100000) }), null); // the model's own limit
});
