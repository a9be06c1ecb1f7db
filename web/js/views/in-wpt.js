// @ts-check
// Is this in WPT? A small panel under the Components view: whether the web-platform-tests URL
// data (urltestdata.json, setters_tests.json, toascii.json, IdnaTestV2.json) already has this
// input with this base, or else its nearest entries, each with why it is near. The answer is the
// "wpt" request kind's (urlcalc.site.wpt, by the server or by Pyodide alike); the Copy-as-WPT
// dialog asks it too, to say when the entry copied would be a duplicate (duplicateOf).
// Strings from URLs are drawn as text only (vis: lit-html text parts).
import { AskingView } from "./asking-view.js";
import { html, nothing, show as draw, vis } from "../render/templates.js";
import { tooLong } from "../state/store.js";

/** @typedef {import("../state/store.js").PageState} PageState */
/** @typedef {import("../result-model.js").WptAnswer} WptAnswer */
/** @typedef {import("../result-model.js").WptEntry} WptEntry */

/** The "wpt" request for `state`, or null when the input or the base is over the model's limit.
 *  @param {PageState} state */
export function wptRequest(state) {
  if (tooLong(state.input, state.base)) return null;
  /** @type {Record<string, any>} */
  const params = { input: state.input };
  if (state.base !== "") params.base = state.base;
  return { kind: "wpt", params };
}

/** An entry's name: "urltestdata.json #480", "setters_tests.json host #54".
 *  @param {WptEntry} e */
export function entryLabel(e) {
  return e.setter === null ? `${e.file} #${e.index}` : `${e.file} ${e.setter} #${e.index}`;
}

/** The panel's one line: "In WPT: exactly (urltestdata.json #480)", "In WPT: modulo case and
 *  percent-encoding (...)" or "Not in WPT; nearest: ...".
 *  @param {WptAnswer} answer */
export function wptSummary(answer) {
  const names = (/** @type {WptEntry[]} */ list) => list.map(entryLabel).join(", ");
  if (answer.verdict === "exact") {
    return `In WPT: exactly (${names(answer.exact.filter((e) => e.match === "exact"))})`;
  }
  if (answer.verdict === "variant") {
    return `In WPT: modulo ASCII case and percent-encoding (${names(answer.exact)})`;
  }
  const near = answer.nearest.length ? `; nearest: ${names(answer.nearest.slice(0, 3))}` : "";
  return `Not in WPT${near}`;
}

/** What the Copy-as-WPT export would duplicate: the urltestdata.json entry (no `ops`), or the
 *  setters_tests.json entries of the Setters lab's operations (`ops`: [setter, value] pairs).
 *  Returns the entries' names, or null when the export is new.
 *  @param {WptAnswer | null} answer @param {Array<[string, string]> | null} [ops] */
export function duplicateOf(answer, ops = null) {
  if (!answer) return null;
  /** @type {WptEntry[]} */
  let found;
  if (ops === null) {
    found = answer.exact.filter((e) => e.match === "exact");
  } else {
    found = answer.setters.filter((e) => e.match === "exact" && ops.some(([op, value]) => op === e.setter && value === e.new_value));
  }
  return found.length ? found.map(entryLabel).join(", ") : null;
}

/** One entry as a list item: its name, input, base and expectation, and why it is listed.
 *  @param {WptEntry} e */
function entryHtml(e) {
  const expected = e.expected === null
    ? html`<span class="wpt-failure">failure</span>`
    : html`<code class="wpt-expected">${vis(e.expected)}</code>`;
  return html`<li class="wpt-entry" data-file=${e.file} data-index=${e.index} data-match=${e.match}>
    <strong class="wpt-name">${entryLabel(e)}</strong>
    <code class="wpt-input">${vis(e.input)}</code>${e.base !== null ? html` against <code class="wpt-base">${vis(e.base)}</code>` : nothing}${e.new_value !== null ? html`, set to <code class="wpt-value">${vis(e.new_value)}</code>` : nothing}
    → ${expected}
    <span class="wpt-why muted">(${e.why.join("; ")})</span></li>`;
}

/** @param {string} title @param {WptEntry[]} list @param {string} cls */
function listHtml(title, list, cls) {
  return list.length
    ? html`<h4>${title}</h4><ul class=${"wpt-list " + cls}>${list.map(entryHtml)}</ul>`
    : nothing;
}

/** The panel for an answer (or an error).
 *  @param {{ result?: WptAnswer, error?: string }} got */
export function inWptHtml(got) {
  if (!got.result) return html`<p class="muted wpt-summary">Is this in WPT? ${got.error ?? ""}</p>`;
  const a = got.result;
  return html`<h3 class="wpt-summary" data-verdict=${a.verdict}>${wptSummary(a)}</h3>
    ${listHtml("This case", a.exact, "wpt-exact")}
    ${listHtml(a.verdict === "none" ? "Nearest in urltestdata.json" : "Near it in urltestdata.json", a.nearest, "wpt-nearest")}
    ${listHtml("setters_tests.json, from this href", a.setters, "wpt-setters")}
    ${listHtml("The host in toascii.json and IdnaTestV2.json", a.idna, "wpt-idna")}`;
}

/** The panel: asks "wpt" while the Components view is shown, draws into `#in-wpt` in it. */
export class InWptView extends AskingView {
  /** @param {HTMLElement} panel the Components view's panel
   *  @param {import("./asking-view.js").AskingContext} ctx */
  constructor(panel, ctx) {
    super(ctx);
    this.panel = panel;
    /** @type {{ result?: WptAnswer, error?: string } | null} the last answer drawn */
    this.last = null;
  }

  /** @param {PageState} state */
  ask(state) {
    return state.view === "components" ? wptRequest(state) : null;
  }

  /** @param {{ result?: any, error?: string }} answer */
  show(answer) {
    this.last = answer;
    this.redraw();
  }

  /** Draw the last answer again (the Components view drew its panel anew). */
  redraw() {
    const slot = this.panel.querySelector("#in-wpt");
    if (slot instanceof HTMLElement && this.last) draw(slot, inWptHtml(this.last));
  }

  /** The answer for the page's state now (the Copy-as-WPT dialog's), or null if none comes
   *  within `waitMs`. @param {number} [waitMs] @returns {Promise<WptAnswer | null>} */
  async lookup(waitMs = 2000) {
    const request = wptRequest(this.ctx.state());
    if (request === null) return null;
    /** @type {Promise<null>} */
    const late = new Promise((resolve) => setTimeout(() => resolve(null), waitMs));
    const got = await Promise.race([this.ctx.call(request.kind, request.params), late]);
    return got && got.result ? got.result : null;
  }
}
