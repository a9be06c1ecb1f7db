// @ts-check
// Handouts (issue 29): a lesson, or the paper tape, laid out for paper. Each step is a question:
// its input, its base, the step's note (the question the teacher asks) and lines to write on;
// the answers (the href, or the failure and why) come last, on a page of their own
// (css/print.css: .handout-answers starts a page). The handout is drawn into #handout, which
// only print shows; body[data-print="handout"] prints it alone, until the print dialog closes.
// Every string from a URL or a lesson file is text (lit-html), shown as the page shows strings
// (invisible code points as ⟨U+XXXX⟩, at most MAX_SHOWN_CODE_POINTS of each).
import { html, nothing, render } from "../vendor/lit-html.mjs";
import { MAX_TEXT, visText } from "../render/dom.js";

/**
 * One question of a handout and its answer.
 * @typedef {object} HandoutItem
 * @property {string} input
 * @property {string} base
 * @property {string} question the step's note ("" : none)
 * @property {string} [setters] the Setters lab's operations, in words ("" : none)
 * @property {{ok: boolean, href: string | null, why: string} | null} answer null: not known
 */

/** A string as the page shows it, cut at the page's limit with the count of the rest.
 *  @param {string} s */
export function shown(s) {
  const cps = Array.from(String(s));
  const text = visText(cps.slice(0, MAX_TEXT).join(""));
  return cps.length > MAX_TEXT ? `${text} … (${(cps.length - MAX_TEXT).toLocaleString("en")} more code points not shown)` : text;
}

/** @param {HandoutItem["answer"]} a */
function answerText(a) {
  if (!a) return html`<span class="muted">(not computed)</span>`;
  if (a.ok && a.href !== null) return html`<code class="handout-href">${shown(a.href)}</code>`;
  return html`<span class="handout-failure">failure${a.why ? `: ${visText(a.why)}` : ""}</span>`;
}

/** The handout's template: the questions, then the answers.
 *  @param {{title: string, description?: string, kind: "lesson" | "tape", items: HandoutItem[]}} h */
export function handoutTemplate(h) {
  const what = h.kind === "tape" ? "Exercises" : "Handout";
  const ask = "What does the URL parser make of it? The href, or why it fails:";
  return html`<article class="handout-questions"><h1 class="handout-title">${visText(h.title)}</h1>${
    h.description ? html`<p class="handout-description">${visText(h.description)}</p>` : nothing}<p class="handout-meta">${what} · urlcalc, the URL Standard step by step · Name: <span class="handout-blank"></span></p><ol class="handout-steps">${
    h.items.map((it, i) => html`<li class="handout-step" data-step=${String(i + 1)}><div class="handout-field"><span class="handout-label">Input</span><code class="handout-input">${it.input ? shown(it.input) : "(the empty string)"}</code></div>${
      it.base ? html`<div class="handout-field"><span class="handout-label">Base</span><code class="handout-base">${shown(it.base)}</code></div>` : nothing}${
      it.setters ? html`<div class="handout-field"><span class="handout-label">Then</span><code>${shown(it.setters)}</code></div>` : nothing}<p class="handout-question">${it.question ? visText(it.question) : ask}</p><div class="handout-write" aria-label="space to write"></div></li>`)}</ol></article><article class="handout-answers"><h2>Answers: ${visText(h.title)}</h2><ol class="handout-answer-list">${
    h.items.map((it, i) => html`<li class="handout-answer" data-step=${String(i + 1)}><code class="handout-input">${it.input ? shown(it.input) : "(the empty string)"}</code>${it.base ? html` <span class="muted">(base <code>${shown(it.base)}</code>)</span>` : nothing} → ${answerText(it.answer)}</li>`)}</ol></article>`;
}

/** Draw the handout into #handout (made when missing) and print it alone.
 *  @param {Parameters<typeof handoutTemplate>[0]} h
 *  @param {{print?: boolean}} [options] print: open the print dialog (default) */
export function printHandout(h, { print = true } = {}) {
  let box = document.getElementById("handout");
  if (!box) {
    box = document.createElement("section");
    box.id = "handout";
    box.className = "handout";
    box.setAttribute("aria-label", "Handout (printed only)");
    document.body.append(box);
  }
  render(handoutTemplate(h), box);
  document.body.dataset.print = "handout";
  box.dataset.kind = h.kind;
  box.dataset.ready = String(h.items.length);
  window.addEventListener("afterprint", () => { delete document.body.dataset.print; }, { once: true });
  if (print) window.print();
}

/** A lesson's steps as a handout's items, each answered by `ask` (the engine: a "parse", or a
 *  "set" for a step with setter operations); an answer the engine cannot give is the step's
 *  recorded href.
 *  @param {any} lesson @param {(kind: string, params: object) => Promise<any>} ask
 *  @returns {Promise<HandoutItem[]>} */
export async function lessonItems(lesson, ask) {
  const items = [];
  for (const s of lesson.steps) {
    const ops = Array.isArray(s.ops) ? s.ops : [];
    /** @type {Record<string, any>} */
    const params = { input: s.input };
    if (s.base) params.base = s.base;
    if (ops.length) params.ops = ops;
    else if (s.enc) params.encoding = s.enc;
    let answer = null;
    try {
      const got = await ask(ops.length ? "set" : "parse", params);
      const r = got && !got.error ? got.result : null;
      if (r) answer = { ok: !!r.ok, href: r.ok && r.getters ? r.getters.href : null, why: r.failure ? String(r.failure.reason ?? "") : "" };
    } catch {
      answer = null;
    }
    if (!answer && s.href !== undefined) answer = { ok: s.href !== null, href: s.href, why: "" };
    items.push({ input: String(s.input), base: s.base ? String(s.base) : "", question: s.note ? String(s.note) : "",
      setters: ops.map((/** @type {string[]} */ o) => `${o[0]} ${o[0].startsWith("searchParams.") ? o[1] : "= " + o[1]}`).join("; "), answer });
  }
  return items;
}

/** The paper tape (oldest first) as an exercise sheet's items: its inputs, and the answers the
 *  page gave. @param {any[]} entries @returns {HandoutItem[]} */
export function tapeItems(entries) {
  return entries.map((e) => ({ input: String(e.input), base: e.base ? String(e.base) : "", question: "",
    answer: { ok: !!e.ok, href: e.ok ? String(e.out) : null, why: "" } }));
}
