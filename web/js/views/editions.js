// Editions: the same input read by six URL specifications, side by side with the current
// URL Standard (issue 4). Renders the "compare" result model (urlcalc.editions.view.compare_model); the
// random URL button asks the engine for urlcalc.editions.view.random_model. No URL logic here.
import { AskingView } from "./asking-view.js";
import { compareRequest } from "./requests.js";
import { Memo, OffscreenParts, append, clear, fill, h, patch, valueToken, vis } from "../render/dom.js";
import { GETTERS } from "../facts.js";

export const CURRENT = "current";
const STATUS_LABEL = { ok: "reads it", failure: "rejects it", unspecified: "unspecified", "not run": "not run" };
const STATUS_PILL = { ok: "ok", failure: "bad", unspecified: "warn", "not run": "warn" };
/** Whose rule a difference line names (the edition's needs no label). */
const KIND_LABEL = { unspecified: "urlcalc's choice", mapping: "urlcalc's mapping" };
const KIND_TITLE = {
  unspecified: "The edition's text is silent here: this is what urlcalc chose to go on, not the edition's rule",
  mapping: "How urlcalc maps the edition's components onto this getter, not a rule of the edition",
};
// What each edition's trace holds, in its own terms (the model's trace is a list of steps).
const TRACE_CAPTION = {
  rfc3986: "5.2 resolution: 5.2.2, the 5.2.3 merge and every pass of the 5.2.4 remove_dot_segments loop",
  html5_2009: "the parse and resolve algorithms, step by step (RFC 3986 5.2 inside)",
  abarth_2010: "the draft's parsing steps (sections 3 and 4)",
  w3c_2012: "the 2012 state machine: state, pointer, c, buffer and the action taken",
  whatwg_2014: "the railroad productions that matched (the parse tree)",
  formal_model: "the model's operations (ord, upto, goto, force, normalisation equations)",
};

/** "4.2" -> "§ 4.2"; a named part of the text ("resolve: path") is quoted. */
export function sectionText(section) {
  if (!section) return "";
  return /^\d/.test(section) ? "§ " + section : "“" + section + "”";
}

function shortName(ed) {
  return String(ed.name).includes(String(ed.year)) ? ed.name : `${ed.name}, ${ed.year}`;
}

/** The edition's term for a key ("parse exceptions" is the term "parse exception"), or "". */
function termDef(key, terms) {
  return terms[key] || (key.endsWith("s") && terms[key.slice(0, -1)]) || "";
}

const termPatterns = new WeakMap();
/** Text with the edition's own terms marked (<dfn> with the edition's definition as its title). */
export function termText(text, terms) {
  text = String(text ?? "");
  if (!terms || !Object.keys(terms).length) return vis(text);
  let re = termPatterns.get(terms);
  if (!re) {
    const names = Object.keys(terms).filter((t) => !t.includes(" / ")).sort((a, b) => b.length - a.length)
      .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    re = new RegExp("(?<![\\p{L}\\p{N}_-])(" + names.join("|") + ")(?![\\p{L}\\p{N}_-])", "gu");
    termPatterns.set(terms, re);
  }
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) frag.append(vis(text.slice(last, m.index)));
    frag.append(h("dfn", { class: "ed-term", title: terms[m[1]] }, vis(m[1])));
    last = m.index + m[1].length;
  }
  if (last < text.length) frag.append(vis(text.slice(last)));
  return frag;
}

/** Any JSON value from an edition's components, in the edition's own vocabulary. */
export function jsonNode(value, terms = {}, depth = 0) {
  if (value === null || value === undefined || typeof value !== "object") return valueToken(value ?? null);
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", { class: "ed-list" }, "[", value.map((v, i) => [i ? ", " : "", valueToken(v)]), "]");
    }
    return h("ol", { class: "json-list", start: "0" }, value.map((v) => h("li", null, jsonNode(v, terms, depth + 1))));
  }
  const dl = h("dl", { class: ["kv", "ed-kv", depth ? "nested" : null] });
  for (const [k, v] of Object.entries(value)) dl.append(h("dt", null, termLabel(k, terms)), h("dd", null, jsonNode(v, terms, depth + 1)));
  return dl;
}

/** A key of the edition's components; when it is one of the edition's terms, marked as such. */
function termLabel(key, terms) {
  const def = termDef(key, terms);
  if (!def) return vis(key);
  return h("dfn", { class: "ed-term", title: def }, vis(key));
}

function traceNode(trace, clipped, terms) {
  if (!Array.isArray(trace) || !trace.length) return h("p", { class: "muted" }, "This edition records no steps for this input.");
  const out = [];
  if (trace.some((s) => s && Array.isArray(s.children))) out.push(treeNode(trace));
  else {
    const cols = [];
    for (const s of trace) for (const k of Object.keys(s || {})) if (!cols.includes(k)) cols.push(k);
    const tbody = h("tbody", null, trace.map((s, i) => h("tr", null, h("td", { class: "st-i" }, String(i + 1)),
      cols.map((k) => h("td", null, k in s ? cell(s[k], terms) : null)))));
    out.push(h("div", { class: "scroll-x" }, h("table", { class: "ed-trace" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "#"), cols.map((k) => h("th", { scope: "col" }, k)))), tbody)));
  }
  if (clipped) {
    out.push(h("p", { class: "note", role: "note" },
      `Shortened for display: ${clipped.kept} of ${clipped.steps} steps are shown, and strings longer than ${clipped.max_text} code points end in “…”.`));
  }
  return out;
}

function cell(v, terms) {
  if (typeof v === "string") return h("code", { class: "val" }, termText(v, terms));
  return jsonNode(v, terms);
}

function treeNode(nodes) {
  return h("ul", { class: "ed-tree" }, nodes.map((n) => h("li", null,
    h("span", { class: "ed-rule" }, vis(n.rule ?? "")), " ", valueToken(n.text ?? null),
    Array.isArray(n.children) && n.children.length ? treeNode(n.children) : null)));
}

/** Differences with the same edition and explanation, one line listing their getters. */
export function groupDifferences(differences) {
  const out = [];
  const byKey = new Map();
  for (const d of differences) {
    const key = JSON.stringify([d.edition, d.rule, d.section, d.text]);
    const seen = byKey.get(key);
    if (seen) seen.getters.push(d.getter);
    else {
      const line = { ...d, getters: [d.getter] };
      byKey.set(key, line);
      out.push(line);
    }
  }
  return out;
}

/** The ids of the editions that differ from the current standard on at least one getter, in
 *  the model's order (a compare model, or null). */
export function differingEditions(model) {
  if (!model) return [];
  return model.editions.filter((ed) => model.rows.some((r) => r.differs[ed.id])).map((ed) => ed.id);
}

export class EditionsView extends AskingView {
  /** @param {HTMLElement} panel
   *  @param {import("./asking-view.js").AskingContext & {setErrata: (on: boolean) => void, onRandom: (r: any) => void}} ctx */
  constructor(panel, ctx) {
    super(ctx);
    this.panel = panel;
    this.setErrata = ctx.setErrata; // (bool) -> void
    this.onRandom = ctx.onRandom; // ({input, base, edition, name, seed}) -> void
    this.model = null; // the last rendered model
    this.open = new Set(); // ids of the edition details the reader opened
    this.memo = new Memo(); // the table's rows and the differences, built once per distinct data
    this.parts = new OffscreenParts(); // the table and lists: updated when near the screen
    this.build();
  }

  build() {
    this.errata = h("input", { type: "checkbox", id: "editions-errata", "aria-describedby": "editions-errata-help" });
    this.showMapping = h("input", { type: "checkbox", id: "editions-mapping" });
    this.grammar = h("select", { id: "random-grammar", "aria-label": "Grammar for a random URL" },
      h("option", { value: "" }, "any grammar"));
    this.randomBtn = h("button", { type: "button", id: "random-url", title: "Put a random string shaped by the chosen edition's grammar in the URL field" }, "Random URL");
    this.randomInfo = h("span", { class: "muted small", id: "random-info", "aria-live": "polite" });
    this.summary = h("p", { class: "side-summary", id: "editions-summary", role: "status" }, "…");
    this.error = h("p", { class: "failure", id: "editions-error", role: "alert", hidden: true });
    this.tableWrap = h("div", { class: "scroll-x side-table-wrap", id: "editions-table-wrap", tabindex: "0", "aria-label": "Getters by edition (scrolls sideways)" });
    this.diffs = h("ol", { class: "side-diffs", id: "editions-differences" });
    this.unspec = h("ul", { class: "side-unspec", id: "editions-unspecified" });
    this.details = h("div", { class: "side-details", id: "editions-details" });
    this.parts.watch(this.tableWrap, this.diffs, this.unspec, this.details);
    clear(this.panel).append(
      h("p", { class: "lede" }, "The same input read by six URL specifications, from RFC 3986 (2005) to a formal model, and by the current URL Standard as the seventh column. ",
        "Each edition is followed as written; where its text stops (a TODO, a stub, a cut-off copy) the cell says “unspecified” rather than guess. ",
        "Getters an edition has no notion of are “—”."),
      h("div", { class: "side-controls" },
        h("label", { class: "check" }, this.errata, " read with errata"),
        h("span", { class: "help", id: "editions-errata-help" }, "fixes the slips of the 2012 draft, the 2014 grammar and the formal model (the others have none)"),
        h("label", { class: "check" }, this.showMapping, " show each getter's mapping"),
        h("span", { class: "ed-random" }, this.grammar, this.randomBtn, this.randomInfo)),
      this.error, this.summary, this.tableWrap,
      h("h3", { id: "editions-differences-h" }, "Why they differ"),
      this.diffs,
      h("h3", { id: "editions-unspecified-h" }, "Left unspecified by the editions (and what urlcalc does there)"),
      this.unspec,
      h("h3", null, "Each edition in its own terms"),
      this.details);
    this.errata.addEventListener("change", () => this.setErrata(this.errata.checked));
    this.showMapping.addEventListener("change", () => this.tableWrap.classList.toggle("show-mapping", this.showMapping.checked));
    this.randomBtn.addEventListener("click", () => this.random());
  }

  /** The comparison of the page's input (AskingView; views/requests.js).
   *  @param {import("../state/store.js").PageState} s */
  ask(s) {
    return compareRequest(s, this.open.size > 0);
  }

  /** The view is shown, or the page's state changed (AskingView).
   *  @param {import("../state/store.js").PageState} [state] */
  update(state = this.ctx.state()) {
    this.errata.checked = !!state.errata;
    super.update(state);
  }

  /** @param {import("./asking-view.js").EngineAnswer} answer */
  show(answer) {
    if (answer.error) {
      this.error.hidden = false;
      this.error.replaceChildren(vis(answer.error));
      this.summary.hidden = true;
      return;
    }
    this.error.hidden = true;
    this.summary.hidden = false;
    this.render(answer.result);
  }

  async random() {
    const params = this.grammar.value ? { edition: this.grammar.value } : {};
    this.randomBtn.disabled = true;
    const answer = await this.ctx.call("random", params);
    this.randomBtn.disabled = false;
    if (answer.error) {
      this.randomInfo.textContent = answer.error;
      return;
    }
    const r = answer.result;
    this.randomInfo.textContent = `${r.name} grammar, seed ${r.seed}` + (r.base ? " (relative: with a base)" : "");
    this.onRandom(r);
  }

  /** The differing editions of the last model: for the summary and the paper tape. */
  differing(model = this.model) {
    return differingEditions(model);
  }

  render(model) {
    this.model = model;
    const eds = model.editions;
    this.fillGrammars(eds);
    const names = Object.fromEntries(eds.map((ed) => [ed.id, shortName(ed)]));
    const terms = Object.fromEntries(eds.map((ed) => [ed.id, ed.terms || {}]));
    const differing = this.differing(model);
    const unspecified = eds.filter((ed) => ed.status === "unspecified").length;
    const cur = model.current === null
      ? `The current standard rejects this input (${model.current_failure || "failure"}). `
      : "";
    this.summary.className = "side-summary " + (differing.length ? "bad" : "ok");
    this.summary.dataset.differing = String(differing.length);
    this.summary.textContent = cur + (differing.length
      ? `${differing.length} of ${eds.length} editions differ from the current URL Standard` +
        (unspecified ? `; ${unspecified} leave${unspecified === 1 ? "s" : ""} it unspecified.` : ".")
      : `No edition differs from the current URL Standard on what it specifies` +
        (unspecified ? ` (${unspecified} leave${unspecified === 1 ? "s" : ""} it unspecified).` : "."));
    if (model.errata) this.summary.append(" Read with errata.");

    // patched, not rebuilt: a keystroke changes a few cells (dom.js patch); now where they are
    // on screen, else in the next idle moment (dom.js OffscreenParts)
    this.parts.update(this.tableWrap, () => patch(this.tableWrap, this.table(model)));
    this.parts.update(this.diffs, () => this.renderDifferences(model, names, terms));
    this.parts.update(this.unspec, () => patch(this.unspec, model.unspecified.length
      ? model.unspecified.map((u) => h("li", { data: { edition: u.edition } }, h("strong", null, names[u.edition] || u.edition), ": ", vis(u.text)))
      : h("li", { class: "muted" }, "Nothing: this input stays within what every edition specifies.")));
    this.parts.update(this.details, () => this.renderDetails(model));
  }

  renderDifferences(model, names, terms) {
    // each item built once for its data (an edition's name and terms are fixed)
    const diffs = groupDifferences(model.differences).map((d) => this.memo.node(JSON.stringify(["diff", d]), () => h("li", {
      data: { edition: d.edition, getters: d.getters.join(" "), rule: d.rule, section: d.section || "", kind: d.kind || "rule" },
    }, h("strong", null, names[d.edition] || d.edition), " · ",
    d.getters.map((g, i) => [i ? ", " : "", h("code", null, g)]), ": ",
    h("span", { class: "ed-rule" }, termText(d.rule, terms[d.edition])),
    d.section ? [" ", h("span", { class: "ed-sec" }, "(", sectionText(d.section), ")")] : null,
    KIND_LABEL[d.kind] ? [" ", h("span", { class: "pill warn", title: KIND_TITLE[d.kind] }, KIND_LABEL[d.kind])] : null,
    " — ", termText(d.text, terms[d.edition]),
    d.quote ? h("span", { class: "muted small ed-quote" }, " The edition's words there: ", h("q", null, vis(d.quote))) : null)));
    patch(this.diffs, model.differences.length ? diffs
      : h("li", { class: "muted" }, "No differences: every edition that decides a getter agrees with the current standard."));
  }

  fillGrammars(eds) {
    if (this.grammar.options.length === eds.length + 1) return;
    const keep = this.grammar.value;
    fill(this.grammar, h("option", { value: "" }, "any grammar"),
      eds.map((ed) => h("option", { value: ed.id }, shortName(ed))));
    this.grammar.value = keep;
  }

  table(model) {
    const eds = model.editions;
    const head = h("tr", null, h("th", { scope: "col" }, "getter"),
      eds.map((ed) => h("th", { scope: "col", data: { edition: ed.id } },
        h("span", { class: "side-name" }, shortName(ed)), " ",
        h("span", { class: ["pill", STATUS_PILL[ed.status]] }, STATUS_LABEL[ed.status] || ed.status))),
      h("th", { scope: "col", class: "side-standard", data: { edition: CURRENT } },
        h("span", { class: "side-name" }, "URL Standard (current)"), " ",
        h("span", { class: ["pill", model.current ? "ok" : "bad"] }, model.current ? "parses it" : "rejects it")));
    const byId = Object.fromEntries(eds.map((ed) => [ed.id, ed]));
    // A row is built once for what it shows: its values and statuses, the editions' mapping
    // notes for its getter, whether the current standard parses (a keystroke changes a few rows).
    const body = h("tbody", null, model.rows.map((row) => this.memo.node(
      JSON.stringify(["row", row, eds.map((ed) => [ed.id, ed.mapping_notes ? ed.mapping_notes[row.getter] : ""]), !!model.current]),
      () => h("tr", { data: { getter: row.getter } },
        h("th", { scope: "row" }, h("code", null, row.getter)),
        eds.map((ed) => this.cell(row, ed, byId[ed.id])),
        h("td", { class: "side-standard", data: { edition: CURRENT, getter: row.getter } },
          model.current ? valueToken(row.values.current) : h("span", { class: "bad-text" }, "fails"))))));
    return h("table", { class: "editions", id: "editions-table", data: { columns: eds.length + 1 } },
      h("caption", null, "The eleven getters as each edition gives them (", h("span", { class: "side-diff-key" }, "≠ highlighted"), ": differs from the current standard)"),
      h("thead", null, head), body);
  }

  cell(row, ed) {
    const status = row.status[ed.id];
    const differs = !!row.differs[ed.id];
    const mapping = ed.mapping_notes ? ed.mapping_notes[row.getter] : "";
    let content;
    if (status === "failure") content = h("span", { class: "bad-text" }, "fails");
    else if (status === "unspecified") content = h("span", { class: "ed-unspecified" }, "unspecified");
    else if (row.values[ed.id] === null || row.values[ed.id] === undefined) {
      content = h("span", { class: "side-none" }, h("span", { "aria-hidden": "true" }, "—"), h("span", { class: "sr-only" }, "no such notion"));
    } else content = valueToken(row.values[ed.id]);
    return h("td", {
      class: differs ? "differs" : null, title: mapping || null,
      data: { edition: ed.id, getter: row.getter, differs: differs ? "true" : "false" },
    }, differs ? [h("span", { class: "side-ne", "aria-hidden": "true" }, "≠ "), h("span", { class: "sr-only" }, "differs: ")] : null,
    content, mapping ? h("span", { class: "ed-map" }, vis(mapping)) : null);
  }

  renderDetails(model) {
    // Rebuilt only when what they show changed: a closed edition shows its name, status and
    // count of rules (most keystrokes change none of them), an open one its whole reading.
    const key = JSON.stringify(model.editions.map((ed) => (this.open.has(ed.id) ? ed
      : [ed.id, ed.name, ed.status, ed.notes.length])));
    if (key === this.detailsKey) return;
    this.detailsKey = key;
    const nodes = model.editions.map((ed) => {
      const det = h("details", { class: "ed-detail", data: { edition: ed.id } },
        h("summary", null, h("strong", null, shortName(ed)), " ",
          h("span", { class: ["pill", STATUS_PILL[ed.status]] }, STATUS_LABEL[ed.status] || ed.status),
          ed.notes.length ? h("span", { class: "muted small" }, ` · ${ed.notes.length} rule${ed.notes.length === 1 ? "" : "s"} fired`) : null));
      if (this.open.has(ed.id)) {
        det.open = true;
        append(det, this.detailBody(ed));
      }
      det.addEventListener("toggle", () => {
        if (det.open) {
          this.open.add(ed.id);
          // the reading of the last answer: a closed edition's node outlives the keystrokes
          // that left its summary as it was
          const now = this.model.editions.find((e) => e.id === ed.id) || ed;
          if (det.children.length === 1) append(det, this.detailBody(now));
          if (this.model && this.model.traces === false) this.refresh(); // ask again, with the traces
        } else this.open.delete(ed.id);
      });
      return det;
    });
    this.details.replaceChildren(...nodes);
  }

  detailBody(ed) {
    const terms = ed.terms || {};
    const out = [h("p", { class: "muted small" }, "Source: ", vis(ed.source))];
    if (ed.error) out.push(h("p", { class: "failure" }, ed.status === "not run" ? "" : "Rejects the input: ", vis(ed.error)));
    out.push(h("h4", null, "Its components"), jsonNode(ed.components, terms));
    out.push(h("h4", null, "Rules that fired"), ed.notes.length
      ? h("ul", { class: "ed-notes" }, ed.notes.map((n) => h("li", null, h("span", { class: "ed-rule" }, termText(n.rule, terms)),
        n.section ? [" ", h("span", { class: "ed-sec" }, "(", sectionText(n.section), ")")] : null, ": ", termText(n.text, terms),
        n.getters.length ? h("span", { class: "muted small" }, " — decides ", n.getters.join(", ")) : null)))
      : h("p", { class: "muted" }, "None recorded."));
    if (ed.unspecified.length) {
      out.push(h("h4", null, "Unspecified for this input"), h("ul", null, ed.unspecified.map((t) => h("li", null, vis(t)))));
    }
    out.push(h("h4", null, "Trace: ", h("span", { class: "muted" }, TRACE_CAPTION[ed.id] || "steps")),
      this.model && this.model.traces === false ? h("p", { class: "muted" }, "Asking for its trace…")
        : traceNode(ed.trace, ed.trace_clipped, terms));
    out.push(h("h4", null, "How its getters are mapped"), h("table", { class: "side-mapping" }, h("tbody", null,
      GETTERS.map((g) => h("tr", null, h("th", { scope: "row" }, h("code", null, g)), h("td", null, vis(ed.mapping_notes[g] || "")))))));
    out.push(h("h4", null, "Its terms"), h("dl", { class: "kv ed-terms" },
      Object.entries(terms).map(([t, d]) => [h("dt", null, h("dfn", null, vis(t))), h("dd", null, vis(d))])));
    return out;
  }
}
