// Components: the 11 getters and the URL record.
import { errorAnchor, h, hrefPieces, patch, setValue, specLink, valueToken, vis } from "../render/dom.js";
import { recordTable } from "./record.js";
import { citationQuote } from "./spectext.js";
import { GETTERS } from "../facts.js";

// Which colour a getter's value takes (href is drawn piece by piece from href_spans).
export const GETTER_COMPONENT = {
  protocol: "scheme", username: "username", password: "password", host: "host", hostname: "host",
  port: "port", pathname: "path", search: "query", hash: "fragment", origin: "origin",
};

/** Failure as a place: which algorithm and step returned failure, at which index, in the
 *  spec's words; the validation error that step raises (if any) and, separately, the ones
 *  raised on the way. */
export function failureBox(result) {
  const f = result.failure || {};
  const err = f.error;
  const cause = f.cause;
  const raised = Array.isArray(f.raised) ? f.raised.filter((n) => !err || n !== err.name) : [];
  const via = Array.isArray(f.via) && f.via.length
    ? h("p", { class: "small" }, "Passed on by ", f.via.map((c, j) => [j ? ", " : null,
      specLink(c.anchor, c.step ? `${c.algorithm}, step ${c.step}` : c.algorithm, { class: "spec" })]), ".")
    : null;
  return h("div", { class: "failure", role: "status", id: "failure-box",
    data: cause ? { failAlgorithm: cause.algorithm, failStep: cause.step ?? "" } : {} },
    h("strong", null, f.in === "base" ? "The base URL fails to parse" : "Failure"),
    ": new URL() would throw a TypeError. ",
    cause ? [specLink(cause.anchor, cause.step ? `${cause.algorithm}, step ${cause.step}` : cause.algorithm, { class: "spec" }),
      " returned failure", f.index !== null && f.index !== undefined ? ` at index ${f.index}` : "",
      f.note ? [" (", vis(f.note), ")"] : null, "."] : vis(f.reason || ""),
    err ? [" It raises ", specLink(errorAnchor(err.name), err.name, { class: "spec err-link" }), "."] : null,
    cause ? citationQuote(cause) : null,
    via,
    raised.length ? h("p", { class: "small" }, "Validation errors raised on the way: ",
      raised.map((n, j) => [j ? ", " : null, specLink(errorAnchor(n), n, { class: "spec err-link" })])) : null);
}

export function renderComponents(panel, result) {
  const ok = result.ok;
  const getters = result.getters || {};
  const tbody = h("tbody");
  for (const g of GETTERS) {
    const val = h("code", { class: ["val", g === "href" ? null : "k-" + GETTER_COMPONENT[g]], data: { getter: g } });
    if (ok) {
      if (g === "href" && Array.isArray(result.href_spans)) {
        val.replaceChildren(hrefPieces(result.href_spans));
        val.dataset.value = getters.href;
      } else setValue(val, getters[g]);
    } else delete val.dataset.value;
    tbody.append(h("tr", { data: { row: g } },
      h("th", { scope: "row" }, specLink("dom-url-" + g, "url." + g, { class: "spec getter-name" })),
      h("td", null, val,
        g === "hostname" && ok && result.hostname_unicode && result.hostname_unicode !== getters.hostname
          ? h("span", { class: "aside" }, "Unicode: ", vis(result.hostname_unicode)) : null,
        g === "origin" && ok && result.origin && result.origin.kind === "opaque"
          ? h("span", { class: "aside" }, "opaque origin") : null)));
  }
  const gettersTable = h("table", { class: "getters" }, h("caption", null, "Getters (what new URL() returns)"), tbody);

  const recordSection = ok
    ? recordTable({ columns: [{ label: "value", record: result.record }], caption: "The URL record" })
    : h("p", { class: "muted" }, "No URL record: the parser returned failure.");

  const origin = ok && result.origin ? h("dl", { class: "kv origin" },
    h("dt", null, specLink("concept-url-origin", "origin")),
    h("dd", null, result.origin.kind === "opaque" ? h("span", { class: "kind" }, "opaque origin")
      : [h("span", { class: "kind" }, "tuple origin"), " (", valueToken(result.origin.scheme), ", ",
        valueToken(result.origin.host), ", ", valueToken(result.origin.port), ")"])) : null;

  patch(panel,
    ok ? null : failureBox(result),
    h("div", { class: "two-col" },
      h("div", { class: "scroll-x" }, gettersTable),
      h("div", null, h("div", { class: "scroll-x" }, recordSection), origin)));
}
