// @ts-check
// Is this in WPT? A small panel under the Components view: whether the web-platform-tests URL
// data (urltestdata.json, setters_tests.json, toascii.json, IdnaTestV2.json) already has this
// input with this base, or else its nearest entries, each with why it is near. The answer is the
// "wpt" request kind's (urlcalc.site.wpt, by the server or by Pyodide alike); the Copy-as-WPT
// dialog asks it too, to say when the entry copied would be a duplicate (duplicateOf).
// The panel is a disclosure, closed at first: only what the reader looks at asks. Closed, it asks
// nothing; opened, it asks at once, then follows the input once typing rests (FOLLOW_REST_MS).
// Strings from URLs are drawn as text only (vis: lit-html text parts).
import { AskingView } from "./asking-view.js";
import { html, nothing, show as draw, vis } from "../render/templates.js";
import { tooLong } from "../state/store.js";

/** @typedef {import("../state/store.js").PageState} PageState */
/** @typedef {import("../result-model.js").WptAnswer} WptAnswer */
/** @typedef {import("../result-model.js").WptEntry} WptEntry */

/** While the panel is open, how long the input must rest before it is looked up again. */
export const FOLLOW_REST_MS = 300;

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

/** The panel: a closed disclosure in `#in-wpt` in the Components view; open, it asks "wpt"
 *  while the Components view is shown (once typing rests) and draws the answer in it. */
export class InWptView extends AskingView {
  /** @param {HTMLElement} panel the Components view's panel
   *  @param {import("./asking-view.js").AskingContext} ctx */
  constructor(panel, ctx) {
    super(ctx);
    this.panel = panel;
    /** @type {{ result?: WptAnswer, error?: string } | null} the last answer drawn */
    this.last = null;
    /** whether the reader opened the panel */
    this.open = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} the lookup waiting for typing to rest */
    this.rest = undefined;
  }

  /** @param {PageState} state */
  ask(state) {
    return this.open && state.view === "components" ? wptRequest(state) : null;
  }

  /** The page's state changed while the Components view is shown: open, ask again once the
   *  input rests; closed, nothing. @param {PageState} [state] */
  update(state = this.ctx.state()) {
    clearTimeout(this.rest);
    this.rest = undefined;
    if (this.ask(state) === null) return;
    this.rest = setTimeout(() => this.askNow(), FOLLOW_REST_MS);
  }

  /** Ask for the page's state now (if the request changed). */
  askNow() {
    clearTimeout(this.rest);
    this.rest = undefined;
    super.update(this.ctx.state());
  }

  /** Nothing said to the engine ahead of the page's parse: the panel asks after typing rests.
   *  @param {(kind: string, params: object, options: object) => void} prefetch */
  prefetch(prefetch) { // eslint-disable-line no-unused-vars
    return null;
  }

  /** The reader opened or closed the panel. @param {boolean} open */
  toggled(open) {
    if (open === this.open) return; // (drawn again as it was)
    this.open = open;
    if (open) {
      this.redraw();
      this.askNow();
    } else {
      clearTimeout(this.rest);
      this.rest = undefined;
    }
  }

  /** @param {{ result?: any, error?: string }} answer */
  show(answer) {
    this.last = answer;
    this.redraw();
  }

  /** Draw the panel again (the Components view drew its panel anew, or an answer came). */
  redraw() {
    const slot = this.panel.querySelector("#in-wpt");
    if (!(slot instanceof HTMLElement)) return;
    const body = this.last ? inWptHtml(this.last) : html`<p class="muted">Looking it up…</p>`;
    draw(slot, html`<details class="in-wpt-panel" id="in-wpt-details" ?open=${this.open} @toggle=${(/** @type {Event} */ e) => {
      if (e.currentTarget instanceof HTMLDetailsElement) this.toggled(e.currentTarget.open);
    }}><summary>Is this in WPT?</summary>${this.open ? body : nothing}</details>`);
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
