// @ts-check
// History: since when does this input mean what it means (issue 27). Renders the "history"
// answer (urlcalc/history/view.py; its types: model/history.js): a timeline from 2014 to today
// of the changes of the URL Standard whose undoing alters this input's result, each opening the
// result without it beside today's and the spec text it changed, before and after (the changed
// words marked: a word diff of text, nothing about URLs); the count of normative changes urlcalc
// cannot undo yet, so that an empty timeline is never read as "it always meant this"; and a date
// slider reading the input as the standard was on a day (the permalink's asof=YYYY-MM-DD).
// Strings from the input and from the spec text are text bindings only; the links are the
// commits' on github.com/whatwg/url (a commit id checked to be hex first).
import { AskingView } from "./asking-view.js";
import { historyRequest } from "./requests.js";
import { el } from "../render/offscreen-parts.js";
import { html, nothing, show as draw, valueToken, vis } from "../render/templates.js";
import { ref } from "../vendor/lit-html.mjs";
import { FIRST_DAY, dayAt, dayIndex, today } from "../state/as-of.js";

/** @typedef {import("../model/history.js").HistoryAnswer} HistoryAnswer */
/** @typedef {import("../model/history.js").HistoryChange} HistoryChange */
/** @typedef {import("../model/history.js").Reading} Reading */
/** @typedef {import("../model/history.js").TextChange} TextChange */
/** @typedef {import("../model/history.js").QuietChange} QuietChange */
/** @typedef {import("../model/history.js").ProposalEntry} ProposalEntry */
/** @typedef {{ op: "same" | "del" | "ins", text: string }} Piece */

/** The first year the timeline shows (the standard's url.bs since the rename, 2014-10-22). */
export const FIRST_YEAR = 2014;
const COMMITS = "https://github.com/whatwg/url/commit/";
// A word diff is quadratic: texts longer than this (in words) are shown whole, marked as changed.
const MAX_DIFF_TOKENS = 1500;
// The slider asks once it rests this long (a drag or held key passes many days).
const SLIDER_REST_MS = 120;

/** Words, each with the white space after it (and the text's leading white space alone): a
 *  space alone never matches, so a changed run of words is marked as one. @param {string} s */
function tokens(s) {
  return s.match(/^\s+|\S+\s*/g) ?? [];
}

/**
 * A word diff of two texts (the longest common subsequence of their words and spaces): the
 * pieces of `before` (op "same" or "del") and of `after` ("same" or "ins"), adjacent pieces of
 * one op joined. A null text (the step did not exist) is no pieces. Pure.
 * @param {string | null} before @param {string | null} after
 * @returns {{ before: Piece[], after: Piece[] }}
 */
export function wordDiff(before, after) {
  const a = tokens(before ?? "");
  const b = tokens(after ?? "");
  /** @param {Piece[]} out @param {Piece["op"]} op @param {string} text */
  const push = (out, op, text) => {
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  /** @type {Piece[]} */
  const left = [];
  /** @type {Piece[]} */
  const right = [];
  if (a.length > MAX_DIFF_TOKENS || b.length > MAX_DIFF_TOKENS) {
    if (before !== null && before !== "") push(left, before === after ? "same" : "del", before);
    if (after !== null && after !== "") push(right, before === after ? "same" : "ins", after);
    return { before: left, after: right };
  }
  // lengths of the common subsequences of a[i:] and b[j:]
  const n = a.length;
  const m = b.length;
  const L = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) L[i][j] = a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      push(left, "same", a[i]);
      push(right, "same", b[j]);
      i++;
      j++;
    } else if (j < m && (i === n || L[i][j + 1] >= L[i + 1][j])) push(right, "ins", b[j++]);
    else push(left, "del", a[i++]);
  }
  return { before: left, after: right };
}

/** The timeline's years, FIRST_YEAR to the year of `last`. @param {string} last */
export function timelineYears(last) {
  const years = [];
  for (let y = FIRST_YEAR; y <= Number(last.slice(0, 4)); y++) years.push(y);
  return years;
}

/** Where `day` sits on the timeline (0 at FIRST_YEAR's first day, 1 at `last`), clamped.
 *  @param {string} day @param {string} last */
export function timelinePlace(day, last) {
  const t0 = Date.parse(`${FIRST_YEAR}-01-01T00:00:00Z`);
  const t = (Date.parse(day + "T00:00:00Z") - t0) / (Date.parse(last + "T00:00:00Z") - t0);
  return Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
}

/** The line under the timeline: how many normative changes since 2015 urlcalc cannot undo (so
 *  their effect on this input is unknown), and how many undoable ones leave it as it is. Pure.
 *  @param {{ changes: unknown[], undoable: number, normative_since_2015: number }} model */
export function notUndoableLine(model) {
  const cannot = Math.max(0, model.normative_since_2015 - model.undoable);
  const same = Math.max(0, model.undoable - model.changes.length);
  const changes = (/** @type {number} */ k) => `${k} ${k === 1 ? "change" : "changes"}`;
  return `${changes(cannot)} of the ${model.normative_since_2015} normative changes to the URL Standard since 2015 urlcalc cannot undo yet: `
    + `${cannot === 1 ? "its" : "their"} effect on this input is not shown here, so an empty timeline does not mean the standard always read it this way. `
    + `The other ${changes(same)} urlcalc can undo leave this input's result as it is.`;
}

/** The folded line of the timeline: how many changes urlcalc can undo leave this input as it is
 *  ("other" when some do alter it). Pure. @param {{ changes: unknown[], unchanged: unknown[] }} model */
export function foldLine(model) {
  const k = model.unchanged.length;
  return `${k}${model.changes.length ? " other" : ""} ${k === 1 ? "change does" : "changes do"} not change this input`;
}

/** A commit id as a link to it (only a hex id is linked). @param {string} sha */
function commitLink(sha) {
  const short = String(sha).slice(0, 7);
  if (!/^[0-9a-f]{7,40}$/.test(String(sha))) return html`<code>${short}</code>`;
  return html`<a class="hist-sha" href=${COMMITS + sha} title=${"The commit on github.com/whatwg/url: " + sha}><code>${short}</code></a>`;
}

/** The rows a reading is shown in: the href (or fails), the getters in `differs` other than
 *  href, the failure's reason, the validation errors. @param {string[]} differs */
function rowNames(differs) {
  return ["href", ...differs.filter((d) => d !== "href" && d !== "failure" && d !== "validation errors"), "failure", "validation errors"];
}

/** One reading's cell in a row. @param {Reading} r @param {string} row */
function readingCell(r, row) {
  if (row === "failure") return r.failure === null ? html`<span class="muted">none: it parses</span>` : html`<span class="bad-text">${vis(r.failure)}</span>`;
  if (row === "validation errors") {
    return r.validation_errors.length
      ? r.validation_errors.map((e, k) => [k ? ", " : nothing, html`<code class="err-name">${vis(e)}</code>`])
      : html`<span class="muted">none</span>`;
  }
  if (!r.ok || r.getters === null) return html`<span class="bad-text">fails</span>`;
  return valueToken(/** @type {any} */ (r.getters)[row]);
}

/** The value a test reads from a cell (`data-value`): a getter's string, or nothing.
 *  @param {Reading} r @param {string} row */
function cellValue(r, row) {
  if (row === "failure" || row === "validation errors" || !r.ok || r.getters === null) return nothing;
  const v = /** @type {any} */ (r.getters)[row];
  return typeof v === "string" ? v : nothing;
}

/** Whether a row differs between two readings. @param {Reading} a @param {Reading} b @param {string} row */
function rowDiffers(a, b, row) {
  if (row === "failure") return a.ok !== b.ok || a.failure !== b.failure;
  if (row === "validation errors") return a.validation_errors.join(" ") !== b.validation_errors.join(" ");
  return cellValue(a, row) !== cellValue(b, row) || a.ok !== b.ok;
}

/**
 * Two readings side by side (today's first), the rows that differ marked.
 * @param {string} caption @param {{ id: string, label: string, reading: Reading }[]} columns @param {string[]} rows
 */
function readingTable(caption, columns, rows) {
  const [first, second] = columns;
  return html`<table class="hist-readings"><caption>${caption}</caption><thead><tr><th scope="col">getter</th>${columns.map((c) =>
    html`<th scope="col" data-reading=${c.id}>${c.label}</th>`)}</tr></thead><tbody>${rows.map((row) => {
    const differs = rowDiffers(first.reading, second.reading, row);
    return html`<tr data-row=${row} class=${differs ? "differs" : nothing}><th scope="row">${row === "failure" || row === "validation errors" ? row : html`<code>${row}</code>`}${differs
      ? html`<span class="sr-only"> (differs)</span>` : nothing}</th>${columns.map((c) =>
      html`<td data-reading=${c.id} data-row=${row} data-value=${cellValue(c.reading, row)}>${readingCell(c.reading, row)}</td>`)}</tr>`;
  })}</tbody></table>`;
}

/** A text's pieces, the changed words marked (<del> before, <ins> after). @param {Piece[]} pieces */
function marked(pieces) {
  return pieces.map((p) => (p.op === "del" ? html`<del>${p.text}</del>` : p.op === "ins" ? html`<ins>${p.text}</ins>` : p.text));
}

/** A step's or definition's text before and after the change. @param {TextChange} t */
function textChange(t) {
  const d = wordDiff(t.before, t.after);
  const what = t.algorithm === null ? html`the definition of <dfn>${t.step}</dfn>` : html`${t.algorithm}, step ${t.step}`;
  return html`<div class="hist-text" data-algorithm=${t.algorithm ?? "definition"} data-step=${t.step}><h5>${what}</h5><div class="hist-text-pair"><div class="hist-before" data-text="before"><span class="hist-text-label">Before</span><p>${t.before === null
    ? html`<span class="muted">(not there)</span>` : marked(d.before)}</p></div><div class="hist-after" data-text="after"><span class="hist-text-label">After</span><p>${t.after === null
    ? html`<span class="muted">(removed)</span>` : marked(d.after)}</p></div></div></div>`;
}

/** Set an element's place along the timeline (CSSOM: the page's CSP allows no style attribute).
 *  @param {number} at 0..1 */
function placeAt(at) {
  return ref((e) => {
    if (e instanceof HTMLElement) e.style.insetInlineStart = `${(at * 100).toFixed(3)}%`;
  });
}

export class HistoryView extends AskingView {
  /** @param {HTMLElement} panel
   *  @param {import("./asking-view.js").AskingContext & {setAsOf: (day: string) => void}} ctx */
  constructor(panel, ctx) {
    super(ctx);
    this.panel = panel;
    this.setAsOf = ctx.setAsOf;
    /** @type {HistoryAnswer | null} the last rendered model */
    this.model = null;
    /** @type {Set<string>} the changes whose details the reader opened */
    this.open = new Set();
    /** whether the reader unfolded the changes that leave the input as it is */
    this.unfolded = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.rest = undefined;
    this.build();
  }

  build() {
    const last = today();
    draw(this.panel, html`<p class="lede">Since when does this input mean what it means? The changes of the URL Standard since 2014 whose undoing alters this input's result (its href, a failure, a getter, the validation errors), oldest first, each with the result without it beside today's and the spec text it changed; and the input read by the standard as it was on a day. urlcalc undoes a change by its switch in today's parser: the standard before that change, all else as today.</p><p class="failure" id="history-error" role="alert" hidden></p><h3 id="history-timeline-h">Changes that matter for this input</h3><p class="side-summary" id="history-summary" role="status">…</p><p class="hist-not-undoable" id="history-not-undoable"></p><div class="hist-axis" id="history-axis" aria-hidden="true"><div class="hist-axis-line"></div><div id="history-axis-marks"></div></div><h3 id="history-asof-h">The URL Standard on a day</h3><div class="hist-slider"><label for="history-date" id="history-date-label">The URL Standard on <span id="history-date-text">${last}</span></label><input type="range" id="history-date" min="0" max=${dayIndex(last)} step="1" aria-describedby="history-date-help" @input=${() => this.slid(dayAt(Number(this.slider.value)), true)} @change=${() => this.slid(dayAt(Number(this.slider.value)), false)}><label class="hist-day-field">or the day <input type="date" id="history-date-field" min=${FIRST_DAY} max=${last} @change=${() => this.typedDay()}></label><span class="help" id="history-date-help">Arrow keys move a day, Page Up and Page Down a month, Home and End the first day and today.</span></div><div id="history-asof" aria-live="polite"></div><h3 id="history-changes-h">Each change, oldest first</h3><ol class="hist-timeline" id="history-timeline" aria-labelledby="history-changes-h"></ol><p class="muted small">The spec text quoted here is from the URL Standard (url.bs at the commits named), © WHATWG, CC BY 4.0.</p>`);
    /** @type {HTMLElement} */
    this.error = el(this.panel, "#history-error");
    /** @type {HTMLElement} */
    this.summary = el(this.panel, "#history-summary");
    /** @type {HTMLElement} */
    this.marks = el(this.panel, "#history-axis-marks");
    /** @type {HTMLElement} */
    this.timeline = el(this.panel, "#history-timeline");
    /** @type {HTMLElement} */
    this.notUndoable = el(this.panel, "#history-not-undoable");
    /** @type {HTMLInputElement} */
    this.slider = el(this.panel, "#history-date");
    /** @type {HTMLInputElement} */
    this.dayField = el(this.panel, "#history-date-field");
    /** @type {HTMLElement} */
    this.dayText = el(this.panel, "#history-date-text");
    /** @type {HTMLElement} */
    this.asOf = el(this.panel, "#history-asof");
    // a month per Page Up / Page Down (the range's default step is a day)
    this.slider.addEventListener("keydown", (e) => {
      if (e.key !== "PageUp" && e.key !== "PageDown") return;
      e.preventDefault();
      const n = Math.min(Number(this.slider.max), Math.max(0, Number(this.slider.value) + (e.key === "PageUp" ? 30 : -30)));
      this.slider.value = String(n);
      this.slid(dayAt(n), false);
    });
  }

  /** The changes that alter the page's input (AskingView; views/requests.js).
   *  @param {import("../state/store.js").PageState} s */
  ask(s) {
    return historyRequest(s);
  }

  /** The view is shown, or the page's state changed (AskingView): the slider follows the state.
   *  @param {import("../state/store.js").PageState} [state] */
  update(state = this.ctx.state()) {
    if (this.rest === undefined) this.showDay(state.asof);
    super.update(state);
  }

  /** The slider and its label at `day` ("": none chosen: today). @param {string} day */
  showDay(day) {
    const last = today();
    const shown = day || last;
    this.slider.value = String(dayIndex(shown));
    this.slider.setAttribute("aria-valuetext", day ? shown : `${shown} (today)`);
    this.dayText.textContent = day ? shown : `${shown} (today)`;
    this.dayField.value = day;
  }

  /** The slider moved (`moving`: still moving; the day is asked once it rests).
   *  @param {string} day @param {boolean} moving */
  slid(day, moving) {
    const chosen = day >= today() ? "" : day;
    this.showDay(chosen);
    clearTimeout(this.rest);
    this.rest = setTimeout(() => {
      this.rest = undefined;
      this.setAsOf(chosen);
    }, moving ? SLIDER_REST_MS : 0);
  }

  typedDay() {
    const v = this.dayField.value;
    if (/^\d{4}-\d{2}-\d{2}$/.test(v) && v >= FIRST_DAY) this.slid(v <= today() ? v : today(), false);
  }

  /** @param {import("./asking-view.js").EngineAnswer} answer */
  show(answer) {
    if (answer.error) {
      this.error.hidden = false;
      draw(this.error, vis(answer.error));
      this.summary.hidden = true;
      // nothing of another input's answer stays on screen
      this.model = null;
      this.notUndoable.textContent = "";
      draw(this.marks, nothing);
      draw(this.timeline, nothing);
      draw(this.asOf, nothing);
      return;
    }
    this.error.hidden = true;
    this.summary.hidden = false;
    this.render(answer.result);
  }

  /** @param {HistoryAnswer} model */
  render(model) {
    this.model = model;
    const last = today();
    const n = model.changes.length;
    this.summary.className = "side-summary " + (n ? "bad" : "ok");
    this.summary.dataset.changes = String(n);
    this.summary.textContent = n
      ? `${n} of the ${model.undoable} changes urlcalc can undo ${n === 1 ? "alters" : "alter"} this input's result: without ${n === 1 ? "it" : "any one of them"} the standard would read it otherwise.`
      : `None of the ${model.undoable} changes urlcalc can undo alters this input's result.`;
    const day = this.ctx.state().asof;
    draw(this.marks, html`${timelineYears(last).map((y) => html`<span class="hist-year" ${placeAt(timelinePlace(`${y}-01-01`, last))}>${String(y)}</span>`)}${model.changes.map((c) =>
      html`<span class="hist-mark" title=${`${c.date} ${c.title}`} ${placeAt(timelinePlace(c.date, last))}></span>`)}${day
      ? html`<span class="hist-day" title=${day} ${placeAt(timelinePlace(day, last))}></span>` : nothing}`);
    draw(this.timeline, html`${n ? model.changes.map((c) => this.entry(c, model.today))
      : html`<li class="muted hist-none">No change urlcalc can undo alters this input's result.</li>`}${this.fold(model)}<li class="hist-today" id="history-today"><strong>Today</strong>: the URL Standard as urlcalc reads it. After today, the proposals (unmerged branches of the standard's repository):</li>${model.proposals.map((p) =>
      this.proposal(p))}`);
    this.notUndoable.textContent = notUndoableLine(model);
    this.renderAsOf(model);
  }

  /** @param {HistoryChange} c @param {Reading} today */
  entry(c, today) {
    const rows = rowNames(c.differs);
    return html`<li data-change=${c.name} data-commit=${c.commit} data-date=${c.date}><details class="ed-detail hist-entry" ?open=${this.open.has(c.name)} @toggle=${(/** @type {Event} */ e) => {
      const d = /** @type {HTMLDetailsElement} */ (e.currentTarget);
      if (d.open) this.open.add(c.name);
      else this.open.delete(c.name);
    }}><summary><time datetime=${c.date}>${c.date}</time> <code class="hist-short">${String(c.commit).slice(0, 7)}</code> <strong class="hist-title">${c.title}</strong> <span class="hist-differs">differs: ${c.differs.map((d, k) =>
      [k ? " " : nothing, html`<span class="pill bad">${d}</span>`])}</span></summary><p class="hist-commit">The commit: ${commitLink(c.commit)} </p><h4>The result without this change, beside today's</h4>${readingTable(`Without “${c.title}” and today`,
      [{ id: "today", label: "today", reading: today }, { id: "without", label: "without this change", reading: c.without }], rows)}<h4>What the change did to the spec text</h4>${c.text.length
      ? c.text.map(textChange) : html`<p class="muted">No step or definition text is recorded for this change.</p>`}</details></li>`;
  }

  /** The changes that leave this input as it is, folded with their count (a <details>: Enter or
   *  Space on its summary opens it). @param {HistoryAnswer} model */
  fold(model) {
    if (!model.unchanged.length) return nothing;
    return html`<li class="hist-fold"><details class="ed-detail" id="history-unchanged" data-count=${String(model.unchanged.length)} ?open=${this.unfolded} @toggle=${(/** @type {Event} */ e) => {
      this.unfolded = /** @type {HTMLDetailsElement} */ (e.currentTarget).open;
    }}><summary id="history-unchanged-summary">${foldLine(model)}</summary><p class="muted small">Each undone alone leaves this input's href, getters, failure and validation errors as they are today.</p><ol class="hist-unchanged-list">${model.unchanged.map((c) =>
      html`<li data-unchanged=${c.name} data-date=${c.date}><time datetime=${c.date}>${c.date}</time> ${commitLink(c.commit)} ${c.title} <span class="muted small">(<code>${c.name}</code>)</span></li>`)}</ol></details></li>`;
  }

  /** A proposal, after today: its branch, day, commit and title, and that urlcalc does not apply
   *  it (the answer's note). @param {ProposalEntry} p */
  proposal(p) {
    return html`<li class="hist-proposal" data-branch=${p.branch} data-commit=${p.commit} data-date=${p.date}><span class="pill warn">proposal</span> <code class="hist-branch">${p.branch}</code> <time datetime=${p.date}>${p.date}</time> ${commitLink(p.commit)} <strong class="hist-title">${p.title}</strong> <span class="muted small">(${p.change_class})</span> — <span class="hist-not-applied">${p.note}</span><span class="muted small hist-reason"> ${p.reason}</span></li>`;
  }

  /** @param {HistoryAnswer} model */
  renderAsOf(model) {
    const a = model.as_of;
    if (a === null) {
      draw(this.asOf, html`<p class="muted" id="history-asof-none">Move the slider to an earlier day to read this input as the URL Standard did then, beside today's reading.</p>`);
      return;
    }
    const rows = ["href", "failure", "validation errors"];
    draw(this.asOf, html`${readingTable(`On ${a.date} and today`, [{ id: "as-of", label: `on ${a.date}`, reading: a.reading },
      { id: "today", label: "today", reading: model.today }], rows)}<details class="hist-undone"><summary>${a.undone.length} later ${a.undone.length === 1 ? "change" : "changes"} undone for ${a.date}</summary><ul>${a.undone.map((u) =>
      html`<li><code>${u}</code></li>`)}</ul></details><p class="muted small">Changes urlcalc cannot undo yet stay as they are today in this reading.</p>`);
  }
}
