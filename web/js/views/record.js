// URL records as tables: null vs "" vs value, path as list vs opaque string, host with its kind.
import { h, moreNote, valueToken } from "../render/dom.js";

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

/** A node showing one record field's value. */
export function fieldValue(field, value, record = null) {
  if (field === "host") {
    if (value === null || value === undefined) return valueToken(null);
    if (typeof value === "string") return valueToken(value);
    const kind = value.kind;
    const wrap = h("span", { class: "host-val" },
      h("span", { class: "kind", title: "host kind" }, HOST_KINDS[kind] || String(kind)), " ",
      valueToken(value.serialized));
    if (Array.isArray(value.value)) {
      wrap.append(" ", h("span", { class: "muted small", title: "the IPv6 address's eight 16-bit pieces" },
        "pieces [" + value.value.join(", ") + "]"));
    } else if (typeof value.value === "number") {
      wrap.append(" ", h("span", { class: "muted small", title: "the IPv4 address as a 32-bit number" },
        "= " + String(value.value)));
    }
    return wrap;
  }
  if (field === "path") {
    const opaque = typeof value === "string" || (record && record.opaque_path);
    if (typeof value === "string") {
      return h("span", { class: "path-val" }, h("span", { class: "kind", title: "an opaque path is a string" }, "opaque"),
        " ", valueToken(value));
    }
    const list = h("span", { class: "path-list", title: "a path that is a list of segments" }, "[");
    const segments = value || [];
    // a huge path has tens of thousands of segments: the first MAX_SEGMENTS are shown
    segments.slice(0, MAX_SEGMENTS).forEach((seg, i) => {
      if (i) list.append(h("span", { class: "q" }, ", "));
      list.append(valueToken(seg));
    });
    if (segments.length > MAX_SEGMENTS) list.append(", ", moreNote(segments.length - MAX_SEGMENTS, "segments"));
    list.append("]");
    return opaque ? h("span", null, h("span", { class: "kind" }, "opaque"), " ", list) : list;
  }
  if (field === "port") return valueToken(value ?? null);
  return valueToken(value ?? (field === "scheme" || field === "username" || field === "password" ? "" : null));
}

export function same(a, b) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** A table of one or more records side by side.
 *  columns: [{label, record, cls}], highlight: Set of fields, extra: fn(field) -> [cells] */
export function recordTable({ columns, highlight = null, extra = null, extraHeads = [], caption = null,
  dataField = true, only = null }) {
  const thead = h("thead", null, h("tr", null, h("th", { scope: "col" }, "field"),
    columns.map((c) => h("th", { scope: "col", class: c.cls || null }, c.label)),
    extraHeads.map((x) => h("th", { scope: "col" }, x))));
  const tbody = h("tbody");
  for (const f of FIELDS) {
    if (only && !only.has(f)) continue;
    const tr = h("tr", { class: [highlight && highlight.has(f) ? "changed" : null], data: dataField ? { field: f } : {} },
      h("th", { scope: "row" }, h("span", { class: "swatch k-" + FIELD_COMPONENT[f] }), f));
    for (const c of columns) {
      const cell = h("td", { class: c.cls || null });
      if (c.record === null || c.record === undefined) cell.append(h("span", { class: "muted" }, "—"));
      else cell.append(fieldValue(f, c.record[f], c.record));
      tr.append(cell);
    }
    if (extra) for (const x of extra(f)) tr.append(x);
    tbody.append(tr);
  }
  return h("table", { class: "record" }, caption ? h("caption", null, caption) : null, thead, tbody);
}

/** Apply a trace step's changes (JSON form) to a plain record copy. */
export function applyChanges(record, changes) {
  const out = { ...record };
  for (const [k, v] of Object.entries(changes || {})) {
    if (k in out || FIELDS.includes(k)) out[k] = v;
  }
  return out;
}
