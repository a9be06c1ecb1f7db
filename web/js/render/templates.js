// @ts-check
// lit-html templates for the views: the template versions of dom.js's helpers (vis, valueToken,
// specLink, hrefPieces, legend, moreNote, code lines ...), with the same safety rules:
// - every string that came from a URL is a text binding (`${str}` in a child position), never
//   markup: lit-html sets it as a text node's data (no unsafeHTML anywhere);
// - invisible, control and bidi-control code points are shown as visible badges (⟨U+202E⟩);
// - the only links point at https://url.spec.whatwg.org/#<anchor>, with an anchor checked here.
// The templates are written without white space between tags (it would be text in the page).

import { html, nothing, render } from "../vendor/lit-html.mjs";
import {
  COMPONENTS, COMPONENT_LABELS, MAX_BADGES, MAX_CELLS, MAX_TEXT, SPEC, breaksAfter, codePoints, cpLabel,
  isInvisible, safeClass,
} from "./dom.js";

export { html, nothing, render };

/** @typedef {ReturnType<typeof html>} TemplateResult */
/** @typedef {TemplateResult | string | typeof nothing | null | undefined | unknown[]} Content */

// Never after these: a word joiner drawn by CSS (dom.js NO_BREAK_AFTER).
const NO_BREAK_AFTER = new Set(["-", "|", "!", "}"]);
const MAX_BREAKS = 100;

const owned = new WeakSet();

/** Render `tpl` into `el`, which lit-html then owns: what it held before (the page's placeholder,
 *  an older renderer's nodes) goes at the first call. Later calls change only what differs. */
export function show(el, tpl) {
  if (!owned.has(el)) {
    el.replaceChildren();
    owned.add(el);
  }
  render(tpl, el);
  return el;
}

/** `tpl` drawn anew into a fragment of its own (nodes no later render will change). */
export function drawn(tpl) {
  const frag = document.createDocumentFragment();
  render(tpl, frag);
  return frag;
}

/** A link to the URL Standard (anchor: a plain fragment id, checked here; else no href).
 *  opts: {cls, step (data-spec-step), title}. */
export function specLink(anchor, text, { cls = "spec", step = undefined } = {}) {
  const href = typeof anchor === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(anchor) ? SPEC + "#" + anchor : null;
  return href === null
    ? html`<a class=${cls} target="_blank" rel="noopener noreferrer" data-spec-step=${step ?? nothing}>${text}</a>`
    : html`<a class=${cls} target="_blank" rel="noopener noreferrer" data-spec-step=${step ?? nothing} href=${href}>${text}</a>`;
}

/** A visible badge for one invisible code point. */
export function badge(ch) {
  const label = cpLabel(ch);
  return html`<span class="cp" title=${label + " (shown escaped)"}>⟨${label}⟩</span>`;
}

const WBR = html`<wbr>`;
const JOINER = html`<span class="wj"></span>`;

/** The note that ends a string shown in part. */
export function moreNote(more, what = "code points") {
  return html`<span class="trunc-more" role="note" data-more=${more}>… (${more.toLocaleString("en")} more ${what} not shown)</span>`;
}

/** str as text pieces: invisible code points as badges, a <wbr> after each URL delimiter (at
 *  most MAX_BREAKS), the first `limit` code points (fewer if MAX_BADGES badges come first), then
 *  a note saying how many more there are (dom.js vis, as a list lit-html renders). */
export function vis(str, limit = MAX_TEXT, { next = undefined } = {}) {
  if (str === null || str === undefined) return nothing;
  str = String(str);
  /** @type {Content[]} */
  const out = [];
  let run = "";
  let n = 0;
  let units = 0;
  let badges = 0;
  let breaks = 0;
  for (const ch of str) {
    if (n === limit || badges === MAX_BADGES) {
      if (run) out.push(run);
      run = "";
      out.push(moreNote(codePoints(str.slice(units)).length));
      break;
    }
    n += 1;
    units += ch.length;
    if (isInvisible(ch)) {
      if (run) out.push(run);
      run = "";
      out.push(badge(ch));
      badges += 1;
    } else {
      run += ch;
      const after = units < str.length ? str[units] : next;
      if (breaks < MAX_BREAKS && after !== undefined) {
        if (breaksAfter(ch, after)) {
          out.push(run, WBR);
          run = "";
          breaks += 1;
        } else if (NO_BREAK_AFTER.has(ch)) {
          out.push(run, JOINER);
          run = "";
          breaks += 1;
        }
      }
    }
  }
  if (run) out.push(run);
  // a plain string (most values: no delimiter, no badge) is one text binding
  return out.length === 1 ? out[0] : out;
}

/** A quoted string token: "" is visibly empty, null is the token null. */
export function valueToken(v, { quote = true } = {}) {
  if (v === null || v === undefined) return html`<span class="tok-null" title="null">null</span>`;
  if (typeof v === "number" || typeof v === "boolean") return html`<span class="tok-num">${String(v)}</span>`;
  const s = String(v);
  if (s === "") return html`<span class="tok-empty" title="the empty string">${quote ? "\"\"" : "(empty)"}</span>`;
  return quote
    ? html`<span class="tok-str"><span class="q">"</span>${vis(s)}<span class="q">"</span></span>`
    : html`<span class="tok-str">${vis(s)}</span>`;
}

/** The href in colours, from result.href_spans. */
export function hrefPieces(pieces) {
  const list = pieces || [];
  return list.map((p, k) => {
    const next = list[k + 1] ? String(list[k + 1].text)[0] : undefined;
    return html`<span class=${"k-" + safeClass(p.component)}>${vis(p.text, MAX_TEXT, { next })}</span>`;
  });
}

export function legend() {
  return html`<ul class="legend" aria-label="Colour legend">${COMPONENTS.map((c) =>
    html`<li class=${"k-" + c}>${COMPONENT_LABELS[c]}</li>`)}</ul>`;
}

/** The note after a code line that shows only part of its input. */
export function truncationNote(shown, total) {
  return html`<span class="trunc-note" role="note" data-shown=${shown} data-total=${total}>… showing the first ${shown.toLocaleString("en")} of ${total.toLocaleString("en")} code points</span>`;
}

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

/** The input's code points as cells coloured by component (result.spans), at most `limit`, then
 *  EOF (with `end`, when all are shown) or a truncation note (dom.js codePointCells).
 *  `mark(i)` may add to cell i: {cls, title, sup} (the Validation view's underlined errors).
 *  Returns {cells: the templates, shown, total}. */
export function codeCells(input, spans, { end = false, limit = MAX_CELLS, mark = null } = {}) {
  const cps = codePoints(input);
  const total = cps.length;
  const shown = Math.min(total, limit);
  const comp = componentsOf(shown, spans);
  const cells = [];
  for (let i = 0; i < shown; i++) {
    const ch = cps[i];
    const cls = cellClass(ch, comp[i], cps[i + 1]);
    const text = isInvisible(ch) ? badge(ch) : ch;
    const m = mark ? mark(i) : null;
    cells.push(m
      ? html`<span class=${cls + (m.cls ? " " + m.cls : "")} data-i=${i} title=${m.title ?? nothing}>${text}${m.sup ?? nothing}</span>`
      : html`<span class=${cls} data-i=${i}>${text}</span>`);
  }
  if (end && shown === total) {
    const m = mark ? mark(total) : null;
    cells.push(html`<span class=${"c eof" + (m?.cls ? " " + m.cls : "")} data-i=${total} title=${m?.title ? "end of input (EOF); " + m.title : "end of input (EOF)"}>EOF${m?.sup ?? nothing}</span>`);
  }
  if (shown < total) cells.push(truncationNote(shown, total));
  return { cells, shown, total };
}
