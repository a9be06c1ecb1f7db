// @ts-check
// Components: the 11 getters and the URL record.
import { errorAnchor } from "../render/dom.js";
import { hrefPieces, html, nothing, show, specLink, valueToken, vis } from "../render/templates.js";
import { recordTableHtml } from "./record.js";
import { citationQuoteHtml } from "./spectext.js";
import { GETTERS } from "../facts.js";

// Which colour a getter's value takes (href is drawn piece by piece from href_spans).
export const GETTER_COMPONENT = {
  protocol: "scheme", username: "username", password: "password", host: "host", hostname: "host",
  port: "port", pathname: "path", search: "query", hash: "fragment", origin: "origin",
};

/** Failure as a place: which algorithm and step returned failure, at which index, in the
 *  spec's words; the validation error that step raises (if any) and, separately, the ones
 *  raised on the way. A template. */
export function failureBoxHtml(result) {
  const f = result.failure || {};
  const err = f.error;
  const cause = f.cause;
  const raised = Array.isArray(f.raised) ? f.raised.filter((n) => !err || n !== err.name) : [];
  const via = Array.isArray(f.via) && f.via.length
    ? html`<p class="small">Passed on by ${f.via.map((c, j) => [j ? ", " : nothing,
      specLink(c.anchor, c.step ? `${c.algorithm}, step ${c.step}` : c.algorithm)])}.</p>`
    : nothing;
  const where = cause
    ? [specLink(cause.anchor, cause.step ? `${cause.algorithm}, step ${cause.step}` : cause.algorithm),
      " returned failure", f.index !== null && f.index !== undefined ? ` at index ${f.index}` : "",
      f.note ? [" (", vis(f.note), ")"] : nothing, "."]
    : vis(f.reason || "");
  const raises = err ? [" It raises ", specLink(errorAnchor(err.name), err.name, { cls: "spec err-link" }), "."] : nothing;
  const onTheWay = raised.length
    ? html`<p class="small">Validation errors raised on the way: ${raised.map((n, j) => [j ? ", " : nothing,
      specLink(errorAnchor(n), n, { cls: "spec err-link" })])}</p>`
    : nothing;
  return html`<div class="failure" role="status" id="failure-box" data-fail-algorithm=${cause ? cause.algorithm : nothing} data-fail-step=${cause ? cause.step ?? "" : nothing}><strong>${f.in === "base" ? "The base URL fails to parse" : "Failure"}</strong>: new URL() would throw a TypeError. ${where}${raises}${cause ? citationQuoteHtml(cause) ?? nothing : nothing}${via}${onTheWay}</div>`;
}

const OPAQUE_ASIDE = html`<span class="aside">opaque origin</span>`;
const GETTERS_CAPTION = html`<caption>Getters (what new URL() returns)</caption>`;

function getterRow(g, result) {
  const ok = result.ok;
  const getters = result.getters || {};
  const cls = g === "href" ? "val" : "val k-" + GETTER_COMPONENT[g];
  /** @type {string | typeof nothing} */
  let value = nothing;
  /** @type {unknown} */
  let shown = nothing;
  if (ok) {
    if (g === "href" && Array.isArray(result.href_spans)) {
      shown = hrefPieces(result.href_spans);
      value = getters.href ?? nothing;
    } else {
      shown = vis(getters[g]);
      value = getters[g] === null || getters[g] === undefined ? nothing : String(getters[g]);
    }
  }
  const aside = g === "hostname" && ok && result.hostname_unicode && result.hostname_unicode !== getters.hostname
    ? html`<span class="aside">Unicode: ${vis(result.hostname_unicode)}</span>`
    : g === "origin" && ok && result.origin && result.origin.kind === "opaque" ? OPAQUE_ASIDE : nothing;
  return html`<tr data-row=${g}><th scope="row">${specLink("dom-url-" + g, "url." + g, { cls: "spec getter-name" })}</th><td><code class=${cls} data-getter=${g} data-value=${value}>${shown}</code>${aside}</td></tr>`;
}

export function renderComponents(panel, result) {
  const ok = result.ok;
  const gettersTable = html`<table class="getters">${GETTERS_CAPTION}<tbody>${GETTERS.map((g) => getterRow(g, result))}</tbody></table>`;

  const recordSection = ok
    ? recordTableHtml({ columns: [{ label: "value", record: result.record }], caption: "The URL record" })
    : html`<p class="muted">No URL record: the parser returned failure.</p>`;

  const o = result.origin;
  const origin = ok && o ? html`<dl class="kv origin"><dt>${specLink("concept-url-origin", "origin")}</dt><dd>${o.kind === "opaque"
    ? html`<span class="kind">opaque origin</span>`
    : html`<span class="kind">tuple origin</span> (${valueToken(o.scheme)}, ${valueToken(o.host)}, ${valueToken(o.port)})`}</dd></dl>` : nothing;

  show(panel, html`${ok ? nothing : failureBoxHtml(result)}<div class="two-col"><div class="scroll-x">${gettersTable}</div><div><div class="scroll-x">${recordSection}</div>${origin}</div></div><section class="in-wpt" id="in-wpt" aria-label="Is this in WPT?"></section>`);
}
