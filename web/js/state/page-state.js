// @ts-check
// The page's state read from a URL fragment (a permalink, or the address bar on back/forward):
// share.js's fragmentToState, then what the page makes of it. Pure: no DOM, so node tests import it.
import { fragmentToState } from "../render/share.js";
import { encodingValue } from "../render/encodings.js";
import { ENCODE_SETS, MAX_OPS, OPERATIONS } from "../facts.js";
import { viewNamed } from "./view-names.js";
import { validAsOf } from "./as-of.js";
import { validColumns } from "./columns.js";

/** @typedef {ReturnType<typeof fragmentToState>} PageState */

// What a fragment without input= shows (the page opened bare).
export const DEFAULT_INPUT = "HTTPS://user@EXAMPLE.com:443/a/./b/../%7Ec?q=1#top";

/** A fragment (without "#") as a state the page and the model can use: an old view name as the
 *  current one (view=compare: Implementations), an unknown one as Components; encoding labels as
 *  the select's value; only the operations the model knows.
 *  @param {string} fragment
 *  @returns {PageState} */
export function pageState(fragment) {
  const s = fragmentToState(fragment);
  if (!fragment.includes("input=")) s.input = DEFAULT_INPUT;
  s.view = viewNamed(s.view) ?? "components";
  s.enc = encodingValue(s.enc);
  s.pctenc = encodingValue(s.pctenc);
  s.ops = s.ops.filter(([op]) => OPERATIONS.includes(op));
  s.asof = validAsOf(s.asof);
  s.cols = validColumns(s.cols);
  return s;
}

/** What of a permalink's fragment (without "#") the page could not use, in words, one line each
 *  (an empty list: every part was used). pageState() drops these parts and goes on with the
 *  defaults; the page says what it dropped (ui/permalink-notice.js). Pure.
 *  @param {string} fragment
 *  @returns {string[]} */
export function ignoredParts(fragment) {
  const out = [];
  if (!fragment) return out;
  const DEFAULTS = fragmentToState("");
  const short = (/** @type {string} */ s) => (s.length > 60 ? s.slice(0, 60) + "…" : s);
  for (const part of fragment.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const key = eq < 0 ? part : part.slice(0, eq);
    const raw = eq < 0 ? "" : part.slice(eq + 1);
    if (!Object.hasOwn(DEFAULTS, key)) {
      out.push(`“${short(key)}”: not a part of a permalink`);
      continue;
    }
    if (eq < 0) {
      out.push(`${key}: no value (“${key}=…”)`);
      continue;
    }
    let value;
    try {
      value = decodeURIComponent(raw);
    } catch {
      out.push(`${key}: “${short(raw)}” is not percent-encoded UTF-8 (the default ${key === "input" ? "input, the empty string," : "value"} is used)`);
      continue;
    }
    const d = /** @type {Record<string, unknown>} */ (DEFAULTS)[key];
    if (key === "ops") {
      let ops;
      try {
        ops = JSON.parse(value);
      } catch {
        ops = undefined;
      }
      if (!Array.isArray(ops)) {
        out.push(`ops: not a JSON list of [operation, value] pairs (no setter operations applied)`);
        continue;
      }
      const kept = pageState("ops=" + encodeURIComponent(value)).ops.length;
      if (kept < ops.length) out.push(`ops: ${ops.length - kept} of ${ops.length} operations dropped (not [operation, value] strings, an operation the Setters lab does not know, or past ${MAX_OPS})`);
    } else if (key === "view") {
      if (viewNamed(value) === null) out.push(`view=${short(value)}: no such view (Components is shown)`);
    } else if (key === "enc" || key === "pctenc") {
      if (value !== "" && encodingValue(value) === "" && !/^utf-?8$/i.test(value.trim())) out.push(`${key}=${short(value)}: no such encoding (UTF-8 is used)`);
    } else if (key === "pctset") {
      if (!ENCODE_SETS.includes(value)) out.push(`pctset=${short(value)}: no such percent-encode set (the component percent-encode set is used)`);
    } else if (key === "asof") {
      if (value !== "" && validAsOf(value) === "") out.push(`asof=${short(value)}: not a day (YYYY-MM-DD) between the standard's first and today`);
    } else if (key === "cols") {
      if (value !== "" && validColumns(value) !== value) out.push(`cols=${short(value)}: ${validColumns(value) === "" ? "no column could be read" : "some columns could not be read"}`);
    } else if (typeof d === "boolean") {
      if (!["0", "1", "true", "false"].includes(value)) out.push(`${key}=${short(value)}: not 1 or 0 (read as off)`);
    } else if (typeof d === "number") {
      if (!/^\d+$/.test(value)) out.push(`${key}=${short(value)}: not a whole number (${Math.max(0, parseInt(value, 10) || 0)} is used)`);
    }
  }
  return out;
}
