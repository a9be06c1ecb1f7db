// @ts-check
// The input fields: the URL, its escapes (\u{...} for what cannot be seen or typed), the base and
// the encoding. Typing is a store action ("type"); every change of the state writes the fields
// back, except the one being typed in (and only where the value differs: setting even the same
// value makes the browser lay the field out again, on every keystroke). Enter makes the state an
// entry of the history of its own and puts the answer on the paper tape.
import { decodeEscapes, encodeEscapes } from "../render/escapes.js";

/**
 * @param {{ input: HTMLInputElement, escaped: HTMLInputElement, base: HTMLInputElement, enc: HTMLSelectElement }} els
 * @param {import("../state/store.js").Store} store
 * @param {() => void} entered Enter in a field
 */
export function inputFields(els, store, entered) {
  /** @type {HTMLElement | null} the field being typed in */
  let typingIn = null;
  /** @param {HTMLInputElement | HTMLSelectElement} el @param {string} value */
  function setField(el, value) {
    if (el !== typingIn && el.value !== value) el.value = value;
  }
  /** @param {import("../state/store.js").PageState} s */
  function show(s) {
    setField(els.input, s.input);
    setField(els.escaped, encodeEscapes(s.input));
    setField(els.base, s.base);
    setField(els.enc, s.enc);
  }
  /** @param {HTMLElement} el @param {Partial<import("../state/store.js").PageState>} change */
  function typed(el, change) {
    typingIn = el;
    try {
      store.dispatch("type", change);
    } finally {
      typingIn = null;
    }
  }
  els.input.addEventListener("input", () => typed(els.input, { input: els.input.value }));
  els.escaped.addEventListener("input", () => typed(els.escaped, { input: decodeEscapes(els.escaped.value) }));
  els.escaped.addEventListener("blur", () => { els.escaped.value = encodeEscapes(store.state.input); });
  els.base.addEventListener("input", () => typed(els.base, { base: els.base.value }));
  els.enc.addEventListener("change", () => store.dispatch("type", { enc: els.enc.value }));
  for (const el of [els.input, els.base, els.escaped]) {
    el.addEventListener("keydown", (e) => { if (e.key === "Enter") entered(); });
  }
  return { show };
}
