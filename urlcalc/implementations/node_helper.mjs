// urlcalc's node helper: the URL parsers that run under node, for the Implementations model.
// The server starts it once (urlcalc/implementations/node_adapter.py) and talks to it in JSON
// lines over stdin/stdout:
//
//   first line out:  {"hello": {"node": "20.x", "ada": "2.x", "whatwg_url": "17.3.0" | null,
//                               "whatwg_url_error": null | "why it could not be loaded"}}
//   in:   {"id": 1, "op": "parse", "input": "...", "base": "..." | null}
//   out:  {"id": 1, "node": READING, "whatwg-url": READING}
//   in:   {"id": 2, "op": "set", "href": "...", "setter": "host", "value": "..."}   (make interop)
//   out:  {"id": 2, "node": READING, "whatwg-url": READING}   (the getters after the setter)
//   in:   {"id": 3, "op": "form", "input": "a=1&b"}                              (make interop)
//   out:  {"id": 3, "node": {"ok": true, "pairs": [...]}, "whatwg-url": {...}}
//
// READING is {"ok": true, "getters": {href, origin, ..., hash}} or {"ok": false, "error": "..."}.
// "node" is Node's own global URL (Node >= 18 implements it with Ada); "whatwg-url" is the npm
// reference implementation, imported from the bundle the page uses (argv[2]), so that the page
// and the server run the same build. A line over MAX_LINE characters, or one that is not a JSON
// request, is answered {"id": ..., "error": "..."}; nothing a request holds can stop the helper.

import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const GETTERS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port",
  "pathname", "search", "hash"];
const SETTERS = new Set(GETTERS.filter((g) => g !== "origin"));
// The model sends at most 2 x 4096 code points, JSON-escaped (at most 12 bytes each as \uXXXX
// pairs): anything longer is not from urlcalc.
const MAX_LINE = 256 * 1024;

let whatwg = null;
let whatwgError = null;
const bundle = process.argv[2];
if (bundle) {
  try {
    whatwg = await import(pathToFileURL(bundle).href);
  } catch (e) {
    whatwgError = `cannot load ${bundle}: ${e?.message ?? e}`;
  }
} else {
  whatwgError = "no whatwg-url bundle given";
}

const impls = { node: { URL, URLSearchParams } };
if (whatwg) impls["whatwg-url"] = whatwg;

function getters(url) {
  const out = {};
  for (const g of GETTERS) out[g] = url[g];
  return out;
}

function errorText(e) {
  return `${e?.name ?? "Error"}: ${e?.message ?? String(e)}`;
}

function parse(impl, req) {
  try {
    const url = req.base === null || req.base === undefined ? new impl.URL(req.input) : new impl.URL(req.input, req.base);
    return { ok: true, getters: getters(url) };
  } catch (e) {
    return { ok: false, error: errorText(e) };
  }
}

function set(impl, req) {
  if (!SETTERS.has(req.setter)) return { ok: false, error: `unknown setter ${req.setter}` };
  let url;
  try {
    url = new impl.URL(req.href);
  } catch (e) {
    return { ok: false, error: errorText(e) };
  }
  try {
    url[req.setter] = req.value;
  } catch (e) {
    return { ok: true, threw: errorText(e), getters: getters(url) };
  }
  return { ok: true, getters: getters(url) };
}

function form(impl, req) {
  return { ok: true, pairs: [...new impl.URLSearchParams(req.input)] };
}

const OPS = { parse, set, form };

function answer(line) {
  if (line.length > MAX_LINE) return { id: null, error: `request over ${MAX_LINE} characters` };
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { id: null, error: `not JSON: ${e.message}` };
  }
  const op = OPS[req?.op];
  if (!op) return { id: req?.id ?? null, error: `unknown op ${req?.op}` };
  const out = { id: req.id };
  for (const [name, impl] of Object.entries(impls)) {
    try {
      out[name] = op(impl, req);
    } catch (e) {
      out[name] = { ok: false, error: `raised ${errorText(e)}` };
    }
  }
  return out;
}

function write(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

write({
  hello: {
    node: process.versions.node,
    ada: process.versions.ada ?? null,
    whatwg_url: whatwg ? whatwg.version : null,
    whatwg_url_error: whatwgError,
  },
});
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => write(answer(line)));
rl.on("close", () => process.exit(0));
