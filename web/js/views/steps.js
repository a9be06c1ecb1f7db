// Steps: the parser's trace (result.trace.steps) as a scrubbable timeline.
import { clear, errorAnchor, h, isInvisible, cpLabel, specLink, updateCodeLine, valueToken, vis, visText } from "../render/dom.js";
import { EMPTY_RECORD, FIELDS, applyChanges, recordTable } from "./record.js";
import { onSpec, quote, specLoaded, wholeAlgorithm } from "./spectext.js";
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

export function cText(c) {
  if (c === null) return h("span", { class: "tok-null" }, "EOF");
  if (c === undefined) return h("span", { class: "muted" }, "—");
  const ch = String(c);
  if (isInvisible(ch) || ch === " ") {
    return h("span", { class: "tok-str" }, h("span", { class: "cp" }, "⟨" + cpLabel(ch) + "⟩"));
  }
  return h("span", { class: "tok-str" }, h("span", { class: "q" }, "'"), ch, h("span", { class: "q" }, "'"));
}

/** A generic, text-only rendering of a JSON value (for sub-step details). */
export function jsonView(v, depth = 0) {
  if (v === null || typeof v !== "object") return valueToken(v);
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object")) {
      const s = h("span", { class: "json-arr" }, "[");
      v.forEach((x, i) => { if (i) s.append(", "); s.append(valueToken(x)); });
      s.append("]");
      return s;
    }
    return h("ol", { class: "json-list" }, v.map((x) => h("li", null, jsonView(x, depth + 1))));
  }
  return h("dl", { class: "kv json-obj" }, Object.entries(v).map(([k, x]) => [
    h("dt", null, k), h("dd", null, jsonView(x, depth + 1))]));
}

/** The one-line, text-only label of a step in the timeline list. */
function stepText(s) {
  const num = s.step ? " " + s.step : "";
  if (s.depth > 0 || s.parser !== "url" || !("c" in s)) {
    return visText((s.algorithm || s.state || s.parser) + num + (s.note ? " — " + s.note : ""));
  }
  const c = s.c === null ? "EOF" : isInvisible(s.c) || s.c === " " ? "⟨" + cpLabel(s.c) + "⟩" : "'" + s.c + "'";
  return s.state + num + "  " + c;
}

/** Compact, static list of steps (setters lab, host calculator). */
export function compactTrace(trace) {
  if (!trace || !trace.steps) return h("p", { class: "muted" }, "No trace.");
  const ol = h("ol", { class: "trace-compact" });
  for (const s of trace.steps) {
    const li = h("li", { class: ["depth-" + Math.min(3, s.depth || 0)], data: { step: s.i, state: s.state || s.parser } },
      specLink(stepAnchor(s), s.state || s.parser, { class: "spec st-name" }),
      s.step ? h("span", { class: "muted small" }, " step " + s.step) : null,
      "c" in s ? [" ", cText(s.c)] : null,
      s.buffer ? [" buffer ", valueToken(s.buffer)] : null,
      s.changes && Object.keys(s.changes).length ? h("span", { class: "changes" }, " → ",
        Object.entries(s.changes).map(([k, v]) => h("span", { class: "chg" }, k + " = ", jsonView(v)))) : null,
      s.errors && s.errors.length ? h("span", { class: "err-inline" }, " ⚠ " + s.errors.join(", ")) : null,
      s.note ? h("span", { class: "st-note" }, " — ", vis(s.note)) : null,
      s.result !== undefined ? [" ⇒ ", valueToken(s.result)] : null);
    ol.append(li);
  }
  const wrap = h("div", null, ol);
  if (trace.truncated) wrap.append(truncatedNote(trace));
  return wrap;
}

export function truncatedNote(trace) {
  return h("p", { class: "note warn", id: null, role: "note" },
    `The trace was truncated: only the first ${(trace.steps || []).length.toLocaleString("en")} steps were kept ` +
    `(at most ${Number(trace.max_steps).toLocaleString("en")}` +
    (trace.max_chars ? `, and at most ${Number(trace.max_chars).toLocaleString("en")} code points of buffers and values` : "") +
    `), ${Number(trace.dropped).toLocaleString("en")} more were dropped.`);
}

// The step list shows at most this many steps at a time (a window around the current step).
export const LIST_WINDOW = 400;

export class StepsView {
  constructor(panel, { onChange = () => {}, announce = () => {} } = {}) {
    this.panel = panel;
    this.onChange = onChange;
    this.announce = announce;
    this.pos = 0;
    this.steps = [];
    this.timer = null;
    this.build();
  }

  build() {
    const p = this.panel;
    this.inputEl = h("div", { class: "codeline trace-input", id: "trace-input", "aria-label": "The input, with the parser's pointer (caret)", role: "img", data: { caret: "" } });
    this.first = h("button", { type: "button", id: "step-first", title: "First step (Home)", "aria-label": "First step" }, "|◀");
    this.prev = h("button", { type: "button", id: "step-prev", title: "Previous step (←)", "aria-label": "Previous step" }, "◀");
    this.play = h("button", { type: "button", id: "step-play", class: "primary", "aria-pressed": "false", title: "Play / pause (Space)" }, "▶ Play");
    this.next = h("button", { type: "button", id: "step-next", title: "Next step (→)", "aria-label": "Next step" }, "▶");
    this.last = h("button", { type: "button", id: "step-last", title: "Last step (End)", "aria-label": "Last step" }, "▶|");
    this.range = h("input", { type: "range", id: "step-range", min: "0", max: "0", value: "0", "aria-label": "Step" });
    this.posEl = h("span", { class: "step-pos", id: "step-pos", "aria-live": "off" }, "");
    this.subToggle = h("input", { type: "checkbox", id: "show-substeps", checked: true });
    const controls = h("div", { class: "scrubber", role: "group", "aria-label": "Timeline controls" },
      this.first, this.prev, this.play, this.next, this.last, this.range, this.posEl,
      h("label", { class: "check" }, this.subToggle, " host sub-steps"));
    this.list = h("ol", { class: "step-list", id: "step-list", tabindex: "0", role: "listbox", "aria-label": "Trace steps (arrow keys to move, Space to play)" });
    this.detail = h("div", { class: "step-detail", id: "step-detail", "aria-live": "polite" });
    this.truncated = h("div", { id: "trace-truncated" });
    this.emptyEl = h("p", { class: "muted", hidden: true }, "No trace for this input.");
    clear(p).append(
      h("p", { class: "lede" }, "The basic URL parser, one state-machine step at a time. Scrub with the buttons, the slider or the arrow keys in the list; the caret marks the pointer in the input."),
      this.inputEl, controls, this.truncated, this.emptyEl,
      h("div", { class: "steps-body" }, this.list, this.detail));

    this.first.addEventListener("click", () => this.go(0));
    this.last.addEventListener("click", () => this.go(this.steps.length - 1));
    this.prev.addEventListener("click", () => this.go(this.pos - 1));
    this.next.addEventListener("click", () => this.go(this.pos + 1));
    this.play.addEventListener("click", () => this.toggle());
    this.range.addEventListener("input", () => this.go(Number(this.range.value)));
    this.subToggle.addEventListener("change", () => {
      this.list.classList.toggle("hide-sub", !this.subToggle.checked);
      if (!this.subToggle.checked && this.steps[this.pos] && this.steps[this.pos].depth > 0) this.go(this.parentOf(this.pos));
    });
    this.list.addEventListener("click", (e) => {
      const li = e.target.closest("li[data-step]");
      if (li && !e.target.closest("a")) this.go(Number(li.dataset.step));
    });
    this.list.addEventListener("keydown", (e) => this.key(e));
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
    this.detail.setAttribute("aria-live", this.timer ? "off" : "polite");
  }

  /** Render a new parse result. */
  render(result) {
    this.result = result;
    const trace = result && result.trace;
    this.steps = trace && Array.isArray(trace.steps) ? trace.steps : [];
    this.input = result ? result.input : "";
    // cumulative records: records[i] is the record after step i
    this.records = [];
    let rec = { ...EMPTY_RECORD };
    for (const s of this.steps) {
      if (s.changes && Object.keys(s.changes).length) rec = applyChanges(rec, s.changes);
      this.records.push(rec);
    }
    // index for each step (sub-steps and index-less steps inherit the previous URL step's)
    this.caretIdx = [];
    let last = null;
    for (const s of this.steps) {
      if (s.parser === "url" && typeof s.index === "number") last = s.index;
      this.caretIdx.push(last);
    }
    // Bounded (a long input shows its first MAX_CELLS code points), and updated in place.
    this.cells = updateCodeLine(this.inputEl, this.input, result ? result.spans : [], { end: true }).cells;

    if (this.selected) {
      this.selected.classList.remove("selected");
      this.selected.setAttribute("aria-selected", "false");
      this.selected = null;
    }
    if (this.pos >= this.steps.length) this.pos = Math.max(0, this.steps.length - 1);
    this.listWindow(this.pos, true);
    this.truncated.replaceChildren(trace && trace.truncated ? truncatedNote(trace) : "");
    this.emptyEl.hidden = this.steps.length > 0;
    this.range.max = String(Math.max(0, this.steps.length - 1));
    if (this.pos >= this.steps.length) this.pos = Math.max(0, this.steps.length - 1);
    this.selected = null;
    this.show(this.pos, true);
  }

  /** The list holds one plain <li> per step (text only, the number via CSS), for a window of at
   *  most LIST_WINDOW steps around step `i` (a long input has thousands of steps; laying them
   *  all out froze the page for a third of a second), with a note before and after it saying
   *  how many steps are not listed. With `update`, the trace changed: the items already there
   *  are reused and only those that differ are touched (typing one more code point changes the
   *  last few steps, not the ones before them). */
  listWindow(i, update = false) {
    const n = this.steps.length;
    const start = n <= LIST_WINDOW ? 0 : Math.max(0, Math.min(n - LIST_WINDOW, i - LIST_WINDOW / 2));
    const end = Math.min(n, start + LIST_WINDOW);
    if (!update && start === this.windowStart && end === this.windowEnd) return;
    const old = start === this.windowStart ? this.items || [] : [];
    if (old.length === 0) this.list.replaceChildren();
    if (this.selected && !old.includes(this.selected)) this.selected = null;
    this.windowStart = start;
    this.windowEnd = end;
    const lf = document.createDocumentFragment();
    const items = [];
    for (let k = start; k < end; k++) {
      const s = this.steps[k];
      let cls = "depth-" + Math.min(3, s.depth || 0);
      if (s.changes && Object.keys(s.changes).length) cls += " has-changes";
      if (s.errors && s.errors.length) cls += " has-errors";
      if (this.selected && this.selected === old[k]) cls += " selected";
      const state = s.state || s.parser || "";
      const text = stepText(s);
      let li = old[k];
      if (!li) {
        li = document.createElement("li");
        li.id = "step-" + k;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        li.dataset.step = String(k);
        lf.append(li);
      }
      if (li.className !== cls) li.className = cls;
      if (li.dataset.state !== state) li.dataset.state = state;
      if (li.textContent !== text) li.textContent = text;
      items[k] = li;
    }
    for (let k = end; k < old.length; k++) if (old[k]) old[k].remove();
    if (this.moreBefore) this.moreBefore.remove();
    if (this.moreAfter) this.moreAfter.remove();
    const more = (count, where) => h("li", { class: "more trunc-note", role: "presentation", data: { more: count } },
      `… ${count.toLocaleString("en")} ${where} step${count === 1 ? "" : "s"} not listed here: scrub, or use the slider`);
    this.moreBefore = start > 0 ? more(start, "earlier") : null;
    this.moreAfter = end < n ? more(n - end, "later") : null;
    this.list.append(lf);
    if (this.moreBefore) this.list.prepend(this.moreBefore);
    if (this.moreAfter) this.list.append(this.moreAfter);
    this.items = items;
  }

  go(i) {
    if (!this.steps.length) return;
    i = Math.max(0, Math.min(this.steps.length - 1, i));
    this.show(i, true);
    this.onChange(i);
  }

  show(i, scroll) {
    this.pos = i;
    const n = this.steps.length;
    const disabled = n === 0;
    for (const b of [this.first, this.prev, this.play, this.next, this.last, this.range]) b.disabled = disabled;
    if (disabled) {
      this.posEl.textContent = "";
      this.detail.replaceChildren();
      this.inputEl.dataset.caret = "";
      return;
    }
    this.range.value = String(i);
    this.posEl.textContent = `step #${i} (${i + 1} of ${n})`;
    if (this.selected) {
      this.selected.classList.remove("selected");
      this.selected.setAttribute("aria-selected", "false");
    }
    this.listWindow(i);
    const li = this.items[i];
    li.classList.add("selected");
    li.setAttribute("aria-selected", "true");
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

  /** In presenter mode the list ends at the bottom of the screen (its selected step stays in
   *  sight without scrolling the page); elsewhere the style sheet's height applies. */
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
    // Typing on after the step on screen leaves it as it was: nothing to redraw then.
    const key = JSON.stringify([i, s, rec, specLoaded(), !!this.algorithmOpen]);
    if (key === this.detailKey && this.detail.firstChild) return;
    this.detailKey = key;
    const changed = new Set(Object.keys(s.changes || {}).filter((k) => FIELDS.includes(k)));
    const name = s.algorithm || s.state || s.parser;
    const head = h("div", { class: "detail-head" },
      h("span", { class: "st-i big" }, "#" + i),
      specLink(stepAnchor(s), name, { class: "spec state-link" }),
      s.step ? h("span", { class: "pill", data: { specStep: s.step } }, "step " + s.step)
        : h("span", { class: "pill muted", data: { specStep: "" } }, "no step"),
      s.depth > 0 ? h("span", { class: "pill sub" }, `${s.parser} (depth ${s.depth})`) : null,
      s.next_state && s.next_state !== s.state ? h("span", { class: "next" }, "→ ", s.next_state) : null,
      s.outcome ? h("span", { class: "pill warn" }, s.outcome) : null);
    const dl = h("dl", { class: "kv" });
    const row = (k, v) => dl.append(h("dt", null, k), h("dd", null, v));
    if ("c" in s) row("c", cText(s.c));
    if ("pointer" in s) row("pointer", String(s.pointer) + (s.index !== s.pointer && s.index !== undefined ? ` (index ${s.index} in the original input)` : ""));
    if ("buffer" in s) row("buffer", valueToken(s.buffer));
    if (s.flags) {
      row("flags", h("span", { class: "flags" }, Object.entries(s.flags).map(([k, v]) =>
        h("span", { class: ["flag", v ? "on" : "off"], title: k + " = " + v }, (v ? "✓ " : "✗ ") + k.replaceAll("_", " ")))));
    }
    if (s.errors && s.errors.length) {
      row("validation errors", h("span", null, s.errors.map((e, j) => [j ? ", " : null,
        specLink(errorAnchor(e), e, { class: "spec err-link" })])));
    }
    if (s.note) row("note", vis(s.note));
    for (const k of ["input", "domain", "result", "removed"]) if (k in s) row(k, jsonView(s[k]));
    if (s.details) row("details", jsonView(s.details));
    if (s.changes && Object.keys(s.changes).length) {
      row("changes", h("span", null, Object.entries(s.changes).map(([k, v]) => h("span", { class: "chg" }, k + " ← ", jsonView(v)))));
    }
    // The spec's words for this step, and its whole algorithm (collapsible) with the step lit.
    const words = s.step ? quote(name, s.step, { id: "step-spec-words" })
      : h("blockquote", { class: "spec-words none", id: "step-spec-words" },
        h("p", null, vis(s.note && s.note.startsWith("no step applies") ? s.note : "No numbered step: the algorithm as a whole.")));
    const cause = s.cause ? quote(s.cause.algorithm, s.cause.step, { note: "where the failure began" }) : null;
    const whole = wholeAlgorithm(name, s.step, { open: this.algorithmOpen });
    if (whole) whole.addEventListener("toggle", () => { this.algorithmOpen = whole.open; });
    const pending = !specLoaded() && s.step ? h("p", { class: "muted small" }, "Loading the spec's words…") : null;
    this.detail.replaceChildren(head, words || pending || "", cause || "", whole || "", dl,
      h("h3", null, "The URL record so far"),
      h("div", { class: "scroll-x" },
        recordTable({ columns: [{ label: "after this step", record: rec }], highlight: changed, dataField: false })));
  }

  stop() {
    this.toggle(false);
  }
}
