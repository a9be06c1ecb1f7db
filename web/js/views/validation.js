// @ts-check
// Validation: the named validation errors, underlined in the input, and the valid-URL-string verdict.
import { MAX_CELLS, codePoints, errorAnchor } from "../render/dom.js";
import { codeCells, html, nothing, show, specLink, vis } from "../render/templates.js";
import { algorithm, quoteHtml } from "./spectext.js";

/** The pills: parses or not, valid URL string or not, how many validation errors (a template). */
export function verdictHtml(result) {
  const v = result.valid;
  const parses = result.ok;
  const n = result.validation_errors_total ?? (result.validation_errors || []).length;
  return html`<div class="verdict" id="verdict"><span class=${parses ? "pill ok" : "pill bad"} data-parses=${String(parses)}>${parses ? "✓ parses" : "✗ fails to parse"}</span>${v && typeof v === "object"
    ? html`<span class=${v.valid ? "pill ok" : "pill bad"} data-valid=${String(!!v.valid)}>${v.valid ? "✓ valid URL string" : "✗ not a valid URL string"}</span>`
    : nothing}<span class=${n ? "pill warn" : "pill ok"}>${n === 1 ? "1 validation error" : `${n} validation errors`}</span></div>`;
}

const NO_POSITION = html`<span class="pill">no position</span>`;

function errorItem(e, n, attr) {
  const step = e.algorithm
    ? specLink(algorithm(e.algorithm)?.anchor, e.step ? `${e.algorithm}, step ${e.step}` : e.algorithm, { cls: "spec small err-step", step: e.step ?? "" })
    : e.state ? html`<span class="muted small">${e.state}</span>` : nothing;
  // The badge says what happened (the result model's failed_with: the error the step that
  // returned failure raised); the error table's "can this error make the parse fail" is
  // information beside it, never the badge.
  const failed = e.failed_with === true;
  const badge = failed
    ? html`<span class="pill bad verr-failed" title="The step that raised this error returned failure: the parse failed with it">failure</span>`
    : nothing;
  const canFail = e.failure
    ? html`<p class="muted small verr-can-fail">Can this error make the parse fail (the spec's table)? ${vis(String(e.failure))}</p>`
    : nothing;
  const head = html`<div class="verr-head">${specLink(errorAnchor(e.name), e.name, { cls: "spec err-name" })}${e.index !== null && e.index !== undefined
    ? html`<span class="pill">${"index " + e.index}</span>` : NO_POSITION}${step}${badge}</div>`;
  const body = html`<div>${head}<p class="desc">${vis(e.description || "")}</p>${e.algorithm && e.step ? quoteHtml(e.algorithm, e.step) ?? nothing : nothing}${e.detail
    ? html`<p class="muted small">detail: ${vis(e.detail)}</p>` : nothing}${canFail}</div>`;
  return attr === "validationError"
    ? html`<li class="verr" data-validation-error=${e.name} data-n=${n} data-failed-with=${String(failed)}><span class="err-n" aria-hidden="true">${String(n)}</span>${body}</li>`
    : html`<li class="verr" data-base-validation-error=${e.name} data-n=${n} data-failed-with=${String(failed)}><span class="err-n" aria-hidden="true">${String(n)}</span>${body}</li>`;
}

/** Where the parse failed, and whether that step raised a validation error (a template). */
function failureNote(result) {
  const f = result.failure;
  if (result.ok || !f) return nothing;
  const errors = (f.in === "base" ? result.base_validation_errors : result.validation_errors) || [];
  const cause = f.cause;
  const where = cause
    ? specLink(cause.anchor, cause.step ? `${cause.algorithm}, step ${cause.step}` : cause.algorithm, { cls: "spec fail-step", step: cause.step ?? "" })
    : html`<span>${vis(f.reason || "an unknown step")}</span>`;
  const whose = f.in === "base" ? "The base’s parse" : "The parse";
  const failedWith = errors.find((e) => e.failed_with === true);
  const words = failedWith || f.error
    ? html`${whose} failed at ${where}, with the ${(failedWith || f.error)?.name ?? ""} validation error that step raises (marked "failure" below)`
    : html`${whose} failed at ${where}, a step that raises no validation error`;
  return html`<p class="note verr-failure" id="validation-failure" data-in=${f.in} data-raises=${String(!!(failedWith || f.error))}>${words}.</p>`;
}

// A long input can have tens of thousands of validation errors (one per stray "%"): the list
// (and the numbered badges in the input) show the first MAX_ERRORS, and say so.
export const MAX_ERRORS = 100;

const NO_ERRORS = html`<p class="muted">No validation errors: the parser had nothing to complain about.</p>`;
const ABOUT = html`<p class="muted small">Validation errors never change the result by themselves; "failure" marks the error raised by the step that returned failure, when that step raises one. ${specLink("validation-error", "About validation errors")}</p>`;

export function renderValidation(target, result) {
  const errors = result.validation_errors || [];
  const errorCount = Math.max(errors.length, result.validation_errors_total ?? 0);
  const total = codePoints(result.input).length;
  const shown = Math.min(total, MAX_CELLS);
  // What each code point's cell gets: underlined where an error is (every error with a position
  // shown), and the number and name of each of the first MAX_ERRORS errors there.
  const marks = new Map();
  const mark = (i) => {
    let m = marks.get(i);
    if (!m) marks.set(i, m = { cls: null, title: null, sup: [] });
    return m;
  };
  for (const e of errors) if (typeof e.index === "number" && e.index < shown) mark(e.index).cls = "verr-mark";
  const last = shown === total ? total : shown - 1; // the EOF cell, else the last one shown
  errors.slice(0, MAX_ERRORS).forEach((e, k) => {
    if (typeof e.index === "number" && (e.index < shown || shown === total) && last >= 0) {
      const m = mark(Math.min(e.index, last));
      m.cls = "verr-mark";
      m.title = (m.title ? m.title + "; " : "") + e.name;
      m.sup.push(html`<sup class="err-n" aria-hidden="true">${String(k + 1)}</sup>`);
    }
  });
  const { cells } = codeCells(result.input, result.spans, { end: true, mark: (i) => marks.get(i) ?? null });
  const v = result.valid;
  const writing = v && !v.valid
    ? html`<p class="note">Writing: ${v.production ? html`<strong>${v.production}</strong>` : nothing}${v.index !== null && v.index !== undefined ? ` (at index ${v.index})` : ""}${v.reason ? [": ", vis(v.reason)] : nothing}</p>`
    : nothing;
  const list = errors.length
    ? html`<ol class="verrs" id="validation-errors">${errors.slice(0, MAX_ERRORS).map((e, k) => errorItem(e, k + 1, "validationError"))}</ol>`
    : NO_ERRORS;
  const more = errorCount > MAX_ERRORS
    ? html`<p class="note trunc-note" role="note" data-shown=${MAX_ERRORS} data-total=${errorCount}>${`Showing the first ${MAX_ERRORS.toLocaleString("en")} of ${errorCount.toLocaleString("en")} validation errors.`}</p>`
    : nothing;
  const be = result.base_validation_errors || [];
  const base = be.length
    ? html`<h3>Validation errors in the base</h3><ol class="verrs">${be.slice(0, MAX_ERRORS).map((e, k) => errorItem(e, k + 1, "baseValidationError"))}</ol>`
    : nothing;
  show(target, html`${verdictHtml(result)}${failureNote(result)}${writing}<div class="codeline" role="group" aria-label="The input with validation errors underlined">${cells}</div>${list}${more}${base}${ABOUT}`);
}
