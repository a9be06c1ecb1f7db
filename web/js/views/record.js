// @ts-check
// URL records as tables: null vs "" vs value, path as list vs opaque string, host with its kind.
import { html, moreNote, nothing, valueToken } from "../render/templates.js";

export const FIELDS = ["scheme", "username", "password", "host", "port", "path", "query", "fragment"];

// The colour class of each record field (the same as in the coloured input and href).
export const FIELD_COMPONENT = {
  scheme: "scheme", username: "username", password: "password", host: "host", port: "port",
  path: "path", query: "query", fragment: "fragment",
};

export const MAX_SEGMENTS = 200;

export const EMPTY_RECORD = {
  scheme: "", username: "", password: "", host: null, port: null, path: [], query: null,
  fragment: null,
};

const HOST_KINDS = {
  domain: "domain", ipv4: "IPv4 address", ipv6: "IPv6 address", opaque: "opaque host",
  empty: "empty host",
};

/** A template showing one record field's value. */
export function fieldValueHtml(field, value, record = null) {
  if (field === "host") {
    if (value === null || value === undefined) return valueToken(null);
    if (typeof value === "string") return valueToken(value);
    const kind = value.kind;
    const extra = Array.isArray(value.value)
      ? html` <span class="muted small" title="the IPv6 address's eight 16-bit pieces">${"pieces [" + value.value.join(", ") + "]"}</span>`
      : typeof value.value === "number"
        ? html` <span class="muted small" title="the IPv4 address as a 32-bit number">${"= " + String(value.value)}</span>`
        : nothing;
    return html`<span class="host-val"><span class="kind" title="host kind">${HOST_KINDS[kind] || String(kind)}</span> ${valueToken(value.serialized)}${extra}</span>`;
  }
  if (field === "path") {
    const opaque = typeof value === "string" || (record && record.opaque_path);
    if (typeof value === "string") {
      return html`<span class="path-val"><span class="kind" title="an opaque path is a string">opaque</span> ${valueToken(value)}</span>`;
    }
    const segments = value || [];
    // a huge path has tens of thousands of segments: the first MAX_SEGMENTS are shown
    const items = segments.slice(0, MAX_SEGMENTS).map((seg, i) => i ? [COMMA, valueToken(seg)] : valueToken(seg));
    const more = segments.length > MAX_SEGMENTS ? [", ", moreNote(segments.length - MAX_SEGMENTS, "segments")] : nothing;
    const list = html`<span class="path-list" title="a path that is a list of segments">[${items}${more}]</span>`;
    return opaque ? html`<span><span class="kind">opaque</span> ${list}</span>` : list;
  }
  if (field === "port") return valueToken(value ?? null);
  return valueToken(value ?? (field === "scheme" || field === "username" || field === "password" ? "" : null));
}

const COMMA = html`<span class="q">, </span>`;
const DASH = html`<span class="muted">—</span>`;

export function same(a, b) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** A table of one or more records side by side (a template).
 *  columns: [{label, record, cls, step}] (step: the ran step the column is the record after),
 *  highlight: Set of fields, extra: fn(field) -> [cells] */
export function recordTableHtml({ columns, highlight = null, extra = null, extraHeads = [], caption = null,
  dataField = true, only = null }) {
  const head = html`<thead><tr><th scope="col">field</th>${columns.map((c) =>
    html`<th scope="col" class=${c.cls || nothing} data-after-step=${c.step ?? nothing}>${c.label}</th>`)}${extraHeads.map((x) =>
    html`<th scope="col">${x}</th>`)}</tr></thead>`;
  const rows = FIELDS.filter((f) => !only || only.has(f)).map((f) => {
    const cells = columns.map((c) => html`<td class=${c.cls || nothing} data-after-step=${c.step ?? nothing}>${c.record === null || c.record === undefined
      ? DASH : fieldValueHtml(f, c.record[f], c.record)}</td>`);
    return html`<tr class=${highlight && highlight.has(f) ? "changed" : nothing} data-field=${dataField ? f : nothing}><th scope="row"><span class=${"swatch k-" + FIELD_COMPONENT[f]}></span>${f}</th>${cells}${extra ? extra(f) : nothing}</tr>`;
  });
  return html`<table class="record">${caption ? html`<caption>${caption}</caption>` : nothing}${head}<tbody>${rows}</tbody></table>`;
}

/** Apply a trace step's changes (JSON form) to a plain record copy. */
export function applyChanges(record, changes) {
  const out = { ...record };
  for (const [k, v] of Object.entries(changes || {})) {
    if (k in out || FIELDS.includes(k)) out[k] = v;
  }
  return out;
}
