// @ts-check
// Calculators: percent-encode/decode, the host parser, application/x-www-form-urlencoded.
// Drawn with lit-html (render/templates.js): each answer into its own output.
import { KEYSTROKE_WAIT_MS } from "../engine/sync-channel.js";
import { Latest } from "../engine/latest.js";
import { errorAnchor } from "../render/dom.js";
import { html, nothing, show as draw, specLink, valueToken, vis } from "../render/templates.js";
import { compactTraceHtml } from "./steps.js";
import { encodingValue, fillEncodings } from "../render/encodings.js";
import { ENCODE_SETS, MAX_INPUT_BYTES, MAX_SHOWN_CODE_POINTS } from "../facts.js";

/** @typedef {import("./asking-view.js").EngineAnswer} EngineAnswer */
/** @typedef {"percent" | "host" | "urlencoded"} CalculatorKind */

/** @param {string} name */
function setAnchor(name) {
  return name.replace(/ /g, "-").replace(/[^A-Za-z0-9-]/g, "-").replace(/^C0/, "c0");
}

/** A text field and its label. @param {string} id @param {string} label */
function field(id, label) {
  return html`<label for=${id}>${label}</label><input type="text" id=${id} spellcheck="false" autocomplete="off" autocapitalize="off">`;
}

/** A code value shown visibly escaped, with the raw value in data-value (dom.js setValue).
 *  @param {string} cls @param {string} calc @param {unknown} str */
function codeValue(cls, calc, str) {
  return html`<code class=${cls} data-calc=${calc} data-value=${str === null || str === undefined ? nothing : String(str)}>${vis(str)}</code>`;
}

/** @param {readonly string[]} sets */
function setOptions(sets) {
  return sets.map((s) => html`<option value=${s}>${s}</option>`);
}

/** @param {Element} root @param {string} selector */
function el(root, selector) {
  return /** @type {any} */ (root.querySelector(selector));
}

/** The input's own path, host and query (without "?"), from the parse's spans (code-point
 *  indexes), for the calculators to start from: "" for a part the URL has not.
 *  @param {any} parse @returns {{path: string, host: string, query: string}} */
export function urlParts(parse) {
  /** @type {Record<string, string>} */
  const out = { path: "", host: "", query: "" };
  if (!parse || !Array.isArray(parse.spans)) return { path: "", host: "", query: "" };
  const cps = Array.from(String(parse.input ?? ""));
  for (const s of parse.spans) {
    if (s.component in out) out[s.component] += cps.slice(s.start, s.end).join("");
  }
  return { path: out.path, host: out.host, query: out.query };
}

/** How many of `pairs` (a form's name-value pairs) the table shows: the first ones whose names
 *  and values, with the "=" and "&" between them, come to at most `limit` code points (the page's
 *  one limit on what it shows of a string: a 63 KB query prefilled from the page's URL is
 *  thousands of pairs, a table row each), and always the first (its cells are cut by vis()).
 *  @param {ReadonlyArray<ReadonlyArray<unknown>>} pairs @param {number} [limit] */
export function shownPairs(pairs, limit = MAX_SHOWN_CODE_POINTS) {
  let used = 0;
  for (let i = 0; i < pairs.length; i++) {
    for (const part of pairs[i]) for (const _ of String(part ?? "")) used += 1; // code points
    used += 2;
    if (used > limit) return Math.max(i, 1);
  }
  return pairs.length;
}

export class CalculatorsView {
  /** @param {HTMLElement} panel
   *  @param {{call: (kind: string, params: object, options?: object) => Promise<EngineAnswer | null>,
   *    onState: (partial: Record<string, string>) => void, report: (answer: EngineAnswer) => void}} ctx */
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
    const onPct = () => {
      this.onState({ pct: this.pctInput.value, pctset: this.pctSet.value, pctenc: this.pctEnc.value });
      this.runPercent();
    };
    draw(this.panel, html`<div class="calcs"><section class="calc" aria-labelledby="calc-pct-h"><h3 id="calc-pct-h">${specLink("percent-encoded-bytes", "Percent-encode / decode")}</h3><div class="form-grid">${field("pct-input", "Text")}<label for="pct-set">Encode set</label><select id="pct-set" @change=${onPct}></select><label for="pct-encoding">Encoding</label><select id="pct-encoding" @change=${onPct}></select></div><div class="calc-out" id="pct-out" aria-live="polite"></div></section><section class="calc" aria-labelledby="calc-host-h"><h3 id="calc-host-h">${specLink("concept-host-parser", "Host parser")}</h3><div class="form-grid">${field("host-input", "Host")}<span></span><label class="check"><input type="checkbox" id="host-trace" @change=${() => this.runHost()}> show the trace</label></div><div class="calc-out" id="host-out" aria-live="polite"></div></section><section class="calc" aria-labelledby="calc-form-h"><h3 id="calc-form-h">${specLink("concept-urlencoded-parser", "application/x-www-form-urlencoded")}</h3><div class="form-grid">${field("form-input", "Query / body")}</div><div class="calc-out" id="form-out" aria-live="polite"></div></section></div>`);
    /** @type {HTMLInputElement} */
    this.pctInput = el(this.panel, "#pct-input");
    /** @type {HTMLSelectElement} */
    this.pctSet = el(this.panel, "#pct-set");
    /** @type {HTMLSelectElement} */
    this.pctEnc = el(this.panel, "#pct-encoding");
    /** @type {HTMLElement} */
    this.pctOut = el(this.panel, "#pct-out");
    /** @type {HTMLInputElement} */
    this.hostInput = el(this.panel, "#host-input");
    /** @type {HTMLInputElement} */
    this.hostTrace = el(this.panel, "#host-trace");
    /** @type {HTMLElement} */
    this.hostOut = el(this.panel, "#host-out");
    /** @type {HTMLInputElement} */
    this.formInput = el(this.panel, "#form-input");
    /** @type {HTMLElement} */
    this.formOut = el(this.panel, "#form-out");
    draw(this.pctSet, setOptions(ENCODE_SETS));
    fillEncodings(this.pctEnc);
    /** @type {Set<string>} the calculators typed in (the others follow the page's URL) */
    this.typed = new Set();
    /** @param {string} key @param {HTMLInputElement} input */
    const typed = (key, input) => {
      this.typed.add(key);
      delete input.dataset.fromUrl;
    };
    this.pctInput.addEventListener("input", () => { typed("pct", this.pctInput); onPct(); });
    this.hostInput.addEventListener("input", () => { typed("host", this.hostInput); this.onState({ host: this.hostInput.value }); this.runHost(); });
    this.formInput.addEventListener("input", () => { typed("form", this.formInput); this.onState({ form: this.formInput.value }); this.runForm(); });
  }

  /** Follow the page's URL (the view is open, or a new parse came): a calculator nobody typed in
   *  (its state is "") shows the URL's own part, its path, host or query, and every calculator
   *  answers. @param {Record<string, any>} state @param {any} parse the page's parse answer */
  follow(state, parse) {
    const parts = urlParts(parse);
    /** @type {Array<[HTMLInputElement, string, string]>} */
    const fields = [[this.pctInput, "pct", parts.path], [this.hostInput, "host", parts.host], [this.formInput, "form", parts.query]];
    for (const [input, key, part] of fields) {
      if ((state[key] ?? "") !== "" || this.typed.has(key)) {
        delete input.dataset.fromUrl;
        continue;
      }
      input.value = part;
      input.dataset.fromUrl = part ? "true" : "";
    }
    this.runAll();
  }

  /** @param {Record<string, any>} state */
  load(state) {
    this.typed = new Set(["pct", "host", "form"].filter((k) => (state[k] ?? "") !== ""));
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

  /** Ask, and draw the answer if it is still the latest.
   *  @param {CalculatorKind} kind @param {Record<string, any>} params @param {HTMLElement} out
   *  @param {(result: any) => unknown} render the answer's template */
  async run(kind, params, out, render) {
    const n = this.latest[kind].next();
    if (new TextEncoder().encode(params.input).length > MAX_INPUT_BYTES) {
      draw(out, html`<p class="failure">${`The input is over ${MAX_INPUT_BYTES / 1024} KiB: urlcalc does not take inputs that long.`}</p>`);
      return;
    }
    const answer = await this.call(kind, params, { waitMs: KEYSTROKE_WAIT_MS });
    if (!this.latest[kind].isLast(n)) return;
    if (!answer) return;
    draw(out, answer.error ? html`<p class="failure">${vis(answer.error)}</p>` : render(answer.result));
    this.report(answer);
  }

  runPercent() {
    /** @type {Record<string, any>} */
    const params = { input: this.pctInput.value, encode_set: this.pctSet.value };
    if (this.pctEnc.value) params.encoding = this.pctEnc.value;
    return this.run("percent", params, this.pctOut, (r) => {
      if (Array.isArray(r.encode_sets)) this.syncSets(r.encode_sets);
      const encoding = r.output_encoding && r.output_encoding !== r.encoding
        ? `${r.encoding}: output encoding ${r.output_encoding}` : r.encoding;
      return html`<dl class="kv"><dt>encoded (${vis(encoding)})</dt><dd>${codeValue("val", "encoded", r.encoded)}</dd><dt>percent-decoded, as UTF-8</dt><dd>${codeValue("val", "decoded", r.decoded_utf8)}</dd><dt>decoded bytes</dt><dd><code class="val bytes">${r.decoded_bytes || "(none)"}</code></dd></dl><p class="muted small">Encode set: ${specLink(setAnchor(r.encode_set), r.encode_set)}</p>`;
    });
  }

  /** @param {string[]} sets */
  syncSets(sets) {
    const have = [...this.pctSet.options].map((o) => o.value);
    if (JSON.stringify(have) === JSON.stringify(sets)) return;
    const cur = this.pctSet.value;
    draw(this.pctSet, setOptions(sets));
    if (sets.includes(cur)) this.pctSet.value = cur;
  }

  runHost() {
    if (this.hostInput.value === "") {
      // nothing typed: a hint, not the host parser's failure on the empty string
      this.latest.host.next();
      draw(this.hostOut, html`<p class="muted" id="host-empty">Type a host, or a URL with one above: its host is shown here.</p>`);
      return Promise.resolve();
    }
    const params = { input: this.hostInput.value, trace: this.hostTrace.checked };
    return this.run("host", params, this.hostOut, (r) => {
      /** @param {string} key @param {string} title */
      const col = (key, title) => {
        const e = r[key] || {};
        const errs = e.validation_errors || [];
        const value = e.value !== null && e.value !== undefined
          ? html`<dt>value</dt><dd>${Array.isArray(e.value) ? "[" + e.value.join(", ") + "]" : String(e.value)}</dd>` : nothing;
        const body = !e.ok ? html`<p class="failure">failure: ${vis(e.failure || "")}</p>`
          : html`<dl class="kv"><dt>kind</dt><dd><span class="kind">${e.kind}</span></dd><dt>serialized (ASCII)</dt><dd>${codeValue("val k-host", key + "-serialized", e.serialized)}</dd>${e.unicode !== null && e.unicode !== undefined
            ? html`<dt>to Unicode</dt><dd>${valueToken(e.unicode)}</dd>` : nothing}${value}</dl>`;
        return html`<div class=${e.ok ? "host-result ok" : "host-result bad"} data-host-result=${key}><h4>${title}</h4>${body}${errs.length
          ? html`<ul class="verrs-inline">${errs.map((x) => html`<li>⚠ ${specLink(errorAnchor(x.name), x.name)}${x.detail ? [" (", vis(x.detail), ")"] : nothing}</li>`)}</ul>` : nothing}${e.trace
          ? html`<details class="op-trace"><summary>${`trace (${e.trace.steps.length} steps)`}</summary>${compactTraceHtml(e.trace)}</details>` : nothing}</div>`;
      };
      return html`<div class="two-col">${col("domain", "As a special URL's host (domain / IPv4 / IPv6)")}${col("opaque", "As an opaque host (non-special URL)")}</div>`;
    });
  }

  runForm() {
    return this.run("urlencoded", { input: this.formInput.value }, this.formOut, (r) => {
      const pairs = r.pairs || [];
      const shown = shownPairs(pairs);
      const more = pairs.length - shown;
      return html`${pairs.length
        ? html`<div class="scroll-x"><table class="pairs"><thead><tr><th scope="col">#</th><th scope="col">name</th><th scope="col">value</th></tr></thead><tbody>${pairs.slice(0, shown).map(([n, v], i) =>
          html`<tr><td>${String(i + 1)}</td><td>${valueToken(n)}</td><td>${valueToken(v)}</td></tr>`)}</tbody></table></div>${more
          ? html`<p class="muted small" id="form-more" role="note" data-more=${String(more)}>${`… (${more.toLocaleString("en")} more name-value pairs not shown)`}</p>` : nothing}`
        : html`<p class="muted">No name-value pairs.</p>`}<dl class="kv"><dt>serialized again</dt><dd>${codeValue("val", "serialized", r.serialized)}</dd></dl>`;
    });
  }
}
