// @ts-check
// What the page's renderers share (render/templates.js draws the views with lit-html): the
// checks and limits for showing hostile strings (isInvisible, cpLabel, breaksAfter, MAX_TEXT,
// MAX_CELLS ...), the component colours, and vis() and legend() as nodes (app.js, the lessons'
// common.js), built with the small h() below (not exported: the views draw with lit-html).
//
// Safety rules (the page renders hostile strings for a living):
// - every string that came from a URL reaches the DOM as a text node (textContent), never markup;
// - invisible, control and bidi-control code points are shown as visible badges (e.g. ⟨U+202E⟩)
//   so they can neither hide nor reorder what is displayed;
// - the only links we build point at https://url.spec.whatwg.org/#<anchor>, with an anchor we
//   check ourselves; nothing from the input ever becomes an href.

import { MAX_SHOWN_CODE_POINTS } from "../facts.js";

export const SPEC = "https://url.spec.whatwg.org/";

/** Create an element. attrs: {class, id, data: {...}, text, on: {event: fn}, ...attributes}.
 *  Children: Nodes or strings (strings become text nodes). "style" and "href" are refused here:
 *  use render/templates.js's specLink() for links and classes (or el.style.x via the CSSOM) for styling. */
function h(tag, attrs = null, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
      else if (k === "data") for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = String(dv);
      else if (k === "text") el.textContent = String(v);
      else if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
      else if (k === "style" || k === "href" || k === "src" || k.startsWith("on")) {
        throw new Error(`h(): attribute ${k} is not allowed`);
      } else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** The spec anchor of a validation error name (errors.py: ErrorType.anchor). */
export function errorAnchor(name) {
  return name === "domain-to-ASCII" ? "validation-error-domain-to-ascii" : String(name).toLowerCase();
}

// Code points that must not be displayed raw: controls, format characters (bidi controls,
// zero-width joiners, BOM...), separators other than U+0020, surrogates, private use,
// unassigned, and a few blank-looking letters and variation selectors. (Each combining mark in
// the class is matched alone, on purpose: it is shown as a badge, not joined to a letter.)
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Cs}\p{Co}\p{Cn}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]/u;

export function isInvisible(ch) {
  return ch !== " " && INVISIBLE.test(ch);
}

export function cpLabel(ch) {
  return "U+" + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
}

/** A visible badge for one invisible code point. */
function badge(ch) {
  return h("span", { class: "cp", title: cpLabel(ch) + " (shown escaped)" }, "⟨" + cpLabel(ch) + "⟩");
}

// A string from a huge input (tens of thousands of code points) is shown in part: laying out
// the whole of it, and a badge per invisible code point, would freeze the page. One limit for every
// string the page shows (urlcalc.model.limits.MAX_SHOWN_CODE_POINTS, through facts.js).
export const MAX_TEXT = MAX_SHOWN_CODE_POINTS;
// ...and at most this many of its invisible code points as badges (a badge costs far more to lay
// out than a character).
export const MAX_BADGES = 500;

/** The note that ends a string shown in part (the count of code points left out). */
function moreNote(more, what = "code points") {
  return h("span", { class: "trunc-more", role: "note", data: { more } },
    `… (${more.toLocaleString("en")} more ${what} not shown)`);
}

// Where a URL may wrap: after these delimiters only, and after the last of a run of them
// ("https://⏎host", not "https:/⏎/host"): a <wbr> in text, a zero-width space drawn by CSS after
// a code-line cell. Never inside a label or a segment ("exam⏎ple.com"); a segment longer than its
// line scrolls (code lines) or, in a narrow cell, wraps as a last resort.
const BREAK_AFTER = new Set(["/", "\\", "?", "#", "&", "=", ".", "@", ";", ","]);
// ...and never after these, where Unicode line breaking would allow it ("xn--caf-⏎dma"): a word
// joiner (U+2060) drawn by CSS after them forbids the break. (Between two ideographs a line may
// still break, as CJK text does: "keep-all" would forbid it, at ten times the layout cost.)
const NO_BREAK_AFTER = new Set(["-", "|", "!", "}"]);
// A string with more delimiters than this gets break opportunities after the first ones only:
// each is an element to lay out (a thousand in each of 22 cells of a 64 KiB path took 0.35 s to
// lay out in Chromium, a hundred 50 ms; a URL of a few lines has a few dozen).
const MAX_BREAKS = 100;

/** Whether a line may break between `ch` and `next` (the following character, or undefined). */
export function breaksAfter(ch, next) {
  return BREAK_AFTER.has(ch) && next !== undefined && !BREAK_AFTER.has(next);
}

/** A DocumentFragment showing str as text, with invisible code points as badges and a <wbr>
 *  after each URL delimiter: the first `limit` code points (fewer if MAX_BADGES badges come
 *  first), then a note saying how many more there are. `next`: the character shown after str
 *  (str is a piece of a longer text), if any.
 *  @param {*} str @param {number} [limit] @param {{next?: string}} [opts] */
export function vis(str, limit = MAX_TEXT, { next = undefined } = {}) {
  const frag = document.createDocumentFragment();
  if (str === null || str === undefined) return frag;
  str = String(str);
  let run = "";
  let n = 0;
  let units = 0; // UTF-16 code units read
  let badges = 0;
  let breaks = 0;
  for (const ch of str) {
    if (n === limit || badges === MAX_BADGES) {
      if (run) frag.append(document.createTextNode(run));
      run = "";
      frag.append(moreNote(codePointCount(str, units)));
      break;
    }
    n += 1;
    units += ch.length;
    if (isInvisible(ch)) {
      if (run) frag.append(document.createTextNode(run));
      run = "";
      frag.append(badge(ch));
      badges += 1;
    } else {
      run += ch;
      const after = units < str.length ? str[units] : next;
      if (breaks < MAX_BREAKS && after !== undefined) {
        if (breaksAfter(ch, after)) {
          frag.append(document.createTextNode(run), document.createElement("wbr"));
          run = "";
          breaks += 1;
        } else if (NO_BREAK_AFTER.has(ch)) {
          const joiner = document.createElement("span");
          joiner.className = "wj";
          frag.append(document.createTextNode(run), joiner);
          run = "";
          breaks += 1;
        }
      }
    }
  }
  if (run) frag.append(document.createTextNode(run));
  return frag;
}

/** The number of code points in str from the UTF-16 offset `from` on. */
function codePointCount(str, from = 0) {
  let n = 0;
  for (let i = from; i < str.length; i++) {
    const u = str.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < str.length) {
      const v = str.charCodeAt(i + 1);
      if (v >= 0xdc00 && v <= 0xdfff) i += 1;
    }
    n += 1;
  }
  return n;
}

/** A plain string with invisible code points replaced by ⟨U+XXXX⟩ (for text-only labels). */
export function visText(str) {
  let out = "";
  for (const ch of String(str)) out += isInvisible(ch) ? "⟨" + cpLabel(ch) + "⟩" : ch;
  return out;
}

/** Only the invisible code points escaped as \u{...} (for Markdown and titles). */
export function escapeInvisible(str) {
  let out = "";
  for (const ch of String(str)) {
    out += isInvisible(ch) ? `\\u{${ch.codePointAt(0).toString(16).toUpperCase()}}` : ch;
  }
  return out;
}

/** Code points of a JS string (the model's indexes count code points, JS strings UTF-16). */
export function codePoints(str) {
  return Array.from(String(str));
}

/** Whether str holds a code point that only shows as a badge (the escapes field edits it). */
export function hasInvisible(str) {
  return INVISIBLE_NOT_SPACE.test(String(str));
}
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE_NOT_SPACE = new RegExp("(?! )" + INVISIBLE.source, "u");

// A long input is shown in part: the first MAX_CELLS code points get a cell each (tens of
// thousands of cells would freeze the page for seconds), followed by a note saying so: the same
// limit as MAX_TEXT.
export const MAX_CELLS = MAX_SHOWN_CODE_POINTS;

export function safeClass(s) {
  return String(s).replace(/[^a-z0-9-]/gi, "_");
}

export const COMPONENTS = ["scheme", "username", "password", "host", "port", "path", "query", "fragment", "delimiter", "removed"];
export const COMPONENT_LABELS = {
  scheme: "scheme", username: "username", password: "password", host: "host", port: "port",
  path: "path", query: "query", fragment: "fragment", delimiter: "delimiter",
  removed: "removed (trimmed or ignored)",
};

export function legend() {
  return h("ul", { class: "legend", "aria-label": "Colour legend" },
    COMPONENTS.map((c) => h("li", { class: "k-" + c }, COMPONENT_LABELS[c])));
}
