// Validation: the named validation errors, underlined in the input, and the valid-URL-string verdict.
import { append, codePointCells, errorAnchor, h, patch, specLink, vis } from "../render/dom.js";
import { algorithm, quote } from "./spectext.js";

export function verdict(result) {
  const v = result.valid;
  const parses = result.ok;
  const box = h("div", { class: "verdict", id: "verdict" });
  box.append(h("span", { class: ["pill", parses ? "ok" : "bad"], data: { parses: String(parses) } },
    parses ? "✓ parses" : "✗ fails to parse"));
  if (v && typeof v === "object") {
    box.append(h("span", { class: ["pill", v.valid ? "ok" : "bad"], data: { valid: String(!!v.valid) } },
      v.valid ? "✓ valid URL string" : "✗ not a valid URL string"));
  }
  const n = result.validation_errors_total ?? (result.validation_errors || []).length;
  box.append(h("span", { class: ["pill", n ? "warn" : "ok"] }, n === 1 ? "1 validation error" : `${n} validation errors`));
  return box;
}

function errorItem(e, n, attr) {
  return h("li", { class: "verr", data: { [attr]: e.name, n } },
    h("span", { class: "err-n", "aria-hidden": "true" }, String(n)),
    h("div", null,
      h("div", { class: "verr-head" },
        specLink(errorAnchor(e.name), e.name, { class: "spec err-name" }),
        e.index !== null && e.index !== undefined ? h("span", { class: "pill" }, "index " + e.index) : h("span", { class: "pill" }, "no position"),
        e.algorithm
          ? specLink(algorithm(e.algorithm)?.anchor, e.step ? `${e.algorithm}, step ${e.step}` : e.algorithm, { class: "spec small err-step", data: { specStep: e.step ?? "" } })
          : e.state ? h("span", { class: "muted small" }, e.state) : null,
        e.failure ? h("span", { class: ["pill", String(e.failure).startsWith("yes") ? "bad" : "ok"], title: "Does this error make the parser fail? " + e.failure },
          String(e.failure).startsWith("yes") ? "failure" : "not a failure") : null),
      h("p", { class: "desc" }, vis(e.description || "")),
      e.algorithm && e.step ? quote(e.algorithm, e.step) : null,
      e.detail ? h("p", { class: "muted small" }, "detail: ", vis(e.detail)) : null));
}

// A long input can have tens of thousands of validation errors (one per stray "%"): the list
// (and the numbered badges in the input) show the first MAX_ERRORS, and say so.
export const MAX_ERRORS = 100;

export function renderValidation(target, result) {
  // built apart, then patched in: only what changed is touched (dom.js patch)
  const panel = document.createDocumentFragment();
  const errors = result.validation_errors || [];
  const errorCount = Math.max(errors.length, result.validation_errors_total ?? 0);
  const marks = new Map();
  errors.forEach((e, k) => {
    if (typeof e.index === "number") {
      const cls = marks.get(e.index) || ["verr-mark"];
      marks.set(e.index, cls);
    }
  });
  const { frag, cells, shown, total } = codePointCells(result.input, result.spans, { end: true, marks });
  // number badges on the underlined code points (those shown: a long input is shown in part)
  errors.slice(0, MAX_ERRORS).forEach((e, k) => {
    if (typeof e.index === "number" && (e.index < shown || shown === total)) {
      const cell = cells[Math.min(e.index, cells.length - 1)];
      if (cell) {
        cell.classList.add("verr-mark");
        cell.title = (cell.title ? cell.title + "; " : "") + e.name;
        cell.append(h("sup", { class: "err-n", "aria-hidden": "true" }, String(k + 1)));
      }
    }
  });
  const v = result.valid;
  append(panel, [
    verdict(result),
    v && !v.valid ? h("p", { class: "note" }, "Writing: ", v.production ? h("strong", null, v.production) : null,
      v.index !== null && v.index !== undefined ? ` (at index ${v.index})` : "", v.reason ? [": ", vis(v.reason)] : null) : null,
    h("div", { class: "codeline", "aria-label": "The input with validation errors underlined" }, frag),
    errors.length
      ? h("ol", { class: "verrs", id: "validation-errors" }, errors.slice(0, MAX_ERRORS).map((e, k) => errorItem(e, k + 1, "validationError")))
      : h("p", { class: "muted" }, "No validation errors: the parser had nothing to complain about."),
    errorCount > MAX_ERRORS ? h("p", { class: "note trunc-note", role: "note", data: { shown: MAX_ERRORS, total: errorCount } },
      `Showing the first ${MAX_ERRORS.toLocaleString("en")} of ${errorCount.toLocaleString("en")} validation errors.`) : null]);
  const be = result.base_validation_errors || [];
  if (be.length) {
    panel.append(h("h3", null, "Validation errors in the base"),
      h("ol", { class: "verrs" }, be.slice(0, MAX_ERRORS).map((e, k) => errorItem(e, k + 1, "baseValidationError"))));
  }
  panel.append(h("p", { class: "muted small" },
    "Validation errors never change the result by themselves; the ones marked \"failure\" are those the parser fails with. ",
    specLink("validation-error", "About validation errors")));
  patch(target, panel);
}
