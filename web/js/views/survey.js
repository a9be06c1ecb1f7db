// @ts-check
// Survey (issue 30): a survey's report, browsed. Opens a report (urlcalc survey --out r.json, its
// schema docs/survey-report.schema.json) from a file or from a same-origin URL given in the
// permalink (view=survey&report=<url>), or makes one here: pasted URLs or a text file of at most
// MAX_SURVEY_URLS, surveyed by the engine (the "survey" request: Pyodide in the page, or the
// server). Shows the denominators, a family's buckets with their counts, rates and examples; an
// example opens in the calculator (the Components view, its input and the survey's base set).
// Every string of a report is a text binding (lit-html): a report is a stranger's file.
import { html, nothing, show, vis } from "../render/templates.js";
import { MAX_SURVEY_URLS } from "../facts.js";

export const REPORT_NAME = "urlcalc survey";
export const REPORT_VERSION = 1;
/** The denominators a family's rates divide by, and what they count. */
export const DENOMINATOR_WORDS = Object.freeze({
  lines: "lines", urls: "URLs", parsed: "URLs that parse", failed: "URLs that fail",
  unreadable: "unreadable lines",
});
// Buckets shown at once (the filter finds the others) and code points of an example shown.
export const SHOWN_BUCKETS = 200;
const SHOWN_EXAMPLE = 300;

/**
 * @typedef {{ key: string, count: number, rate: number, examples: string[] }} ReportBucket
 * @typedef {{ family: string, title: string, denominator: string, buckets: ReportBucket[] }} ReportFamily
 * @typedef {{ report: string, version: number, meta: any, denominators: Record<string, number>,
 *   families: ReportFamily[] }} SurveyReport
 */

/** A report read from JSON, checked for what the view reads (else an Error saying what is wrong).
 *  @param {unknown} data @returns {SurveyReport} */
export function readReport(data) {
  const r = /** @type {any} */ (data);
  if (!r || typeof r !== "object" || r.report !== REPORT_NAME) throw new Error("not a urlcalc survey report");
  if (r.version !== REPORT_VERSION) throw new Error(`a report of version ${String(r.version)}: this page reads version ${REPORT_VERSION}`);
  const den = r.denominators;
  if (!den || typeof den !== "object") throw new Error("the report has no denominators");
  for (const name of Object.keys(DENOMINATOR_WORDS)) {
    if (!Number.isInteger(den[name]) || den[name] < 0) throw new Error(`the denominator ${name} is not a count`);
  }
  if (!Array.isArray(r.families)) throw new Error("the report has no families");
  for (const f of r.families) {
    if (!f || typeof f.family !== "string" || !Array.isArray(f.buckets) || !Object.hasOwn(DENOMINATOR_WORDS, f.denominator)) {
      throw new Error("a family of the report is malformed");
    }
    for (const b of f.buckets) {
      if (!b || typeof b.key !== "string" || !Number.isInteger(b.count) || !Array.isArray(b.examples)
        || !b.examples.every((/** @type {unknown} */ e) => typeof e === "string")) {
        throw new Error(`a bucket of ${f.family} is malformed`);
      }
    }
  }
  return /** @type {SurveyReport} */ (r);
}

/** "1,234 of 98,765 URLs (1.25%)", as the Markdown report writes it.
 *  @param {number} count @param {number} denominator @param {string} [what] */
export function rateText(count, denominator, what = "URLs") {
  const pct = denominator ? (100 * count) / denominator : 0;
  const shown = pct >= 0.01 || count === 0 ? pct.toFixed(2) : "<0.01";
  return `${count.toLocaleString("en")} of ${denominator.toLocaleString("en")} ${what} (${shown}%)`;
}

/** The URLs of a pasted text, as the "survey" request reads them: one a line (LF or CRLF),
 *  blank lines skipped. @param {string} text @returns {string[]} */
export function surveyLines(text) {
  return text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l)).filter((l) => /[^ \t\r]/.test(l));
}

/** What is wrong with surveying `text` here, or "" (within MAX_SURVEY_URLS, not empty).
 *  @param {string} text */
export function surveyRefusal(text) {
  const n = surveyLines(text).length;
  if (n === 0) return "Paste URLs (one a line) or pick a text file first.";
  if (n > MAX_SURVEY_URLS) {
    return `${n.toLocaleString("en")} URLs: the page surveys at most ${MAX_SURVEY_URLS.toLocaleString("en")} (urlcalc survey reads any number).`;
  }
  return "";
}

/** The URL a permalink's report=<url> may be fetched from: http(s) on the page's own origin
 *  (the page's CSP allows no other), else null. @param {string} url @param {string} page */
export function reportURL(url, page) {
  let u;
  try {
    u = new URL(url, page);
  } catch {
    return null;
  }
  const here = new URL(page);
  if (u.origin !== here.origin || !/^https?:$/.test(u.protocol)) return null;
  return u.href;
}

/** Whether an example was kept cut (urlcalc.survey.tally.clip_example: it ends "… (<n> code
 *  points)", n more than it holds): it cannot be opened. @param {string} example */
export function isCut(example) {
  const m = /… \((\d+) code points\)$/.exec(example);
  return m !== null && Number(m[1]) > [...example].length - m[0].length;
}

/** What opening `example` of `family` sets in the calculator ({input, base}), or null (an
 *  unreadable line's place, a cut example).
 *  @param {string} example @param {string} family @param {SurveyReport} report */
export function exampleTarget(example, family, report) {
  if (family === "unreadable" || isCut(example)) return null;
  const base = report.meta && typeof report.meta.base === "string" ? report.meta.base : "";
  return { input: example, base };
}

/** A family's buckets whose key or an example holds `text` (case-insensitive).
 *  @param {ReportFamily} family @param {string} text @returns {ReportBucket[]} */
export function filterBuckets(family, text) {
  const t = text.trim().toLowerCase();
  if (!t) return family.buckets;
  return family.buckets.filter((b) => b.key.toLowerCase().includes(t) || b.examples.some((e) => e.toLowerCase().includes(t)));
}

/** The report of a "survey" answer (or its error). @param {any} answer */
function reportOf(answer) {
  if (!answer || answer.error) return answer;
  const a = answer.kind === "survey" ? answer : answer.result;
  return a && a.report ? a.report : answer;
}

export class SurveyView {
  /**
   * @param {HTMLElement} panel
   * @param {object} deps
   * @param {(kind: string, params: object, options?: object) => Promise<any>} deps.call
   * @param {(target: {input: string, base: string}) => void} deps.open the calculator, at an example
   * @param {(url: string) => Promise<any>} [deps.fetchJSON] (tests: a stand-in for fetch)
   */
  constructor(panel, { call, open, fetchJSON }) {
    this.panel = panel;
    this.call = call;
    this.open = open;
    this.fetchJSON = fetchJSON ?? (async (/** @type {string} */ url) => {
      const r = await fetch(url, { credentials: "same-origin" });
      if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
      return r.json();
    });
    /** @type {SurveyReport | null} */
    this.report = null;
    this.source = "";
    this.family = 0;
    this.filter = "";
    this.status = "";
    this.busy = false;
    this.text = "";
    this.base = "";
    /** the permalink's report=<url> last opened */
    this.opened = "";
  }

  /** @param {import("../state/store.js").PageState} state */
  update(state) {
    const wanted = state.report || "";
    if (wanted && wanted !== this.opened) {
      this.opened = wanted;
      void this.openURL(wanted);
    }
    this.draw();
  }

  /** @param {string} url */
  async openURL(url) {
    const u = reportURL(url, location.href);
    if (!u) return this.say("A report is opened from this page's own site only (report=<same-origin URL>).");
    this.say("Opening the report…");
    try {
      this.show(readReport(await this.fetchJSON(u)), u);
    } catch (e) {
      this.say("The report could not be opened: " + (e instanceof Error ? e.message : String(e)));
    }
  }

  /** @param {File} file */
  async openFile(file) {
    try {
      this.show(readReport(JSON.parse(await file.text())), file.name);
    } catch (e) {
      this.say(`${file.name} is not a report: ` + (e instanceof Error ? e.message : String(e)));
    }
  }

  /** Survey the pasted URLs (or a text file's) with the engine. @param {string} text @param {string} base */
  async survey(text, base) {
    const refusal = surveyRefusal(text);
    if (refusal) return this.say(refusal);
    this.busy = true;
    this.say(`Surveying ${surveyLines(text).length.toLocaleString("en")} URLs…`);
    const answer = reportOf(await this.call("survey", { urls: text, base: base || null }));
    this.busy = false;
    if (!answer || answer.error) return this.say("The survey was refused: " + String(answer?.error ?? "no answer"));
    try {
      this.show(readReport(answer), "the URLs pasted here");
    } catch (e) {
      this.say("The survey's answer is not a report: " + (e instanceof Error ? e.message : String(e)));
    }
  }

  /** @param {SurveyReport} report @param {string} source */
  show(report, source) {
    this.report = report;
    this.source = source;
    this.family = 0;
    this.filter = "";
    this.say(`Opened ${source}.`);
  }

  /** @param {string} message */
  say(message) {
    this.status = message;
    this.draw();
  }

  draw() {
    show(this.panel, html`<div class="survey">${this.opener()}${this.report ? this.body(this.report) : nothing}</div>`);
  }

  opener() {
    const pick = (/** @type {Event} */ e) => {
      const f = /** @type {HTMLInputElement} */ (e.target).files?.[0];
      if (f) void this.openFile(f);
    };
    const pickText = async (/** @type {Event} */ e) => {
      const f = /** @type {HTMLInputElement} */ (e.target).files?.[0];
      if (!f) return;
      this.text = await f.text();
      this.draw();
    };
    return html`<div class="survey-open"><label>Open a report (JSON) <input type="file" id="survey-file" accept=".json,application/json" @change=${pick}></label><details class="survey-here"><summary>Survey URLs here (at most ${MAX_SURVEY_URLS.toLocaleString("en")})</summary><label for="survey-urls">URLs, one a line</label><textarea id="survey-urls" rows="5" spellcheck="false" .value=${this.text} @input=${(/** @type {Event} */ e) => { this.text = /** @type {HTMLTextAreaElement} */ (e.target).value; }}></textarea><div class="survey-row"><label>or a text file <input type="file" id="survey-text-file" accept=".txt,text/plain" @change=${pickText}></label><label>base <input type="text" id="survey-base" spellcheck="false" .value=${this.base} @input=${(/** @type {Event} */ e) => { this.base = /** @type {HTMLInputElement} */ (e.target).value; }}></label><button type="button" id="survey-run" ?disabled=${this.busy} @click=${() => void this.survey(this.text, this.base)}>Survey</button></div></details><p class="survey-status" role="status">${this.status}</p></div>`;
  }

  /** @param {SurveyReport} r */
  body(r) {
    const den = r.denominators;
    const fam = r.families[Math.min(this.family, r.families.length - 1)];
    const meta = r.meta || {};
    const sources = Array.isArray(meta.sources) ? meta.sources.map(String) : [];
    return html`<section class="survey-report" aria-label="The report"><h3 id="survey-title">${den.urls.toLocaleString("en")} URLs</h3><p class="survey-meta">from ${vis(sources.join(", ") || this.source, 200)}${meta.base ? html`; base ${vis(String(meta.base), 200)}` : nothing}${meta.finished ? html`; ${String(meta.finished)}` : nothing}</p><dl class="survey-den" id="survey-denominators">${Object.entries(DENOMINATOR_WORDS).map(([name, words]) => html`<div><dt>${words}</dt><dd data-den=${name}>${Number(den[name]).toLocaleString("en")}</dd></div>`)}</dl>${fam ? this.familyTable(r, fam) : html`<p>No buckets.</p>`}</section>`;
  }

  /** @param {SurveyReport} r @param {ReportFamily} fam */
  familyTable(r, fam) {
    const d = Number(r.denominators[fam.denominator]);
    const words = DENOMINATOR_WORDS[/** @type {keyof typeof DENOMINATOR_WORDS} */ (fam.denominator)];
    const buckets = filterBuckets(fam, this.filter);
    const shown = buckets.slice(0, SHOWN_BUCKETS);
    const choose = (/** @type {Event} */ e) => {
      this.family = Number(/** @type {HTMLSelectElement} */ (e.target).value);
      this.filter = "";
      this.draw();
    };
    const filter = (/** @type {Event} */ e) => {
      this.filter = /** @type {HTMLInputElement} */ (e.target).value;
      this.draw();
    };
    return html`<div class="survey-pick"><label>Family <select id="survey-family" @change=${choose}>${r.families.map((f, i) => html`<option value=${String(i)} ?selected=${f === fam}>${f.title || f.family} (${f.buckets.length.toLocaleString("en")})</option>`)}</select></label><label>Filter <input type="search" id="survey-filter" .value=${this.filter} @input=${filter}></label></div><p class="survey-note">${vis(fam.family, 200)}: ${buckets.length.toLocaleString("en")} buckets; rates of the ${d.toLocaleString("en")} ${words}.${buckets.length > shown.length ? ` The first ${shown.length} are shown: filter to find the others.` : ""}</p><div class="survey-table"><table id="survey-buckets"><thead><tr><th scope="col">bucket</th><th scope="col">how many</th><th scope="col">examples (open in the calculator)</th></tr></thead><tbody>${shown.map((b) => html`<tr><td class="survey-key">${vis(b.key, 300)}</td><td class="survey-count" data-count=${String(b.count)}>${rateText(b.count, d, words)}<meter min="0" max="1" value=${String(d ? b.count / d : 0)} aria-hidden="true"></meter></td><td class="survey-examples">${b.examples.map((ex) => this.example(ex, fam.family, r))}</td></tr>`)}</tbody></table></div>`;
  }

  /** @param {string} ex @param {string} family @param {SurveyReport} r */
  example(ex, family, r) {
    const target = exampleTarget(ex, family, r);
    if (!target) return html`<span class="survey-ex">${vis(ex, SHOWN_EXAMPLE)}</span>`;
    return html`<button type="button" class="survey-ex" title="Open in the calculator" @click=${() => this.open(target)}>${vis(ex, SHOWN_EXAMPLE)}</button>`;
  }
}
