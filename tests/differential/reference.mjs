// The reference side of urlcalc's differential tests: whatwg-url (the URL Standard's reference
// implementation) as a long-running process.
//
// Reads JSON lines from stdin, one request each, and writes exactly one JSON line per request to
// stdout, in order:
//
//   {"op": "parse", "input": "...", "base": "..." | null}
//   {"op": "set", "href": "...", "setter": "hostname", "value": "..."}
//
// A parse answers {"ok": true, "getters": {href, origin, protocol, ..., hash},
// "searchParams": "...", "errors": [validation error names]} or {"ok": false}; a set answers
// the getters after the setter ran ({"ok": true, "getters", "threw": false}), {"ok": true,
// "threw": true, "getters"} when the href setter threw, or {"ok": false} when href itself does
// not parse. A request that is not JSON answers {"error": "..."}.
//
// Strings travel as JSON: lone surrogates are written by Python as \udXXX escapes, which
// JSON.parse turns into lone UTF-16 code units (as a JavaScript caller would pass them), and
// JSON.stringify escapes any it writes back. Output is buffered and flushed once per chunk of
// input, so a batch of thousands of requests costs a handful of writes.

import { createInterface } from "node:readline";
import { URL, basicURLParse, parseURLWithValidationErrors } from "whatwg-url";

const GETTERS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port",
  "pathname", "search", "hash"];
const SETTERS = new Set(["href", "protocol", "username", "password", "host", "hostname", "port",
  "pathname", "search", "hash"]);

function getters(url) {
  const out = {};
  for (const name of GETTERS) {
    out[name] = url[name];
  }
  return out;
}

// Web IDL USVString conversion, as the URL constructor applies it to its arguments.
function toUSV(s) {
  return s.toWellFormed ? s.toWellFormed() : s.replace(/\p{Surrogate}/gu, "\uFFFD");
}

function validationErrors(input, base) {
  let baseURL;
  if (base !== null && base !== undefined) {
    baseURL = basicURLParse(toUSV(base));
    if (baseURL === null) {
      return null;
    }
  }
  return parseURLWithValidationErrors(toUSV(input), { baseURL }).validationErrors;
}

function parse(req) {
  let url;
  try {
    url = req.base === null || req.base === undefined ? new URL(req.input) : new URL(req.input, req.base);
  } catch {
    return { ok: false };
  }
  const out = { ok: true, getters: getters(url), searchParams: url.searchParams.toString() };
  if (req.errors) {
    out.errors = validationErrors(req.input, req.base);
  }
  return out;
}

function set(req) {
  if (!SETTERS.has(req.setter)) {
    return { error: `unknown setter ${req.setter}` };
  }
  let url;
  try {
    url = new URL(req.href);
  } catch {
    return { ok: false };
  }
  let threw = false;
  try {
    url[req.setter] = req.value;
  } catch {
    threw = true;
  }
  return { ok: true, threw, getters: getters(url), searchParams: url.searchParams.toString() };
}

function answer(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { error: `not JSON: ${e.message}` };
  }
  try {
    if (req.op === "parse") {
      return parse(req);
    }
    if (req.op === "set") {
      return set(req);
    }
    return { error: `unknown op ${req.op}` };
  } catch (e) {
    // The reference itself threw something other than the URL constructor's TypeError.
    return { error: `reference raised: ${e && e.stack ? e.stack : e}` };
  }
}

let pending = [];
let scheduled = false;

function flush() {
  scheduled = false;
  if (pending.length) {
    process.stdout.write(pending.join("\n") + "\n");
    pending = [];
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  pending.push(JSON.stringify(answer(line)));
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});
rl.on("close", flush);
