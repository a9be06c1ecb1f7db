// @ts-check
// What of a permalink the page could not use, said in a notice under the inputs (dismissible)
// instead of dropped without a word: a view it does not have, a value that is not percent-encoded
// UTF-8, setter operations that are not JSON (state/page-state.js ignoredParts says which).
import { html, nothing, render } from "../vendor/lit-html.mjs";
import { visText } from "../render/dom.js";

/** The notice, placed after `after` (the inputs' request error).
 *  @param {HTMLElement} after
 *  @returns {(ignored: string[]) => void} show these lines (none: hide the notice) */
export function permalinkNotice(after) {
  const box = document.createElement("div");
  box.id = "permalink-notice";
  box.className = "permalink-notice";
  box.setAttribute("role", "status");
  box.hidden = true;
  after.after(box);
  /** @param {string[]} ignored */
  function show(ignored) {
    box.hidden = !ignored.length;
    const dismiss = () => show([]);
    render(ignored.length
      ? html`<span><strong>Part of this link was ignored:</strong></span><ul>${ignored.map((line) => html`<li>${visText(line)}</li>`)}</ul><button type="button" class="small" id="permalink-notice-dismiss" @click=${dismiss}>Dismiss</button>`
      : nothing, box);
  }
  return show;
}
