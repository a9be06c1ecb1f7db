// The page state in the URL fragment, and the WPT exports (web/js/render/share.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  DEFAULTS, fragmentToState, settersEntries, settersExport, stateToFragment, urltestdataEntry, wptJSON,
} from "../../web/js/render/share.js";

const state = (over) => ({ ...JSON.parse(JSON.stringify(DEFAULTS)), ...over });

test("fragment: defaults are left out, the input never is", () => {
  assert.equal(stateToFragment(state({})), "input=");
  assert.equal(stateToFragment(state({ input: "http://a/" })), "input=http%3A%2F%2Fa%2F");
  assert.equal(stateToFragment(state({ input: "x", view: "steps", step: 7, presenter: true })),
    "input=x&view=steps&step=7&presenter=1");
});

test("fragment: ops as JSON, booleans as 1/0, everything percent-encoded", () => {
  const frag = stateToFragment(state({ input: "a&b=c#d", ops: [["hash", "x y"]], errata: true }));
  assert.equal(frag,
    "input=a%26b%3Dc%23d&ops=%5B%5B%22hash%22%2C%22x%20y%22%5D%5D&errata=1");
  assert.deepEqual(fragmentToState(frag), state({ input: "a&b=c#d", ops: [["hash", "x y"]], errata: true }));
});

test("fragment: round trip of every key", () => {
  const s = state({
    input: "https://ü.example/?q=☃#f", base: "http://b/", enc: "windows-1252", view: "setters",
    ops: [["port", "81"], ["searchParams.append", "a=b"]], step: 3, strace: true, pct: "%zz",
    pctset: "path percent-encode set", pctenc: "Shift_JIS", host: "xn--a", form: "a=b&c",
    presenter: true, errata: true,
  });
  assert.deepEqual(fragmentToState(stateToFragment(s)), s);
});

test("fragment: lone surrogates become U+FFFD (a USVString), pairs stay", () => {
  const frag = stateToFragment(state({ input: "a\uD800b\uDC00c\uD83D\uDE00" }));
  assert.equal(frag, "input=a%EF%BF%BDb%EF%BF%BDc%F0%9F%98%80");
  assert.equal(fragmentToState(frag).input, "a\uFFFDb\uFFFDc\u{1F600}");
});

test("fragment: malformed parts, unknown keys and bad ops are ignored", () => {
  const s = fragmentToState("input=%E0%A4%A&base=ok&nope=1&view&step=-4&strace=true&ops=%5B1%2C%5B%22a%22%5D%2C%5B%22hash%22%2C%22x%22%5D%5D");
  assert.equal(s.input, "");         // not decodable: the default stays
  assert.equal(s.base, "ok");
  assert.equal("nope" in s, false);
  assert.equal(s.view, "components"); // no "=": ignored
  assert.equal(s.step, 0);            // negative: 0
  assert.equal(s.strace, true);       // "true" as well as "1"
  assert.deepEqual(s.ops, [["hash", "x"]]);
  assert.deepEqual(fragmentToState("ops=%7Bnot%20json").ops, []);
  const many = JSON.stringify(Array.from({ length: 70 }, (_, i) => ["hash", String(i)]));
  assert.equal(fragmentToState("ops=" + encodeURIComponent(many)).ops.length, 64);
  assert.deepEqual(fragmentToState(""), state({}));
});

test("wptJSON: every non-ASCII code unit escaped, as the WPT files write them", () => {
  const text = wptJSON({ input: "é\u202E\u{1F600}\u007F" });
  assert.equal(text, '{\n  "input": "\\u00e9\\u202e\\ud83d\\ude00\\u007f"\n}');
  assert.match(text, /^[\x00-\x7E]*$/);
  assert.deepEqual(JSON.parse(text), { input: "é\u202E\u{1F600}\u007F" });
});

const GETTERS = { href: "http://a/b?c#d", origin: "http://a", protocol: "http:", username: "",
  password: "", host: "a", hostname: "a", port: "", pathname: "/b", search: "?c", hash: "#d" };

test("urltestdata entry: the input, the base or null, then the 11 getters or failure", () => {
  const ok = urltestdataEntry(state({ input: "b?c#d", base: "http://a/" }), { ok: true, getters: GETTERS });
  assert.deepEqual(Object.keys(ok), ["input", "base", "href", "origin", "protocol", "username",
    "password", "host", "hostname", "port", "pathname", "search", "hash"]);
  assert.equal(ok.base, "http://a/");
  assert.equal(ok.href, "http://a/b?c#d");
  assert.deepEqual(urltestdataEntry(state({ input: "http://a b/" }), { ok: false }),
    { input: "http://a b/", base: null, failure: true });
  assert.deepEqual(urltestdataEntry(state({ input: "x" }), null), { input: "x", base: null, failure: true });
});

test("setters entries: grouped by setter, changed getters only, the reason as comment; the export says what has no form", () => {
  const after = { ...GETTERS, href: "http://a:81/b?c#d", host: "a:81", port: "81" };
  const model = { operations: [
    { op: "port", value: "81", getters_before: GETTERS, getters_after: after, changed: ["port"],
      changed_getters: ["href", "host", "port"], reason: null, threw: null },
    { op: "port", value: "x", getters_before: after, getters_after: after, changed: [],
      changed_getters: [], reason: "port setter, step 3: ...", threw: null },
    { op: "searchParams.append", value: "a=b", getters_before: after, getters_after: after,
      changed: ["query"], changed_getters: ["search"], reason: null, threw: null },
    { op: "href", value: "::", getters_before: after, getters_after: after, changed: [],
      changed_getters: [], reason: "href setter, step 2", threw: "TypeError: x" },
    { op: "hostname", value: "b", getters_before: GETTERS,
      getters_after: { ...GETTERS, href: "http://b/b?c#d", origin: "http://b", host: "b", hostname: "b" },
      changed: ["host"], changed_getters: ["href", "origin", "host", "hostname"], reason: null, threw: null },
  ] };
  assert.deepEqual(settersEntries(model), {
    port: [
      { href: "http://a/b?c#d", new_value: "81", expected: { href: "http://a:81/b?c#d", host: "a:81", port: "81" } },
      { comment: "port setter, step 3: ...", href: "http://a:81/b?c#d", new_value: "x",
        expected: { href: "http://a:81/b?c#d", port: "81" } },
    ],
    hostname: [
      { href: "http://a/b?c#d", new_value: "b", expected: { href: "http://b/b?c#d", host: "b", hostname: "b" } },
    ],
  });
  assert.deepEqual(settersEntries(null), {});
  const { exported, skipped } = settersExport(model);
  assert.equal(exported, 3);
  assert.deepEqual(skipped.map((x) => [x.n, x.call]), [[3, 'url.searchParams.append("a", "b")'], [4, 'url.href = "::"']]);
  assert.deepEqual(settersExport(model).json.comment, [
    "Not exported: 2 of 5 operations have no setters_tests.json form.",
    '3. url.searchParams.append("a", "b"): setters_tests.json tests the URL interface\'s attribute setters only; ' +
      "URLSearchParams methods are tested by WPT's url/urlsearchparams-*.any.js scripts, which have no data file.",
    '4. url.href = "::": the setter threw (TypeError: x), and a setters_tests.json case never throws ' +
      "(an href that fails to parse is a urltestdata.json failure entry).",
  ]);
});

test("setters export: sort and a value without '=' are written as calls; summarised and failing models", () => {
  const op = (o, value, extra = {}) => ({ op: o, value, getters_before: GETTERS, getters_after: GETTERS, changed: [],
    changed_getters: [], reason: null, threw: null, ...extra });
  const out = settersExport({ ok: true, operations: [op("searchParams.sort", ""), op("searchParams.delete", "q"),
    op("hash", "x", { summarised: true, getters_before: null, getters_after: null })] });
  assert.equal(out.exported, 0);
  assert.deepEqual(out.skipped.map((x) => x.call), ["url.searchParams.sort()", 'url.searchParams.delete("q")', 'url.hash = "x"']);
  assert.match(out.json.comment[3], /^3\. url\.hash = "x": the answer reached its size budget/);
  assert.deepEqual(Object.keys(out.json), ["comment"]);
  assert.deepEqual(settersExport({ ok: false, operations: [] }).json,
    { comment: ["Nothing to export: the input does not parse, so there is no URL to set."] });
});
