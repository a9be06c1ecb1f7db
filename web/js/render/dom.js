// @ts-check
// DOM helpers shared by the views.
//
// Safety rules (the page renders hostile strings for a living):
// - every string that came from a URL reaches the DOM as a text node (textContent), never markup;
// - invisible, control and bidi-control code points are shown as visible badges (e.g. ⟨U+202E⟩)
//   so they can neither hide nor reorder what is displayed;
// - the only links we build point at https://url.spec.whatwg.org/#<anchor>, with an anchor we
//   check ourselves; nothing from the input ever becomes an href.

export const SPEC = "https://url.spec.whatwg.org/";

// Elements given listeners by h(): patch() replaces them rather than keep the old ones.
const listened = new WeakSet();
// Nodes made by a Memo, with the key they were built from: patch() leaves a node in the
// document alone when the new one was built from the same key.
const builtFrom = new WeakMap();

/** Subtrees built once per distinct key. `memo.node(key, build)` stands for the subtree that
 *  `build()` made for `key` (calling it only for a key not seen lately); patch() then settles it:
 *  where the node in the document was built from the same key, it is left alone (not compared,
 *  not copied); elsewhere a copy of the subtree goes in. For the rows and items of a view that a
 *  keystroke mostly leaves as they were: building them anew with h() and comparing, or even
 *  copying them, cost more than the few that changed. What memo.node() returns is a stand-in (an
 *  empty element of the same tag): it is only for patch(). The key must say everything the
 *  subtree shows (e.g. the JSON of its data); no listeners. */
export class Memo {
  constructor(limit = 2000) {
    this.nodes = new Map();
    this.limit = limit; // at most this many subtrees kept (then the cache starts over)
  }

  node(key, build) {
    let node = this.nodes.get(key);
    if (node === undefined) {
      node = real(build()); // (a memo's node may hold another's)
      if (this.nodes.size >= this.limit) this.nodes.clear();
      this.nodes.set(key, node);
    }
    standInsMade += 1;
    const stand = document.createElement(node.tagName);
    stand.setAttribute(STAND_IN, ""); // never equal to a built node (isEqualNode)
    standIns.set(stand, node);
    builtFrom.set(stand, key);
    return stand;
  }
}

// memo.node()'s stand-ins: the subtree each stands for
const STAND_IN = "data-memo-stand-in";
const standIns = new WeakMap();
// How many stand-ins were made, and how many had been when the last patch() began: a patch of a
// tree built with none (most of them: the Steps view's list, the code lines) does not look for
// any in what it inserts.
let standInsMade = 0;
let standInsBefore = 0;
let mayHoldStandIns = true;

/** `n`, or a copy of what it stands for, with every stand-in inside it replaced by a copy: what
 *  goes into the document. */
function real(n) {
  const built = standIns.get(n);
  if (built !== undefined) {
    const copy = built.cloneNode(true);
    builtFrom.set(copy, builtFrom.get(n));
    return copy;
  }
  if (mayHoldStandIns && (n.nodeType === Node.ELEMENT_NODE || n.nodeType === Node.DOCUMENT_FRAGMENT_NODE)) {
    for (const inner of n.querySelectorAll(`[${STAND_IN}]`)) inner.replaceWith(real(inner));
  }
  return n;
}

// OffscreenParts (a view's big parts far below the fold, updated when near or when typing
// pauses) lives in offscreen-parts.js; re-exported for the modules that import it from here.
export { OffscreenParts } from "./offscreen-parts.js";

/** Create an element. attrs: {class, id, data: {...}, text, on: {event: fn}, ...attributes}.
 *  Children: Nodes or strings (strings become text nodes). "style" and "href" are refused here:
 *  use specLink() for links and classes (or el.style.x via the CSSOM) for styling. */
export function h(tag, attrs = null, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
      else if (k === "data") for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = String(dv);
      else if (k === "text") el.textContent = String(v);
      else if (k === "on") {
        for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
        listened.add(el);
      }
      else if (k === "style" || k === "href" || k === "src" || k.startsWith("on")) {
        throw new Error(`h(): attribute ${k} is not allowed`);
      } else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replace el's children (null/undefined/false children are skipped, arrays flattened). */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** Like fill, but keeps the nodes that stay the same: the new children are built apart and
 *  then compared with the old ones, node by node; only what differs is changed in the document
 *  (a text node's data, an attribute, a child added, removed or replaced). A keystroke then
 *  invalidates the few cells whose value changed instead of the whole view, and the browser
 *  lays out and repaints that much. Only for views whose nodes carry no event listeners (an
 *  element built with h(..., {on}) is always replaced, never patched). */
export function patch(el, ...children) {
  const fresh = append(document.createDocumentFragment(), children);
  mayHoldStandIns = standInsMade !== standInsBefore; // (children were built before this call)
  try {
    patchChildren(el, fresh);
  } finally {
    standInsBefore = standInsMade;
    mayHoldStandIns = true;
  }
  return el;
}

function patchChildren(old, fresh) {
  let o = old.firstChild;
  let n = fresh.firstChild;
  while (n !== null) {
    const nextNew = n.nextSibling;
    if (o === null) {
      old.append(real(n));
    } else {
      const nextOld = o.nextSibling;
      if (!patchNode(o, n)) old.replaceChild(real(n), o);
      o = nextOld;
    }
    n = nextNew;
  }
  while (o !== null) {
    const nextOld = o.nextSibling;
    o.remove();
    o = nextOld;
  }
}

/** Make `o` (in the document) like `n` (not); false if it cannot be, and `n` must replace it. */
function patchNode(o, n) {
  if (o.nodeType !== n.nodeType) return false;
  if (o.nodeType === Node.TEXT_NODE) {
    if (o.data !== n.data) o.data = n.data;
    return true;
  }
  if (o.nodeType !== Node.ELEMENT_NODE || o.tagName !== n.tagName || listened.has(o) || listened.has(n)) {
    return false;
  }
  const key = builtFrom.get(n);
  if (key !== undefined && builtFrom.get(o) === key) return true; // built from the same data
  // o is made like a copy of what a stand-in stands for (a row patched, not replaced)
  if (standIns.has(n)) n = real(n);
  if (key !== undefined) builtFrom.set(o, key);
  else builtFrom.delete(o);
  // Most of a view is the same after a keystroke: one native deep comparison settles a subtree
  // (walking it attribute by attribute in JS took several ms for the Editions table).
  if (o.isEqualNode(n)) return true;
  for (const { name } of [...o.attributes]) if (!n.hasAttribute(name)) o.removeAttribute(name);
  for (const { name, value } of n.attributes) if (o.getAttribute(name) !== value) o.setAttribute(name, value);
  patchChildren(o, n);
  return true;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** A link to the URL Standard. anchor must be a plain fragment id we recognise. */
export function specLink(anchor, text, attrs = {}) {
  const a = h("a", { class: "spec", target: "_blank", rel: "noopener noreferrer", ...attrs });
  if (typeof anchor === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(anchor)) {
    a.setAttribute("href", SPEC + "#" + anchor);
  }
  a.textContent = text;
  return a;
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
export function badge(ch) {
  return h("span", { class: "cp", title: cpLabel(ch) + " (shown escaped)" }, "⟨" + cpLabel(ch) + "⟩");
}

// A string from a huge input (tens of thousands of code points) is shown in part: laying out
// the whole of it, and a badge per invisible code point, would freeze the page.
export const MAX_TEXT = 4000;
// ...and at most this many of its invisible code points as badges (a badge costs far more to lay
// out than a character).
export const MAX_BADGES = 500;

/** The note that ends a string shown in part (the count of code points left out). */
export function moreNote(more, what = "code points") {
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

/** Set an element's content to str (visibly escaped) and keep the raw value in data-value. */
export function setValue(el, str) {
  el.replaceChildren(vis(str));
  if (str === null || str === undefined) delete el.dataset.value;
  else el.dataset.value = String(str);
  return el;
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

/** A quoted string token: "" is visibly empty, null is the token null. */
export function valueToken(v, { quote = true } = {}) {
  if (v === null || v === undefined) return h("span", { class: "tok-null", title: "null" }, "null");
  if (typeof v === "number") return h("span", { class: "tok-num" }, String(v));
  if (typeof v === "boolean") return h("span", { class: "tok-num" }, String(v));
  const s = String(v);
  if (s === "") return h("span", { class: "tok-empty", title: "the empty string" }, quote ? "\"\"" : "(empty)");
  return h("span", { class: "tok-str" }, quote ? h("span", { class: "q" }, "\"") : null, vis(s),
    quote ? h("span", { class: "q" }, "\"") : null);
}

// A long input is shown in part: the first MAX_CELLS code points get a cell each (tens of
// thousands of cells would freeze the page for seconds), followed by a note saying so.
export const MAX_CELLS = 2000;

/** The component of each of the first `n` code points, from result.spans. */
function componentsOf(n, spans) {
  const comp = new Array(n).fill("removed");
  for (const s of spans || []) {
    for (let i = Math.max(0, s.start); i < Math.min(n, s.end); i++) comp[i] = s.component;
  }
  return comp;
}

function cellClass(ch, component, next) {
  return "c k-" + safeClass(component) +
    (ch === " " ? " sp" : breaksAfter(ch, next) ? " brk" : NO_BREAK_AFTER.has(ch) ? " wj" : "");
}

function cell(ch, i, component, next) {
  const el = document.createElement("span");
  el.className = cellClass(ch, component, next);
  el.dataset.i = String(i);
  el.append(isInvisible(ch) ? badge(ch) : document.createTextNode(ch));
  return el;
}

/** The note after a code line that shows only part of its input. */
export function truncationNote(shown, total) {
  return h("span", { class: "trunc-note", role: "note", data: { shown, total } },
    `… showing the first ${shown.toLocaleString("en")} of ${total.toLocaleString("en")} code points`);
}

const lines = new WeakMap(); // element -> what updateCodeLine last put in it

/** codePointCells into `el`, changing only what differs from the last call on `el` (typing
 *  changes one code point and a few components, not the whole line). Returns {cells, shown,
 *  total}; `cells` is live (later calls update it). */
export function updateCodeLine(el, input, spans, { end = false, limit = MAX_CELLS } = {}) {
  let line = lines.get(el);
  if (!line || line.end !== end || el.firstChild !== (line.cells[0] ?? line.tail ?? null)) {
    line = { end, chars: [], classes: [], cells: [], eof: null, note: null, tail: null };
    lines.set(el, line);
    el.replaceChildren();
  }
  const cps = codePoints(input);
  const total = cps.length;
  const shown = Math.min(total, limit);
  const comp = componentsOf(shown, spans);
  const { chars, classes, cells } = line;
  const common = Math.min(shown, cells.length);
  for (let i = 0; i < common; i++) {
    const cls = cellClass(cps[i], comp[i], cps[i + 1]);
    if (chars[i] !== cps[i]) {
      const c = cell(cps[i], i, comp[i], cps[i + 1]);
      cells[i].replaceWith(c);
      cells[i] = c;
      chars[i] = cps[i];
      classes[i] = cls;
    } else if (classes[i] !== cls) {
      cells[i].className = cls;
      classes[i] = cls;
    }
  }
  for (let i = shown; i < cells.length; i++) cells[i].remove();
  cells.length = chars.length = classes.length = common;
  if (shown > common) {
    const frag = document.createDocumentFragment();
    for (let i = common; i < shown; i++) {
      const c = cell(cps[i], i, comp[i], cps[i + 1]);
      cells.push(c);
      chars.push(cps[i]);
      classes.push(cellClass(cps[i], comp[i], cps[i + 1]));
      frag.append(c);
    }
    if (line.tail) el.insertBefore(frag, line.tail);
    else el.append(frag);
  }
  // what follows the cells: EOF (when the whole input is shown) or the truncation note
  const wantEof = end && shown === total;
  if (line.eof && (!wantEof || line.eof.dataset.i !== String(total))) {
    line.eof.remove();
    line.eof = null;
  }
  if (wantEof && !line.eof) {
    line.eof = h("span", { class: "c eof", data: { i: total }, title: "end of input (EOF)" }, "EOF");
    el.append(line.eof);
  }
  if (line.note) {
    line.note.remove();
    line.note = null;
  }
  if (shown < total) {
    line.note = truncationNote(shown, total);
    el.append(line.note);
  }
  line.tail = line.eof ?? line.note;
  return { cells: line.eof ? [...cells, line.eof] : cells, shown, total };
}

export function safeClass(s) {
  return String(s).replace(/[^a-z0-9-]/gi, "_");
}

/** Coloured href from result.href_spans. */
export function hrefPieces(pieces) {
  const frag = document.createDocumentFragment();
  const list = pieces || [];
  list.forEach((p, k) => {
    const next = list[k + 1] ? String(list[k + 1].text)[0] : undefined;
    frag.append(h("span", { class: "k-" + safeClass(p.component) }, vis(p.text, MAX_TEXT, { next })));
  });
  return frag;
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
