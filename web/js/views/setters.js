// @ts-check
// Setters lab: a list of setter operations applied in order (call("set", {input, base, ops, trace})).
// Drawn with lit-html (render/templates.js); the operation rows are drawn anew (keyed) when the
// operations change in structure, never on a keystroke in a value (focus would be lost).
import { errorAnchor } from "../render/dom.js";
import { html, nothing, show as draw, specLink, valueToken, vis } from "../render/templates.js";
import { keyed } from "../vendor/lit-html.mjs";
import { recordTableHtml } from "./record.js";
import { compactTraceHtml } from "./steps.js";
import { failureBoxHtml } from "./components.js";
import { citationQuoteHtml } from "./spectext.js";
import { MAX_OPS, OPERATION_ANCHORS, OPERATIONS } from "../facts.js";
import { AskingView } from "./asking-view.js";
import { setRequest } from "./requests.js";

/** @typedef {[string, string]} Op */

/** @type {{label: string, ops: Op[]}[]} */
export const PRESETS = [
  { label: "protocol = mailto on https (ignored: special → non-special)", ops: [["protocol", "mailto"]] },
  { label: "protocol = wss, then port = 443", ops: [["protocol", "wss"], ["port", "443"]] },
  { label: "port = 99999 (out of range: ignored)", ops: [["port", "99999"]] },
  { label: "host = b.example:8080, then hostname = c.example", ops: [["host", "b.example:8080"], ["hostname", "c.example"]] },
  { label: "pathname = a b/../c", ops: [["pathname", "a b/../c"]] },
  { label: "search params: append, set, sort", ops: [["searchParams.append", "b=2"], ["searchParams.append", "a=1"], ["searchParams.set", "b=3"], ["searchParams.sort", ""]] },
  { label: "hash = (empty) keeps the #, search = (empty) drops the ?", ops: [["hash", ""], ["search", ""]] },
  { label: "href = relative (throws TypeError)", ops: [["href", "/relative"]] },
];

/** @param {string} op @param {string} value @param {number} n */
function opTitle(op, value, n) {
  const call = op.startsWith("searchParams.")
    ? html`<code>url.${op}(${op === "searchParams.sort" ? "" : valueList(value)})</code>`
    : html`<code>url.${specLink(OPERATION_ANCHORS[op], op)} = ${valueToken(value)}</code>`;
  return html`<h3 class="op-title"><span class="op-n">${String(n) + "."}</span> ${call}</h3>`;
}

/** @param {string} value */
function valueList(value) {
  const i = value.indexOf("=");
  const name = i < 0 ? value : value.slice(0, i);
  return i < 0 ? valueToken(name) : [valueToken(name), ", ", valueToken(value.slice(i + 1))];
}

/** @param {Element} root @param {string} selector */
function el(root, selector) {
  return /** @type {any} */ (root.querySelector(selector));
}

/** The select and the value field of the row an event came from.
 *  @param {Event} e @returns {{sel: HTMLSelectElement, val: HTMLInputElement}} */
function rowFields(e) {
  const li = /** @type {HTMLElement} */ (e.currentTarget).closest("li");
  return { sel: el(li, "select"), val: el(li, "input") };
}

/**
 * What the page gives the Setters lab besides the asking (AskingView).
 * @typedef {object} SettersHooks
 * @property {(ops: [string, string][], structural: boolean) => void} setOps
 * @property {(on: boolean) => void} setTrace
 * @property {(model: any, params: Record<string, any>) => void} onModel after each answer drawn
 */

export class SettersView extends AskingView {
  /** @param {HTMLElement} panel
   *  @param {import("./asking-view.js").AskingContext & SettersHooks} ctx */
  constructor(panel, ctx) {
    super(ctx);
    this.panel = panel;
    this.getOps = () => ctx.state().ops;
    this.setOps = ctx.setOps;
    this.getTrace = () => ctx.state().strace;
    this.setTrace = ctx.setTrace;
    this.onModel = ctx.onModel;
    /** the last model drawn, and the request it answers */
    this.last = null;
    this.build();
  }

  /** The input with the operations (AskingView; views/requests.js).
   *  @param {import("../state/store.js").PageState} state */
  ask(state) {
    return setRequest(state);
  }

  /** @param {import("../state/store.js").PageState} [state] */
  update(state = this.ctx.state()) {
    this.renderStart(state);
    super.update(state);
  }

  /** @param {import("./asking-view.js").EngineAnswer} answer @param {any} _extra
   *  @param {Record<string, any> | null} params */
  show(answer, _extra, params) {
    if (answer.error) {
      this.renderResult({ error: answer.error });
      return;
    }
    this.last = { model: answer.result, params };
    this.renderStart(this.ctx.state());
    this.renderResult(answer.result);
    if (params) this.onModel(answer.result, params);
  }

  build() {
    draw(this.panel, html`<p class="lede">Start from the URL above (resolved against the base), then run setters in order, as script would: <code>url.protocol = …</code>. Each card shows the record before and after; when a setter changes nothing, the spec's reason.</p><div class="start" id="set-start"></div><div class="ops-editor"><ol class="ops" id="ops"></ol><div class="row wrap"><button type="button" id="op-add" aria-describedby="op-count" @click=${() => this.add()}>+ Add operation</button><span class="counter" id="op-count"></span><select id="op-preset" aria-label="Load a preset sequence" @change=${() => this.loadPreset()}><option value="">Load a preset…</option>${PRESETS.map((p, i) =>
      html`<option value=${String(i)}>${p.label}</option>`)}</select><label class="check"><input type="checkbox" id="op-trace" @change=${() => this.setTrace(this.traceBox.checked)}> trace each setter</label></div></div><div class="op-results" id="set-results" aria-live="polite"></div>`);
    /** @type {HTMLElement} */
    this.opsList = el(this.panel, "#ops");
    /** @type {HTMLButtonElement} */
    this.addBtn = el(this.panel, "#op-add");
    /** @type {HTMLElement} at most MAX_OPS: a request's and a lesson step's limit */
    this.opCount = el(this.panel, "#op-count");
    /** @type {HTMLSelectElement} */
    this.preset = el(this.panel, "#op-preset");
    /** @type {HTMLInputElement} */
    this.traceBox = el(this.panel, "#op-trace");
    /** @type {HTMLElement} */
    this.start = el(this.panel, "#set-start");
    /** @type {HTMLElement} */
    this.results = el(this.panel, "#set-results");
    this.drawn = 0; // the operation rows' generation (keyed: drawn anew each time)
  }

  add() {
    const ops = this.getOps().slice();
    if (ops.length >= MAX_OPS) return;
    ops.push(["pathname", ""]);
    this.setOps(ops, true);
    this.renderEditor();
    const sel = this.opsList.querySelectorAll("select");
    if (sel.length) sel[sel.length - 1].focus();
  }

  loadPreset() {
    const p = PRESETS[Number(this.preset.value)];
    this.preset.value = "";
    if (!p) return;
    this.setOps(p.ops.map((x) => /** @type {Op} */ (x.slice())), true);
    this.renderEditor();
  }

  /** @param {number} k @param {number} d */
  move(k, d) {
    const o = this.getOps().slice();
    const [x] = o.splice(k, 1);
    o.splice(k + d, 0, x);
    this.setOps(o, true);
    this.renderEditor();
    /** @type {NodeListOf<HTMLButtonElement>} */
    const btns = this.opsList.querySelectorAll(d < 0 ? "button[aria-label^='Move operation'][aria-label$='up']" : "button[aria-label$='down']");
    const target = btns[k + d];
    if (target && !target.disabled) target.focus();
  }

  /** @param {number} k */
  remove(k) {
    const o = this.getOps().slice();
    o.splice(k, 1);
    this.setOps(o, true);
    this.renderEditor();
    (el(this.opsList, "select") || this.addBtn).focus();
  }

  /** One operation's row. @param {Op} opValue @param {number} k @param {number} count */
  opRow([op, value], k, count) {
    const chosen = OPERATIONS.includes(op) ? op : "href";
    /** @param {Event} e */
    const changed = (e) => {
      const { sel, val } = rowFields(e);
      const o = this.getOps().slice();
      o[k] = [sel.value, val.value];
      val.disabled = sel.value === "searchParams.sort";
      val.placeholder = sel.value.startsWith("searchParams.") ? "name=value" : "new value";
      this.setOps(o, true);
    };
    /** @param {Event} e */
    const typed = (e) => {
      const { sel, val } = rowFields(e);
      const o = this.getOps().slice();
      o[k] = [sel.value, val.value];
      this.setOps(o, false);
    };
    return html`<li class="op-row" data-op-row=${k}><span class="op-n">${`${k + 1}.`}</span><select aria-label=${`Operation ${k + 1}`} class="op-select" @change=${changed}>${OPERATIONS.map((o) =>
      html`<option value=${o} ?selected=${o === chosen}>${o}</option>`)}</select><span class="eq">=</span><input type="text" class="op-value" aria-label=${`Value ${k + 1}`} spellcheck="false" autocomplete="off" placeholder=${op.startsWith("searchParams.") ? "name=value" : "new value"} .value=${value} ?disabled=${op === "searchParams.sort"} @input=${typed}><button type="button" class="icon" aria-label=${`Move operation ${k + 1} up`} ?disabled=${k === 0} @click=${() => this.move(k, -1)}>↑</button><button type="button" class="icon" aria-label=${`Move operation ${k + 1} down`} ?disabled=${k === count - 1} @click=${() => this.move(k, 1)}>↓</button><button type="button" class="icon" aria-label=${`Remove operation ${k + 1}`} @click=${() => this.remove(k)}>✕</button></li>`;
  }

  /** Draw the operation rows anew from state (not on every keystroke: focus would be lost). */
  renderEditor() {
    const ops = this.getOps();
    this.traceBox.checked = !!this.getTrace();
    this.drawn += 1;
    draw(this.opsList, keyed(this.drawn, ops.length
      ? ops.map((op, k) => this.opRow(op, k, ops.length))
      : html`<li class="muted">No operations yet: add one or load a preset.</li>`));
    const full = ops.length >= MAX_OPS;
    this.addBtn.disabled = full;
    this.opCount.textContent = `${ops.length} / ${MAX_OPS} operations` + (full ? ": the most a request (and a lesson step) holds" : "");
    this.opCount.classList.toggle("at-limit", full);
  }

  /** @param {import("../state/store.js").PageState} state */
  renderStart(state) {
    draw(this.start, html`<span class="muted">start: </span><code>new URL(${valueToken(state.input)}${state.base ? [", ", valueToken(state.base)] : nothing})</code>`);
  }

  /** @param {any} model */
  renderResult(model) {
    draw(this.results, this.result(model));
  }

  /** @param {any} model */
  result(model) {
    if (!model) return nothing;
    if (model.error) return html`<p class="failure">${vis(model.error)}</p>`;
    if (!model.ok) return failureBoxHtml({ failure: { in: "input", ...(model.failure || {}) } });
    const operations = model.operations || [];
    if (!operations.length) return html`<p class="muted">Add an operation to see what it does.</p>`;
    return [operations.map((o, k) => this.card(o, k)), html`<p class="final"><span class="muted">final href: </span><code class="val" data-setter-result="href">${vis(model.getters.href)}</code></p>`];
  }

  /** One operation's card. @param {any} o @param {number} k */
  card(o, k) {
    /** @type {Set<string>} */
    const changed = new Set(o.changed || []);
    const status = o.threw ? html`<span class="pill bad">threw</span>`
      : changed.size ? html`<span class="pill ok">${"changed: " + [...changed].join(", ")}</span>`
        : html`<span class="pill warn">nothing changed</span>`;
    const columns = [{ label: "before", record: o.before, cls: "col-before" }, { label: "after", record: o.after, cls: "col-after" }];
    const cg = o.changed_getters || [];
    const errs = o.validation_errors || [];
    // (an answer that reached its size budget has no records or getters for this operation)
    const whole = o.summarised ? nothing
      : [changed.size ? html`<div class="scroll-x">${recordTableHtml({ columns, highlight: changed, dataField: false, only: changed })}</div>` : nothing,
        html`<details class="op-record"><summary>the whole record, before and after</summary><div class="scroll-x">${recordTableHtml({ columns, highlight: changed, dataField: false })}</div></details>`,
        cg.length ? html`<dl class="kv getter-diff">${cg.map((g) => html`<dt>${g}</dt><dd>${valueToken(o.getters_before[g])} → ${valueToken(o.getters_after[g])}</dd>`)}</dl>` : nothing];
    return html`<article class=${"op-card " + (o.threw ? "threw" : changed.size ? "changed" : "unchanged")} data-op-index=${k} data-changed=${[...changed].join(" ")}><div class="op-head">${opTitle(o.op, o.value, k + 1)}${status}</div>${o.threw
      ? html`<p class="threw-msg">${vis(o.threw)}</p>` : nothing}${o.reason
      ? [html`<p class="reason" data-reason=""><strong>Why: </strong>${vis(o.reason)}</p>`, citationQuoteHtml(o.cited) ?? nothing] : nothing}${o.summarised
      ? html`<p class="muted small" data-summarised="">Records and getters left out: the answer reached its size budget.</p>` : nothing}${whole}${errs.length
      ? html`<ul class="verrs-inline">${errs.map((e) => html`<li data-setter-validation-error=${e.name}>⚠ ${specLink(errorAnchor(e.name), e.name)} — ${vis(e.description || "")}</li>`)}</ul>` : nothing}${o.trace
      ? html`<details class="op-trace"><summary>${`trace (${o.trace.steps.length} steps)`}</summary>${compactTraceHtml(o.trace)}</details>` : nothing}</article>`;
  }
}
