// @ts-check
// Sharing: the page state in the URL fragment, Markdown and WPT exports, the clipboard.
import { escapeInvisible } from "./dom.js";
import { GETTERS } from "../facts.js";

/** @typedef {import("../result-model.js").ParseAnswer} ParseAnswer */
/** @typedef {import("../result-model.js").SetAnswer} SetAnswer */
/** @typedef {import("../result-model.js").Operation} Operation */

/**
 * The page's state as its URL fragment holds it (share.js's keys; page-state.js reads it).
 * @typedef {object} FragmentState
 * @property {string} input
 * @property {string} base
 * @property {string} enc the query's encoding ("": UTF-8)
 * @property {string} view
 * @property {Array<[string, string]>} ops the Setters lab's operations: [operation, value]
 * @property {number} step the Steps view's step
 * @property {boolean} strace the Setters lab's trace
 * @property {string} pct the percent calculator's input
 * @property {string} pctset its encode set
 * @property {string} pctenc its encoding
 * @property {string} host the host calculator's input
 * @property {string} form the urlencoded calculator's input
 * @property {boolean} presenter
 * @property {boolean} errata the Editions view's errata
 * @property {string} asof the History view's day (YYYY-MM-DD; "": none chosen)
 * @property {string} cols the Editions view's columns of the URL Standard on a day or without a
 *   change (state/columns.js; "": none)
 * @property {string} report the Survey view's report: a same-origin URL ("": none)
 * @property {boolean} answer the answer-only display (ui/answer-only.js)
 */

// Keys kept in the fragment, with their defaults (a default value is left out of the fragment).
/** @type {Readonly<FragmentState>} */
export const DEFAULTS = {
  input: "", base: "", enc: "", view: "components", ops: [], step: 0, strace: false,
  pct: "", pctset: "component percent-encode set", pctenc: "", host: "", form: "", presenter: false,
  errata: false, asof: "", cols: "", report: "", answer: false,
};

/** The fragment (without "#") that holds `state`: every key that is not its default (input
 *  always), percent-encoded.
 *  @param {FragmentState} state
 *  @returns {string} */
export function stateToFragment(state) {
  const parts = [];
  for (const key of Object.keys(DEFAULTS)) {
    const v = state[key];
    const d = DEFAULTS[key];
    if (JSON.stringify(v) === JSON.stringify(d) && key !== "input") continue;
    let s;
    if (key === "ops") s = JSON.stringify(v);
    else if (typeof d === "boolean") s = v ? "1" : "0";
    else s = String(v);
    parts.push(key + "=" + encodeURIComponent(wellFormed(s)));
  }
  return parts.join("&");
}

/** Lone surrogates (typed as \u{D800} in the escapes field) as U+FFFD, as the URL parser sees
 *  them (a USVString): encodeURIComponent throws on them.
 *  @param {string} s */
function wellFormed(s) {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** Parse a fragment (without '#') into a full state object; unknown keys are ignored.
 *  @param {string} fragment
 *  @returns {FragmentState} */
export function fragmentToState(fragment) {
  /** @type {FragmentState} */
  const state = JSON.parse(JSON.stringify(DEFAULTS));
  if (!fragment) return state;
  for (const part of fragment.split("&")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq);
    if (!Object.hasOwn(DEFAULTS, key)) continue;
    let value;
    try {
      value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      continue;
    }
    const d = DEFAULTS[key];
    if (key === "ops") {
      try {
        const ops = JSON.parse(value);
        if (Array.isArray(ops)) {
          state.ops = ops.filter((o) => Array.isArray(o) && o.length === 2 && o.every((x) => typeof x === "string")).slice(0, 64);
        }
      } catch {
        // ignore a malformed ops list
      }
    } else if (typeof d === "boolean") state[key] = value === "1" || value === "true";
    else if (typeof d === "number") state[key] = Math.max(0, parseInt(value, 10) || 0);
    else state[key] = value;
  }
  return state;
}

// --- Markdown ------------------------------------------------------------------------------
//
// The export is pasted into GitHub issues: it must render there as the table it is, whatever the
// URL holds. Every string from the input goes into a code span (CommonMark 6.1), whose content
// is never read as Markdown or HTML; the only links are the spec's and the permalink; no HTML.
// tests/test_markdown_export.py renders a hostile corpus with markdown-it (CommonMark + GFM
// tables, raw HTML and linkify on, as GitHub does) and checks exactly that.

/** A code span holding s (invisible characters as \u{...}, newlines as spaces): fenced by more
 *  backticks than its longest run of backticks, so that no run inside can close it; padded with
 *  a space when it starts or ends with a backtick or a space (CommonMark strips one of each);
 *  "|" escaped for the GFM table, which removes that backslash before reading the cell.
 *  @param {unknown} value
 *  @returns {string} */
export function mdCode(value) {
  const s = escapeInvisible(String(value)).replace(/\r\n|\r|\n/g, " ").replace(/\|/g, "\\|");
  if (s === "") return "*(empty)*";
  const longest = Math.max(0, ...(s.match(/`+/g) || []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = /^[ `]|[ `]$/.test(s) && !/^ +$/.test(s) ? " " : "";
  return fence + pad + s + pad + fence;
}

/** Plain text with every ASCII punctuation character that Markdown or the table could read
 *  backslash-escaped (CommonMark 2.4), and no newline.
 *  @param {unknown} s
 *  @returns {string} */
export function mdText(s) {
  return escapeInvisible(String(s)).replace(/\r\n|\r|\n/g, " ")
    .replace(/[!-/:-@[-`{-~]/g, (c) => "\\" + c);
}

/** Plain words (the footer's engine line, a failure's reason) with only what Markdown could read
 *  escaped: the characters of emphasis, code, links, HTML, entities and the table (\\ ` * _ [ ] <
 *  > | ~ &), a line's start that would open a heading, quote or list, and what GitHub would link
 *  by itself (the ":" of "://", the "." of "www.", an e-mail's "@"). No newline.
 *  @param {unknown} s
 *  @returns {string} */
export function mdWords(s) {
  return escapeInvisible(String(s)).replace(/\r\n|\r|\n/g, " ")
    .replace(/[\\`*_[\]<>|~&@]/g, (c) => "\\" + c)
    .replace(/:(?=\/\/)/g, "\\:")
    .replace(/\b(www)\./gi, "$1\\.")
    .replace(/^(\s*)([#+=-])/, "$1\\$2")
    .replace(/^(\s*\d+)([.)])/, "$1\\$2");
}

/** A link destination: the characters that could end it early or be read otherwise ("(", ")",
 *  "<", ">", spaces and controls, "\", "`") percent-encoded (the permalink's fragment is
 *  encodeURIComponent's, which keeps "(" and ")").
 *  @param {unknown} url
 *  @returns {string} */
export function mdDestination(url) {
  // eslint-disable-next-line no-control-regex -- the controls are what is percent-encoded here
  return String(url).replace(/[()<>\\`\s\u0000-\u001f\u007f]/g,
    (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));
}

/** @param {import("../result-model.js").ValidationError} e */
function errorLink(e) {
  const name = String(e.name);
  const at = e.index !== null && e.index !== undefined ? ` @${Number(e.index)}` : "";
  if (!/^[A-Za-z0-9-]+$/.test(name)) return mdText(name) + at;
  const anchor = name === "domain-to-ASCII" ? "validation-error-domain-to-ascii" : name.toLowerCase();
  return `[${name}](https://url.spec.whatwg.org/#${anchor})${at}`;
}

/** The Markdown table of a parse (Copy as Markdown), with the engine's line and the permalink.
 *  @param {FragmentState} state
 *  @param {ParseAnswer|null} result
 *  @param {string} engineLine
 *  @param {string|null} permalink
 *  @returns {string} */
export function toMarkdown(state, result, engineLine, permalink) {
  const lines = [];
  lines.push("| component | value |", "|---|---|");
  lines.push(`| **input** | ${mdCode(state.input)} |`);
  lines.push(`| **base** | ${state.base ? mdCode(state.base) : "*(none)*"} |`);
  if (state.enc) lines.push(`| **encoding** | ${mdCode(state.enc)} |`);
  if (result && result.ok) {
    for (const g of GETTERS) lines.push(`| ${g} | ${mdCode(result.getters[g])} |`);
  } else if (result) {
    const f = result.failure || /** @type {Partial<import("../result-model.js").ParseFailure>} */ ({});
    const e = f.error;
    const where = e && e.index !== null && e.index !== undefined ? ` at index ${Number(e.index)}` : "";
    lines.push(`| **result** | failure${f.in === "base" ? " (in the base)" : ""}${e ? `: ${mdText(e.name)}${where}` : ""} |`);
    if (f.reason) lines.push(`| **why** | ${mdWords(f.reason)} |`);
  }
  const errs = (result && result.validation_errors) || [];
  lines.push(`| validation errors | ${errs.length ? errs.map(errorLink).join(", ") : "none"} |`);
  if (result && result.valid) lines.push(`| valid URL string | ${result.valid.valid ? "yes" : "no"} |`);
  lines.push("", `${mdWords(engineLine)}${permalink ? ` · [permalink](${mdDestination(permalink)})` : ""}`);
  return lines.join("\n");
}

// --- WPT -----------------------------------------------------------------------------------

/** JSON with every non-ASCII or invisible code unit escaped, as the WPT data files do.
 *  @param {unknown} value
 *  @returns {string} */
export function wptJSON(value) {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\uffff]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

/** The urltestdata.json entry of a parse (Copy as WPT entry).
 *  @param {FragmentState} state
 *  @param {ParseAnswer|null} result
 *  @returns {Record<string, string|boolean|null>} */
export function urltestdataEntry(state, result) {
  /** @type {Record<string, string|boolean|null>} */
  const entry = { input: state.input, base: state.base ? state.base : null };
  if (!result || !result.ok) {
    entry.failure = true;
    return entry;
  }
  for (const g of GETTERS) entry[g] = result.getters[g];
  return entry;
}

/** Why a Setters lab operation has no setters_tests.json form, or null when it has one.
 *  @param {Operation} o
 *  @returns {string|null} */
export function settersSkipReason(o) {
  if (o.op.startsWith("searchParams.")) {
    return "setters_tests.json tests the URL interface's attribute setters only; URLSearchParams " +
      "methods are tested by WPT's url/urlsearchparams-*.any.js scripts, which have no data file";
  }
  if (o.threw) {
    return `the setter threw (${o.threw}), and a setters_tests.json case never throws ` +
      "(an href that fails to parse is a urltestdata.json failure entry)";
  }
  if (o.summarised) {
    return "the answer reached its size budget, so this operation came without the getters " +
      "before and after it (the Setters lab shows what changed): its expected values are not here";
  }
  return null;
}

/** @param {Operation} o */
function opCall(o) {
  if (!o.op.startsWith("searchParams.")) return `url.${o.op} = ${JSON.stringify(o.value)}`;
  if (o.op === "searchParams.sort") return "url.searchParams.sort()";
  const i = o.value.indexOf("=");
  const args = i < 0 ? [o.value] : [o.value.slice(0, i), o.value.slice(i + 1)];
  return `url.${o.op}(${args.map((a) => JSON.stringify(a)).join(", ")})`;
}

/** The Setters lab as setters_tests.json entries: {json, exported, skipped}. json maps each setter
 *  to its cases; when operations have no such form, a leading "comment" (the file's own
 *  convention) lists them and why, so that nothing is dropped silently; skipped: [{n, call, why}].
 *  @param {SetAnswer|null} model
 *  @returns {{json: Record<string, any>, exported: number, skipped: Array<{n: number, call: string, why: string}>}} */
export function settersExport(model) {
  /** @type {Record<string, object[]>} */
  const out = {};
  const skipped = [];
  let exported = 0;
  ((model && model.operations) || []).forEach((o, k) => {
    const why = settersSkipReason(o);
    if (why) {
      skipped.push({ n: k + 1, call: opCall(o), why });
      return;
    }
    /** @type {Record<string, string>} */
    const expected = { href: o.getters_after.href };
    const keys = new Set([o.op, ...(o.changed_getters || [])]);
    keys.delete("origin");
    for (const g of GETTERS) if (keys.has(g) && g !== "href") expected[g] = o.getters_after[g];
    /** @type {Record<string, unknown>} */
    const item = {};
    if (o.reason && !(o.changed || []).length) item.comment = o.reason;
    Object.assign(item, { href: o.getters_before.href, new_value: o.value, expected });
    (out[o.op] = out[o.op] || []).push(item);
    exported += 1;
  });
  if (model && model.ok === false) {
    return { json: { comment: ["Nothing to export: the input does not parse, so there is no URL to set."] }, exported, skipped };
  }
  if (!skipped.length) return { json: out, exported, skipped };
  const comment = [`Not exported: ${skipped.length} of ${skipped.length + exported} operations have no setters_tests.json form.`,
    ...skipped.map((s) => `${s.n}. ${s.call}: ${s.why}.`)];
  return { json: { comment, ...out }, exported, skipped };
}

/** The Setters lab's setters_tests.json entries alone.
 *  @param {SetAnswer|null} model
 *  @returns {Record<string, object[]>} */
export function settersEntries(model) {
  // the entries alone (settersExport's json adds a comment on what it left out)
  const { comment: _left, ...entries } = settersExport(model).json;
  return entries;
}

// --- clipboard -----------------------------------------------------------------------------

/** Copy text; if the Clipboard API refuses, show it in a dialog, selected, for Ctrl+C. With a
 *  `note` (an element of the dialog marked data-copy-note), the dialog opens in any case and
 *  shows that note. The dialog's other notes: #copy-no-clipboard when the clipboard refused.
 *  @param {string} text
 *  @param {{dialog: HTMLDialogElement, textarea: HTMLTextAreaElement, toast: (msg: string) => void,
 *    what: string, note?: Element|null}} where
 *  @returns {Promise<boolean>} whether it was copied */
export async function copyText(text, { dialog, textarea, toast, what, note = null }) {
  let ok = false;
  try {
    if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    ok = false;
  }
  if (ok && !note) {
    toast(`${what} copied to the clipboard.`);
    return true;
  }
  for (const el of dialog.querySelectorAll("[data-copy-note]")) {
    if (!(el instanceof HTMLElement)) continue;
    el.hidden = !(el === note || (el.id === "copy-no-clipboard" && !ok));
  }
  textarea.value = text;
  if (!dialog.open) dialog.showModal();
  textarea.focus();
  textarea.select();
  if (!ok) {
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
  }
  toast(ok ? `${what} copied.` : `Press Ctrl+C (⌘C) to copy the ${what}.`);
  return ok;
}

/** A toast: show a message in `el` for a moment.
 *  @param {HTMLElement} el
 *  @returns {(msg: string) => void} */
export function toastFn(el) {
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let t;
  return (msg) => {
    el.textContent = msg;
    el.classList.add("show");
    clearTimeout(t);
    t = setTimeout(() => el.classList.remove("show"), 2600);
  };
}
