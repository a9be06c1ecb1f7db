// @ts-check
// Editions: the same input read by six URL specifications, side by side with the current
// URL Standard (issue 4). Renders the "compare" result model (urlcalc.editions.view.compare_model); the
// random URL button asks the engine for urlcalc.editions.view.random_model. No URL logic here.
// Drawn with lit-html (render/templates.js): a keystroke changes the few cells and lines whose
// values changed; a row, a difference line and the details are built only when what they show
// changed (guard, keyed by their data: what dom.js's Memo did).
import { AskingView } from "./asking-view.js";
import { compareRequest } from "./requests.js";
import { OffscreenParts, el } from "../render/offscreen-parts.js";
import { html, nothing, show as draw, valueToken, vis } from "../render/templates.js";
import { guard } from "../vendor/lit-html.mjs";
import { GETTERS, MAX_AS_OF_COLUMNS, VARIANTS } from "../facts.js";
import { FIRST_DAY, today } from "../state/as-of.js";
import { addColumn, removeColumn } from "../state/columns.js";
import { stateToFragment } from "../render/share.js";

/** @typedef {import("../render/templates.js").Content} Content */

export const CURRENT = "current";
const STATUS_LABEL = { ok: "reads it", failure: "rejects it", unspecified: "unspecified", "not run": "not run" };
const STATUS_PILL = { ok: "ok", failure: "bad", unspecified: "warn", "not run": "warn" };
/** Whose rule a difference line names (the edition's needs no label). */
const KIND_LABEL = { unspecified: "urlcalc's choice", mapping: "urlcalc's mapping" };
const KIND_TITLE = {
  unspecified: "The edition's text is silent here: this is what urlcalc chose to go on, not the edition's rule",
  mapping: "How urlcalc maps the edition's components onto this getter, not a rule of the edition",
};
// What each edition's trace holds, in its own terms (the model's trace is a list of steps).
const TRACE_CAPTION = {
  rfc3986: "5.2 resolution: 5.2.2, the 5.2.3 merge and every pass of the 5.2.4 remove_dot_segments loop",
  html5_2009: "the parse and resolve algorithms, step by step (RFC 3986 5.2 inside)",
  abarth_2010: "the draft's parsing steps (sections 3 and 4)",
  w3c_2012: "the 2012 state machine: state, pointer, c, buffer and the action taken",
  whatwg_2014: "the railroad productions that matched (the parse tree)",
  formal_model: "the model's operations (ord, upto, goto, force, normalisation equations)",
};

const NE = html`<span class="side-ne" aria-hidden="true">≠ </span><span class="sr-only">differs: </span>`;
const FAILS = html`<span class="bad-text">fails</span>`;

/** An edition's status pill. @param {string} status */
function statusPill(status) {
  return html`<span class=${STATUS_PILL[status] ? "pill " + STATUS_PILL[status] : "pill"}>${STATUS_LABEL[status] || status}</span>`;
}

/** "4.2" -> "§ 4.2"; a named part of the text ("resolve: path") is quoted.
 *  @param {string | null | undefined} section */
export function sectionText(section) {
  if (!section) return "";
  return /^\d/.test(section) ? "§ " + section : "“" + section + "”";
}

/** @param {{name: string, year: number | string}} ed */
function shortName(ed) {
  return String(ed.name).includes(String(ed.year)) ? ed.name : `${ed.name}, ${ed.year}`;
}

/** The edition's term for a key ("parse exceptions" is the term "parse exception"), or "".
 *  @param {string} key @param {Record<string, string>} terms */
function termDef(key, terms) {
  return terms[key] || (key.endsWith("s") && terms[key.slice(0, -1)]) || "";
}

/** @type {WeakMap<Record<string, string>, RegExp>} */
const termPatterns = new WeakMap();
/** Text with the edition's own terms marked (<dfn> with the edition's definition as its title).
 *  @param {unknown} text @param {Record<string, string> | undefined} terms @returns {Content} */
export function termText(text, terms) {
  const str = String(text ?? "");
  if (!terms || !Object.keys(terms).length) return vis(str);
  let re = termPatterns.get(terms);
  if (!re) {
    const names = Object.keys(terms).filter((t) => !t.includes(" / ")).sort((a, b) => b.length - a.length)
      .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    re = new RegExp("(?<![\\p{L}\\p{N}_-])(" + names.join("|") + ")(?![\\p{L}\\p{N}_-])", "gu");
    termPatterns.set(terms, re);
  }
  /** @type {Content[]} */
  const out = [];
  let last = 0;
  for (const m of str.matchAll(re)) {
    if (m.index > last) out.push(vis(str.slice(last, m.index)));
    out.push(html`<dfn class="ed-term" title=${terms[m[1]]}>${vis(m[1])}</dfn>`);
    last = m.index + m[1].length;
  }
  if (last < str.length) out.push(vis(str.slice(last)));
  return out;
}

/** Any JSON value from an edition's components, in the edition's own vocabulary.
 *  @param {any} value @param {Record<string, string>} [terms] @param {number} [depth] @returns {Content} */
export function jsonNode(value, terms = {}, depth = 0) {
  if (value === null || value === undefined || typeof value !== "object") return valueToken(value ?? null);
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) {
      return html`<span class="ed-list">[${value.map((v, i) => [i ? ", " : nothing, valueToken(v)])}]</span>`;
    }
    return html`<ol class="json-list" start="0">${value.map((v) => html`<li>${jsonNode(v, terms, depth + 1)}</li>`)}</ol>`;
  }
  return html`<dl class=${depth ? "kv ed-kv nested" : "kv ed-kv"}>${Object.entries(value).map(([k, v]) =>
    html`<dt>${termLabel(k, terms)}</dt><dd>${jsonNode(v, terms, depth + 1)}</dd>`)}</dl>`;
}

/** A key of the edition's components; when it is one of the edition's terms, marked as such.
 *  @param {string} key @param {Record<string, string>} terms */
function termLabel(key, terms) {
  const def = termDef(key, terms);
  if (!def) return vis(key);
  return html`<dfn class="ed-term" title=${def}>${vis(key)}</dfn>`;
}

/** @param {any[]} trace @param {{kept: number, steps: number, max_text: number} | null | undefined} clipped
 *  @param {Record<string, string>} terms */
function traceNode(trace, clipped, terms) {
  if (!Array.isArray(trace) || !trace.length) return html`<p class="muted">This edition records no steps for this input.</p>`;
  /** @type {Content[]} */
  const out = [];
  if (trace.some((s) => s && Array.isArray(s.children))) out.push(treeNode(trace));
  else {
    /** @type {string[]} */
    const cols = [];
    for (const s of trace) for (const k of Object.keys(s || {})) if (!cols.includes(k)) cols.push(k);
    const rows = trace.map((s, i) => html`<tr><td class="st-i">${String(i + 1)}</td>${cols.map((k) =>
      html`<td>${k in s ? cell(s[k], terms) : nothing}</td>`)}</tr>`);
    out.push(html`<div class="scroll-x"><table class="ed-trace"><thead><tr><th scope="col">#</th>${cols.map((k) =>
      html`<th scope="col">${k}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`);
  }
  if (clipped) {
    out.push(html`<p class="note" role="note">${`Shortened for display: ${clipped.kept} of ${clipped.steps} steps are shown, and strings longer than ${clipped.max_text} code points end in “…”.`}</p>`);
  }
  return out;
}

/** @param {unknown} v @param {Record<string, string>} terms */
function cell(v, terms) {
  if (typeof v === "string") return html`<code class="val">${termText(v, terms)}</code>`;
  return jsonNode(v, terms);
}

/** @param {any[]} nodes @returns {Content} */
function treeNode(nodes) {
  return html`<ul class="ed-tree">${nodes.map((n) => html`<li><span class="ed-rule">${vis(n.rule ?? "")}</span> ${valueToken(n.text ?? null)}${Array.isArray(n.children) && n.children.length ? treeNode(n.children) : nothing}</li>`)}</ul>`;
}

/** Differences with the same edition and explanation, one line listing their getters.
 *  @param {any[]} differences */
export function groupDifferences(differences) {
  const out = [];
  const byKey = new Map();
  for (const d of differences) {
    const key = JSON.stringify([d.edition, d.rule, d.section, d.text]);
    const seen = byKey.get(key);
    if (seen) seen.getters.push(d.getter);
    else {
      const line = { ...d, getters: [d.getter] };
      byKey.set(key, line);
      out.push(line);
    }
  }
  return out;
}

/** The permalink fragment of the History view for an extra column of the standard: for a day,
 *  the History view on that day (asof=); for a change undone, the History view (today), where
 *  each change that alters the input opens. Pure.
 *  @param {import("../state/store.js").PageState} state @param {{ kind: string, key: string }} column */
export function historyFragment(state, column) {
  return stateToFragment({ ...state, view: "history", asof: column.kind === "as_of" ? column.key : "" });
}

/** The ids of the editions that differ from the current standard on at least one getter, in
 *  the model's order (a compare model, or null). @param {any} model @returns {string[]} */
export function differingEditions(model) {
  if (!model) return [];
  return model.editions.filter((ed) => model.rows.some((r) => r.differs[ed.id])).map((ed) => ed.id);
}

export class EditionsView extends AskingView {
  /** @param {HTMLElement} panel
   *  @param {import("./asking-view.js").AskingContext & {setErrata: (on: boolean) => void, setCols: (cols: string) => void, onRandom: (r: any) => void}} ctx */
  constructor(panel, ctx) {
    super(ctx);
    this.panel = panel;
    this.setErrata = ctx.setErrata; // (bool) -> void
    this.setCols = ctx.setCols; // (the permalink's cols=) -> void
    this.onRandom = ctx.onRandom; // ({input, base, edition, name, seed}) -> void
    /** @type {any} the last rendered model */
    this.model = null;
    /** @type {Set<string>} ids of the edition details the reader opened */
    this.open = new Set();
    this.parts = new OffscreenParts(); // the table and lists: updated when near the screen
    /** @param {Event} e */
    this.onToggle = (e) => this.toggled(/** @type {HTMLDetailsElement} */ (e.currentTarget));
    this.build();
  }

  build() {
    draw(this.panel, html`<p class="lede">The same input read by six URL specifications, from RFC 3986 (2005) to a formal model, and by the current URL Standard as the seventh column. Each edition is followed as written; where its text stops (a TODO, a stub, a cut-off copy) the cell says “unspecified” rather than guess. Getters an edition has no notion of are “—”.</p><div class="side-controls"><label class="check"><input type="checkbox" id="editions-errata" aria-describedby="editions-errata-help" @change=${() => this.setErrata(this.errata.checked)}> read with errata</label><span class="help" id="editions-errata-help">fixes the slips of the 2012 draft, the 2014 grammar and the formal model (the others have none)</span><label class="check"><input type="checkbox" id="editions-mapping" @change=${() => this.tableWrap.classList.toggle("show-mapping", this.showMapping.checked)}> show each getter's mapping</label><span class="ed-random"><select id="random-grammar" aria-label="Grammar for a random URL"><option value="">any grammar</option></select><button type="button" id="random-url" title="Put a random string shaped by the chosen edition's grammar in the URL field" @click=${() => this.random()}>Random URL</button><span class="muted small" id="random-info" aria-live="polite"></span></span></div><div class="side-controls ed-columns" role="group" aria-labelledby="editions-columns-label"><span id="editions-columns-label">Add a column beside the editions:</span><label>the URL Standard on <input type="date" id="editions-col-day" min=${FIRST_DAY} max=${today()} @keydown=${(/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Enter") this.addDay();
    }}></label><button type="button" id="editions-add-day" @click=${() => this.addDay()}>Add the day</button><label>or today's standard without <select id="editions-col-without" @change=${() => this.addWithout()}><option value="">a change…</option>${VARIANTS.map(([name, sha]) =>
      html`<option value=${name}>${name} (${sha})</option>`)}</select></label><span class="help" id="editions-columns-help">${`Up to ${MAX_AS_OF_COLUMNS} days and one change; read by today's parser with the later changes (or that one) undone. A column's header opens the History view.`}</span></div><p class="failure" id="editions-error" role="alert" hidden></p><p class="side-summary" id="editions-summary" role="status">…</p><div class="scroll-x side-table-wrap" id="editions-table-wrap" tabindex="0" role="region" aria-label="Getters by edition (scrolls sideways)"></div><h3 id="editions-differences-h">Why they differ</h3><ol class="side-diffs" id="editions-differences"></ol><h3 id="editions-unspecified-h">Left unspecified by the editions (and what urlcalc does there)</h3><ul class="side-unspec" id="editions-unspecified"></ul><h3>Each edition in its own terms</h3><div class="side-details" id="editions-details"></div>`);
    /** @type {HTMLInputElement} */
    this.errata = el(this.panel, "#editions-errata");
    /** @type {HTMLInputElement} */
    this.showMapping = el(this.panel, "#editions-mapping");
    /** @type {HTMLSelectElement} */
    this.grammar = el(this.panel, "#random-grammar");
    /** @type {HTMLButtonElement} */
    this.randomBtn = el(this.panel, "#random-url");
    /** @type {HTMLElement} */
    this.randomInfo = el(this.panel, "#random-info");
    /** @type {HTMLInputElement} */
    this.colDay = el(this.panel, "#editions-col-day");
    /** @type {HTMLSelectElement} */
    this.colWithout = el(this.panel, "#editions-col-without");
    /** @type {HTMLElement} */
    this.summary = el(this.panel, "#editions-summary");
    /** @type {HTMLElement} */
    this.error = el(this.panel, "#editions-error");
    /** @type {HTMLElement} */
    this.tableWrap = el(this.panel, "#editions-table-wrap");
    /** @type {HTMLElement} */
    this.diffs = el(this.panel, "#editions-differences");
    /** @type {HTMLElement} */
    this.unspec = el(this.panel, "#editions-unspecified");
    /** @type {HTMLElement} */
    this.details = el(this.panel, "#editions-details");
    this.parts.watch(this.tableWrap, this.diffs, this.unspec, this.details);
  }

  /** The comparison of the page's input (AskingView; views/requests.js).
   *  @param {import("../state/store.js").PageState} s */
  ask(s) {
    return compareRequest(s, this.open.size > 0);
  }

  /** The view is shown, or the page's state changed (AskingView).
   *  @param {import("../state/store.js").PageState} [state] */
  update(state = this.ctx.state()) {
    this.errata.checked = !!state.errata;
    super.update(state);
  }

  /** @param {import("./asking-view.js").EngineAnswer} answer */
  show(answer) {
    if (answer.error) {
      this.error.hidden = false;
      draw(this.error, vis(answer.error));
      this.summary.hidden = true;
      return;
    }
    this.error.hidden = true;
    this.summary.hidden = false;
    this.render(answer.result);
  }

  /** Add the day of the date field as a column (state/columns.js keeps the permalink's cols=). */
  addDay() {
    const day = this.colDay.value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return;
    this.setCols(addColumn(this.ctx.state().cols, { kind: "as_of", day }));
  }

  /** Add the chosen change, undone, as a column (one at a time: it replaces the one there). */
  addWithout() {
    const change = this.colWithout.value;
    this.colWithout.value = "";
    if (change) this.setCols(addColumn(this.ctx.state().cols, { kind: "without", change }));
  }

  /** @param {string} id a column's id in the answer */
  removeColumn(id) {
    this.setCols(removeColumn(this.ctx.state().cols, id));
  }

  async random() {
    const params = this.grammar.value ? { edition: this.grammar.value } : {};
    this.randomBtn.disabled = true;
    const answer = await this.ctx.call("random", params);
    this.randomBtn.disabled = false;
    if (answer.error) {
      this.randomInfo.textContent = answer.error;
      return;
    }
    const r = answer.result;
    this.randomInfo.textContent = `${r.name} grammar, seed ${r.seed}` + (r.base ? " (relative: with a base)" : "");
    this.onRandom(r);
  }

  /** The differing editions of the last model: for the summary and the paper tape. */
  differing(model = this.model) {
    return differingEditions(model);
  }

  /** @param {any} model */
  render(model) {
    this.model = model;
    const eds = model.editions;
    this.fillGrammars(eds);
    const names = Object.fromEntries(eds.map((ed) => [ed.id, shortName(ed)]));
    const terms = Object.fromEntries(eds.map((ed) => [ed.id, ed.terms || {}]));
    const differing = this.differing(model);
    const unspecified = eds.filter((ed) => ed.status === "unspecified").length;
    const cur = model.current === null
      ? `The current standard rejects this input (${model.current_failure || "failure"}). `
      : "";
    this.summary.className = "side-summary " + (differing.length ? "bad" : "ok");
    this.summary.dataset.differing = String(differing.length);
    this.summary.textContent = cur + (differing.length
      ? `${differing.length} of ${eds.length} editions differ from the current URL Standard` +
        (unspecified ? `; ${unspecified} leave${unspecified === 1 ? "s" : ""} it unspecified.` : ".")
      : `No edition differs from the current URL Standard on what it specifies` +
        (unspecified ? ` (${unspecified} leave${unspecified === 1 ? "s" : ""} it unspecified).` : "."));
    if (model.errata) this.summary.append(" Read with errata.");
    for (const col of model.columns ?? []) {
      this.summary.append(` ${col.label}: ${col.differs.length ? `differs from today's on ${col.differs.length} of ${GETTERS.length} getters` : "the same as today's"}.`);
    }

    // lit-html changes only what differs (a keystroke changes a few cells); now where they are on
    // screen, else in the next idle moment (render/offscreen-parts.js)
    this.parts.update(this.tableWrap, () => draw(this.tableWrap, this.table(model)));
    this.parts.update(this.diffs, () => draw(this.diffs, this.differences(model, names, terms)));
    this.parts.update(this.unspec, () => draw(this.unspec, model.unspecified.length
      ? model.unspecified.map((u) => html`<li data-edition=${u.edition}><strong>${names[u.edition] || u.edition}</strong>: ${vis(u.text)}</li>`)
      : html`<li class="muted">Nothing: this input stays within what every edition specifies.</li>`));
    this.parts.update(this.details, () => this.renderDetails(model));
  }

  /** @param {any} model @param {Record<string, string>} names @param {Record<string, Record<string, string>>} terms */
  differences(model, names, terms) {
    if (!model.differences.length) {
      return html`<li class="muted">No differences: every edition that decides a getter agrees with the current standard.</li>`;
    }
    // each line built only when its data changed (an edition's name and terms are fixed)
    return groupDifferences(model.differences).map((d) => guard([JSON.stringify(d)], () => html`<li data-edition=${d.edition} data-getters=${d.getters.join(" ")} data-rule=${d.rule} data-section=${d.section || ""} data-kind=${d.kind || "rule"}><strong>${names[d.edition] || d.edition}</strong> · ${d.getters.map((g, i) => [i ? ", " : nothing, html`<code>${g}</code>`])}: <span class="ed-rule">${termText(d.rule, terms[d.edition])}</span>${d.section
      ? html` <span class="ed-sec">(${sectionText(d.section)})</span>` : nothing}${KIND_LABEL[d.kind]
      ? html` <span class="pill warn" title=${KIND_TITLE[d.kind]}>${KIND_LABEL[d.kind]}</span>` : nothing} — ${termText(d.text, terms[d.edition])}${d.quote
      ? html`<span class="muted small ed-quote"> The edition's words there: <q>${vis(d.quote)}</q></span>` : nothing}</li>`));
  }

  /** @param {any[]} eds */
  fillGrammars(eds) {
    if (this.grammar.options.length === eds.length + 1) return;
    const keep = this.grammar.value;
    draw(this.grammar, [html`<option value="">any grammar</option>`,
      eds.map((ed) => html`<option value=${ed.id}>${shortName(ed)}</option>`)]);
    this.grammar.value = keep;
  }

  /** @param {any} model */
  table(model) {
    const eds = model.editions;
    const cols = model.columns ?? [];
    const state = this.ctx.state();
    const head = html`<tr><th scope="col">getter</th>${eds.map((ed) => html`<th scope="col" data-edition=${ed.id}><span class="side-name">${shortName(ed)}</span> ${statusPill(ed.status)}</th>`)}<th scope="col" class="side-standard" data-edition=${CURRENT}><span class="side-name">URL Standard (current)</span> <span class=${model.current ? "pill ok" : "pill bad"}>${model.current ? "parses it" : "rejects it"}</span></th>${cols.map((col) =>
      html`<th scope="col" class="side-standard ed-col" data-edition=${col.id}><a class="side-name ed-col-link" href=${"#" + historyFragment(state, col)} title=${col.kind === "as_of"
        ? `The History view on ${col.key}: ${col.undone.length} later ${col.undone.length === 1 ? "change" : "changes"} undone` : `The History view: ${col.title ?? ""} (${String(col.commit ?? "").slice(0, 7)})`}>${col.label}</a> <span class=${col.getters ? "pill ok" : "pill bad"}>${col.getters ? "parses it" : "rejects it"}</span> <button type="button" class="ed-col-remove" aria-label=${"Remove the column " + col.label} title="Remove this column" @click=${() => this.removeColumn(col.id)}>×</button></th>`)}</tr>`;
    // A row is built only when what it shows changed: its values and statuses, the editions'
    // mapping notes for its getter, whether the current standard parses (a keystroke changes a
    // few rows).
    const body = model.rows.map((row) => guard(
      [JSON.stringify([row, eds.map((ed) => [ed.id, ed.mapping_notes ? ed.mapping_notes[row.getter] : ""]), !!model.current,
        cols.map((c) => [c.id, c.getters ? c.getters[row.getter] : null, c.differs.includes(row.getter)])])],
      () => html`<tr data-getter=${row.getter}><th scope="row"><code>${row.getter}</code></th>${eds.map((ed) => this.cell(row, ed))}<td class="side-standard" data-edition=${CURRENT} data-getter=${row.getter}>${model.current ? valueToken(row.values.current) : FAILS}</td>${cols.map((c) =>
        this.columnCell(row.getter, c))}</tr>`));
    return html`<table class="editions" id="editions-table" data-columns=${eds.length + 1 + cols.length}><caption>The eleven getters as each edition gives them (<span class="side-diff-key">≠ highlighted</span>: differs from the current standard)</caption><thead>${head}</thead><tbody>${body}</tbody></table>`;
  }

  /** A getter in an extra column of the standard (on a day, or without a change).
   *  @param {string} getter @param {import("../model/compare.js").StandardColumn} col */
  columnCell(getter, col) {
    const differs = col.differs.includes(getter);
    const value = col.getters ? /** @type {any} */ (col.getters)[getter] : null;
    return html`<td class=${differs ? "side-standard differs" : "side-standard"} data-edition=${col.id} data-getter=${getter} data-differs=${differs ? "true" : "false"} data-value=${typeof value === "string" ? value : nothing}>${differs ? NE : nothing}${col.getters ? valueToken(value) : FAILS}</td>`;
  }

  /** @param {any} row @param {any} ed */
  cell(row, ed) {
    const status = row.status[ed.id];
    const differs = !!row.differs[ed.id];
    const mapping = ed.mapping_notes ? ed.mapping_notes[row.getter] : "";
    let content;
    if (status === "failure") content = FAILS;
    else if (status === "unspecified") content = html`<span class="ed-unspecified">unspecified</span>`;
    else if (row.values[ed.id] === null || row.values[ed.id] === undefined) {
      content = html`<span class="side-none"><span aria-hidden="true">—</span><span class="sr-only">no such notion</span></span>`;
    } else content = valueToken(row.values[ed.id]);
    return html`<td class=${differs ? "differs" : nothing} title=${mapping || nothing} data-edition=${ed.id} data-getter=${row.getter} data-differs=${differs ? "true" : "false"}>${differs ? NE : nothing}${content}${mapping ? html`<span class="ed-map">${vis(mapping)}</span>` : nothing}</td>`;
  }

  /** The details, drawn again only when what they show changed: a closed edition shows its
   *  name, status and count of rules (most keystrokes change none of them), an open one its
   *  whole reading. @param {any} model */
  renderDetails(model) {
    const key = JSON.stringify([model.traces, model.editions.map((ed) => (this.open.has(ed.id) ? ed
      : [ed.id, ed.name, ed.status, ed.notes.length]))]);
    draw(this.details, guard([key], () => model.editions.map((ed) => {
      const open = this.open.has(ed.id);
      return html`<details class="ed-detail" data-edition=${ed.id} ?open=${open} @toggle=${this.onToggle}><summary><strong>${shortName(ed)}</strong> ${statusPill(ed.status)}${ed.notes.length
        ? html`<span class="muted small">${` · ${ed.notes.length} rule${ed.notes.length === 1 ? "" : "s"} fired`}</span>` : nothing}</summary>${open ? this.detailBody(ed) : nothing}</details>`;
    })));
  }

  /** An edition's details opened or closed (by the reader, or by a render).
   *  @param {HTMLDetailsElement} det */
  toggled(det) {
    const id = det.dataset.edition ?? "";
    if (det.open === this.open.has(id)) return;
    if (det.open) this.open.add(id);
    else this.open.delete(id);
    if (!this.model) return;
    this.renderDetails(this.model);
    if (det.open && this.model.traces === false) this.refresh(); // ask again, with the traces
  }

  /** @param {any} ed */
  detailBody(ed) {
    const terms = ed.terms || {};
    const traces = this.model && this.model.traces === false
      ? html`<p class="muted">Asking for its trace…</p>` : traceNode(ed.trace, ed.trace_clipped, terms);
    return html`<p class="muted small">Source: ${vis(ed.source)}</p>${ed.error
      ? html`<p class="failure">${ed.status === "not run" ? "" : "Rejects the input: "}${vis(ed.error)}</p>` : nothing}<h4>Its components</h4>${jsonNode(ed.components, terms)}<h4>Rules that fired</h4>${ed.notes.length
      ? html`<ul class="ed-notes">${ed.notes.map((n) => html`<li><span class="ed-rule">${termText(n.rule, terms)}</span>${n.section
        ? html` <span class="ed-sec">(${sectionText(n.section)})</span>` : nothing}: ${termText(n.text, terms)}${n.getters.length
        ? html`<span class="muted small"> — decides ${n.getters.join(", ")}</span>` : nothing}</li>`)}</ul>`
      : html`<p class="muted">None recorded.</p>`}${ed.unspecified.length
      ? html`<h4>Unspecified for this input</h4><ul>${ed.unspecified.map((t) => html`<li>${vis(t)}</li>`)}</ul>` : nothing}<h4>Trace: <span class="muted">${TRACE_CAPTION[ed.id] || "steps"}</span></h4>${traces}<h4>How its getters are mapped</h4><table class="side-mapping"><tbody>${GETTERS.map((g) =>
      html`<tr><th scope="row"><code>${g}</code></th><td>${vis(ed.mapping_notes[g] || "")}</td></tr>`)}</tbody></table><h4>Its terms</h4><dl class="kv ed-terms">${Object.entries(terms).map(([t, d]) =>
      html`<dt><dfn>${vis(t)}</dfn></dt><dd>${vis(d)}</dd>`)}</dl>`;
  }
}
