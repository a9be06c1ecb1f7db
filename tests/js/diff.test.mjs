// Diffing: where two engines' results differ (engine.js), record changes (record.js), and the
// Editions view's differing editions and grouped differences (editions.js), and the Implementations view's own columns (implementations.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { jsonDiff } from "../../web/js/engine/engine.js";
import { EMPTY_RECORD, applyChanges, same } from "../../web/js/views/record.js";
import { differingEditions, groupDifferences } from "../../web/js/views/editions.js";
import { pageColumn } from "../../web/js/views/implementations.js";

test("jsonDiff: JSON Pointers of the differing members, engine ignored at the top", () => {
  assert.deepEqual(jsonDiff({ a: 1, engine: "x" }, { a: 1, engine: "y" }), []);
  assert.deepEqual(jsonDiff({ r: { engine: 1 } }, { r: { engine: 2 } }), ["/r/engine"]);
  assert.deepEqual(jsonDiff({ getters: { host: "a", port: "" } }, { getters: { host: "b", port: "" } }),
    ["/getters/host"]);
  assert.deepEqual(jsonDiff({ path: ["a", "b"] }, { path: ["a", "c"] }), ["/path/1"]);
  assert.deepEqual(jsonDiff({ path: ["a"] }, { path: ["a", "b"] }), ["/path"]); // length: whole
  assert.deepEqual(jsonDiff({ a: 1 }, { b: 1 }), ["/a", "/b"]);
  assert.deepEqual(jsonDiff({ "a/b": 1, "c~d": 1 }, { "a/b": 2, "c~d": 2 }), ["/a~1b", "/c~0d"]);
  assert.deepEqual(jsonDiff({ a: null }, { a: {} }), ["/a"]);
  assert.deepEqual(jsonDiff({ a: [] }, { a: {} }), ["/a"]);
  assert.deepEqual(jsonDiff(1, 2), [""]);
  assert.deepEqual(jsonDiff({ port: null }, { port: 0 }), ["/port"]);
});

test("same and applyChanges: null is not the empty string, changes land on a copy", () => {
  assert.equal(same(null, undefined), true);
  assert.equal(same(null, ""), false);
  assert.equal(same(["a"], ["a"]), true);
  const rec = applyChanges(EMPTY_RECORD, { scheme: "http", host: { kind: "domain", serialized: "a" }, bogus: 1 });
  assert.equal(rec.scheme, "http");
  assert.deepEqual(rec.host, { kind: "domain", serialized: "a" });
  assert.equal("bogus" in rec, false);
  assert.equal(EMPTY_RECORD.scheme, "");
  assert.deepEqual(applyChanges(EMPTY_RECORD, null), EMPTY_RECORD);
});

const MODEL = {
  editions: [{ id: "rfc3986" }, { id: "html5_2009" }, { id: "formal_model" }],
  rows: [
    { getter: "href", differs: { rfc3986: true, html5_2009: false, formal_model: false } },
    { getter: "port", differs: { rfc3986: true, html5_2009: true } },
  ],
};

test("differingEditions: the editions with at least one differing getter, in order", () => {
  assert.deepEqual(differingEditions(MODEL), ["rfc3986", "html5_2009"]);
  assert.deepEqual(differingEditions({ ...MODEL, rows: [] }), []);
  assert.deepEqual(differingEditions(null), []);
});

test("groupDifferences: one line per edition and explanation, listing its getters", () => {
  const d = (edition, getter, rule) => ({ edition, getter, rule, section: "6.2.2", text: "t" });
  assert.deepEqual(groupDifferences([d("rfc3986", "href", "n"), d("rfc3986", "port", "p"),
    d("rfc3986", "pathname", "n"), d("w3c_2012", "href", "n")]), [
    { ...d("rfc3986", "href", "n"), getters: ["href", "pathname"] },
    { ...d("rfc3986", "port", "p"), getters: ["port"] },
    { ...d("w3c_2012", "href", "n"), getters: ["href"] },
  ]);
});

// The Implementations view's own columns (views/implementations.js): a URL class's reading
// against the standard's getters.
const STANDARD = { ok: true, getters: { href: "http://xn--fa-hia.example/", origin: "http://xn--fa-hia.example",
  protocol: "http:", username: "", password: "", host: "xn--fa-hia.example", hostname: "xn--fa-hia.example",
  port: "", pathname: "/", search: "", hash: "" } };
const IMPL_MODEL = { standard: STANDARD, unexplained_whatwg: "{name} is expected to follow the standard" };

test("pageColumn: the getters that differ from the standard, or a difference in parsing at all", () => {
  const same = pageColumn("browser", "B", "1", "about", { ok: true, getters: { ...STANDARD.getters } }, IMPL_MODEL);
  assert.equal(same.differs, false);
  assert.deepEqual(same.differences, []);
  assert.equal(same.in_page, true);
  assert.equal(same.href, "http://xn--fa-hia.example/");
  const host = "faß.example";
  const other = pageColumn("browser", "B", "1", "about",
    { ok: true, getters: { ...STANDARD.getters, host, hostname: host, href: `http://${host}/` } }, IMPL_MODEL);
  assert.equal(other.differs, true);
  assert.deepEqual(other.differences.map((d) => d.getter), ["href", "host", "hostname"]);
  assert.deepEqual(other.differences[1], { getter: "host", standard: "xn--fa-hia.example", value: host,
    explanation: "B is expected to follow the standard" });
  const fails = pageColumn("whatwg-url", "W", "2", "about", { ok: false, error: "TypeError: Invalid URL" }, IMPL_MODEL);
  assert.equal(fails.differs, true);
  assert.equal(fails.getters, null);
  assert.equal(fails.status_difference, "W fails (TypeError: Invalid URL); W is expected to follow the standard");
  const parses = pageColumn("browser", "B", "1", "about", { ok: true, getters: STANDARD.getters },
    { ...IMPL_MODEL, standard: { ok: false, getters: null } });
  assert.equal(parses.status_difference, "B parses it where the standard fails; B is expected to follow the standard");
});
