// @ts-check
// Implementations: the same input read by the URL parsers people run, beside the URL Standard
// (urlcalc). Renders the "implementations" result model (urlcalc.implementations: whatwg-url and
// Node's URL on the server under node, ada-url, urllib.parse, rfc3986, yarl; urllib in Pyodide
// too), and adds two columns computed here, in JavaScript, labelled as such: this browser's own
// new URL(), and whatwg-url bundled into the page (js/vendor/whatwg-url.mjs, built by `make npm`,
// run in whatwg-url-worker.js). Those two are the only URL parsing done in the page; their
// differences from the standard are string comparisons with the model's getters.
// Drawn with lit-html (render/templates.js): a keystroke changes the cells whose values changed;
// a row, an implementation's details and the scores are built only when what they show changed
// (guard, keyed by their data: what dom.js's Memo did).
import { AskingView } from "./asking-view.js";
import { implementationsRequest } from "./requests.js";
import { OffscreenParts, el } from "../render/offscreen-parts.js";
import { html, nothing, show as draw, valueToken, vis } from "../render/templates.js";
import { guard } from "../vendor/lit-html.mjs";
import { CONFUSION_CLASSES, GETTERS, NAIVE_CHECKS } from "../facts.js";
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

/** @type {Map<string, {id: string, name: string, definition: string}>} the confusion classes, by id */
const CLASS_BY_ID = new Map(CONFUSION_CLASSES.map((c) => [c.id, c]));
/** @type {Map<string, {id: string, code: string, definition: string}>} the naive allowlist tests, by id */
const CHECK_BY_ID = new Map(NAIVE_CHECKS.map((c) => [c.id, c]));

/** What a confusion class means: its definition (facts.js), or, for an "other: ..." one (named
 *  by what differs), that no class accounts for it. @param {any} confusion */
export function confusionDefinition(confusion) {
  return CLASS_BY_ID.get(confusion.id)?.definition
    ?? "None of the classes of the 2022 study accounts for this disagreement: it is named by what differs.";
}

/** Whether a column's disagreement is about the host (or whether it parses at all): those are
 *  listed first (SSRF and allowlist bypasses live there). Works on the page's own columns too.
 *  @param {any} c */
export function hostDisagreement(c) {
  if (c.confusion) return c.confusion.host;
  return c.status_difference !== null && c.status_difference !== undefined
    || (c.differences || []).some((d) => d.getter === "host" || d.getter === "hostname");
}

/** The columns that differ, host disagreements first (in column order otherwise). Pure.
 *  @param {any[]} cols */
export function hostFirst(cols) {
  return [...cols.filter((c) => hostDisagreement(c)), ...cols.filter((c) => !hostDisagreement(c))];
}

/** A naive test's code ("H in url"), from facts.js. @param {string} id */
export function naiveCode(id) {
  return CHECK_BY_ID.get(id)?.code ?? id;
}

const NE = html`<span class="side-ne" aria-hidden="true">≠ </span><span class="sr-only">differs: </span>`;
const FAILS = html`<span class="bad-text">fails</span>`;

export class ImplementationsView extends AskingView {
  /** @param {HTMLElement} panel @param {import("./asking-view.js").AskingContext} ctx */
  constructor(panel, ctx) {
    super(ctx);
    this.panel = panel;
    /** @type {any} the last rendered model, with the page's own columns added (columns) */
    this.model = null;
    this.parts = new OffscreenParts(); // the table and lists: updated when near the screen
    /** @type {{key: string, answer: Promise<any>} | null} whatwg-url's reading started by prefetch */
    this.whatwgAhead = null;
    this.build();
  }

  build() {
    draw(this.panel, html`<p class="lede">The same input read by the URL parsers people run, beside the URL Standard as urlcalc computes it. Libraries that do not implement the standard are mapped onto its eleven getters as well as their API allows; what they have no notion of is “${NOT_SHOWN}”, not a difference. The columns marked “in this page” are computed by JavaScript here; the others come from the engine (the server runs all of them, Pyodide only urllib).</p><div class="side-controls"><label class="check"><input type="checkbox" id="implementations-all" @change=${() => this.tableWrap.classList.toggle("show-all", this.showAll.checked)}> show every value</label><span class="help">otherwise a value the same as the standard's is “=” (<span class="on-hover">hover</span><span class="on-touch">tap</span> for it)</span></div><p class="failure" id="implementations-error" role="alert" hidden></p><p class="side-summary" id="implementations-summary" role="status">…</p><div class="scroll-x side-table-wrap" id="implementations-table-wrap" tabindex="0" role="region" aria-label="Getters by implementation (scrolls sideways)"></div><h3>Why they differ</h3><ol class="side-diffs" id="implementations-differences"></ol><h3>Confusion classes and allowed hosts</h3><p class="muted small">Each disagreement classed by the confusion classes of the 2022 Claroty/Snyk study of 16 URL parsers (hover a class for its definition), host disagreements first; and whether an allowlist test would accept this URL for a host it mentions while the URL Standard's host is another.</p><ol class="side-diffs" id="implementations-confusion"></ol><ul class="side-diffs" id="implementations-allowed-host"></ul><h3>Not available here</h3><ul class="side-unspec" id="implementations-unavailable"></ul><h3>Each implementation</h3><div class="side-details" id="implementations-about"></div><h3 id="implementations-wpt-h">WPT scores</h3><p class="muted small">Passing cases of the web-platform-tests URL data per implementation, measured by <code>make interop</code> (the same table as docs/interop.md and docs/implementations.md; “—” where the implementation has no such API).</p><div class="scroll-x" id="implementations-wpt" tabindex="0" role="region" aria-labelledby="implementations-wpt-h"></div>`);
    /** @type {HTMLElement} */
    this.summary = el(this.panel, "#implementations-summary");
    /** @type {HTMLElement} */
    this.error = el(this.panel, "#implementations-error");
    /** @type {HTMLElement} */
    this.tableWrap = el(this.panel, "#implementations-table-wrap");
    // a tap (a click) on a "=" shows the value, where no pointer hovers (issue 29)
    this.tableWrap.addEventListener("click", (/** @type {Event} */ ev) => {
      const td = ev.target instanceof Element ? ev.target.closest("td") : null;
      if (td && td.querySelector(".same")) td.classList.toggle("reveal");
    });
    /** @type {HTMLElement} */
    this.diffs = el(this.panel, "#implementations-differences");
    /** @type {HTMLElement} */
    this.confusion = el(this.panel, "#implementations-confusion");
    /** @type {HTMLElement} */
    this.allowedHost = el(this.panel, "#implementations-allowed-host");
    /** @type {HTMLElement} */
    this.missing = el(this.panel, "#implementations-unavailable");
    /** @type {HTMLElement} */
    this.about = el(this.panel, "#implementations-about");
    /** @type {HTMLElement} */
    this.scores = el(this.panel, "#implementations-wpt");
    /** @type {HTMLInputElement} */
    this.showAll = el(this.panel, "#implementations-all");
    this.parts.watch(this.tableWrap, this.diffs, this.confusion, this.allowedHost, this.missing, this.about, this.scores);
  }

  /** The other implementations' readings of the page's input (AskingView; views/requests.js).
   *  @param {import("../state/store.js").PageState} s */
  ask(s) {
    return implementationsRequest(s);
  }

  /** Before the page's parse: the model's request behind it (AskingView), and whatwg-url's
   *  reading started in its own worker.
   *  @param {(kind: string, params: object, options: object) => void} prefetch */
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
      draw(this.error, vis(answer.error));
      this.summary.hidden = true;
      return;
    }
    this.error.hidden = true;
    this.summary.hidden = false;
    this.render(answer.result, whatwg, params);
  }

  /** @param {any} model @param {any} whatwg @param {Record<string, any>} params @returns {any[]} */
  columns(model, whatwg, params) {
    const who = browserName();
    /** @type {any[]} */
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

  /** @param {any} model @param {any} whatwg @param {Record<string, any>} params */
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
    // lit-html changes only what differs (a keystroke changes a few cells); now where they are on
    // screen, else in the next idle moment (render/offscreen-parts.js)
    this.parts.update(this.tableWrap, () => draw(this.tableWrap, this.table(std, shown)));
    this.parts.update(this.diffs, () => draw(this.diffs, this.differences(shown)));
    this.parts.update(this.confusion, () => draw(this.confusion, this.confusions(shown)));
    this.parts.update(this.allowedHost, () => draw(this.allowedHost, this.allowedHosts(model.allowed_host || [])));
    this.parts.update(this.missing, () => {
      const missing = cols.filter((c) => !c.available);
      draw(this.missing, missing.length
        ? missing.map((c) => html`<li data-impl=${c.id} data-available="false"><strong>${vis(c.name)}</strong>: not available: ${vis(c.reason || "")}</li>`)
        : html`<li class="muted">Nothing: every implementation ran.</li>`);
    });
    // built only when their data changed: a keystroke changes few of them
    this.parts.update(this.about, () => draw(this.about, cols.map((c) => guard([JSON.stringify([c.id, c.name, c.version, c.runtime, c.available,
      c.about, c.call, c.note, c.failure, c.mapping, c.no_notion])], () => this.aboutNode(c)))));
    this.parts.update(this.scores, () => draw(this.scores, guard([JSON.stringify(model.wpt)], () => this.scoreTable(model.wpt))));
  }

  /** @param {any[]} shown */
  differences(shown) {
    const lines = [];
    for (const c of hostFirst(shown.filter((c) => c.differs))) {
      if (c.status_difference) lines.push(this.diffLine(c, ["result"], c.status_difference));
      // the getters one explanation accounts for, on one line
      /** @type {Map<string, string[]>} */
      const groups = new Map();
      for (const d of c.differences) {
        const key = d.explanation ?? "";
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key)?.push(d.getter);
      }
      for (const [why, getters] of groups) lines.push(this.diffLine(c, getters, why || null));
    }
    return lines.length ? lines : html`<li class="muted">No differences.</li>`;
  }

  /** Each implementation's confusion class and allowed-host finding, host disagreements first.
   *  @param {any[]} shown */
  confusions(shown) {
    const lines = hostFirst(shown.filter((c) => c.confusion || c.allowed_host)).map((c) => {
      const k = c.confusion;
      const a = c.allowed_host;
      return html`<li data-impl=${c.id} data-confusion=${k ? k.id : nothing} data-host=${k && k.host ? "true" : "false"}><strong>${vis(c.name)}</strong>${k
        ? html` · <span class=${k.host ? "pill bad" : "pill warn"} title=${confusionDefinition(k)}>${vis(k.name)}</span>${k.getters.length
          ? html` on ${k.getters.map((g, i) => [i ? ", " : nothing, html`<code>${g}</code>`])}` : nothing}` : nothing}${a
        ? html`<span class="allowed-host" data-allowed=${a.allowed}>: an allowlist test on its hostname accepts ${valueToken(a.allowed)}, while the URL Standard's host is ${valueToken(a.standard_host)}${a.naive.length
          ? html` (so do ${a.naive.map((id, i) => [i ? ", " : nothing, html`<code>${naiveCode(id)}</code>`])})` : nothing}</span>` : nothing}</li>`;
    });
    return lines.length ? lines : html`<li class="muted">No confusion: every implementation that differs, differs on nothing the classes name.</li>`;
  }

  /** The naive allowlist tests the input fools (the answer's allowed_host).
   *  @param {any[]} findings */
  allowedHosts(findings) {
    return findings.length
      ? findings.map((f) => html`<li data-check=${f.check}><span class="pill bad">allowed host</span> <code>${naiveCode(f.check)}</code> accepts it for H = ${valueToken(f.allowed)}, while the URL Standard's host is ${valueToken(f.standard_host)}</li>`)
      : html`<li class="muted">No naive allowlist test tried (urlsplit hostname, prefix, substring, netloc suffix) accepts this URL for another host it mentions.</li>`;
  }

  /** @param {any} c @param {string[]} getters @param {string | null} explanation */
  diffLine(c, getters, explanation) {
    return html`<li data-impl=${c.id} data-getters=${getters.join(" ")}><strong>${vis(c.name)}</strong> · ${getters.map((g, i) => [i ? ", " : nothing, html`<code>${g}</code>`])}: ${explanation
      ? vis(explanation) : html`<span class="muted">no explanation known</span>`}</li>`;
  }

  /** @param {any} std @param {any[]} cols */
  table(std, cols) {
    /** @param {any} c */
    const pill = (c) => {
      if (c.ok === false) return html`<span class="pill bad">rejects it</span>`;
      if (c.relative) return html`<span class="pill warn">relative reference</span>`;
      return html`<span class="pill ok">parses it</span>`;
    };
    const head = html`<tr><th scope="col">getter</th><th scope="col" class="side-standard" data-impl="standard"><span class="side-name">URL Standard (urlcalc)</span> <span class=${std.ok ? "pill ok" : "pill bad"}>${std.ok ? "parses it" : "rejects it"}</span></th>${cols.map((c) =>
      html`<th scope="col" data-impl=${c.id} class=${c.status_difference ? "differs" : nothing}><span class="side-name">${vis(c.name)}</span><span class="muted small impl-ver">${vis(c.version || "")}</span><span class=${c.in_page ? "small impl-ver in-page" : "small impl-ver muted"}>${vis(c.runtime || "")}</span> ${pill(c)}</th>`)}</tr>`;
    // a row is built only when what its cells show changed (cell() reads no more than this)
    const body = GETTERS.map((g) => guard([JSON.stringify([g, std.ok, std.getters ? std.getters[g] : null,
      cols.map((c) => [c.id, c.ok, c.failure, c.getter_errors ? c.getter_errors[g] : null, c.getters ? c.getters[g] : null,
        c.no_notion ? c.no_notion[g] : null, c.differences.find((d) => d.getter === g) ? 1 : 0, c.mapping ? c.mapping[g] : null,
        g === "host" ? [c.confusion ? c.confusion.id : null, c.allowed_host ? c.allowed_host.allowed : null] : null])])],
    () => html`<tr data-getter=${g}><th scope="row"><code>${g}</code></th><td class="side-standard" data-impl="standard" data-getter=${g}>${std.ok ? valueToken(std.getters[g]) : FAILS}</td>${cols.map((c) => this.cell(c, g))}</tr>`));
    return html`<table class="editions implementations" id="implementations-table" data-columns=${cols.length + 1}><caption>The eleven getters as each implementation gives them (<span class="side-diff-key">≠ highlighted</span>: differs from the URL Standard)</caption><thead>${head}</thead><tbody>${body}</tbody></table>`;
  }

  /** @param {any} c @param {string} g */
  cell(c, g) {
    const diff = c.differences.find((d) => d.getter === g);
    let content;
    if (!c.ok) content = html`<span class="bad-text" title=${c.failure || ""}>fails</span>`;
    else if (c.getter_errors && c.getter_errors[g]) content = html`<span class="bad-text">raises ${vis(c.getter_errors[g])}</span>`;
    else if (c.getters[g] === null || c.getters[g] === undefined) {
      content = html`<span class="side-none" title=${(c.no_notion && c.no_notion[g]) || NOT_SHOWN}>${NOT_SHOWN}</span>`;
    } else if (!diff && this.model.standard.ok) {
      // the standard's value: "=" unless "show every value" is on
      content = html`<span class="same" aria-hidden="true">=</span><span class="same-value">${valueToken(c.getters[g])}</span>`;
    } else content = valueToken(c.getters[g]);
    const value = c.ok && typeof c.getters[g] === "string" ? c.getters[g] : null;
    const mapping = (c.mapping && c.mapping[g]) || "";
    const title = [value !== null && !diff ? value : null, mapping].filter(Boolean).join(" · ");
    return html`<td class=${diff ? "differs" : nothing} title=${title || nothing} data-impl=${c.id} data-getter=${g} data-differs=${diff ? "true" : "false"} data-value=${value ?? nothing}>${diff ? NE : nothing}${content}${g === "host" ? this.hostFlag(c) : nothing}</td>`;
  }

  /** The host row's flag: a host disagreement's confusion class, and an allowlist test on this
   *  implementation's hostname that accepts a host the standard does not read.
   *  @param {any} c */
  hostFlag(c) {
    const k = c.confusion && c.confusion.host ? c.confusion : null;
    const a = c.allowed_host;
    if (!k && !a) return nothing;
    return html`<span class="host-flag" data-confusion=${k ? k.id : nothing} data-allowed=${a ? a.allowed : nothing}>${k
      ? html` <span class="pill bad" title=${confusionDefinition(k)}>⚑ ${vis(k.name)}</span>` : nothing}${a
      ? html` <span class="pill bad" title=${`an allowlist test on its hostname accepts ${a.allowed}; the URL Standard's host is ${a.standard_host ?? "null"}`}>allowlist: ${vis(a.allowed)}</span>` : nothing}</span>`;
  }

  /** @param {any} c */
  aboutNode(c) {
    const mapping = Object.entries(c.mapping || {});
    const notions = Object.entries(c.no_notion || {});
    const table = mapping.length || notions.length
      ? html`<table class="side-mapping"><tbody>${mapping.map(([g, m]) => html`<tr><th scope="row"><code>${g}</code></th><td>${vis(m)}</td></tr>`)}${notions.map(([g, m]) =>
        html`<tr><th scope="row"><code>${g}</code></th><td class="muted">${NOT_SHOWN}: ${vis(m)}</td></tr>`)}</tbody></table>`
      : nothing;
    return html`<details class="ed-detail" data-impl=${c.id}><summary><strong>${vis(c.name)}</strong> <span class="muted small">${vis([c.version, c.runtime].filter(Boolean).join(" · "))}</span> ${c.available
      ? nothing : html`<span class="pill warn">not available</span>`}</summary><p>${vis(c.about || "")}</p>${c.call
      ? html`<p class="small">Called as <code>${vis(c.call)}</code></p>` : nothing}${c.note
      ? html`<p class="small">${vis(c.note)}</p>` : nothing}${c.failure && c.available
      ? html`<p class="failure small">Its answer: ${vis(c.failure)}</p>` : nothing}${table}</details>`;
  }

  /** @param {any} wpt */
  scoreTable(wpt) {
    if (!wpt || !wpt.rows || !wpt.rows.length) return html`<p class="muted">No scores recorded (run make interop).</p>`;
    return html`<table class="wpt-scores" id="implementations-wpt-table"><thead><tr><th scope="col">implementation</th>${wpt.files.map((f) =>
      html`<th scope="col">${vis(f)}</th>`)}</tr></thead><tbody>${wpt.rows.map((r) => html`<tr data-impl=${r.id}><th scope="row">${vis(`${r.name} ${r.version}`)}</th>${wpt.files.map((f) =>
      html`<td class="num">${r.scores[f] ? `${r.scores[f][0]} / ${r.scores[f][1]}` : "—"}</td>`)}</tr>`)}</tbody><caption class="muted small">${vis(wpt.measured || "")}</caption></table>`;
  }
}
