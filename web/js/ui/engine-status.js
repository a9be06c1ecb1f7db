// @ts-check
// The engine's line in the page's header: which engine answered (Pyodide in this page or the
// server), its Python and Unicode, the answer's time, whether keystrokes are answered in their own
// frame (cross-origin isolation), and until the first answer what Pyodide is loading.
import { html, nothing, show as showIn } from "../render/templates.js";
import { bootLine, renderBootProgress } from "../render/boot.js";

/** @typedef {import("../views/asking-view.js").EngineAnswer} EngineAnswer */

/** "urlcalc 0.1 via Pyodide (in this page): Python 3.12, Unicode 16" (the exports' credit line).
 *  @param {EngineAnswer | null} answer */
export function engineLine(answer) {
  const r = answer && answer.result;
  const info = r && r.engine;
  const who = answer ? (answer.engine === "pyodide" ? "Pyodide (in this page)" : "the server") : "?";
  if (!info) return `urlcalc via ${who}`;
  return `urlcalc ${info.urlcalc || ""} via ${who}: Python ${info.python}, Unicode ${info.unicode}` +
    (info.idna ? `, idna ${info.idna}` : "");
}

// Whether a keystroke's answer can be drawn in the keystroke's own frame (engine.info.isolation:
// the page is cross-origin isolated, by the server's headers or the site's service worker).
/** @param {{by?: string | null, reason?: string} | undefined} isolation */
function isolationLine(isolation) {
  if (!isolation) return "";
  if (isolation.by) return `Keystrokes answered in their own frame: cross-origin isolated by ${isolation.by === "headers" ? "the server's headers" : "the site's service worker"}`;
  return isolation.reason ? `Answers come by message: not cross-origin isolated (${isolation.reason})` : "";
}

/**
 * The header's engine status, kept up to date.
 * @param {{ engineAnswer: HTMLElement, engineBoot: HTMLElement, bootProgress: HTMLElement, answerLine: HTMLElement }} els
 * @param {any} engine the page's engine (engine/engine.js), or null
 * @param {string | null} force ?engine=
 * @param {() => boolean} answered whether the page has drawn an answer yet
 */
export function engineStatus(els, engine, force, answered) {
  /** @type {EngineAnswer | null} */
  let last = null;
  /** @type {EngineAnswer | null} the page's own parse drawn last (a view's answer, such as
   *  Implementations' from the server, is shown only while that view is open) */
  let lastPage = null;

  /** @param {any} info */
  function renderBoot(info) {
    const show = !answered() && !!engine && engine.current !== "server" && info.status === "booting" && !!info.progress;
    els.bootProgress.hidden = !show;
    els.bootProgress.parentElement?.classList.toggle("booting", show); // the progress stands in for the answer
    if (show) renderBootProgress(els.bootProgress, info.progress);
    else if (els.bootProgress.firstChild) renderBootProgress(els.bootProgress, null);
    // (lit-html owns the answer line: glance.js draws the answer in it with show() too)
    if (show) showIn(els.answerLine, html`<span class="answer-why">${bootLine(info.progress)}</span>`);
  }

  /** @param {EngineAnswer | null} answer the answer just drawn (null: the engine changed) */
  function render(answer) {
    if (answer) last = answer;
    const a = last;
    const info = engine ? engine.info || {} : {};
    const isolation = isolationLine(info.isolation);
    let title = isolation;
    if (a && a.result && a.result.engine) {
      const ran = a.result.engine;
      const pyodide = a.engine === "pyodide";
      showIn(els.engineAnswer, html`<span class=${"engine-name eng-" + (pyodide ? "pyodide" : "server")} title="which engine answered">${pyodide ? "Pyodide" : "Server"}</span><span class="engine-ver">Python ${String(ran.python)} · Unicode ${String(ran.unicode)}</span>${typeof a.ms === "number" ? html`<span class="engine-ms">${a.ms < 10 ? a.ms.toFixed(1) + " ms" : Math.round(a.ms) + " ms"}</span>` : nothing}`);
      title = engineLine(a) + (ran.idna_tables ? `, IDNA tables ${ran.idna_tables}` : "") + (isolation ? "\n" + isolation : "");
    }
    if (els.engineAnswer.title !== title) els.engineAnswer.title = title;
    const isolated = info.isolation ? (info.isolation.by ?? "none").replace(" ", "-") : "";
    if (els.engineAnswer.dataset.isolation !== isolated) els.engineAnswer.dataset.isolation = isolated;
    let boot = "";
    const forced = force === "server" || force === "pyodide" ? ` (forced by ?engine=${force})` : "";
    if (!engine) boot = "no engine";
    else if (info.status === "booting") boot = force === "server" ? "" : bootLine(info.progress);
    else if (info.status === "ready") boot = forced ? forced.trim() : "";
    else if (info.status === "failed") {
      boot = (engine.current === "server" ? "Pyodide unavailable: the server answers" : "No engine can answer") +
        (info.error ? ` (${info.error})` : "");
    }
    // Set only when changed: even an equal textContent replaces the text node and lays it out.
    if (els.engineBoot.textContent !== boot) {
      els.engineBoot.textContent = boot;
      els.engineBoot.title = boot; // the whole of it where presenter mode cuts it short
    }
    const bootClass = "engine-boot " + (info.status || "");
    if (els.engineBoot.className !== bootClass) els.engineBoot.className = bootClass;
    if (info.where) document.body.dataset.where = info.where;
    renderBoot(info);
  }

  return {
    render,
    /** the page's parse was drawn: shown, and remembered for showPage() @param {EngineAnswer} answer */
    page: (answer) => {
      lastPage = answer;
      render(answer);
    },
    /** another view opened: the badge says who answered the page's parse, until the view's own
     *  answer comes */
    showPage: () => { if (lastPage && lastPage !== last) render(lastPage); },
    /** while the boot progress is shown: draw it again */
    renderBoot: () => { if (!els.bootProgress.hidden) renderBoot(engine ? engine.info : {}); },
    /** the credit line of the last answer drawn */
    line: () => engineLine(last),
  };
}
