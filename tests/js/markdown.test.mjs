// Copy as Markdown (web/js/render/share.js): the table pasted into GitHub issues. Expected text by
// hand; tests/test_markdown_export.py renders hostile inputs with markdown-it besides.
import { test } from "node:test";
import assert from "node:assert/strict";

import { DEFAULTS, mdCode, mdDestination, mdText, toMarkdown } from "../../web/js/render/share.js";

const state = (over) => ({ ...JSON.parse(JSON.stringify(DEFAULTS)), ...over });

test("mdCode: a code span no backtick run can close, pipes escaped, empty said so", () => {
  assert.equal(mdCode("http://a/"), "`http://a/`");
  assert.equal(mdCode("a`b"), "``a`b``");
  assert.equal(mdCode("a``b`"), "``` a``b` ```"); // ends with a backtick: padded
  assert.equal(mdCode(" x"), "`  x `"); // starts with a space: padded (CommonMark strips one each side)
  assert.equal(mdCode("  "), "`  `"); // only spaces: kept as they are
  assert.equal(mdCode("a|b"), "`a\\|b`");
  assert.equal(mdCode("a\nb\r\nc"), "`a\\u{A}b\\u{D}\\u{A}c`"); // line breaks are invisible: escaped
  assert.equal(mdCode("a\u202Eb"), "`a\\u{202E}b`");
  assert.equal(mdCode(""), "*(empty)*");
});

test("mdText and mdDestination: punctuation escaped; a link destination nothing can end early", () => {
  assert.equal(mdText("[x](y) *z*"), "\\[x\\]\\(y\\) \\*z\\*");
  assert.equal(mdText("a\nb"), "a\\\\u\\{A\\}b"); // a\u{A}b, its punctuation escaped
  assert.equal(mdDestination("https://h/#input=a(b)c d<e>`"), "https://h/#input=a%28b%29c%20d%3Ce%3E%60");
});

const GETTERS = { href: "http://a/b", origin: "http://a", protocol: "http:", username: "", password: "",
  host: "a", hostname: "a", port: "", pathname: "/b", search: "", hash: "" };

test("toMarkdown: input, base, the eleven getters, errors linked to the spec, the engine and the permalink", () => {
  const result = { ok: true, getters: GETTERS, valid: { valid: false },
    validation_errors: [{ name: "invalid-credentials", index: 7 }, { name: "domain-to-ASCII", index: null }] };
  assert.equal(toMarkdown(state({ input: "HTTP://a/b", base: "" }), result, "urlcalc 1 via the server", "https://u.example/#input=HTTP%3A%2F%2Fa%2Fb"), [
    "| component | value |",
    "|---|---|",
    "| **input** | `HTTP://a/b` |",
    "| **base** | *(none)* |",
    "| href | `http://a/b` |",
    "| origin | `http://a` |",
    "| protocol | `http:` |",
    "| username | *(empty)* |",
    "| password | *(empty)* |",
    "| host | `a` |",
    "| hostname | `a` |",
    "| port | *(empty)* |",
    "| pathname | `/b` |",
    "| search | *(empty)* |",
    "| hash | *(empty)* |",
    "| validation errors | [invalid-credentials](https://url.spec.whatwg.org/#invalid-credentials) @7, " +
      "[domain-to-ASCII](https://url.spec.whatwg.org/#validation-error-domain-to-ascii) |",
    "| valid URL string | no |",
    "",
    "urlcalc 1 via the server · [permalink](https://u.example/#input=HTTP%3A%2F%2Fa%2Fb)",
  ].join("\n"));
});

test("toMarkdown: a failure (in the base) with its reason, an encoding, no permalink", () => {
  const result = { ok: false, failure: { in: "base", error: { name: "missing-scheme-non-relative-URL", index: 0 },
    reason: "the base has no scheme: a relative URL needs a base with one | *y*" }, validation_errors: [] };
  assert.equal(toMarkdown(state({ input: "x", base: "y", enc: "windows-1252" }), result, "urlcalc (Pyodide)", null), [
    "| component | value |",
    "|---|---|",
    "| **input** | `x` |",
    "| **base** | `y` |",
    "| **encoding** | `windows-1252` |",
    "| **result** | failure (in the base): missing\\-scheme\\-non\\-relative\\-URL at index 0 |",
    "| **why** | the base has no scheme: a relative URL needs a base with one \\| \\*y\\* |",
    "| validation errors | none |",
    "",
    "urlcalc (Pyodide)",
  ].join("\n"));
});
