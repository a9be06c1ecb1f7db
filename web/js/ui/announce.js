// @ts-check
// What a screen reader hears while one types: the answer (the href, or the failure and where it
// began), once, when typing has settled; never the timings. One polite live region
// (#answer-live); a keystroke, or an answer for an input that changes again within
// SETTLE_MS, announces nothing.
import { MAX_SHOWN_CODE_POINTS } from "../facts.js";

/** How long the input must rest, after its answer is drawn, before the answer is announced. */
export const SETTLE_MS = 700;

/** The words for a parse answer: "href: https://example.com/", or "fails in domain parser, step 8:
 *  the result contains a forbidden domain code point, U+0020"; a long href is cut at the page's
 *  display limit.
 *  @param {any} r the parse answer's result */
export function answerWords(r) {
  if (!r) return "";
  if (r.ok) {
    const href = [...String(r.getters?.href ?? "")];
    const more = href.length - MAX_SHOWN_CODE_POINTS;
    return "href: " + href.slice(0, MAX_SHOWN_CODE_POINTS).join("") +
      (more > 0 ? ` … and ${more.toLocaleString("en")} more code points` : "");
  }
  const f = r.failure || {};
  const c = f.cause;
  return (f.in === "base" ? "the base fails" : "fails") +
    (c ? ` in ${c.algorithm}${c.step ? ", step " + c.step : ""}` : "") + (f.error ? ` (${f.error.name})` : "") +
    (f.note ? ": " + f.note : "");
}

/**
 * @param {HTMLElement} region the live region
 * @param {{ settleMs?: number }} [options]
 */
export function announcer(region, { settleMs = SETTLE_MS } = {}) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let said = region.textContent || "";
  /** @param {string} text */
  function later(text) {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (text && text !== said) {
        said = text;
        region.textContent = text;
      }
    }, settleMs);
  }
  return {
    /** the input changed: what was pending is stale */
    changed() { clearTimeout(timer); timer = undefined; },
    /** an answer was drawn for the current input @param {any} result */
    answered(result) { later(answerWords(result)); },
    /** the page refused to ask (the input is too long) @param {string} message */
    refused(message) { later(message); },
  };
}
