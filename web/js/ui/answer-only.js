// @ts-check
// The answer-only display (issue 29, item 1): the href, one big coloured line, or the failure and
// where it happens, for the back row of a classroom; nothing else of the page. A toggle (a, or the
// header's Answer button) and a permalink flag (answer=1, the page state's `answer`). While a
// lesson step hides its answer (predict, then reveal: body[data-hide], css/reveal.css) the big
// line is hidden too. Esc (or a again, or its ✕ button) goes back to the whole page. Strings from the URL reach the page as text only (vis, hrefPieces).
import { html, nothing } from "../vendor/lit-html.mjs";
import { vis } from "../render/dom.js";
import { hrefPieces, show } from "../render/templates.js";

/**
 * @param {object} page
 * @param {import("../state/store.js").Store} page.store
 * @param {() => any} page.result the parse answer drawn (null before the first)
 * @param {HTMLElement | null} page.button the header's toggle (aria-pressed)
 */
export function answerOnly({ store, result, button }) {
  const el = document.createElement("section");
  el.id = "answer-only";
  el.className = "answer-only";
  el.setAttribute("aria-label", "The answer, large");
  el.hidden = true;
  document.body.append(el);
  const toggle = () => store.dispatch("setAnswerOnly", !store.state.answer);
  button?.addEventListener("click", toggle);
  // Esc leaves it too (when no dialog is open and no field has the focus)
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !store.state.answer || document.querySelector("dialog[open]")) return;
    const t = e.target;
    if (t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    e.preventDefault();
    toggle();
  });

  function render() {
    const on = !!store.state.answer;
    document.body.classList.toggle("answer-only-on", on);
    button?.setAttribute("aria-pressed", String(on));
    el.hidden = !on;
    if (!on) {
      show(el, nothing);
      return;
    }
    const r = result();
    const s = store.state;
    const current = r && r.input === s.input;
    const f = current && !r.ok ? r.failure || {} : null;
    const c = f ? f.cause : null;
    const answer = !current ? html`<p class="ao-value ao-wait" id="answer-only-value">…</p>`
      : r.ok ? html`<p class="ao-value ao-href" id="answer-only-value" data-ok="1">${hrefPieces(r.href_spans)}</p>`
        : html`<p class="ao-value ao-failure" id="answer-only-value" data-ok="0"><strong>${f.in === "base" ? "The base fails to parse" : "Failure"}</strong>${
          c ? ` in the ${c.algorithm}${c.step ? ", step " + c.step : ""}` : ""}${f.error ? html` (<code>${vis(f.error.name)}</code>)` : nothing}${
          f.reason ? html`: ${vis(String(f.reason))}` : nothing}</p>`;
    show(el, html`<p class="ao-input" id="answer-only-input"><span class="ao-label">URL</span> <code>${vis(s.input)}</code>${
      s.base ? html` <span class="ao-label">against</span> <code>${vis(s.base)}</code>` : nothing}</p>${answer}<button type="button" class="small" id="answer-only-close" title="Back to the whole page (a)" @click=${toggle}>✕ The whole page (a)</button>`);
  }

  store.subscribe((s, previous) => {
    if (s.answer !== previous.answer || (s.answer && (s.input !== previous.input || s.base !== previous.base))) render();
  });
  render();
  return { render, toggle };
}
