// @ts-check
// What every view shows above it: the input as code points with its parts coloured, the href in
// pieces (or the failure), the validity verdict, and on narrow screens a line under the URL field
// with the answer (the summary is a screen away there). And the escapes and encoding fields,
// folded (presenter mode, narrow screens) unless used.
import { hasInvisible } from "../render/dom.js";
import { codeCells, html, hrefPieces, nothing, show } from "../render/templates.js";
import { failureBoxHtml } from "../views/components.js";
import { verdictHtml } from "../views/validation.js";

/**
 * @param {{ inputView: HTMLElement, hrefView: HTMLElement, verdictSlot: HTMLElement, answerLine: HTMLElement,
 *   inputs: HTMLElement, moreFields: HTMLElement, escaped: HTMLElement }} els
 */
export function glance(els) {
  // The answer under the URL field: built only where the style sheet shows it (its narrow-screen
  // breakpoint), so that wide screens do not lay out a long href twice.
  const narrowScreen = matchMedia("(max-width: 760px)");
  /** @type {any} */
  let shown = null;
  narrowScreen.addEventListener("change", () => { if (shown) answerLine(shown); });

  /** @param {any} r */
  function answerLine(r) {
    if (!narrowScreen.matches) {
      if (els.answerLine.firstElementChild) show(els.answerLine, nothing);
      return;
    }
    if (r.ok) {
      show(els.answerLine, hrefPieces(r.href_spans));
      els.answerLine.dataset.ok = "1";
      return;
    }
    const f = r.failure || {};
    const c = f.cause;
    els.answerLine.dataset.ok = "0";
    // (lit-html owns the line: engine-status.js draws the boot line in it with show() too)
    show(els.answerLine, html`<span class="answer-bad">${f.in === "base" ? "✗ the base fails" : "✗ fails"}</span><span class="answer-why">${c ? ` in ${c.algorithm}${c.step ? ", step " + c.step : ""}` : ""}${f.error ? ` (${f.error.name})` : ""}</span>`);
  }

  /** Draw the parse answer `r`. @param {any} r */
  function render(r) {
    shown = r;
    // lit-html changes only what differs: a keystroke changes a cell, a few classes, a piece
    show(els.inputView, codeCells(r.input, r.spans).cells); // bounded (MAX_CELLS)
    show(els.hrefView, r.ok ? hrefPieces(r.href_spans) : failureBoxHtml(r));
    answerLine(r);
    els.hrefView.classList.toggle("failed", !r.ok);
    show(els.verdictSlot, verdictHtml(r));
  }

  let extraOpen = false;
  /** The escapes and encoding fields: shown when asked for or in use.
   *  @param {{ enc: string, input: string }} state */
  function extraFields(state) {
    const used = state.enc !== "" || hasInvisible(state.input);
    const open = extraOpen || used;
    const extra = open ? "shown" : "folded";
    if (els.inputs.dataset.extra === extra) return; // unchanged: touch nothing (style is re-matched)
    els.inputs.dataset.extra = extra;
    els.moreFields.setAttribute("aria-expanded", String(open));
  }
  /** @param {{ enc: string, input: string }} state */
  function toggleExtra(state) {
    extraOpen = els.moreFields.getAttribute("aria-expanded") !== "true";
    extraFields(state);
    if (extraOpen) els.escaped.focus();
  }

  return { render, extraFields, toggleExtra };
}
