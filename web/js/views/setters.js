// Setters lab: a list of setter operations applied in order (call("set", {input, base, ops, trace})).
import { clear, errorAnchor, h, specLink, valueToken, vis } from "../render/dom.js";
import { recordTable } from "./record.js";
import { compactTrace } from "./steps.js";
import { failureBox } from "./components.js";
import { citationQuote } from "./spectext.js";
import { MAX_OPS, OPERATION_ANCHORS, OPERATIONS } from "../facts.js";
import { AskingView } from "./asking-view.js";
import { setRequest } from "./requests.js";

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

function opTitle(op, value, n) {
  const isSP = op.startsWith("searchParams.");
  return h("h3", { class: "op-title" }, h("span", { class: "op-n" }, String(n) + "."), " ",
    isSP ? h("code", null, "url." + op + "(",
      op === "searchParams.sort" ? "" : valueList(value), ")")
      : h("code", null, "url.", specLink(OPERATION_ANCHORS[op], op, { class: "spec" }), " = ", valueToken(value)));
}

function valueList(value) {
  const i = value.indexOf("=");
  const name = i < 0 ? value : value.slice(0, i);
  return i < 0 ? valueToken(name) : [valueToken(name), ", ", valueToken(value.slice(i + 1))];
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
    this.opsList = h("ol", { class: "ops", id: "ops" });
    this.addBtn = h("button", { type: "button", id: "op-add", "aria-describedby": "op-count" }, "+ Add operation");
    this.opCount = h("span", { class: "counter", id: "op-count" }); // at most MAX_OPS: a request's and a lesson step's limit
    this.preset = h("select", { id: "op-preset", "aria-label": "Load a preset sequence" },
      h("option", { value: "" }, "Load a preset…"),
      PRESETS.map((p, i) => h("option", { value: String(i) }, p.label)));
    this.traceBox = h("input", { type: "checkbox", id: "op-trace" });
    this.start = h("div", { class: "start", id: "set-start" });
    this.results = h("div", { class: "op-results", id: "set-results", "aria-live": "polite" });
    clear(this.panel).append(
      h("p", { class: "lede" }, "Start from the URL above (resolved against the base), then run setters in order, as script would: ",
        h("code", null, "url.protocol = …"), ". Each card shows the record before and after; when a setter changes nothing, the spec's reason."),
      this.start,
      h("div", { class: "ops-editor" }, this.opsList,
        h("div", { class: "row wrap" }, this.addBtn, this.opCount, this.preset,
          h("label", { class: "check" }, this.traceBox, " trace each setter"))),
      this.results);
    this.addBtn.addEventListener("click", () => {
      const ops = this.getOps().slice();
      if (ops.length >= MAX_OPS) return;
      ops.push(["pathname", ""]);
      this.setOps(ops, true);
      this.renderEditor();
      const sel = this.opsList.querySelectorAll("select");
      if (sel.length) sel[sel.length - 1].focus();
    });
    this.preset.addEventListener("change", () => {
      const p = PRESETS[Number(this.preset.value)];
      this.preset.value = "";
      if (!p) return;
      this.setOps(p.ops.map((x) => x.slice()), true);
      this.renderEditor();
    });
    this.traceBox.addEventListener("change", () => this.setTrace(this.traceBox.checked));
  }

  /** Rebuild the operation rows from state (not on every keystroke: focus would be lost). */
  renderEditor() {
    const ops = this.getOps();
    this.traceBox.checked = !!this.getTrace();
    const rows = ops.map(([op, value], k) => {
      const sel = h("select", { "aria-label": `Operation ${k + 1}`, class: "op-select" },
        OPERATIONS.map((o) => h("option", { value: o, selected: o === op ? true : null }, o)));
      sel.value = OPERATIONS.includes(op) ? op : "href";
      const val = h("input", { type: "text", class: "op-value", "aria-label": `Value ${k + 1}`, spellcheck: "false", autocomplete: "off",
        placeholder: op.startsWith("searchParams.") ? "name=value" : "new value" });
      val.value = value;
      val.disabled = op === "searchParams.sort";
      const up = h("button", { type: "button", class: "icon", "aria-label": `Move operation ${k + 1} up`, disabled: k === 0 ? true : null }, "↑");
      const down = h("button", { type: "button", class: "icon", "aria-label": `Move operation ${k + 1} down`, disabled: k === ops.length - 1 ? true : null }, "↓");
      const del = h("button", { type: "button", class: "icon", "aria-label": `Remove operation ${k + 1}` }, "✕");
      sel.addEventListener("change", () => {
        const o = this.getOps().slice();
        o[k] = [sel.value, val.value];
        val.disabled = sel.value === "searchParams.sort";
        val.placeholder = sel.value.startsWith("searchParams.") ? "name=value" : "new value";
        this.setOps(o, true);
      });
      val.addEventListener("input", () => {
        const o = this.getOps().slice();
        o[k] = [sel.value, val.value];
        this.setOps(o, false);
      });
      const move = (d) => {
        const o = this.getOps().slice();
        const [x] = o.splice(k, 1);
        o.splice(k + d, 0, x);
        this.setOps(o, true);
        this.renderEditor();
        const btns = this.opsList.querySelectorAll(d < 0 ? "button[aria-label^='Move operation'][aria-label$='up']" : "button[aria-label$='down']");
        const target = btns[k + d];
        if (target && !target.disabled) target.focus();
      };
      up.addEventListener("click", () => move(-1));
      down.addEventListener("click", () => move(1));
      del.addEventListener("click", () => {
        const o = this.getOps().slice();
        o.splice(k, 1);
        this.setOps(o, true);
        this.renderEditor();
        (this.opsList.querySelector("select") || this.addBtn).focus();
      });
      return h("li", { class: "op-row", data: { opRow: k } }, h("span", { class: "op-n" }, `${k + 1}.`), sel, h("span", { class: "eq" }, "="), val, up, down, del);
    });
    this.opsList.replaceChildren(...rows);
    const full = ops.length >= MAX_OPS;
    this.addBtn.disabled = full;
    this.opCount.textContent = `${ops.length} / ${MAX_OPS} operations` + (full ? ": the most a request (and a lesson step) holds" : "");
    this.opCount.classList.toggle("at-limit", full);
    if (!ops.length) this.opsList.append(h("li", { class: "muted" }, "No operations yet: add one or load a preset."));
  }

  renderStart(state) {
    this.start.replaceChildren(h("span", { class: "muted" }, "start: "), h("code", null, "new URL(", valueToken(state.input),
      state.base ? [", ", valueToken(state.base)] : null, ")"));
  }

  renderResult(model) {
    clear(this.results);
    if (!model) return;
    if (model.error) {
      this.results.append(h("p", { class: "failure" }, vis(model.error)));
      return;
    }
    if (!model.ok) {
      this.results.append(failureBox({ failure: { in: "input", ...(model.failure || {}) } }));
      return;
    }
    (model.operations || []).forEach((o, k) => {
      const changed = new Set(o.changed || []);
      const status = o.threw ? h("span", { class: "pill bad" }, "threw")
        : changed.size ? h("span", { class: "pill ok" }, "changed: " + [...changed].join(", "))
          : h("span", { class: "pill warn" }, "nothing changed");
      const card = h("article", {
        class: ["op-card", o.threw ? "threw" : changed.size ? "changed" : "unchanged"],
        data: { opIndex: k, changed: [...changed].join(" ") },
      }, h("div", { class: "op-head" }, opTitle(o.op, o.value, k + 1), status));
      if (o.threw) card.append(h("p", { class: "threw-msg" }, vis(o.threw)));
      if (o.reason) {
        card.append(h("p", { class: "reason", data: { reason: "" } }, h("strong", null, "Why: "), vis(o.reason)));
        const words = citationQuote(o.cited);
        if (words) card.append(words);
      }
      if (o.summarised) {
        // The answer reached its size budget: no records or getters for this operation.
        card.append(h("p", { class: "muted small", data: { summarised: "" } },
          "Records and getters left out: the answer reached its size budget."));
      }
      const columns = [{ label: "before", record: o.before, cls: "col-before" }, { label: "after", record: o.after, cls: "col-after" }];
      if (o.summarised) {
        // nothing more to draw
      } else if (changed.size) {
        card.append(h("div", { class: "scroll-x" }, recordTable({ columns, highlight: changed, dataField: false, only: changed })));
      }
      if (!o.summarised) {
        card.append(h("details", { class: "op-record" }, h("summary", null, "the whole record, before and after"),
          h("div", { class: "scroll-x" }, recordTable({ columns, highlight: changed, dataField: false }))));
      }
      const cg = o.changed_getters || [];
      if (cg.length && !o.summarised) {
        card.append(h("dl", { class: "kv getter-diff" }, cg.map((g) => [
          h("dt", null, g), h("dd", null, valueToken(o.getters_before[g]), " → ", valueToken(o.getters_after[g]))])));
      }
      const errs = o.validation_errors || [];
      if (errs.length) {
        card.append(h("ul", { class: "verrs-inline" }, errs.map((e) => h("li", { data: { setterValidationError: e.name } },
          "⚠ ", specLink(errorAnchor(e.name), e.name, { class: "spec" }), " — ", vis(e.description || "")))));
      }
      if (o.trace) {
        card.append(h("details", { class: "op-trace" }, h("summary", null, `trace (${o.trace.steps.length} steps)`), compactTrace(o.trace)));
      }
      this.results.append(card);
    });
    if (!(model.operations || []).length) this.results.append(h("p", { class: "muted" }, "Add an operation to see what it does."));
    else {
      this.results.append(h("p", { class: "final" }, h("span", { class: "muted" }, "final href: "),
        h("code", { class: "val", data: { setterResult: "href" } }, vis(model.getters.href))));
    }
  }
}
