// @ts-check
// Predict, then reveal (issue 29, item 1): a lesson step's "hide" (state/lesson-format.js) keeps
// part of the answer off the page until the presenter reveals it (r, or the bar's Reveal button).
// The page hides it with CSS (css/reveal.css) from one attribute on <body>, data-hide: "all",
// "next-step", or "getters" and the getters' names ("getters host pathname"); the values are
// `visibility: hidden`, so neither the eye nor a screen reader gets them. Beside each hidden value
// the bar has a field for the class's guess; on reveal each guess is marked Right or Wrong (in
// words and a sign, not only by colour) against what urlcalc answered. Pure functions here, but
// `markHidden`, which writes the attribute.
import { html, nothing } from "../../vendor/lit-html.mjs";
import { vt } from "./common.js";

/** @typedef {import("../../state/lesson-format.js").Hide} Hide */

/**
 * What the page answered for the step shown: the getters (ok), or a failure; the trace's next
 * step (in Steps: the state the parser goes to after the selected step), when known.
 * @typedef {{ok: boolean, getters?: Record<string, string>, next?: string | null}} Answer
 */

/**
 * A value the class predicts: its name (a getter, "href" for the whole answer, "next-step"),
 * the label beside its field, and what urlcalc answered (null: a failure; undefined: not known).
 * @typedef {{name: string, label: string, answer: string | null | undefined}} Hidden
 */

/** The values step `hide` keeps hidden, with their answers from `answer`.
 *  @param {Hide | undefined} hide @param {Answer | null} answer
 *  @returns {Hidden[]} */
export function hiddenValues(hide, answer) {
  if (!hide) return [];
  /** @param {string} g */
  const value = (g) => (answer === null ? undefined : answer.ok ? answer.getters?.[g] ?? "" : null);
  if (hide === "all") return [{ name: "href", label: "the href (or “failure”)", answer: value("href") }];
  if (hide === "next-step") return [{ name: "next-step", label: "the next step of the trace", answer: answer === null ? undefined : answer.next ?? undefined }];
  return hide.map((g) => ({ name: g, label: g, answer: value(g) }));
}

/** The words a guess of a failure may be. */
const FAILURE_WORDS = /^(failure|fails?|failed|error|throws?|typeerror)$/i;

/** A trace step's name as a class would say it: lower case, no "state" at the end. @param {string} s */
function stepName(s) {
  return s.trim().toLowerCase().replace(/\s+/g, " ").replace(/ state$/, "");
}

/** Whether `guess` is right for `h`: the value exactly (spaces around the guess aside), "failure"
 *  (or fails, error, throws) for a failure, a trace step by its state's name ("host" or "host
 *  state"). null: nothing guessed, or the answer is not known.
 *  @param {Hidden} h @param {string} guess
 *  @returns {boolean | null} */
export function checkGuess(h, guess) {
  if (guess.trim() === "" || h.answer === undefined) return null;
  if (h.answer === null) return FAILURE_WORDS.test(guess.trim());
  if (h.name === "next-step") return stepName(guess) === stepName(h.answer);
  return guess === h.answer || guess.trim() === h.answer;
}

/** The value of body's data-hide for `hide` (nothing hidden: ""). @param {Hide | undefined} hide */
export function hideAttribute(hide) {
  if (!hide) return "";
  return Array.isArray(hide) ? "getters " + hide.join(" ") : hide;
}

/** Hide (or show again) what `hide` names on the page. @param {Hide | undefined | null} hide */
export function markHidden(hide) {
  const value = hideAttribute(hide ?? undefined);
  if (value) document.body.dataset.hide = value;
  else delete document.body.dataset.hide;
}

/**
 * The bar's predict row: a field per hidden value, then (revealed) each guess marked.
 * @param {{hidden: Hidden[], revealed: boolean, guesses: Map<string, string>,
 *   guessed: (name: string, value: string) => void, reveal: () => void}} p
 */
export function predictTemplate({ hidden, revealed, guesses, guessed, reveal }) {
  if (!hidden.length) return nothing;
  const rows = hidden.map((h) => {
    const guess = guesses.get(h.name) ?? "";
    const id = "predict-" + h.name;
    const ok = revealed ? checkGuess(h, guess) : null;
    const answer = h.answer === undefined ? html`<span class="muted">(not known yet)</span>`
      : h.answer === null ? html`<strong>failure</strong>` : html`<code>${vt(h.answer)}</code>`;
    const mark = !revealed ? nothing
      : ok === null ? html`<span class="pr-mark pr-none" data-mark="none">no guess · it is ${answer}</span>`
        : ok ? html`<span class="pr-mark pr-right" data-mark="right">✓ Right</span>`
          : html`<span class="pr-mark pr-wrong" data-mark="wrong">✗ Wrong: it is ${answer}</span>`;
    return html`<li class="pr-row" data-hidden=${h.name}><label for=${id}>${h.label}</label><input type="text" id=${id} class="pr-guess" spellcheck="false" autocomplete="off" autocapitalize="off" placeholder="a guess" aria-label=${"The class's guess: " + h.label} .value=${guess} ?readonly=${revealed} @input=${(/** @type {Event} */ ev) => guessed(h.name, /** @type {HTMLInputElement} */ (ev.target).value)}>${mark}</li>`;
  });
  return html`<div class="lb-predict" id="lesson-predict" role="group" aria-label="Predict, then reveal" tabindex="-1"><span class="pr-head">${revealed ? "Revealed" : "Predict, then reveal"}</span><ul class="pr-rows">${rows}</ul>${
    revealed ? nothing : html`<button type="button" class="small primary" id="lesson-reveal" title="Reveal the answer and check the guesses (r)" @click=${reveal}>Reveal (r)</button>`}</div>`;
}
