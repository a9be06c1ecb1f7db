// Implementations: the same input read by the URL parsers people run, beside the URL Standard
// (urlcalc). Renders the "implementations" result model (urlcalc.implementations: whatwg-url and
// Node's URL on the server under node, ada-url, urllib.parse, rfc3986, yarl; urllib in Pyodide
// too), and adds two columns computed here, in JavaScript, labelled as such: this browser's own
// new URL(), and whatwg-url bundled into the page (js/vendor/whatwg-url.mjs, built by `make npm`,
// run in whatwg-url-worker.js). Those two are the only URL parsing done in the page; their
// differences from the standard are string comparisons with the model's getters.
import { AskingView } from "./asking-view.js";
import { implementationsRequest } from "./requests.js";
import { Memo, OffscreenParts, clear, h, patch, valueToken, vis } from "../render/dom.js";
import { GETTERS } from "../facts.js";
import { readWith } from "./url-reading.js";
import { KEYSTROKE_WAIT_MS, SyncChannel, channelAvailable } from "../engine/sync-channel.js";

// A reading is small: a buffer of this size holds any (a longer one comes by message).
const CHANNEL_BYTES_WHATWG = 1024 * 1024;

const WORKER = new URL("../workers/whatwg-url-worker.js", import.meta.url);
// Reading an input takes milliseconds; a worker that does not answer in this long is stuck.
const WHATWG_TIMEOUT_MS = 15000;

export function browserName() {
  const m = navigator.userAgent.match(/(Chrome|Chromium|Firefox|Version)\/(\d+)/);
  if (!m) return "this browser";
  const name = m[1] === "Version" ? "Safari" : m[1];
  return `${name} ${m[2]}`;
}

let worker = null;
let nextId = 0;
const pending = new Map(); // id -> resolve
let channel = null; // shared with the worker where the page can wait (sync-channel.js)
function workerFailed(error) {
  worker?.terminate();
  worker = null;
  for (const resolve of pending.values()) resolve({ error });
  pending.clear();
}

/** whatwg-url's reading, from its worker: {version, reading} | {error}. */
function readWhatwgURL(input, base) {
  return new Promise((resolve) => {
    if (worker === null) {
      try {
        worker = new Worker(WORKER, { type: "module", name: "urlcalc-whatwg-url" });
      } catch (e) {
        resolve({ error: `cannot start the whatwg-url worker: ${e?.message ?? e}` });
        return;
      }
      if (channelAvailable()) {
        channel = new SyncChannel("whatwg-url", CHANNEL_BYTES_WHATWG);
        worker.postMessage({ type: "channel", buffer: channel.buffer });
      }
      worker.addEventListener("message", (event) => {
        const msg = event.data ?? {};
        const done = pending.get(msg.id);
        pending.delete(msg.id);
        done?.(msg);
      });
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        workerFailed(`the whatwg-url worker failed: ${event.message || "it did not load"}`);
      });
    }
    const id = ++nextId;
    const timer = setTimeout(() => workerFailed(`whatwg-url did not answer within ${WHATWG_TIMEOUT_MS / 1000} s`), WHATWG_TIMEOUT_MS);
    pending.set(id, (msg) => {
      clearTimeout(timer);
      resolve(msg);
    });
    worker.postMessage({ id, input, base: base ?? null, sync: channel !== null });
  });
}

/** Wait (in this task, at most waitMs) for the answer to the last readWhatwgURL, where the page
 *  can: its promise is then settled before the task ends (sync-channel.js). */
function takeWhatwgURL(waitMs) {
  const done = pending.get(nextId);
  if (channel === null || done === undefined) return;
  const got = channel.wait(nextId, waitMs);
  if (got === null) return;
  pending.delete(nextId);
  done(JSON.parse(got.text));
}

const NOT_SHOWN = "no such notion";

/** The page's own column for a URL class (url-reading.js's reading), in the model's shape: where
 *  it differs from the standard (model.standard), getter by getter, or in parsing at all. Pure. */
export function pageColumn(id, name, version, about, reading, model) {
  const std = model.standard;
  const col = {
    id, name, version, runtime: "JavaScript in this page", available: true, reason: null, in_page: true,
    family: "whatwg", about, mapping: {}, no_notion: {}, getter_errors: {}, wpt: null,
    ok: reading.ok, href: reading.ok ? reading.getters.href : null, failure: reading.ok ? null : reading.error,
    getters: reading.ok ? reading.getters : null, relative: false, differences: [], status_difference: null,
  };
  const unknown = String(model.unexplained_whatwg).replaceAll("{name}", name);
  if (reading.ok !== std.ok) {
    const why = std.ok ? `${name} fails (${reading.error})` : `${name} parses it where the standard fails`;
    col.status_difference = `${why}; ${unknown}`;
  } else if (reading.ok) {
    for (const g of GETTERS) {
      if (reading.getters[g] !== std.getters[g]) {
        col.differences.push({ getter: g, standard: std.getters[g], value: reading.getters[g], explanation: unknown });
      }
    }
  }
  col.differs = col.differences.length > 0 || col.status_difference !== null;
  return col;
}

export class ImplementationsView extends AskingView {
  /** @param {HTMLElement} panel @param {import("./asking-view.js").AskingContext} ctx */
  constructor(panel, ctx) {
    super(ctx);
    this.panel = panel;
    this.model = null; // the last rendered model, with the page's own columns added (columns)
    this.memo = new Memo(); // the table's rows, the notes and the scores, built once per distinct data
    this.parts = new OffscreenParts(); // the table and lists: updated when near the screen
    this.whatwgAhead = null; // whatwg-url's reading started by prefetch: {key, answer}
    this.build();
  }

  build() {
    this.summary = h("p", { class: "side-summary", id: "implementations-summary", role: "status" }, "…");
    this.error = h("p", { class: "failure", id: "implementations-error", role: "alert", hidden: true });
    this.tableWrap = h("div", { class: "scroll-x side-table-wrap", id: "implementations-table-wrap", tabindex: "0", "aria-label": "Getters by implementation (scrolls sideways)" });
    this.diffs = h("ol", { class: "side-diffs", id: "implementations-differences" });
    this.missing = h("ul", { class: "side-unspec", id: "implementations-unavailable" });
    this.about = h("div", { class: "side-details", id: "implementations-about" });
    this.scores = h("div", { class: "scroll-x", id: "implementations-wpt" });
    this.parts.watch(this.tableWrap, this.diffs, this.missing, this.about, this.scores);
    this.showAll = h("input", { type: "checkbox", id: "implementations-all" });
    this.showAll.addEventListener("change", () => this.tableWrap.classList.toggle("show-all", this.showAll.checked));
    clear(this.panel).append(
      h("p", { class: "lede" }, "The same input read by the URL parsers people run, beside the URL Standard as urlcalc computes it. ",
        "Libraries that do not implement the standard are mapped onto its eleven getters as well as their API allows; what they have no notion of is “", NOT_SHOWN, "”, not a difference. ",
        "The columns marked “in this page” are computed by JavaScript here; the others come from the engine (the server runs all of them, Pyodide only urllib)."),
      h("div", { class: "side-controls" }, h("label", { class: "check" }, this.showAll, " show every value"),
        h("span", { class: "help" }, "otherwise a value the same as the standard's is “=” (hover for it)")),
      this.error, this.summary, this.tableWrap,
      h("h3", null, "Why they differ"), this.diffs,
      h("h3", null, "Not available here"), this.missing,
      h("h3", null, "Each implementation"), this.about,
      h("h3", { id: "implementations-wpt-h" }, "WPT scores"),
      h("p", { class: "muted small" }, "Passing cases of the web-platform-tests URL data per implementation, measured by ",
        h("code", null, "make interop"), " (the same table as docs/interop.md and docs/implementations.md; “—” where the implementation has no such API)."),
      this.scores);
  }

  /** The other implementations' readings of the page's input (AskingView; views/requests.js).
   *  @param {import("../state/store.js").PageState} s */
  ask(s) {
    return implementationsRequest(s);
  }

  /** Before the page's parse: the model's request behind it (AskingView), and whatwg-url's
   *  reading started in its own worker. */
  prefetch(prefetch) {
    const params = super.prefetch(prefetch);
    if (params === null) return null;
    this.whatwgAhead = { key: JSON.stringify([params.input, params.base]), answer: readWhatwgURL(params.input, params.base) };
    return params;
  }

  // whatwg-url is asked first (alongside); then the model (from the server, which the Pyodide
  // worker asks where the page can wait, or from Pyodide); then whatwg-url's answer is waited
  // for, if it is not in yet (posted): both are then drawn in the keystroke's frame
  // (sync-channel.js).
  /** @param {Record<string, any>} params */
  alongside(params) {
    const ahead = this.whatwgAhead;
    this.whatwgAhead = null;
    return ahead && ahead.key === JSON.stringify([params.input, params.base]) ? ahead.answer
      : readWhatwgURL(params.input, params.base);
  }

  posted() {
    takeWhatwgURL(KEYSTROKE_WAIT_MS);
  }

  /** @param {import("./asking-view.js").EngineAnswer} answer @param {any} whatwg
   *  @param {Record<string, any>} params */
  show(answer, whatwg, params) {
    if (answer.error) {
      this.error.hidden = false;
      this.error.replaceChildren(vis(answer.error));
      this.summary.hidden = true;
      return;
    }
    this.error.hidden = true;
    this.summary.hidden = false;
    this.render(answer.result, whatwg, params);
  }

  columns(model, whatwg, params) {
    const who = browserName();
    const cols = [pageColumn("browser", `${who} (new URL)`, navigator.userAgent.match(/(?:Chrome|Chromium|Firefox|Version)\/([\d.]+)/)?.[1] ?? "",
      "This browser's own URL parser (new URL(input, base)): what web pages get. Browsers implement the URL Standard, each with its own known deviations.",
      readWith(URL, params.input, params.base), model)];
    const server = model.implementations.find((e) => e.id === "whatwg-url");
    if (whatwg.reading) {
      const col = pageColumn("whatwg-url", "whatwg-url (in this page)", whatwg.version,
        "The URL Standard's reference implementation (npm whatwg-url), bundled into the page and run here (in a worker).",
        whatwg.reading, model);
      if (server && server.available) {
        const same = server.ok === col.ok && JSON.stringify(server.getters) === JSON.stringify(col.getters);
        col.note = `The server ran the same package under ${server.runtime}: ${same ? "the same answer" : "a different answer"}.`;
      }
      cols.push(col);
    } else if (server && server.available) {
      cols.push(server);
    } else {
      cols.push({ id: "whatwg-url", name: "whatwg-url (in this page)", available: false, reason: whatwg.error });
    }
    for (const e of model.implementations) if (e.id !== "whatwg-url") cols.push(e);
    return cols;
  }

  render(model, whatwg, params) {
    const cols = this.columns(model, whatwg, params);
    this.model = { ...model, columns: cols };
    const shown = cols.filter((c) => c.available);
    const differing = shown.filter((c) => c.differs);
    const std = model.standard;
    this.summary.className = "side-summary " + (differing.length ? "bad" : "ok");
    this.summary.dataset.differing = String(differing.length);
    this.summary.dataset.status = differing.length ? "mismatch" : "agree";
    this.summary.textContent = (std.ok ? "" : "The URL Standard rejects this input. ") + (differing.length
      ? `${differing.length} of ${shown.length} implementations differ from the URL Standard: ${differing.map((c) => c.name).join(", ")}.`
      : `All ${shown.length} implementations agree with the URL Standard on this input.`);
    // patched, not rebuilt: a keystroke changes a few cells (dom.js patch); now where they are
    // on screen, else in the next idle moment (dom.js OffscreenParts)
    this.parts.update(this.tableWrap, () => patch(this.tableWrap, this.table(std, shown)));
    this.parts.update(this.diffs, () => this.renderDifferences(shown));
    this.parts.update(this.missing, () => {
      const missing = cols.filter((c) => !c.available);
      patch(this.missing, ...(missing.length
        ? missing.map((c) => h("li", { data: { impl: c.id, available: "false" } }, h("strong", null, vis(c.name)), ": not available: ", vis(c.reason || "")))
        : [h("li", { class: "muted" }, "Nothing: every implementation ran.")]));
    });
    // built once per distinct data (dom.js Memo): a keystroke changes few of them
    this.parts.update(this.about, () => patch(this.about, cols.map((c) => this.memo.node(JSON.stringify(["about", c.id, c.name, c.version, c.runtime, c.available,
      c.about, c.call, c.note, c.failure, c.mapping, c.no_notion]), () => this.aboutNode(c)))));
    this.parts.update(this.scores, () => patch(this.scores, this.memo.node(JSON.stringify(["scores", model.wpt]), () => this.scoreTable(model.wpt))));
  }

  renderDifferences(shown) {
    const lines = [];
    for (const c of shown) {
      if (c.status_difference) lines.push(this.diffLine(c, ["result"], c.status_difference));
      // the getters one explanation accounts for, on one line
      const groups = new Map();
      for (const d of c.differences) {
        const key = d.explanation ?? "";
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(d.getter);
      }
      for (const [why, getters] of groups) lines.push(this.diffLine(c, getters, why || null));
    }
    patch(this.diffs, lines.length ? lines : h("li", { class: "muted" }, "No differences."));
  }

  diffLine(c, getters, explanation) {
    return h("li", { data: { impl: c.id, getters: getters.join(" ") } }, h("strong", null, vis(c.name)), " · ",
      getters.map((g, i) => [i ? ", " : "", h("code", null, g)]), ": ",
      explanation ? vis(explanation) : h("span", { class: "muted" }, "no explanation known"));
  }

  table(std, cols) {
    const pill = (c) => {
      if (c.ok === false) return h("span", { class: "pill bad" }, "rejects it");
      if (c.relative) return h("span", { class: "pill warn" }, "relative reference");
      return h("span", { class: "pill ok" }, "parses it");
    };
    const head = h("tr", null, h("th", { scope: "col" }, "getter"),
      h("th", { scope: "col", class: "side-standard", data: { impl: "standard" } }, h("span", { class: "side-name" }, "URL Standard (urlcalc)"), " ",
        h("span", { class: ["pill", std.ok ? "ok" : "bad"] }, std.ok ? "parses it" : "rejects it")),
      cols.map((c) => h("th", { scope: "col", data: { impl: c.id }, class: c.status_difference ? "differs" : null },
        h("span", { class: "side-name" }, vis(c.name)), h("span", { class: "muted small impl-ver" }, vis(c.version || "")),
        h("span", { class: ["small", "impl-ver", c.in_page ? "in-page" : "muted"] }, vis(c.runtime || "")),
        " ", pill(c))));
    // a row is built once for what its cells show (cell() reads no more than this)
    const body = h("tbody", null, GETTERS.map((g) => this.memo.node(JSON.stringify(["row", g, std.ok, std.getters ? std.getters[g] : null,
      cols.map((c) => [c.id, c.ok, c.failure, c.getter_errors ? c.getter_errors[g] : null, c.getters ? c.getters[g] : null,
        c.no_notion ? c.no_notion[g] : null, c.differences.find((d) => d.getter === g) ? 1 : 0, c.mapping ? c.mapping[g] : null])]),
    () => h("tr", { data: { getter: g } },
      h("th", { scope: "row" }, h("code", null, g)),
      h("td", { class: "side-standard", data: { impl: "standard", getter: g } }, std.ok ? valueToken(std.getters[g]) : h("span", { class: "bad-text" }, "fails")),
      cols.map((c) => this.cell(c, g))))));
    return h("table", { class: "editions implementations", id: "implementations-table", data: { columns: cols.length + 1 } },
      h("caption", null, "The eleven getters as each implementation gives them (", h("span", { class: "side-diff-key" }, "≠ highlighted"), ": differs from the URL Standard)"),
      h("thead", null, head), body);
  }

  cell(c, g) {
    const diff = c.differences.find((d) => d.getter === g);
    let content;
    if (!c.ok) content = h("span", { class: "bad-text", title: c.failure || "" }, "fails");
    else if (c.getter_errors && c.getter_errors[g]) content = h("span", { class: "bad-text" }, "raises ", vis(c.getter_errors[g]));
    else if (c.getters[g] === null || c.getters[g] === undefined) {
      content = h("span", { class: "side-none", title: (c.no_notion && c.no_notion[g]) || NOT_SHOWN }, NOT_SHOWN);
    } else if (!diff && this.model.standard.ok) {
      // the standard's value: "=" unless "show every value" is on
      content = [h("span", { class: "same", "aria-hidden": "true" }, "="), h("span", { class: "same-value" }, valueToken(c.getters[g]))];
    } else content = valueToken(c.getters[g]);
    const value = c.ok && typeof c.getters[g] === "string" ? c.getters[g] : null;
    const mapping = (c.mapping && c.mapping[g]) || "";
    return h("td", {
      class: diff ? "differs" : null, title: [value !== null && !diff ? value : null, mapping].filter(Boolean).join(" · ") || null,
      data: { impl: c.id, getter: g, differs: diff ? "true" : "false", ...(value !== null ? { value } : {}) },
    }, diff ? [h("span", { class: "side-ne", "aria-hidden": "true" }, "≠ "), h("span", { class: "sr-only" }, "differs: ")] : null, content);
  }

  aboutNode(c) {
    const body = [h("p", null, vis(c.about || ""))];
    if (c.call) body.push(h("p", { class: "small" }, "Called as ", h("code", null, vis(c.call))));
    if (c.note) body.push(h("p", { class: "small" }, vis(c.note)));
    if (c.failure && c.available) body.push(h("p", { class: "failure small" }, "Its answer: ", vis(c.failure)));
    const mapping = Object.entries(c.mapping || {});
    const notions = Object.entries(c.no_notion || {});
    if (mapping.length || notions.length) {
      body.push(h("table", { class: "side-mapping" }, h("tbody", null,
        mapping.map(([g, m]) => h("tr", null, h("th", { scope: "row" }, h("code", null, g)), h("td", null, vis(m)))),
        notions.map(([g, m]) => h("tr", null, h("th", { scope: "row" }, h("code", null, g)), h("td", { class: "muted" }, NOT_SHOWN, ": ", vis(m)))))));
    }
    return h("details", { class: "ed-detail", data: { impl: c.id } },
      h("summary", null, h("strong", null, vis(c.name)), " ",
        h("span", { class: "muted small" }, vis([c.version, c.runtime].filter(Boolean).join(" · "))), " ",
        c.available ? null : h("span", { class: "pill warn" }, "not available")),
      body);
  }

  scoreTable(wpt) {
    if (!wpt || !wpt.rows || !wpt.rows.length) return h("p", { class: "muted" }, "No scores recorded (run make interop).");
    return h("table", { class: "wpt-scores", id: "implementations-wpt-table" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "implementation"), wpt.files.map((f) => h("th", { scope: "col" }, vis(f))))),
      h("tbody", null, wpt.rows.map((r) => h("tr", { data: { impl: r.id } }, h("th", { scope: "row" }, vis(`${r.name} ${r.version}`)),
        wpt.files.map((f) => h("td", { class: "num" }, r.scores[f] ? `${r.scores[f][0]} / ${r.scores[f][1]}` : "—"))))),
      h("caption", { class: "muted small" }, vis(wpt.measured || "")));
  }
}
