// Calculators: percent-encode/decode, the host parser, application/x-www-form-urlencoded.
import { KEYSTROKE_WAIT_MS } from "../engine/sync-channel.js";
import { Latest } from "../engine/latest.js";
import { clear, errorAnchor, h, setValue, specLink, valueToken, vis } from "../render/dom.js";
import { compactTrace } from "./steps.js";
import { encodingValue, fillEncodings } from "../render/encodings.js";
import { ENCODE_SETS, MAX_INPUT_BYTES } from "../facts.js";

function setAnchor(name) {
  return name.replace(/ /g, "-").replace(/[^A-Za-z0-9-]/g, "-").replace(/^C0/, "c0");
}

function field(id, label, attrs = {}) {
  const input = h("input", { type: "text", id, spellcheck: "false", autocomplete: "off", autocapitalize: "off", ...attrs });
  return [h("label", { for: id }, label), input];
}

export class CalculatorsView {
  constructor(panel, { call, onState, report }) {
    this.panel = panel;
    this.call = call; // async (kind, params) -> answer | null
    this.onState = onState; // (partial state) -> void
    this.report = report; // (answer) -> void, after each render
    // the latest answer wins, per calculator
    this.latest = { percent: new Latest(), host: new Latest(), urlencoded: new Latest() };
    this.build();
  }

  build() {
    const [pl, pi] = field("pct-input", "Text");
    this.pctInput = pi;
    this.pctSet = h("select", { id: "pct-set" }, ENCODE_SETS.map((s) => h("option", { value: s }, s)));
    const el = h("label", { for: "pct-encoding" }, "Encoding");
    const ei = h("select", { id: "pct-encoding" });
    fillEncodings(ei);
    this.pctEnc = ei;
    this.pctOut = h("div", { class: "calc-out", id: "pct-out", "aria-live": "polite" });
    const pct = h("section", { class: "calc", "aria-labelledby": "calc-pct-h" },
      h("h3", { id: "calc-pct-h" }, specLink("percent-encoded-bytes", "Percent-encode / decode")),
      h("div", { class: "form-grid" }, pl, pi, h("label", { for: "pct-set" }, "Encode set"), this.pctSet, el, ei),
      this.pctOut);

    const [hl, hi] = field("host-input", "Host");
    this.hostInput = hi;
    this.hostTrace = h("input", { type: "checkbox", id: "host-trace" });
    this.hostOut = h("div", { class: "calc-out", id: "host-out", "aria-live": "polite" });
    const host = h("section", { class: "calc", "aria-labelledby": "calc-host-h" },
      h("h3", { id: "calc-host-h" }, specLink("concept-host-parser", "Host parser")),
      h("div", { class: "form-grid" }, hl, hi, h("span"), h("label", { class: "check" }, this.hostTrace, " show the trace")),
      this.hostOut);

    const [fl, fi] = field("form-input", "Query / body");
    this.formInput = fi;
    this.formOut = h("div", { class: "calc-out", id: "form-out", "aria-live": "polite" });
    const form = h("section", { class: "calc", "aria-labelledby": "calc-form-h" },
      h("h3", { id: "calc-form-h" }, specLink("concept-urlencoded-parser", "application/x-www-form-urlencoded")),
      h("div", { class: "form-grid" }, fl, fi),
      this.formOut);

    clear(this.panel).append(h("div", { class: "calcs" }, pct, host, form));
    const onPct = () => { this.onState({ pct: this.pctInput.value, pctset: this.pctSet.value, pctenc: this.pctEnc.value }); this.runPercent(); };
    this.pctInput.addEventListener("input", onPct);
    this.pctSet.addEventListener("change", onPct);
    this.pctEnc.addEventListener("change", onPct);
    this.hostInput.addEventListener("input", () => { this.onState({ host: this.hostInput.value }); this.runHost(); });
    this.hostTrace.addEventListener("change", () => this.runHost());
    this.formInput.addEventListener("input", () => { this.onState({ form: this.formInput.value }); this.runForm(); });
  }

  load(state) {
    this.pctInput.value = state.pct ?? "";
    this.pctSet.value = ENCODE_SETS.includes(state.pctset) ? state.pctset : "component percent-encode set";
    this.pctEnc.value = encodingValue(state.pctenc);
    this.hostInput.value = state.host ?? "";
    this.formInput.value = state.form ?? "";
  }

  runAll() {
    this.runPercent();
    this.runHost();
    this.runForm();
  }

  async run(kind, params, out, render) {
    const n = this.latest[kind].next();
    if (new TextEncoder().encode(params.input).length > MAX_INPUT_BYTES) {
      out.replaceChildren(h("p", { class: "failure" }, `The input is over ${MAX_INPUT_BYTES / 1024} KiB: urlcalc does not take inputs that long.`));
      return;
    }
    const answer = await this.call(kind, params, { waitMs: KEYSTROKE_WAIT_MS });
    if (!this.latest[kind].isLast(n)) return;
    if (!answer) return;
    if (answer.error) {
      out.replaceChildren(h("p", { class: "failure" }, vis(answer.error)));
    } else {
      render(answer.result);
    }
    this.report(answer);
  }

  runPercent() {
    const params = { input: this.pctInput.value, encode_set: this.pctSet.value };
    if (this.pctEnc.value) params.encoding = this.pctEnc.value;
    return this.run("percent", params, this.pctOut, (r) => {
      if (Array.isArray(r.encode_sets)) this.syncSets(r.encode_sets);
      const enc = h("code", { class: "val", data: { calc: "encoded" } });
      setValue(enc, r.encoded);
      const dec = h("code", { class: "val", data: { calc: "decoded" } });
      setValue(dec, r.decoded_utf8);
      this.pctOut.replaceChildren(h("dl", { class: "kv" },
        h("dt", null, "encoded (", vis(r.output_encoding && r.output_encoding !== r.encoding
          ? `${r.encoding}: output encoding ${r.output_encoding}` : r.encoding), ")"), h("dd", null, enc),
        h("dt", null, "percent-decoded, as UTF-8"), h("dd", null, dec),
        h("dt", null, "decoded bytes"), h("dd", null, h("code", { class: "val bytes" }, r.decoded_bytes || "(none)"))),
      h("p", { class: "muted small" }, "Encode set: ", specLink(setAnchor(r.encode_set), r.encode_set)));
    });
  }

  syncSets(sets) {
    const have = [...this.pctSet.options].map((o) => o.value);
    if (JSON.stringify(have) === JSON.stringify(sets)) return;
    const cur = this.pctSet.value;
    this.pctSet.replaceChildren(...sets.map((s) => h("option", { value: s }, s)));
    if (sets.includes(cur)) this.pctSet.value = cur;
  }

  runHost() {
    const params = { input: this.hostInput.value, trace: this.hostTrace.checked };
    return this.run("host", params, this.hostOut, (r) => {
      const col = (key, title) => {
        const e = r[key] || {};
        const box = h("div", { class: ["host-result", e.ok ? "ok" : "bad"], data: { hostResult: key } },
          h("h4", null, title));
        if (!e.ok) box.append(h("p", { class: "failure" }, "failure: ", vis(e.failure || "")));
        else {
          const ser = h("code", { class: "val k-host", data: { calc: key + "-serialized" } });
          setValue(ser, e.serialized);
          box.append(h("dl", { class: "kv" },
            h("dt", null, "kind"), h("dd", null, h("span", { class: "kind" }, e.kind)),
            h("dt", null, "serialized (ASCII)"), h("dd", null, ser),
            e.unicode != null ? [h("dt", null, "to Unicode"), h("dd", null, valueToken(e.unicode))] : null,
            e.value != null ? [h("dt", null, "value"), h("dd", null, Array.isArray(e.value) ? "[" + e.value.join(", ") + "]" : String(e.value))] : null));
        }
        const errs = e.validation_errors || [];
        if (errs.length) {
          box.append(h("ul", { class: "verrs-inline" }, errs.map((x) => h("li", null, "⚠ ",
            specLink(errorAnchor(x.name), x.name, { class: "spec" }), x.detail ? [" (", vis(x.detail), ")"] : null))));
        }
        if (e.trace) box.append(h("details", { class: "op-trace" }, h("summary", null, `trace (${e.trace.steps.length} steps)`), compactTrace(e.trace)));
        return box;
      };
      this.hostOut.replaceChildren(h("div", { class: "two-col" },
        col("domain", "As a special URL's host (domain / IPv4 / IPv6)"),
        col("opaque", "As an opaque host (non-special URL)")));
    });
  }

  runForm() {
    return this.run("urlencoded", { input: this.formInput.value }, this.formOut, (r) => {
      const pairs = r.pairs || [];
      const ser = h("code", { class: "val", data: { calc: "serialized" } });
      setValue(ser, r.serialized);
      this.formOut.replaceChildren(
        pairs.length ? h("table", { class: "pairs" }, h("thead", null, h("tr", null, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "name"), h("th", { scope: "col" }, "value"))),
          h("tbody", null, pairs.map(([n, v], i) => h("tr", null, h("td", null, String(i + 1)), h("td", null, valueToken(n)), h("td", null, valueToken(v))))))
          : h("p", { class: "muted" }, "No name-value pairs."),
        h("dl", { class: "kv" }, h("dt", null, "serialized again"), h("dd", null, ser)));
    });
  }
}
