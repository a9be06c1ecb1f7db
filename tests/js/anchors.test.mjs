// Links into the URL Standard: the anchor of each trace step and validation error
// (web/js/views/steps.js with the anchors of web/js/facts.js, dom.js). Expected anchors are
// url.spec.whatwg.org's ids, by hand.
import { test } from "node:test";
import assert from "node:assert/strict";

import { stepAnchor } from "../../web/js/views/steps.js";
import { errorAnchor } from "../../web/js/render/dom.js";
import { decodeEscapes, encodeEscapes } from "../../web/js/render/escapes.js";

test("stepAnchor: URL parser states, setters and sub-parsers", () => {
  assert.equal(stepAnchor({ parser: "url", anchor: "scheme-start-state" }), "scheme-start-state");
  assert.equal(stepAnchor({ parser: "url", anchor: "port-state" }), "port-state");
  // an anchor that is not a plain id is never used: the parser's own anchor instead
  assert.equal(stepAnchor({ parser: "url", anchor: "x\" onclick=\"y" }), "concept-basic-url-parser");
  assert.equal(stepAnchor({ parser: "url", anchor: "javascript:alert(1)" }), "concept-basic-url-parser");
  assert.equal(stepAnchor({ parser: "url" }), "concept-basic-url-parser");
  assert.equal(stepAnchor({ parser: "setter", state: "port setter" }), "dom-url-port");
  assert.equal(stepAnchor({ parser: "setter", state: "hash setter" }), "dom-url-hash");
  assert.equal(stepAnchor({ parser: "setter", state: "pathname setter" }), "dom-url-pathname");
  assert.equal(stepAnchor({ parser: "setter", state: "searchParams.append" }), "dom-urlsearchparams-append");
  assert.equal(stepAnchor({ parser: "setter", state: "searchParams.sort" }), "dom-urlsearchparams-sort");
  assert.equal(stepAnchor({ parser: "setter", state: "origin setter" }), "urlutils-members"); // no such setter
  assert.equal(stepAnchor({ parser: "setter", state: "constructor setter" }), "urlutils-members");
  assert.equal(stepAnchor({ parser: "host" }), "concept-host-parser");
  assert.equal(stepAnchor({ parser: "ipv4" }), "concept-ipv4-parser");
  assert.equal(stepAnchor({ parser: "ipv4-number" }), "ipv4-number-parser");
  assert.equal(stepAnchor({ parser: "ipv6" }), "concept-ipv6-parser");
  assert.equal(stepAnchor({ parser: "opaque-host" }), "concept-opaque-host-parser");
  assert.equal(stepAnchor({ parser: "uts46" }), "concept-domain-to-ascii");
  assert.equal(stepAnchor({ parser: "shorten" }), "shorten-a-urls-path");
  assert.equal(stepAnchor({ parser: "nonsense" }), "concept-basic-url-parser");
  assert.equal(stepAnchor({ parser: "toString" }), "concept-basic-url-parser"); // not an inherited member
  // a sub-parser's step that carries an anchor keeps it; a UTS #46 stage's (unicode.org's) does not
  assert.equal(stepAnchor({ parser: "host", anchor: "concept-host-parser" }), "concept-host-parser");
  assert.equal(stepAnchor({ parser: "uts46", anchor: "Processing" }), "concept-domain-to-ascii");
});

test("errorAnchor", () => {
  assert.equal(errorAnchor("domain-to-ASCII"), "validation-error-domain-to-ascii");
  assert.equal(errorAnchor("IPv4-part-empty"), "ipv4-part-empty");
  assert.equal(errorAnchor("invalid-URL-unit"), "invalid-url-unit");
});

test("escapes: printable ASCII as is, the rest as \\u{HEX}, exact round trip", () => {
  assert.equal(encodeEscapes("a b\t\u00e9\u{1F600}"), "a b\\u{9}\\u{E9}\\u{1F600}");
  assert.equal(encodeEscapes("\\u{41}"), "\\u{5C}u{41}"); // a literal escape is escaped
  for (const s of ["", "\\u{41}", "x\u202Ey", "\uD800", "\u{10FFFF}", "\\u{110000}"]) {
    assert.equal(decodeEscapes(encodeEscapes(s)), s);
  }
  assert.equal(decodeEscapes("\\u{110000}"), "\\u{110000}"); // out of range: left as typed
  assert.equal(decodeEscapes("\\u{202e}"), "\u202E");
});
