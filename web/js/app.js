// urlcalc page: wires the inputs, the engine (Pyodide worker or the Flask API) and the views.
// The page renders the urlcalc result model; it computes nothing about URLs itself, except the
// two columns of the Implementations view it labels as its own (this browser's new URL() and
// whatwg-url bundled into the page).
import { createEngine } from "./engine/engine.js";
import { MAX_CELLS, h, hasInvisible, hrefPieces, legend, patch, updateCodeLine, vis } from "./render/dom.js";
import { decodeEscapes, encodeEscapes } from "./render/escapes.js";
import { failureBox, renderComponents } from "./views/components.js";
import { StepsView } from "./views/steps.js";
import { loadSpec, onSpec } from "./views/spectext.js";
import { renderResolution } from "./views/resolution.js";
import { SettersView } from "./views/setters.js";
import { renderValidation, verdict } from "./views/validation.js";
import { ImplementationsView } from "./views/implementations.js";
import { EditionsView } from "./views/editions.js";
import { CalculatorsView } from "./views/calculators.js";
import { EXAMPLES, renderExamples } from "./views/examples.js";
import { Tape } from "./views/tape.js";
import { encodingValue, fillEncodings } from "./render/encodings.js";
import { MAX_INPUT_BYTES, OPERATIONS } from "./facts.js";
import { permalinkBase } from "./state/permalink.js";
import { KEYSTROKE_WAIT_MS } from "./engine/sync-channel.js";
import {
  copyText, settersExport, stateToFragment, toMarkdown, toastFn,
  urltestdataEntry, wptJSON,
} from "./render/share.js";
import { Lessons } from "./views/lessons.js";
import { bootLine, renderBootProgress } from "./render/boot.js";
import { LESSON_VIEWS, VIEWS, VIEW_ALIASES } from "./state/view-names.js";
import { pageState } from "./state/page-state.js";

const $ = (id) => document.getElementById(id);

const els = {
  input: $("input"), base: $("base"), escaped: $("input-escaped"), enc: $("encoding"),
  inputView: $("input-view"), hrefView: $("href-view"), verdictSlot: $("verdict-slot"),
  requestError: $("request-error"), engineAnswer: $("engine-answer"), engineBoot: $("engine-boot"),
  differ: $("engines-differ"), tabs: $("tabs"), presenter: $("presenter"), help: $("help"),
  copyDialog: $("copy-dialog"), copyText: $("copy-text"), toast: $("toast"),
  copyNoLink: $("copy-no-link"), copyHere: $("copy-here"),
  inputs: $("inputs"), moreFields: $("more-fields"), answerLine: $("answer-line"),
  bootProgress: $("boot-progress"),
};
const panels = Object.fromEntries(VIEWS.map((v) => [v, $("panel-" + v)]));
const tabs = Object.fromEntries(VIEWS.map((v) => [v, $("tab-" + v)]));
const toast = toastFn(els.toast);

// ---- state ----------------------------------------------------------------------------------

/** Read a fragment into a state the page (and the model) can use (views/page-state.js). */
const stateFrom = pageState;

const startFragment = location.hash.slice(1); // a state, or a lesson link (#lesson=...)
const state = stateFrom(startFragment);

let lastWritten = null;
function writeFragment(push = false) {
  const frag = stateToFragment(state);
  if (frag === lastWritten) return;
  lastWritten = frag;
  const url = location.pathname + location.search + "#" + frag;
  try {
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  } catch {
    // history can throttle very frequent updates; the next change writes it again
    lastWritten = null;
  }
}

// ---- engine ---------------------------------------------------------------------------------

const force = new URLSearchParams(location.search).get("engine");
let engine = null;
try {
  engine = createEngine({ force: force === "pyodide" || force === "server" ? force : null });
} catch (e) {
  engine = null;
  showRequestError("The engine could not start: " + (e && e.message ? e.message : String(e)));
}

async function call(kind, params, options) {
  if (!engine) return { error: "no engine" };
  try {
    return await engine.call(kind, params, options);
  } catch (e) {
    return { error: e && e.message ? e.message : String(e) };
  }
}

function showRequestError(msg) {
  els.requestError.hidden = !msg;
  els.requestError.replaceChildren(msg ? vis(msg) : "");
}

let renders = 0;
function rendered(answer) {
  renders += 1;
  document.body.dataset.renders = String(renders);
  if (answer && answer.engine) document.body.dataset.engine = answer.engine;
}

function engineLine(answer) {
  const r = answer && answer.result;
  const info = r && r.engine;
  const who = answer ? (answer.engine === "pyodide" ? "Pyodide (in this page)" : "the server") : "?";
  if (!info) return `urlcalc via ${who}`;
  return `urlcalc ${info.urlcalc || ""} via ${who}: Python ${info.python}, Unicode ${info.unicode}` +
    (info.idna ? `, idna ${info.idna}` : "");
}

// Whether a keystroke's answer can be drawn in the keystroke's own frame (engine.info.isolation:
// the page is cross-origin isolated, by the server's headers or the site's service worker).
function isolationLine(isolation) {
  if (!isolation) return "";
  if (isolation.by) return `Keystrokes answered in their own frame: cross-origin isolated by ${isolation.by === "headers" ? "the server's headers" : "the site's service worker"}`;
  return isolation.reason ? `Answers come by message: not cross-origin isolated (${isolation.reason})` : "";
}

let lastAnswer = null;
function renderEngine(answer) {
  if (answer) lastAnswer = answer;
  const a = lastAnswer;
  const info = engine ? engine.info || {} : {};
  const isolation = isolationLine(info.isolation);
  let title = isolation;
  if (a && a.result && a.result.engine) {
    const ran = a.result.engine;
    patch(els.engineAnswer,
      h("span", { class: ["engine-name", "eng-" + (a.engine === "pyodide" ? "pyodide" : "server")], title: "which engine answered" },
        a.engine === "pyodide" ? "Pyodide" : "Server"),
      h("span", { class: "engine-ver" }, "Python ", String(ran.python), " · Unicode ", String(ran.unicode)),
      typeof a.ms === "number" ? h("span", { class: "engine-ms" }, a.ms < 10 ? a.ms.toFixed(1) + " ms" : Math.round(a.ms) + " ms") : null);
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

// Until the first answer, when only Pyodide can give it (?engine=pyodide, a static export): what
// it is loading and how far.
function renderBoot(info) {
  const show = !result && !!engine && engine.current !== "server" && info.status === "booting" && !!info.progress;
  els.bootProgress.hidden = !show;
  els.bootProgress.parentElement.classList.toggle("booting", show); // the progress stands in for the answer
  if (show) renderBootProgress(els.bootProgress, info.progress);
  else if (els.bootProgress.firstChild) els.bootProgress.replaceChildren();
  if (show && !result) {
    els.answerLine.replaceChildren(h("span", { class: "answer-why" }, bootLine(info.progress)));
  }
}

// ---- rendering ------------------------------------------------------------------------------

let result = null; // the last rendered parse result
let seq = 0;
let renderedSeq = 0;
const renderedFor = {}; // view -> result object it was last rendered with

// The trace is only asked for when the Steps view shows it (a traced answer is much bigger).
function paramsFor(withTrace = state.view === "steps") {
  // max_errors: the views show the validation errors of the first MAX_CELLS code points at most
  const p = { input: state.input, max_errors: MAX_CELLS };
  if (state.base !== "") p.base = state.base;
  if (state.enc !== "") p.encoding = state.enc;
  if (withTrace) p.trace = true;
  return p;
}

// the model refuses longer fields (MAX_INPUT_BYTES): say so without asking
function tooLong(...fields) {
  const enc = new TextEncoder();
  return fields.some((f) => typeof f === "string" && enc.encode(f).length > MAX_INPUT_BYTES);
}

// Keystrokes that arrive while a parse is in flight are coalesced: no request is queued behind
// it; when its answer comes, the newest state is asked for at once and the stale answer is
// dropped (drawn only when nothing was drawn for STALE_DRAW_MS, so that a long burst on a slow
// machine still shows progress). The engine is never more than one request behind the input.
let inFlight = false;
let again = false;
let lastRenderAt = 0;
const STALE_DRAW_MS = 250;

async function compute() {
  if (inFlight) {
    again = true;
    return;
  }
  const n = ++seq;
  if (tooLong(state.input, state.base)) {
    renderedSeq = n;
    showRequestError(`The input is over ${MAX_INPUT_BYTES / 1024} KiB: urlcalc does not parse inputs that long.`);
    rendered(null);
    return;
  }
  inFlight = true;
  let answer;
  try {
    // Waits (a few ms at most) for Pyodide in this task where it can: the answer is then drawn
    // in the frame that shows the keystroke (sync-channel.js).
    prefetchView();
    answer = await call("parse", paramsFor(), { waitMs: KEYSTROKE_WAIT_MS });
  } finally {
    inFlight = false;
  }
  if (again) {
    again = false;
    const drop = performance.now() - lastRenderAt < STALE_DRAW_MS;
    compute(); // the newest input, posted now (before this stale answer is drawn, if it is)
    if (drop) return;
  }
  if (n < renderedSeq) return; // an older answer arriving late
  renderedSeq = n;
  lastRenderAt = performance.now();
  if (answer.error) {
    showRequestError(answer.error);
    rendered(null);
    return;
  }
  showRequestError("");
  const t0 = performance.now();
  result = answer.result;
  renderGlance(result);
  renderEngine(answer);
  renderView(state.view);
  rendered(answer);
  lessons.observe({ input: result.input, base: state.base, enc: state.enc, ops: [], href: result.ok ? result.getters.href : null });
  // timings for benchmarks and the curious: the engine's round trip and our render
  window.urlcalcStats = { callMs: answer.ms, renderMs: Math.round((performance.now() - t0) * 10) / 10,
    ...(answer.engine === "pyodide" && engine ? engine.lastTimings : null) };
  scheduleIdle();
}

// The open view's own request after the parse (Editions, Implementations, Setters), said to the
// engine before the parse is posted: the worker computes it right behind the parse, while the
// page draws the parse (engine.js prefetch).
function prefetchView() {
  if (!engine) return;
  if (state.view === "editions") editionsView.prefetch(engine.prefetch);
  else if (state.view === "implementations") implementationsView.prefetch(engine.prefetch);
  else if (state.view === "setters" && state.ops.length) engine.prefetch("set", setParams());
}

function renderGlance(r) {
  updateCodeLine(els.inputView, r.input, r.spans); // bounded; only changed cells are touched
  // patched, not rebuilt: a keystroke changes a few pieces (dom.js patch)
  patch(els.hrefView, r.ok ? hrefPieces(r.href_spans) : failureBox(r));
  renderAnswerLine(r);
  if (!els.bootProgress.hidden) renderBoot(engine ? engine.info : {});
  els.hrefView.classList.toggle("failed", !r.ok);
  patch(els.verdictSlot, verdict(r));
  applyDiffers();
}

// The answer under the URL field (shown on narrow screens, where the summary is a screen away):
// the href, or that it fails and where. Built only where the style sheet shows it (its
// narrow-screen breakpoint), so that wide screens do not lay out a long href twice.
const narrowScreen = matchMedia("(max-width: 760px)");
narrowScreen.addEventListener("change", () => { if (result) renderAnswerLine(result); });
function renderAnswerLine(r) {
  if (!narrowScreen.matches) {
    if (els.answerLine.firstChild) els.answerLine.replaceChildren();
    return;
  }
  if (r.ok) {
    els.answerLine.replaceChildren(hrefPieces(r.href_spans));
    els.answerLine.dataset.ok = "1";
    return;
  }
  const f = r.failure || {};
  const c = f.cause;
  els.answerLine.dataset.ok = "0";
  els.answerLine.replaceChildren(h("span", { class: "answer-bad" }, f.in === "base" ? "✗ the base fails" : "✗ fails"),
    h("span", { class: "answer-why" }, c ? ` in ${c.algorithm}${c.step ? ", step " + c.step : ""}` : "",
      f.error ? ` (${f.error.name})` : ""));
}

// ---- the escapes and encoding fields: folded (presenter mode, narrow screens) unless used ---

let extraOpen = false;
function updateExtraFields() {
  const used = state.enc !== "" || hasInvisible(state.input);
  const shown = extraOpen || used;
  const extra = shown ? "shown" : "folded";
  if (els.inputs.dataset.extra === extra) return; // unchanged: touch nothing (style is re-matched)
  els.inputs.dataset.extra = extra;
  els.moreFields.setAttribute("aria-expanded", String(shown));
}
els.moreFields.addEventListener("click", () => {
  extraOpen = els.moreFields.getAttribute("aria-expanded") !== "true";
  updateExtraFields();
  if (extraOpen) els.escaped.focus();
});

// The spec's words for the views that quote the steps they cite: asked once, when the page is
// idle (the first answers come first).
setTimeout(() => { loadSpec(call); }, 0);
onSpec(() => {
  // Validation quotes the step of each error: draw it again now that the words are here
  renderedFor.validation = null;
  if (state.view === "validation") renderView("validation");
});

const stepsView = new StepsView(panels.steps, {
  onChange: (i) => {
    state.step = i;
    scheduleFragment();
  },
});
const settersView = new SettersView(panels.setters, {
  getOps: () => state.ops,
  setOps: (ops, structural) => {
    state.ops = ops;
    writeFragment(structural);
    computeSet();
  },
  getTrace: () => state.strace,
  setTrace: (on) => {
    state.strace = on;
    writeFragment();
    computeSet();
  },
});
const calculators = new CalculatorsView(panels.calculators, {
  call,
  onState: (partial) => {
    Object.assign(state, partial);
    scheduleFragment();
  },
  report: (answer) => {
    if (!answer.error) renderEngine(answer);
    rendered(answer.error ? null : answer);
  },
});
// Editions: asked for only while its tab is visible (renderView), so typing stays fast.
const editionsView = new EditionsView(panels.editions, {
  call,
  getState: () => state,
  setErrata: (on) => {
    state.errata = on;
    writeFragment(true);
    editionsView.refresh();
  },
  onRandom: (r) => {
    loadInputs({ input: r.input, base: r.base ?? "" }, true);
    toast(`Random input from the ${r.name} grammar (seed ${r.seed})`);
  },
  report: (answer) => {
    if (!answer.error) renderEngine(answer);
    rendered(answer.error ? null : answer);
    if (!answer.error) scheduleIdle(); // the paper tape records the comparison
  },
});
// Implementations: asked for only while its tab is visible, like Editions.
const implementationsView = new ImplementationsView(panels.implementations, {
  call,
  getState: () => state,
  report: (answer) => {
    if (!answer.error) renderEngine(answer);
    rendered(answer.error ? null : answer);
  },
});
let examplesRendered = false;

function renderView(view) {
  const panel = panels[view];
  if (view === "calculators") {
    if (!renderedFor.calculators) {
      renderedFor.calculators = true;
      calculators.runAll();
    }
    return;
  }
  if (view === "examples") {
    if (!examplesRendered) {
      renderExamples(panel, { onPick: pickExample });
      examplesRendered = true;
    }
    return;
  }
  if (view === "lessons") {
    lessons.show();
    return;
  }
  if (view === "editions") {
    editionsView.refresh();
    return;
  }
  if (view === "implementations") {
    implementationsView.refresh();
    return;
  }
  if (!result) return;
  if (view === "setters") {
    settersView.renderStart(state);
    if (renderedFor.setters !== result) computeSet();
    return;
  }
  if (view === "steps" && !result.trace) {
    compute(); // the last answer had no trace: ask again, with it
    return;
  }
  if (renderedFor[view] === result) return;
  renderedFor[view] = result;
  if (view === "components") renderComponents(panel, result);
  else if (view === "steps") {
    stepsView.pos = state.step;
    stepsView.render(result);
  } else if (view === "resolution") renderResolution(panel, result);
  else if (view === "validation") renderValidation(panel, result);
  if (view === "components") applyDiffers();
}

/** The Setters lab's request: the input, its base, the operations, the trace if shown. */
function setParams() {
  const params = { input: state.input, ops: state.ops };
  if (state.base !== "") params.base = state.base;
  if (state.strace) params.trace = true;
  return params;
}

let setSeq = 0;
let setRendered = 0;
let lastSetModel = null;
async function computeSet() {
  const n = ++setSeq;
  const params = setParams();
  const answer = tooLong(state.input, state.base, ...state.ops.map((o) => o[1]))
    ? { error: `An input or a value is over ${MAX_INPUT_BYTES / 1024} KiB: urlcalc does not take inputs that long.` }
    : await call("set", params, { waitMs: KEYSTROKE_WAIT_MS });
  if (n < setRendered) return;
  setRendered = n;
  renderedFor.setters = result;
  if (answer.error) {
    settersView.renderResult({ error: answer.error });
    rendered(null);
    return;
  }
  lastSetModel = answer.result;
  settersView.renderStart(state);
  settersView.renderResult(answer.result);
  lessons.observe({ input: params.input, base: state.base, enc: "", ops: params.ops,
    href: lastSetModel.ok ? lastSetModel.getters.href : null });
  renderEngine(answer);
  rendered(answer);
}

// ---- engines differ (engine.both) -------------------------------------------------------------

let differs = { key: null, paths: [] };
let idleTimer = null;
function scheduleIdle() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(onIdle, 900);
}

async function onIdle() {
  addToTape();
  if (!engine || typeof engine.both !== "function") return;
  if (tooLong(state.input, state.base)) return; // no engine is asked about such an input
  const info = engine.info || {};
  if (info.status !== "ready" || !info.server) return;
  const params = paramsFor(false);
  const key = JSON.stringify(params);
  if (differs.key === key) return;
  try {
    const res = await engine.both("parse", params);
    if (key !== JSON.stringify(paramsFor(false))) return;
    differs = { key, paths: Array.isArray(res && res.differs) ? res.differs.map(pathString) : [] };
  } catch {
    differs = { key, paths: [] };
  }
  applyDiffers();
}

function pathString(p) {
  return Array.isArray(p) ? p.join(".") : String(p);
}

function applyDiffers() {
  const key = JSON.stringify(paramsFor(false));
  const paths = differs.key === key ? differs.paths : [];
  for (const el of document.querySelectorAll(".engine-differs")) el.classList.remove("engine-differs");
  if (!paths.length) {
    els.differ.hidden = true;
    els.differ.replaceChildren();
    return;
  }
  for (const p of paths) {
    const parts = p.split(/[./[\]]+/).filter(Boolean);
    const i = parts.indexOf("getters");
    if (i >= 0 && parts[i + 1]) {
      for (const el of document.querySelectorAll(`[data-getter="${CSS.escape(parts[i + 1])}"]`)) el.classList.add("engine-differs");
    }
    const j = parts.indexOf("record");
    if (j >= 0 && parts[j + 1]) {
      for (const el of document.querySelectorAll(`#panel-components tr[data-field="${CSS.escape(parts[j + 1])}"]`)) el.classList.add("engine-differs");
    }
  }
  els.differ.hidden = false;
  els.differ.replaceChildren(h("strong", null, "The engines differ"), " (server vs Pyodide, e.g. Unicode versions) on: ",
    h("code", null, paths.slice(0, 8).join(", ") + (paths.length > 8 ? ", …" : "")));
}

// ---- paper tape -------------------------------------------------------------------------------

const tape = new Tape($("tape"), $("tape-clear"), {
  onPick: (e) => {
    loadInputs({ input: e.input, base: e.base || "", enc: e.enc || "" }, true);
    if (e.view && VIEWS.includes(e.view)) selectView(e.view);
  },
});

function addToTape() {
  if (!result || result.input !== state.input || state.input === "") return;
  const cmp = editionsView.model;
  if (state.view === "editions" && cmp && cmp.input === state.input && (cmp.base ?? "") === state.base) {
    const n = editionsView.differing(cmp).length;
    tape.add({
      input: state.input, base: state.base, ok: cmp.current !== null,
      out: cmp.current !== null ? cmp.current.href : "failure", view: "editions", enc: state.enc || undefined,
      note: `${n} of ${cmp.editions.length} editions differ${cmp.errata ? " (errata)" : ""}`,
    });
    return;
  }
  tape.add({
    input: state.input, base: state.base, ok: !!result.ok,
    out: result.ok ? result.getters.href : "failure", enc: state.enc || undefined,
  });
}
$("tape-export").addEventListener("click", () => lessons.exportTape(tape.entries));
$("tape-lesson").addEventListener("click", () => {
  if (lessons.lessonFromTape(tape.entries)) selectView("lessons");
});

// ---- lessons ----------------------------------------------------------------------------------

/** Show a lesson step: its input, base, encoding, setters, view and trace step. */
function applyLessonStep(s) {
  window.scrollTo(0, 0); // the lesson bar, the answer and the top of the view
  Object.assign(state, { input: s.input, base: s.base, enc: encodingValue(s.enc), ops: s.ops.map((o) => o.slice()), step: s.step });
  syncFields();
  settersView.renderEditor();
  stepsView.pos = state.step;
  renderedFor.setters = null;
  selectView(s.view, { write: false });
  writeFragment(true);
  compute();
}

/** The page as a lesson step (the view: the last one open before Lessons). */
function currentLessonStep() {
  const view = LESSON_VIEWS.includes(state.view) ? state.view : lastLessonView;
  const step = { input: state.input, base: state.base, view, step: view === "steps" ? state.step : 0, note: "",
    ops: view === "setters" ? state.ops.map((o) => o.slice()) : [], enc: state.enc };
  if (step.ops.length) {
    if (lastSetModel && renderedFor.setters === result) step.href = lastSetModel.ok ? lastSetModel.getters.href : null;
  } else if (result && result.input === state.input) step.href = result.ok ? result.getters.href : null;
  return step;
}

const lessons = new Lessons({
  panel: panels.lessons,
  bar: $("lesson-bar"),
  views: LESSON_VIEWS,
  aliases: VIEW_ALIASES,
  operations: OPERATIONS,
  viewLabel: (v) => (tabs[v] ? tabs[v].textContent.trim() : v),
  apply: applyLessonStep,
  current: currentLessonStep,
  tapeEntries: () => tape.entries.slice(),
  copy: (text, what) => copyText(text, { dialog: els.copyDialog, textarea: els.copyText, toast, what }),
  toast,
  present: (on) => setPresenter(on),
  publicBase: () => permalinkBase(engine ? engine.info : null, location),
});

/** The lesson link in a fragment ("lesson=<value>&at=<n>"), or null. */
function lessonLink(fragment) {
  const parts = new URLSearchParams(fragment);
  if (!parts.has("lesson")) return null;
  const at = Number.parseInt(parts.get("at") ?? "1", 10);
  return { value: parts.get("lesson") ?? "", at: Number.isSafeInteger(at) && at > 0 ? at : 1 };
}

// ---- inputs -----------------------------------------------------------------------------------

// A field's value is set only when it differs: setting even the same value makes the browser
// lay the field out again, on every keystroke.
function setField(el, value) {
  if (el.value !== value) el.value = value;
}

function syncFields({ except = null } = {}) {
  if (except !== els.input) setField(els.input, state.input);
  if (except !== els.escaped) setField(els.escaped, encodeEscapes(state.input));
  if (except !== els.base) setField(els.base, state.base);
  if (except !== els.enc) setField(els.enc, state.enc);
  updateExtraFields();
}

function update() {
  updateExtraFields();
  // typing replaces the fragment at most every 250 ms (browsers throttle history floods)
  scheduleFragment();
  clearTimeout(idleTimer); // idle again only after the new input's render (compute schedules it)
  renderedFor.setters = null;
  compute();
}

els.input.addEventListener("input", () => {
  state.input = els.input.value;
  update(); // first: the engine gets the input now, and works while this task goes on
  syncFields({ except: els.input });
});
els.escaped.addEventListener("input", () => {
  state.input = decodeEscapes(els.escaped.value);
  els.input.value = state.input;
  update();
});
els.escaped.addEventListener("blur", () => { els.escaped.value = encodeEscapes(state.input); });
els.base.addEventListener("input", () => {
  state.base = els.base.value;
  update();
});
els.enc.addEventListener("change", () => {
  state.enc = els.enc.value;
  update();
});
for (const el of [els.input, els.base, els.escaped]) {
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      writeFragment(true);
      addToTape();
    }
  });
}

function loadInputs(partial, push) {
  Object.assign(state, partial);
  syncFields();
  writeFragment(push);
  renderedFor.setters = null;
  compute();
}

function pickExample(ex) {
  loadInputs({ input: ex.input, base: ex.base || "" }, true);
  selectView("components", { focus: false });
  toast("Loaded: " + ex.note);
}

// ---- tabs -------------------------------------------------------------------------------------

let lastLessonView = "components"; // the last view a lesson step could show
function selectView(view, { focus = false, push = true, write = true } = {}) {
  if (!VIEWS.includes(view)) view = "components";
  if (LESSON_VIEWS.includes(view)) lastLessonView = view;
  if (state.view === "steps" && view !== "steps") stepsView.stop();
  state.view = view;
  for (const v of VIEWS) {
    const on = v === view;
    tabs[v].setAttribute("aria-selected", String(on));
    tabs[v].tabIndex = on ? 0 : -1;
    panels[v].hidden = !on;
  }
  document.body.dataset.view = view;
  if (focus) tabs[view].focus();
  if (write) writeFragment(push);
  renderView(view);
}

els.tabs.addEventListener("click", (e) => {
  const tab = e.target.closest("[role=tab]");
  if (tab) selectView(tab.dataset.view);
});
els.tabs.addEventListener("keydown", (e) => {
  const i = VIEWS.indexOf(state.view);
  let j = null;
  if (e.key === "ArrowRight") j = (i + 1) % VIEWS.length;
  else if (e.key === "ArrowLeft") j = (i - 1 + VIEWS.length) % VIEWS.length;
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = VIEWS.length - 1;
  if (j === null) return;
  e.preventDefault();
  selectView(VIEWS[j], { focus: true });
});

// ---- presenter, help, copy --------------------------------------------------------------------

function setPresenter(on, write = true) {
  state.presenter = on;
  document.body.classList.toggle("presenter", on);
  els.presenter.setAttribute("aria-pressed", String(on));
  stepsView.fitToScreen();
  if (write) writeFragment(false);
}
els.presenter.addEventListener("click", () => setPresenter(!state.presenter));
$("help-btn").addEventListener("click", () => els.help.showModal());

/** This state's link at the calculator's public address, or null if it knows none
 *  (views/permalink.js). */
function permalink() {
  const base = permalinkBase(engine ? engine.info : null, location);
  return base === null ? null : base + "#" + stateToFragment(state);
}

/** Copy options: without a public address, the dialog opens and says why there is no link. */
function copyOptions(link, what) {
  const options = { dialog: els.copyDialog, textarea: els.copyText, toast, what };
  if (link === null) {
    els.copyHere.textContent = location.protocol === "file:" ? location.protocol : location.origin + location.pathname;
    options.note = els.copyNoLink;
  }
  return options;
}

async function copyMarkdown() {
  const link = permalink();
  const md = toMarkdown(state, result, engineLine(lastAnswer), link);
  await copyText(md, copyOptions(link, "Markdown table"));
}

async function copyWPT() {
  const link = permalink();
  const comment = link === null ? null : "urlcalc: " + link;
  let text;
  let what;
  if (state.view === "setters" && lastSetModel) {
    // setters_tests.json's own top-level "comment" is a list of lines: what the export left out
    // and why first, then the permalink's line
    const out = settersExport(lastSetModel);
    const { comment: skippedLines = [], ...entries } = out.json;
    const lines = [...skippedLines, ...(comment ? [comment] : [])];
    text = wptJSON({ ...(lines.length ? { comment: lines } : {}), ...entries });
    what = `setters_tests.json entries (${out.exported} of ${out.exported + out.skipped.length} operations; ` +
      (out.skipped.length ? `not ${out.skipped.map((x) => x.n).join(", ")}: no such form, see the comment)` : "all)");
  } else {
    // urltestdata.json entries may carry a "comment"
    text = wptJSON({ ...(comment ? { comment } : {}), ...urltestdataEntry(state, result) });
    what = "urltestdata.json entry";
  }
  await copyText(text, copyOptions(link, what));
}
$("copy-md").addEventListener("click", copyMarkdown);
$("copy-wpt").addEventListener("click", copyWPT);

// ---- keyboard shortcuts -----------------------------------------------------------------------

function editable(t) {
  return t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const t = e.target;
  if (editable(t)) {
    if (e.key === "Escape" && t.tagName !== "SELECT") t.blur();
    return;
  }
  if (t && t.id === "step-list" && [" ", "Enter", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"].includes(e.key)) return;
  let handled = true;
  if (e.key === "/") els.input.focus();
  else if (e.key === "b") els.base.focus();
  else if (/^[0-9]$/.test(e.key)) selectView(VIEWS[(Number(e.key) + 9) % 10], { focus: true });
  else if ((e.key === "]" || e.key === "[") && lessons.playing) lessons.go(e.key === "]" ? 1 : -1);
  else if (e.key === "p") setPresenter(!state.presenter);
  else if (e.key === "?") els.help.showModal();
  else if (e.key === "m") copyMarkdown();
  else if (e.key === "w") copyWPT();
  else if (e.key === "," || e.key === ".") {
    if (state.view !== "steps") selectView("steps");
    stepsView.go(stepsView.pos + (e.key === "." ? 1 : -1));
  } else if (e.key === "k") {
    if (state.view !== "steps") selectView("steps");
    stepsView.toggle();
  } else handled = false;
  if (handled) e.preventDefault();
});

// While a lesson plays, PgDn / PgUp (what a presentation clicker sends) step through it, even with
// the focus in the step list (where they would move ten trace steps).
document.addEventListener("keydown", (e) => {
  if (!lessons.playing || (e.key !== "PageDown" && e.key !== "PageUp")) return;
  if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || document.querySelector("dialog[open]")) return;
  const t = e.target;
  if (editable(t) && t.tagName !== "SELECT") return;
  e.preventDefault();
  e.stopPropagation();
  lessons.go(e.key === "PageDown" ? 1 : -1);
}, true);

document.querySelector(".skip").addEventListener("click", (e) => {
  e.preventDefault();
  els.input.focus();
});

// ---- history ----------------------------------------------------------------------------------

let fragTimer = null;
function scheduleFragment() {
  clearTimeout(fragTimer);
  fragTimer = setTimeout(() => writeFragment(false), 250);
}

function restoreFromLocation() {
  const frag = location.hash.slice(1);
  if (frag === lastWritten) return;
  if (frag && !frag.includes("=")) return; // an in-page anchor, not a state
  const link = lessonLink(frag);
  if (link) {
    lastWritten = frag;
    lessons.openLink(link.value, link.at);
    return;
  }
  Object.assign(state, stateFrom(frag));
  lastWritten = frag;
  syncFields();
  calculators.load(state);
  renderedFor.calculators = false;
  settersView.renderEditor();
  setPresenter(state.presenter, false);
  stepsView.pos = state.step;
  selectView(state.view, { write: false });
  renderedFor.setters = null;
  compute();
}
window.addEventListener("popstate", restoreFromLocation);
window.addEventListener("resize", () => stepsView.fitToScreen());
window.addEventListener("hashchange", restoreFromLocation);

// ---- start ------------------------------------------------------------------------------------

$("legend").replaceWith(Object.assign(legend(), { id: "legend" }));
fillEncodings(els.enc);
syncFields();
calculators.load(state);
settersView.renderEditor();
setPresenter(state.presenter, false);
stepsView.pos = state.step;
selectView(state.view, { write: false });
writeFragment(false);
renderEngine(null);
if (engine && typeof engine.onchange === "function") {
  // Recompute when another engine takes over, not when only its info changes; the first engine
  // to take over is the one the start's compute() below is already waiting for.
  let engineSeen = null;
  engine.onchange(() => {
    renderEngine(null);
    if (engine.current === engineSeen) return;
    const first = engineSeen === null;
    engineSeen = engine.current;
    if (first) return;
    for (const k of Object.keys(renderedFor)) renderedFor[k] = null;
    editionsView.invalidate();
    implementationsView.invalidate();
    compute();
    if (state.view === "calculators") {
      renderedFor.calculators = true;
      calculators.runAll();
    }
  });
}
const startLink = lessonLink(startFragment);
if (startLink) {
  lessons.openLink(startLink.value, startLink.at).then((ok) => { if (!ok) compute(); });
} else {
  lessons.resume();
  compute();
}
// For scripting and debugging from the console: the engine, the page state, the examples.
window.urlcalc = { engine, state, examples: EXAMPLES.map((e) => ({ ...e })), lessons };
