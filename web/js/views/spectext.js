// @ts-check
// The spec's own words beside the machine: the numbered steps of every algorithm urlcalc cites,
// asked once from the engine (kind "spec": urlcalc/data/url_steps.json, extracted from url.bs;
// UTS #46 stages as urlcalc's summaries) and kept for the session. No network beyond the engine:
// the worker answers it offline from the package it booted.
import { html, nothing, specLink, vis } from "../render/templates.js";

let data = null;
let pending = null;
const listeners = new Set();

/** Ask the engine for the step data once; `call(kind, params)` is the page's engine call. */
export function loadSpec(call) {
  if (data || pending) return pending || Promise.resolve(data);
  pending = call("spec", {}).then((answer) => {
    pending = null;
    if (answer && answer.result && answer.result.algorithms) {
      data = answer.result;
      for (const f of listeners) f();
    }
    return data;
  });
  return pending;
}

/** Run `f` once the step data has arrived (at once if it has). */
export function onSpec(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

export function specLoaded() {
  return data !== null;
}

/** The algorithm record {anchor, intro, steps, document, url}, or null. */
export function algorithm(name) {
  return data && Object.prototype.hasOwnProperty.call(data.algorithms, name) ? data.algorithms[name] : null;
}

/** The spec's words for `step` of `name` (its introduction when step is null), or null. */
export function stepWords(name, step) {
  const a = algorithm(name);
  if (!a) return null;
  if (step === null || step === undefined) return a.intro || null;
  return Object.prototype.hasOwnProperty.call(a.steps, step) ? a.steps[step] : null;
}

function label(name, step) {
  return step === null || step === undefined ? name : `${name}, step ${step}`;
}

/** A quotation of one cited step: "url.bs · port state, step 2.1.2" (linked) and the step's
 *  words; UTS #46 stages are marked as urlcalc's summary. `text` may be given (a citation in the
 *  result model carries its words); otherwise it comes from the loaded data. A template, or null. */
export function quoteHtml(name, step, { text = null, id = null, note = null } = {}) {
  const a = algorithm(name);
  const words = text ?? stepWords(name, step);
  if (!words) return null;
  const summary = (a && a.document === "UTS #46") || String(name).startsWith("UTS #46");
  const anchor = a ? a.anchor : null;
  const cite = summary
    ? html`<span class="cite-src">UTS #46 (urlcalc's summary) · ${label(name, step)}</span>`
    : html`<span class="cite-src">url.bs · ${specLink(anchor, label(name, step))}</span>`;
  return html`<blockquote class=${summary ? "spec-words summary" : "spec-words"} id=${id ?? nothing} data-algorithm=${name} data-spec-step=${step ?? ""}>${cite}<p>${vis(words)}</p>${note ? html`<p class="muted small">${vis(note)}</p>` : nothing}</blockquote>`;
}

/** The whole algorithm, collapsible, with the applied step highlighted (a template, or null).
 *  `onToggle(open)` hears the details opened or closed. */
export function wholeAlgorithmHtml(name, step, { open = false, onToggle = null } = {}) {
  const a = algorithm(name);
  if (!a || !Object.keys(a.steps).length) return null;
  const items = Object.entries(a.steps).map(([num, words]) => {
    const depth = num.split(".").length - 1;
    const applied = num === step;
    return html`<li class=${"d" + Math.min(depth, 5) + (applied ? " applied" : "")} data-spec-step=${num} aria-current=${applied ? "step" : nothing}><span class="num">${num}</span> ${vis(words)}</li>`;
  });
  const toggled = onToggle ? (e) => onToggle(e.currentTarget.open) : nothing;
  return html`<details class="algo" id="step-algorithm" ?open=${open} @toggle=${toggled}><summary>${`The ${name}, all ${Object.keys(a.steps).length} steps`}${step ? ` (step ${step} highlighted)` : ""}</summary>${a.intro ? html`<p class="muted">${vis(a.intro)}</p>` : nothing}<ol class="algo-steps">${items}</ol></details>`;
}

/** The quotation of a citation object of the result model ({algorithm, step, text, ...}): a
 *  template, or null. */
export function citationQuoteHtml(c, opts = {}) {
  if (!c || typeof c.algorithm !== "string") return null;
  return quoteHtml(c.algorithm, c.step ?? null, { text: typeof c.text === "string" ? c.text : null, ...opts });
}
