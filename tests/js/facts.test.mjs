// The Python package's facts as the page reads them (web/js/facts.js, written by
// `python -m urlcalc.site.webfacts`; tests/test_webfacts.py checks that it is current). Values by hand.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as facts from "../../web/js/facts.js";

test("the getters and the Setters lab's operations", () => {
  assert.deepEqual(facts.GETTERS, ["href", "origin", "protocol", "username", "password", "host", "hostname",
    "port", "pathname", "search", "hash"]);
  // the setters (every getter but origin), then the searchParams methods
  assert.deepEqual(facts.OPERATIONS, ["href", "protocol", "username", "password", "host", "hostname", "port",
    "pathname", "search", "hash", "searchParams.append", "searchParams.set", "searchParams.delete",
    "searchParams.sort"]);
});

test("the limits, the encodings and the percent-encode sets", () => {
  assert.equal(facts.MAX_INPUT_BYTES, 64 * 1024);
  assert.equal(facts.MAX_OPS, 64);
  assert.equal(facts.ENCODINGS.length, 40);
  assert.equal(facts.ENCODINGS[0], "UTF-8");
  assert.ok(facts.ENCODINGS.includes("Shift_JIS") && facts.ENCODINGS.includes("x-user-defined"));
  assert.deepEqual(facts.ENCODE_SETS, ["C0 control percent-encode set", "fragment percent-encode set",
    "query percent-encode set", "special-query percent-encode set", "path percent-encode set",
    "userinfo percent-encode set", "component percent-encode set",
    "application/x-www-form-urlencoded percent-encode set"]);
});

test("anchors: every operation and trace parser has one; the module cannot be changed at run time", () => {
  assert.deepEqual(Object.keys(facts.OPERATION_ANCHORS), facts.OPERATIONS);
  assert.equal(facts.OPERATION_ANCHORS.protocol, "dom-url-protocol");
  assert.equal(facts.PARSER_ANCHORS.url, "concept-basic-url-parser");
  assert.equal(facts.PARSER_ANCHORS["opaque-host"], "concept-opaque-host-parser");
  assert.ok(Object.isFrozen(facts.GETTERS) && Object.isFrozen(facts.PARSER_ANCHORS));
  assert.throws(() => { "use strict"; facts.GETTERS.push("x"); }, TypeError);
});
