// @ts-check
// Steps: the parser's trace (result.trace.steps) as a scrubbable timeline.
import { cpLabel, errorAnchor, isInvisible, visText } from "../render/dom.js";
import { codeCells, drawn, html, nothing, show, specLink, valueToken, vis } from "../render/templates.js";
import { EMPTY_RECORD, FIELDS, applyChanges, recordTableHtml } from "./record.js";
import { algorithm, onSpec, quoteHtml, specLoaded, stepWords, wholeAlgorithmHtml } from "./spectext.js";
// Spec anchors for the algorithms that report sub-steps (depth >= 1), and for the setters.
import { OPERATION_ANCHORS, PARSER_ANCHORS } from "../facts.js";

/** The spec anchor for a step (we build it ourselves; never taken verbatim from data). */
export function stepAnchor(step) {
  if (step.parser !== "uts46" && typeof step.anchor === "string" && /^[a-z0-9-]+$/.test(step.anchor)) return step.anchor;
  if (step.parser === "url") {
    if (typeof step.anchor === "string" && /^[a-z0-9-]+$/.test(step.anchor)) return step.anchor;
    return "concept-basic-url-parser";
  }
  if (step.parser === "setter") {
    const name = String(step.state || "").split(" ")[0];
    return Object.hasOwn(OPERATION_ANCHORS, name) ? OPERATION_ANCHORS[name] : "urlutils-members";
  }
  return (Object.hasOwn(PARSER_ANCHORS, step.parser) && PARSER_ANCHORS[step.parser]) || "concept-basic-url-parser";
}

const EOF_TOKEN = html`<span class="tok-null">EOF</span>`;
const NO_CHAR = html`<span class="muted">—</span>`;
const QUOTE = html`<span class="q">'</span>`;

/** The code point `c` of a step, as a token (a template). */
export function cText(c) {
  if (c === null) return EOF_TOKEN;
  if (c === undefined) return NO_CHAR;
  const ch = String(c);
  if (isInvisible(ch) || ch === " ") {
    return html`<span class="tok-str"><span class="cp">${"⟨" + cpLabel(ch) + "⟩"}</span></span>`;
  }
  return html`<span class="tok-str">${QUOTE}${ch}${QUOTE}</span>`;
}

/** A generic, text-only rendering of a JSON value (for sub-step details; a template). */
export function jsonView(v, depth = 0) {
  if (v === null || typeof v !== "object") return valueToken(v);
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object")) {
      return html`<span class="json-arr">[${v.map((x, i) => i ? [", ", valueToken(x)] : valueToken(x))}]</span>`;
    }
    return html`<ol class="json-list">${v.map((x) => html`<li>${jsonView(x, depth + 1)}</li>`)}</ol>`;
  }
  return html`<dl class="kv json-obj">${Object.entries(v).map(([k, x]) => html`<dt>${k}</dt><dd>${jsonView(x, depth + 1)}</dd>`)}</dl>`;
}

/** The steps of an event that ran, in order (`ran`; a trace without it: the one step). */
export function ranSteps(s) {
  if (Array.isArray(s.ran)) return s.ran;
  return s.step ? [{ step: s.step, changes: s.changes, errors: s.errors, outcome: s.outcome }] : [];
}

/** The step numbers of an event, in the order they ran ("2.2, 2.7"). */
function ranNumbers(s) {
  const ran = ranSteps(s);
  return ran.length ? ran.map((r) => r.step).join(", ") : s.step || "";
}

/** "called by relative state, step 5.4.2" (a nested event's caller), or "". */
export function calledByText(s) {
  const by = s.called_by;
  if (!by || !by.algorithm) return "";
  return "called by " + by.algorithm + (by.step ? ", step " + by.step : "");
}

/** The one-line, text-only label of a step in the timeline list. */
function stepText(s) {
  const nums = ranNumbers(s);
  const num = nums ? " " + nums : "";
  if (s.depth > 0 || s.parser !== "url" || !("c" in s)) {
    const what = s.parser === "shorten" && typeof s.removed === "string" ? "removed " + JSON.stringify(s.removed) : s.note;
    return visText((s.algorithm || s.state || s.parser) + num + (what ? " — " + what : ""));
  }
  const c = s.c === null ? "EOF" : isInvisible(s.c) || s.c === " " ? "⟨" + cpLabel(s.c) + "⟩" : "'" + s.c + "'";
  return s.state + num + "  " + c;
}

/**
 * The changes of the standard undone when step `s` ran, whose old branch it took (`variants`:
 * urlcalc.trace.undone, completed by urlcalc.history.cite): per change its badge ("as before
 * 4bf85a0"), its label (date and title) and the words each step it touched had before it (or,
 * marked `summary`, urlcalc's one line where url.bs's words were not extracted). Text only.
 * @param {import("../model/parse.js").Step} s
 * @returns {Array<{variant: string, badge: string, label: string, olds: Array<{where: string, text: string, summary: boolean}>}>}
 */
export function variantCitations(s) {
  return (s.variants || []).map((v) => ({
    variant: v.variant || "",
    badge: "as before " + (v.commit || ""),
    label: [v.date, v.title].filter(Boolean).join(" · "),
    olds: (v.before || (v.where || []).map((w) => ({ where: w, text: null, source: "variant" }))).map((o) => ({
      where: o.where,
      text: o.text === null ? "(no such step before this change" + (v.summary ? ": " + v.summary : "") + ")" : o.text,
      summary: o.source !== "url.bs" || o.text === null,
    })),
  }));
}

/**
 * The step's citations under the changes undone (a template, or nothing): a badge per change and
 * the old words, said apart from today's words quoted below them.
 * @param {import("../model/parse.js").Step} s
 */
export function variantsHtml(s) {
  const cites = variantCitations(s);
  if (!cites.length) return nothing;
  return html`<div class="variant-cites" id="step-variants" role="note"><p class="muted small">This step ran as the URL Standard read before ${cites.length === 1 ? "this change" : "these changes"} (undone here); the words quoted below ${cites.length === 1 ? "it" : "them"} are today's.</p>${cites.map((c) => html`<div class="variant-cite" data-variant=${c.variant}><span class="pill warn variant-badge" title=${c.variant}>${c.badge}</span> <span class="variant-label">${c.label}</span>${c.olds.map((o) => html`<blockquote class=${o.summary ? "spec-words old summary" : "spec-words old"} data-where=${o.where}><p><span class="muted small">${o.where + (o.summary ? ", then (urlcalc's summary): " : ", then: ")}</span>${vis(o.text)}</p></blockquote>`)}</div>`)}</div>`;
}

/** A record change as "field ← value" tokens (a template). */
function changesHtml(changes, arrow = " ← ") {
  return html`${Object.entries(changes).map(([k, v]) => html`<span class="chg" data-field=${k}>${k + arrow}${jsonView(v)}</span>`)}`;
}

function errorLinks(errors) {
  return html`<span class="err-inline">⚠ ${errors.map((e, j) => [j ? ", " : nothing, specLink(errorAnchor(e), e, { cls: "spec err-link" })])}</span>`;
}

/** Compact, static list of steps (setters lab, host calculator): a template. */
export function compactTraceHtml(trace) {
  if (!trace || !trace.steps) return html`<p class="muted">No trace.</p>`;
  const items = trace.steps.map((s) => html`<li class=${"depth-" + Math.min(4, s.depth || 0)} data-step=${s.i} data-state=${s.state || s.parser} title=${calledByText(s) || nothing}>${specLink(stepAnchor(s), s.state || s.parser, { cls: "spec st-name" })}${s.step
    ? html`<span class="muted small">${(ranSteps(s).length > 1 ? " steps " : " step ") + ranNumbers(s)}</span>` : nothing}${"c" in s ? [" ", cText(s.c)] : nothing}${s.buffer
    ? [" buffer ", valueToken(s.buffer)] : nothing}${s.changes && Object.keys(s.changes).length
    ? html`<span class="changes"> → ${Object.entries(s.changes).map(([k, v]) => html`<span class="chg">${k + " = "}${jsonView(v)}</span>`)}</span>` : nothing}${s.errors && s.errors.length
    ? html`<span class="err-inline">${" ⚠ " + s.errors.join(", ")}</span>` : nothing}${s.note
    ? html`<span class="st-note"> — ${vis(s.note)}</span>` : nothing}${s.result !== undefined ? [" ⇒ ", valueToken(s.result)] : nothing}</li>`);
  return html`<div><ol class="trace-compact">${items}</ol>${trace.truncated ? truncatedNote(trace) : nothing}</div>`;
}

/** The note saying a trace was cut short (a template). */
export function truncatedNote(trace) {
  return html`<p class="note warn" role="note">${`The trace was truncated: only the first ${(trace.steps || []).length.toLocaleString("en")} steps were kept ` +
    `(at most ${Number(trace.max_steps).toLocaleString("en")}` +
    (trace.max_chars ? `, and at most ${Number(trace.max_chars).toLocaleString("en")} code points of buffers and values` : "") +
    `), ${Number(trace.dropped).toLocaleString("en")} more were dropped.`}</p>`;
}

// The step list shows at most this many steps at a time (a window around the current step).
export const LIST_WINDOW = 400;

const LEDE = html`<p class="lede">The basic URL parser, one state-machine step at a time. Scrub with the buttons, the slider or the arrow keys in the list; the caret marks the pointer in the input.</p>`;

/**
 * The selected step in words, for a screen reader: "step 13 of 60: authority state, step 3;
 * sets host; validation error: …; called by …".
 * @param {any} s a trace step @param {number} i its index @param {number} n the number of steps
 */
export function stepSummary(s, i, n) {
  const name = s.algorithm || s.state || s.parser || "";
  const parts = [`step ${i + 1} of ${n}: ${name}, ${s.step ? "step " + s.step : "no numbered step"}`];
  const changes = Object.keys(s.changes || {});
  if (changes.length) parts.push("sets " + changes.join(", "));
  if (s.errors && s.errors.length) parts.push("validation error" + (s.errors.length > 1 ? "s: " : ": ") + s.errors.join(", "));
  if (s.outcome) parts.push(s.outcome);
  if (s.called_by && s.called_by.algorithm) parts.push(`called by ${s.called_by.algorithm}${s.called_by.step ? ", step " + s.called_by.step : ""}`);
  const cites = variantCitations(s);
  if (cites.length) parts.push("as before " + cites.map((c) => c.badge).join(", "));
  return parts.join("; ");
}

export class StepsView {
  /** @param {HTMLElement} panel
   *  @param {{onChange?: (i: number) => void, announce?: (text: string) => void}} [opts] */
  constructor(panel, { onChange = () => {}, announce = () => {} } = {}) {
    this.panel = panel;
    this.onChange = onChange;
    this.announce = announce;
    this.pos = 0;
    this.steps = [];
    this.timer = null;
    this.windowStart = -1;
    this.windowEnd = -1;
    this.build();
  }

  build() {
    const p = this.panel;
    const subToggled = () => {
      this.list.classList.toggle("hide-sub", !this.subToggle.checked);
      if (!this.subToggle.checked && this.steps[this.pos] && this.steps[this.pos].depth > 0) this.go(this.parentOf(this.pos));
    };
    const listClick = (e) => {
      const li = e.target.closest("li[data-step]");
      if (li && !e.target.closest("a")) this.go(Number(li.dataset.step));
    };
    show(p, html`${LEDE}<div class="codeline trace-input" id="trace-input" aria-label="The input, with the parser's pointer (caret)" role="img" data-caret=""></div><div class="scrubber" role="group" aria-label="Timeline controls"><button type="button" id="step-first" title="First step (Home)" aria-label="First step" @click=${() => this.go(0)}>|◀</button><button type="button" id="step-prev" title="Previous step (←)" aria-label="Previous step" @click=${() => this.go(this.pos - 1)}>◀</button><button type="button" id="step-play" class="primary" aria-pressed="false" title="Play / pause (Space)" @click=${() => this.toggle()}>▶ Play</button><button type="button" id="step-next" title="Next step (→)" aria-label="Next step" @click=${() => this.go(this.pos + 1)}>▶</button><button type="button" id="step-last" title="Last step (End)" aria-label="Last step" @click=${() => this.go(this.steps.length - 1)}>▶|</button><input type="range" id="step-range" min="0" max="0" value="0" aria-label="Step" @input=${() => this.go(Number(this.range.value))}><span class="step-pos" id="step-pos" aria-live="off"></span><label class="check"><input type="checkbox" id="show-substeps" checked @change=${subToggled}> nested steps</label></div><div id="trace-truncated"></div><p class="muted" hidden>No trace for this input.</p><div class="steps-body"><ol class="step-list" id="step-list" tabindex="0" role="listbox" aria-label="Trace steps (arrow keys, Page Up and Down, Home and End to move, Space to play)" @click=${listClick} @keydown=${(e) => this.key(e)}></ol><div class="step-detail" id="step-detail"></div></div><p class="sr-only" id="step-summary"></p><p class="sr-only" id="step-live" aria-live="polite" aria-atomic="true"></p>`);
    const $ = (id) => /** @type {HTMLElement} */ (p.querySelector("#" + id));
    this.inputEl = $("trace-input");
    this.first = $("step-first");
    this.prev = $("step-prev");
    this.play = $("step-play");
    this.next = $("step-next");
    this.last = $("step-last");
    this.range = /** @type {HTMLInputElement} */ ($("step-range"));
    this.posEl = $("step-pos");
    this.subToggle = /** @type {HTMLInputElement} */ ($("show-substeps"));
    this.list = $("step-list");
    this.detail = $("step-detail");
    this.summaryEl = $("step-summary"); // the selected step in words: its option's description
    this.liveEl = $("step-live"); // the same, said when a button (not the list) moved the step
    this.truncated = $("trace-truncated");
    this.emptyEl = /** @type {HTMLElement} */ (this.truncated.nextElementSibling);
    // the spec's words arrive once per session: show them for the step on screen
    onSpec(() => { if (this.steps.length) this.renderDetail(this.pos); });
  }

  key(e) {
    const map = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key in map) this.go(this.visibleStep(this.pos, map[e.key]));
    else if (e.key === "Home") this.go(0);
    else if (e.key === "End") this.go(this.steps.length - 1);
    else if (e.key === " " || e.key === "Enter") this.toggle();
    else return;
    e.preventDefault();
  }

  visibleStep(from, delta) {
    let i = from;
    const dir = Math.sign(delta);
    let n = Math.abs(delta);
    while (n > 0) {
      let j = i + dir;
      if (!this.subToggle.checked) while (this.steps[j] && this.steps[j].depth > 0) j += dir;
      if (j < 0 || j >= this.steps.length) break;
      i = j;
      n -= 1;
    }
    return i;
  }

  parentOf(i) {
    while (i > 0 && this.steps[i].depth > 0) i -= 1;
    return i;
  }

  toggle(force = null) {
    const on = force === null ? !this.timer : force;
    if (on && !this.timer) {
      if (this.pos >= this.steps.length - 1) this.go(0);
      this.timer = setInterval(() => {
        if (this.pos >= this.steps.length - 1) this.toggle(false);
        else this.go(this.visibleStep(this.pos, 1));
      }, 450);
    } else if (!on && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    this.play.setAttribute("aria-pressed", String(!!this.timer));
    this.play.textContent = this.timer ? "⏸ Pause" : "▶ Play";
  }

  /** Render a new parse result. */
  /** Render a new parse result. */
  render(result) {
    this.result = result;
    const trace = result && result.trace;
    this.steps = trace && Array.isArray(trace.steps) ? trace.steps : [];
    this.input = result ? result.input : "";
    // cumulative records: records[i] is the record after event i, ranRecords[i][k] the record
    // after its k-th ran step (each ran step's changes folded in the order the steps ran)
    this.records = [];
    this.ranRecords = [];
    let rec = { ...EMPTY_RECORD };
    for (const s of this.steps) {
      const after = [];
      for (const r of ranSteps(s)) {
        if (r.changes && Object.keys(r.changes).length) rec = applyChanges(rec, r.changes);
        after.push(rec);
      }
      if (s.changes && Object.keys(s.changes).length) rec = applyChanges(rec, s.changes);
      this.ranRecords.push(after);
      this.records.push(rec);
    }
    // index for each step (sub-steps and index-less steps inherit the previous URL step's)
    this.caretIdx = [];
    let last = null;
    for (const s of this.steps) {
      if (s.parser === "url" && typeof s.index === "number") last = s.index;
      this.caretIdx.push(last);
    }
    // Bounded (a long input shows its first MAX_CELLS code points); lit-html changes only the
    // cells that differ (typing changes one code point and a few components).
    show(this.inputEl, codeCells(this.input, result ? result.spans : [], { end: true }).cells);
    this.cells = [...this.inputEl.children].filter((c) => c.classList.contains("c"));
    if (this.pos >= this.steps.length) this.pos = Math.max(0, this.steps.length - 1);
    this.listWindow(this.pos, true);
    show(this.truncated, trace && trace.truncated ? truncatedNote(trace) : nothing);
    this.emptyEl.hidden = this.steps.length > 0;
    this.range.max = String(Math.max(0, this.steps.length - 1));
    this.show(this.pos, true);
  }

  /** The list holds one plain <li> per step (text only, the number via CSS), for a window of at
   *  most LIST_WINDOW steps around step `i` (a long input has thousands of steps; laying them
   *  all out froze the page for a third of a second), with a note before and after it saying
   *  how many steps are not listed. lit-html keeps the items and changes only what differs
   *  (typing one more code point changes the last few steps, not the ones before them); with
   *  `update`, the trace changed. */
  listWindow(i, update = false) {
    const n = this.steps.length;
    const start = n <= LIST_WINDOW ? 0 : Math.max(0, Math.min(n - LIST_WINDOW, i - LIST_WINDOW / 2));
    const end = Math.min(n, start + LIST_WINDOW);
    if (!update && start === this.windowStart && end === this.windowEnd && this.listedPos === this.pos) return;
    this.windowStart = start;
    this.windowEnd = end;
    this.listedPos = this.pos;
    const items = [];
    for (let k = start; k < end; k++) {
      const s = this.steps[k];
      const selected = k === this.pos;
      let cls = "depth-" + Math.min(4, s.depth || 0);
      if (s.changes && Object.keys(s.changes).length) cls += " has-changes";
      if (s.errors && s.errors.length) cls += " has-errors";
      if (s.variants && s.variants.length) cls += " has-variants";
      if (selected) cls += " selected";
      const by = calledByText(s);
      items.push(html`<li id=${"step-" + k} role="option" aria-selected=${selected ? "true" : "false"} aria-posinset=${k + 1} aria-setsize=${n} aria-describedby=${selected ? "step-summary" : nothing} data-step=${k} class=${cls} data-state=${s.state || s.parser || ""} data-called-by=${by ? s.called_by.algorithm + (s.called_by.step ? " " + s.called_by.step : "") : nothing} title=${by || nothing}>${stepText(s)}${s.variants && s.variants.length ? html` <span class="pill warn variant-badge">${variantCitations(s).map((c) => c.badge).join(", ")}</span>` : nothing}</li>`);
    }
    const more = (count, where) => html`<li class="more trunc-note" role="presentation" data-more=${count}>${`… ${count.toLocaleString("en")} ${where} step${count === 1 ? "" : "s"} not listed here: scrub, or use the slider`}</li>`;
    show(this.list, html`${start > 0 ? more(start, "earlier") : nothing}${items}${end < n ? more(n - end, "later") : nothing}`);
  }

  go(i) {
    if (!this.steps.length) return;
    i = Math.max(0, Math.min(this.steps.length - 1, i));
    this.show(i, true);
    // the list announces its focused option (step n of m, described by #step-summary); a button
    // or a key elsewhere does not move the focus: say it (not while playing)
    if (document.activeElement !== this.list && !this.timer) this.liveEl.textContent = this.summaryEl.textContent;
    this.onChange(i);
  }

  show(i, scroll) {
    this.pos = i;
    const n = this.steps.length;
    const disabled = n === 0;
    for (const b of [this.first, this.prev, this.play, this.next, this.last, this.range]) /** @type {HTMLButtonElement} */ (b).disabled = disabled;
    if (disabled) {
      this.posEl.textContent = "";
      this.detail.replaceChildren();
      this.detailKey = null;
      this.inputEl.dataset.caret = "";
      this.selected = null;
      return;
    }
    this.range.value = String(i);
    this.posEl.textContent = `step #${i} (${i + 1} of ${n})`;
    this.summaryEl.textContent = stepSummary(this.steps[i], i, n);
    this.listWindow(i);
    const li = /** @type {HTMLElement} */ (this.list.querySelector("#step-" + i));
    this.selected = li;
    this.list.setAttribute("aria-activedescendant", li.id);
    if (scroll) {
      // after layout (reading offsetTop now would force it in the middle of a render)
      // Items off screen are laid out at an estimated height (content-visibility): once scrolled,
      // the ones in view get their real height and the selected one may move; look again.
      cancelAnimationFrame(this.scrollFrame);
      const fit = (tries) => {
        if (tries === 3) this.fitToScreen();
        const sel = this.selected;
        if (!sel || !this.list.clientHeight) return;
        const top = sel.offsetTop; // the list is the items' offsetParent (position: relative)
        if (top < this.list.scrollTop || top + sel.offsetHeight > this.list.scrollTop + this.list.clientHeight) {
          this.list.scrollTop = top - this.list.clientHeight / 2;
          if (tries > 0) this.scrollFrame = requestAnimationFrame(() => fit(tries - 1));
        }
      };
      this.scrollFrame = requestAnimationFrame(() => fit(3));
    }
    // caret
    const idx = this.caretIdx[i];
    this.inputEl.dataset.caret = idx === null || idx === undefined ? "" : String(idx);
    const upto = idx === null || idx === undefined ? 0 : Math.min(idx, this.cells.length);
    this.cells.forEach((c, k) => {
      c.classList.toggle("past", k < upto);
      c.classList.toggle("caret", idx !== null && idx !== undefined && k === Math.min(idx, this.cells.length - 1));
    });
    this.renderDetail(i);
  }

  fitToScreen() {
    if (!document.body.classList.contains("presenter") || !this.list.isConnected || this.panel.hidden) {
      this.list.style.maxHeight = "";
      return;
    }
    const top = this.list.getBoundingClientRect().top + window.scrollY;
    this.list.style.maxHeight = Math.max(160, Math.floor(window.innerHeight - top - 8)) + "px";
  }

  renderDetail(i) {
    const s = this.steps[i];
    const rec = this.records[i];
    const ranRecs = this.ranRecords[i] || [];
    // Typing on after the step on screen leaves it as it was: nothing to redraw then.
    const key = JSON.stringify([i, s, rec, ranRecs, specLoaded(), !!this.algorithmOpen]);
    if (key === this.detailKey && this.detail.firstChild) return;
    this.detailKey = key;
    const changed = new Set(Object.keys(s.changes || {}).filter((k) => FIELDS.includes(k)));
    const name = s.algorithm || s.state || s.parser;
    const head = html`<div class="detail-head"><span class="st-i big">${"#" + i}</span>${specLink(stepAnchor(s), name, { cls: "spec state-link" })}${s.step
      ? html`<span class="pill" data-spec-step=${s.step}>${"step " + s.step}</span>`
      : html`<span class="pill muted" data-spec-step="">no step</span>`}${s.depth > 0
      ? html`<span class="pill sub">${`${s.parser} (depth ${s.depth})`}</span>` : nothing}${s.called_by && s.called_by.algorithm
      ? html`<span class="called-by" data-called-by=${s.called_by.algorithm} data-called-by-step=${s.called_by.step ?? ""}>called by ${specLink(algorithm(s.called_by.algorithm)?.anchor, s.called_by.step ? `${s.called_by.algorithm}, step ${s.called_by.step}` : s.called_by.algorithm, { cls: "spec called-by-link", step: s.called_by.step ?? "" })}</span>` : nothing}${s.next_state && s.next_state !== s.state
      ? html`<span class="next">→ ${s.next_state}</span>` : nothing}${s.outcome ? html`<span class="pill warn">${s.outcome}</span>` : nothing}</div>`;
    const rows = [];
    const row = (k, v) => rows.push(html`<dt>${k}</dt><dd>${v}</dd>`);
    if ("c" in s) row("c", cText(s.c));
    if ("pointer" in s) row("pointer", String(s.pointer) + (s.index !== s.pointer && s.index !== undefined ? ` (index ${s.index} in the original input)` : ""));
    if ("buffer" in s) row("buffer", valueToken(s.buffer));
    if (s.flags) {
      row("flags", html`<span class="flags">${Object.entries(s.flags).map(([k, v]) =>
        html`<span class=${v ? "flag on" : "flag off"} title=${k + " = " + v}>${(v ? "✓ " : "✗ ") + k.replaceAll("_", " ")}</span>`)}</span>`);
    }
    if (s.errors && s.errors.length && !Array.isArray(s.ran)) {
      row("validation errors", html`<span>${s.errors.map((e, j) => [j ? ", " : nothing,
        specLink(errorAnchor(e), e, { cls: "spec err-link" })])}</span>`);
    }
    if (s.note) row("note", vis(s.note));
    for (const k of ["input", "domain", "result", "removed"]) if (k in s) row(k, jsonView(s[k]));
    if (s.details) row("details", jsonView(s.details));
    if (s.changes && Object.keys(s.changes).length && !Array.isArray(s.ran)) {
      row("changes", html`<span>${Object.entries(s.changes).map(([k, v]) => html`<span class="chg">${k + " ← "}${jsonView(v)}</span>`)}</span>`);
    }
    // The spec's words for this step, and its whole algorithm (collapsible) with the step lit.
    const words = s.step ? quoteHtml(name, s.step, { id: "step-spec-words" })
      : html`<blockquote class="spec-words none" id="step-spec-words"><p>${vis(s.note && s.note.startsWith("no step applies") ? s.note : "No numbered step: the algorithm as a whole.")}</p></blockquote>`;
    // Every step that ran, in order: the steps that did the work first, then the branch that
    // applied last (its words are the quote above the rest, #step-spec-words), each with its
    // changes, errors, outcome and the algorithm it called (whose events follow, nested).
    const ran = ranSteps(s);
    const anchor = algorithm(name)?.anchor ?? stepAnchor(s);
    const ranItems = ran.map((r, k) => {
      const last = k === ran.length - 1 && r.step === s.step;
      const ch = r.changes && Object.keys(r.changes).length ? html`<span class="changes"> → ${changesHtml(r.changes)}</span>` : nothing;
      const rw = last ? null : stepWords(name, r.step);
      return html`<li class=${last ? "ran-step applied" : "ran-step"} data-ran-step=${r.step} data-role=${last ? "applied-last" : "ran"}><span class="ran-head">${specLink(anchor, "step " + r.step, { cls: "spec ran-link", step: r.step })}${last && ran.length > 1
        ? html`<span class="muted small"> (applied last)</span>` : nothing}${ch}${r.errors && r.errors.length ? [" ", errorLinks(r.errors)] : nothing}${r.calls
        ? html`<span class="ran-calls"> calls ${r.calls}${this.steps[i + 1] && this.steps[i + 1].called_by ? " (its steps follow, indented)" : ""}</span>` : nothing}${r.outcome
        ? html`<span class="ran-outcome"> ⇒ ${r.outcome === "failure" ? "return failure" : r.outcome}</span>` : nothing}</span>${rw
        ? html`<q class="ran-words">${vis(rw)}</q>` : nothing}${last ? words || nothing : nothing}</li>`;
    });
    const lastIsQuoted = ran.length > 0 && ran[ran.length - 1].step === s.step;
    const ranList = ran.length
      ? html`<ol class="ran-steps" id="step-ran" aria-label="The steps that ran, in order">${ranItems}</ol>`
      : nothing;
    const cause = s.cause ? quoteHtml(s.cause.algorithm, s.cause.step, { note: "where the failure began" }) : null;
    const whole = wholeAlgorithmHtml(name, s.step, { open: this.algorithmOpen, onToggle: (open) => { this.algorithmOpen = open; } });
    const pending = !specLoaded() && s.step ? html`<p class="muted small">Loading the spec's words…</p>` : null;
    // One column per ran step that changed the record (the record after it), else one.
    const changing = ran.map((r, k) => ({ r, rec: ranRecs[k] })).filter(({ r }) => r.changes && Object.keys(r.changes).length);
    const columns = changing.length > 1
      ? changing.map(({ r, rec: after }) => ({ label: "after step " + r.step, record: after ?? rec, step: r.step }))
      : [{ label: "after this step", record: rec, step: changing.length ? changing[0].r.step : undefined }];
    const table = recordTableHtml({ columns, highlight: changed, dataField: false });
    // drawn anew (another step): a fresh subtree, not the last one changed
    this.detail.replaceChildren(drawn(html`<div class="step-main">${head}${variantsHtml(s)}${ranList}${lastIsQuoted ? (words ? nothing : pending || nothing) : words || pending || nothing}${cause || nothing}${whole || nothing}<dl class="kv">${rows}</dl></div><section class="step-record" aria-labelledby="step-record-h"><h3 id="step-record-h">The URL record so far</h3><div class="scroll-x">${table}</div></section>`));
  }

  stop() {
    this.toggle(false);
  }
}
