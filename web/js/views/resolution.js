// @ts-check
// Resolution: the base record next to the result, and where each component came from.
import { html, nothing, show, specLink, valueToken, vis } from "../render/templates.js";
import { FIELDS, recordTableHtml } from "./record.js";
import { failureBoxHtml } from "./components.js";

const SOURCE_LABEL = {
  input: "input", base: "base", "input+base": "input + base", none: "—",
};
const SOURCE_TITLE = {
  input: "written in the input", base: "inherited from the base URL",
  "input+base": "the base's value, changed by the input", none: "not set by either",
};

const DASH_CELL = html`<td class="muted">—</td>`;

function provenanceCells(entry) {
  if (!entry) return [DASH_CELL, DASH_CELL];
  const src = String(entry.source || "none");
  const srcCell = html`<td data-source=${src}><span class=${"src src-" + src.replace(/[^a-z]/g, "")} title=${SOURCE_TITLE[src] || src}>${SOURCE_LABEL[src] || src}</span></td>`;
  const norm = Array.isArray(entry.normalised) ? entry.normalised : [];
  const normCell = !norm.length
    ? html`<td><span class="muted">${src === "none" ? "—" : "as written"}</span></td>`
    : html`<td><ul class="norm">${norm.map((n) => html`<li>${vis(n.what || "")}${n.step || n.anchor
      ? [" — ", specLink(n.anchor, n.step || "spec")] : nothing}${typeof n.text === "string"
      ? html`<q class="spec-q" title="the spec's words">${vis(n.text)}</q>` : nothing}</li>`)}</ul></td>`;
  return [srcCell, normCell];
}

const LEDE = html`<p class="lede">A relative input is resolved against the base: the parser copies what the input does not say from the base record. Each row says where the result's component came from — <span class="src src-input">input</span> <span class="src src-base">base</span> <span class="src src-inputbase">input + base</span> — and how it was normalised on the way, with the spec step responsible.</p>`;
const NO_BASE = html`<p class="note">No base URL: everything comes from the input. Type a base above to resolve against it.</p>`;
const NO_PROVENANCE = html`<p class="note">This engine's result has no provenance data (result.provenance): the source and normalisation columns stay empty.</p>`;
const ALIAS = { protocol: "scheme", hostname: "host", pathname: "path", search: "query", hash: "fragment" };

export function renderResolution(target, result) {
  const prov = Array.isArray(result.provenance) ? result.provenance : null;
  const byField = {};
  if (prov) for (const p of prov) byField[ALIAS[p.component] || p.component] = p;
  const table = recordTableHtml({
    columns: [
      { label: "base record", record: result.base_record, cls: "col-base" },
      { label: "result record", record: result.record, cls: "col-result" },
    ],
    caption: "Base and result, side by side",
    extraHeads: ["source", "normalised by"],
    extra: (f) => provenanceCells(byField[f]),
  });
  /** @type {unknown} */
  let others = nothing;
  if (!prov) others = NO_PROVENANCE;
  else {
    const extra = prov.filter((p) => !FIELDS.includes(ALIAS[p.component] || p.component));
    if (extra.length) {
      others = html`<h3>Other components</h3><ul>${extra.map((p) => html`<li><strong>${p.component}</strong>: ${SOURCE_LABEL[p.source] || p.source || ""} ${valueToken(p.value ?? null)}</li>`)}</ul>`;
    }
  }
  const be = result.base_validation_errors;
  show(target, html`${LEDE}${result.ok ? nothing : failureBoxHtml(result)}${result.base === null || result.base === undefined ? NO_BASE : nothing}<div class="scroll-x">${table}</div>${others}${be && be.length
    ? html`<p class="note">${`The base itself has ${be.length} validation error(s): see Validation.`}</p>` : nothing}`);
}
