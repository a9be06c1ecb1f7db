// Resolution: the base record next to the result, and where each component came from.
import { h, patch, specLink, valueToken, vis } from "../render/dom.js";
import { FIELDS, recordTable } from "./record.js";
import { failureBox } from "./components.js";

const SOURCE_LABEL = {
  input: "input", base: "base", "input+base": "input + base", none: "—",
};
const SOURCE_TITLE = {
  input: "written in the input", base: "inherited from the base URL",
  "input+base": "the base's value, changed by the input", none: "not set by either",
};

function provenanceCells(entry) {
  if (!entry) return [h("td", { class: "muted" }, "—"), h("td", { class: "muted" }, "—")];
  const src = String(entry.source || "none");
  const srcCell = h("td", { data: { source: src } },
    h("span", { class: ["src", "src-" + src.replace(/[^a-z]/g, "")], title: SOURCE_TITLE[src] || src }, SOURCE_LABEL[src] || src));
  const normCell = h("td");
  const norm = Array.isArray(entry.normalised) ? entry.normalised : [];
  if (!norm.length) normCell.append(h("span", { class: "muted" }, src === "none" ? "—" : "as written"));
  else {
    normCell.append(h("ul", { class: "norm" }, norm.map((n) => h("li", null,
      vis(n.what || ""),
      n.step || n.anchor ? [" — ", specLink(n.anchor, n.step || "spec", { class: "spec" })] : null,
      typeof n.text === "string" ? h("q", { class: "spec-q", title: "the spec's words" }, vis(n.text)) : null))));
  }
  return [srcCell, normCell];
}

export function renderResolution(target, result) {
  // built apart, then patched in: only what changed is touched (dom.js patch)
  const panel = document.createDocumentFragment();
  panel.append(h("p", { class: "lede" },
    "A relative input is resolved against the base: the parser copies what the input does not say from the base record. ",
    "Each row says where the result's component came from — ",
    h("span", { class: "src src-input" }, "input"), " ", h("span", { class: "src src-base" }, "base"), " ",
    h("span", { class: "src src-inputbase" }, "input + base"),
    " — and how it was normalised on the way, with the spec step responsible."));
  if (!result.ok) panel.append(failureBox(result));
  if (result.base === null || result.base === undefined) {
    panel.append(h("p", { class: "note" }, "No base URL: everything comes from the input. Type a base above to resolve against it."));
  }
  const prov = Array.isArray(result.provenance) ? result.provenance : null;
  const byField = {};
  const ALIAS = { protocol: "scheme", hostname: "host", pathname: "path", search: "query", hash: "fragment" };
  if (prov) for (const p of prov) byField[ALIAS[p.component] || p.component] = p;
  const heads = ["source", "normalised by"];
  const table = recordTable({
    columns: [
      { label: "base record", record: result.base_record, cls: "col-base" },
      { label: "result record", record: result.record, cls: "col-result" },
    ],
    caption: "Base and result, side by side",
    extraHeads: heads,
    extra: (f) => provenanceCells(byField[f]),
  });
  panel.append(h("div", { class: "scroll-x" }, table));
  if (!prov) {
    panel.append(h("p", { class: "note" },
      "This engine's result has no provenance data (result.provenance): the source and normalisation columns stay empty."));
  } else {
    const extra = prov.filter((p) => !FIELDS.includes(ALIAS[p.component] || p.component));
    if (extra.length) {
      panel.append(h("h3", null, "Other components"), h("ul", null, extra.map((p) => h("li", null,
        h("strong", null, p.component), ": ", SOURCE_LABEL[p.source] || p.source || "", " ",
        valueToken(p.value ?? null)))));
    }
  }
  if (result.base_validation_errors && result.base_validation_errors.length) {
    panel.append(h("p", { class: "note" }, `The base itself has ${result.base_validation_errors.length} validation error(s): see Validation.`));
  }
  patch(target, panel);
}
