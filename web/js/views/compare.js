// Browser comparison: this browser's own new URL(input, base) next to urlcalc's result.
import { clear, h, setValue, vis } from "./dom.js";
import { GETTERS } from "./components.js";

/** The browser's native URL parser (the only URL computation done in JavaScript). */
export function nativeGetters(input, base) {
  try {
    const u = base === null || base === undefined ? new URL(input) : new URL(input, base);
    const out = {};
    for (const g of GETTERS) out[g] = u[g];
    return { ok: true, getters: out };
  } catch (e) {
    return { ok: false, error: `${e && e.name ? e.name : "Error"}: ${e && e.message ? e.message : String(e)}` };
  }
}

export function browserName() {
  const m = navigator.userAgent.match(/(Chrome|Chromium|Firefox|Version)\/(\d+)/);
  if (!m) return "this browser";
  const name = m[1] === "Version" ? "Safari" : m[1];
  return `${name} ${m[2]}`;
}

export function renderCompare(panel, result, state) {
  clear(panel);
  const nat = nativeGetters(state.input, state.base || null);
  const py = result;
  const who = browserName();
  let mismatches = 0;
  const tbody = h("tbody");
  const statusMismatch = py.ok !== nat.ok;
  if (statusMismatch) mismatches += 1;
  tbody.append(h("tr", { class: statusMismatch ? "mismatch" : "match", data: { compare: "status" } },
    h("th", { scope: "row" }, "result"),
    h("td", null, py.ok ? "success" : h("span", { class: "bad-text" }, "failure (TypeError)")),
    h("td", null, nat.ok ? "success" : h("span", { class: "bad-text" }, vis(nat.error))),
    h("td", { class: "verdict-cell" }, statusMismatch ? "≠ failure vs success" : "=")));
  for (const g of GETTERS) {
    const a = py.ok ? py.getters[g] : null;
    const b = nat.ok ? nat.getters[g] : null;
    const both = py.ok && nat.ok;
    const differ = both && a !== b;
    if (differ) mismatches += 1;
    const pyCell = h("code", { class: "val" });
    const natCell = h("code", { class: "val", data: { nativeGetter: g } });
    if (py.ok) setValue(pyCell, a);
    if (nat.ok) setValue(natCell, b);
    tbody.append(h("tr", { class: differ ? "mismatch" : both ? "match" : "na", data: { compare: g } },
      h("th", { scope: "row" }, g),
      h("td", null, pyCell),
      h("td", null, natCell),
      h("td", { class: "verdict-cell" }, differ ? "≠" : both ? "=" : "")));
  }
  const summary = h("p", {
    class: ["compare-summary", mismatches ? "bad" : "ok"], id: "compare-summary",
    data: { mismatches, status: mismatches ? "mismatch" : "agree" }, role: "status",
  }, mismatches
    ? `${who} disagrees with the URL Standard (as computed by urlcalc) on ${statusMismatch ? "whether this parses at all" : mismatches === 1 ? "1 getter" : mismatches + " getters"}.`
    : `${who} agrees with the URL Standard on this input.`);
  panel.append(
    h("p", { class: "lede" }, "The page runs this browser's own ",
      h("code", null, state.base ? "new URL(input, base)" : "new URL(input)"),
      " and lines it up with urlcalc's answer. Browsers still deviate from the standard in places; differences are red."),
    summary,
    h("div", { class: "scroll-x" }, h("table", { class: "compare" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "getter"), h("th", { scope: "col" }, "URL Standard (urlcalc)"),
        h("th", { scope: "col" }, who + " (new URL)"), h("th", { scope: "col" }, h("span", { class: "sr-only" }, "match")))),
      tbody)),
    h("p", { class: "muted small" }, "User agent: ", vis(navigator.userAgent)));
}
