// @ts-check
// The lesson bar (#lesson-bar, over the page while a lesson plays): the lesson's title, the step's
// position and note, ◀ ▶ ✕, and a note when urlcalc now gives another href than the step was
// written with; or why a lesson link cannot be opened. Rendered with lit-html from the player's
// state (index.js); nothing else writes into the bar.
import { html, nothing, render } from "../../vendor/lit-html.mjs";
import { vt } from "./common.js";
import { predictTemplate } from "./reveal.js";

/** @typedef {import("./common.js").Entry} Entry */
/** @typedef {Parameters<typeof predictTemplate>[0]} Predict */

/**
 * What the bar shows: a lesson playing (its entry, the 0-based step, the drift), a link's error,
 * or nothing (hidden). predict: the step hides part of its answer (predict, then reveal).
 * @typedef {{entry: Entry, at: number, drift: {expected: string | null, got: string | null} | null,
 *   go: (delta: number) => void, stop: () => void, predict?: Predict | null}
 *   | {error: string, dismiss: () => void} | null} BarState
 */

/** @param {string} id @param {string} text @param {string} label @param {() => void} fn @param {boolean} disabled */
function button(id, text, label, fn, disabled) {
  return html`<button type="button" id=${id} class="small" title=${label} aria-label=${label} ?disabled=${disabled} @click=${fn}>${text}</button>`;
}

/** @param {string | null} href */
function hrefOrFailure(href) {
  return href === null ? "a failure" : html`<code>${vt(href)}</code>`;
}

/** Render `state` into the bar. @param {HTMLElement} bar @param {BarState} state */
export function renderBar(bar, state) {
  if (!state) {
    bar.classList.remove("error");
    bar.hidden = true;
    render(nothing, bar);
    return;
  }
  if ("error" in state) {
    bar.classList.add("error");
    render(html`<p class="lb-error" id="lesson-error" role="alert">This lesson cannot be opened: ${vt(state.error)}</p><button type="button" class="small" id="lesson-dismiss" @click=${state.dismiss}>Dismiss</button>`, bar);
    bar.hidden = false;
    return;
  }
  bar.classList.remove("error");
  const { entry: e, at, drift: d } = state;
  const n = e.lesson.steps.length;
  const s = e.lesson.steps[at];
  render(html`<span class="lb-title" id="lesson-bar-title">${vt(e.lesson.title)}</span><span class="lb-pos" id="lesson-pos" data-at=${at + 1} data-of=${n}>${at + 1} / ${n}</span><span class="lb-note" id="lesson-note">${s.note ? vt(s.note) : html`<span class="muted">(no note)</span>`}</span><span class="lb-buttons">${
    button("lesson-prev", "◀", "Previous step of the lesson (PgUp or [)", () => state.go(-1), at === 0)}${
    button("lesson-next", "▶", "Next step of the lesson (PgDn or ])", () => state.go(1), at === n - 1)}${
    button("lesson-stop", "✕", "End the lesson", state.stop, false)}</span>${
    d && (!state.predict || state.predict.revealed) ? html`<p class="lb-drift" id="lesson-drift" role="note">This step was written when urlcalc gave ${hrefOrFailure(d.expected)}; it now gives ${hrefOrFailure(d.got)}.</p>` : nothing}${
    state.predict ? predictTemplate(state.predict) : nothing}`, bar);
  bar.hidden = false;
}
