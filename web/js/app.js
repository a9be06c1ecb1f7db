// @ts-check
// urlcalc page: the wiring. Where each job lives:
//   state/store.js        the page's state, changed only by named actions
//   state/history.js      the history and the permalink, derived from the state
//   engine/               who answers: Pyodide in a worker, or the server's API
//   ui/page-parse.js      the parse of the page's input, asked at every change
//   views/index.js        the views, behind one interface (views/asking-view.js: those that ask)
//   ui/                   the header's engine status, the glance, copying, the keyboard, lessons
// The page renders the urlcalc result model; it computes nothing about URLs itself, except the
// two columns of the Implementations view it labels as its own.
import { createEngine } from "./engine/engine.js";
import { legend, vis } from "./render/dom.js";
import { fillEncodings } from "./render/encodings.js";
import { toastFn } from "./render/share.js";
import { Store, sameParse, tooLong } from "./state/store.js";
import { followHistory, lessonLink } from "./state/history.js";
import { ignoredParts, pageState } from "./state/page-state.js";
import { VIEWS } from "./state/view-names.js";
import { engineStatus } from "./ui/engine-status.js";
import { announcer } from "./ui/announce.js";
import { enginesDiffer } from "./ui/differs.js";
import { copying } from "./ui/copy.js";
import { InWptView } from "./views/in-wpt.js";
import { inputFields } from "./ui/fields.js";
import { glance } from "./ui/glance.js";
import { shortcuts } from "./ui/keyboard.js";
import { lessonsAndTape } from "./ui/lessons-and-tape.js";
import { pageParse } from "./ui/page-parse.js";
import { permalinkNotice } from "./ui/permalink-notice.js";
import { parseRequest } from "./views/requests.js";
import { createViews } from "./views/index.js";
import { StepsView } from "./views/steps.js";
import { SettersView } from "./views/setters.js";
import { EditionsView } from "./views/editions.js";
import { ImplementationsView } from "./views/implementations.js";
import { HistoryView } from "./views/history.js";
import { SurveyView } from "./views/survey.js";
import { CalculatorsView } from "./views/calculators.js";
import { EXAMPLES } from "./views/examples.js";
import { loadSpec, onSpec } from "./views/spectext.js";

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const els = {
  input: /** @type {HTMLInputElement} */ ($("input")), base: /** @type {HTMLInputElement} */ ($("base")),
  escaped: /** @type {HTMLInputElement} */ ($("input-escaped")), enc: /** @type {HTMLSelectElement} */ ($("encoding")),
  inputView: $("input-view"), hrefView: $("href-view"), verdictSlot: $("verdict-slot"), requestError: $("request-error"),
  engineAnswer: $("engine-answer"), engineBoot: $("engine-boot"), differ: $("engines-differ"), tabs: $("tabs"),
  presenter: $("presenter"), help: /** @type {HTMLDialogElement} */ ($("help")),
  copyDialog: /** @type {HTMLDialogElement} */ ($("copy-dialog")), copyText: /** @type {HTMLTextAreaElement} */ ($("copy-text")), toast: $("toast"), copyNoLink: $("copy-no-link"), copyHere: $("copy-here"), copyDuplicate: $("copy-duplicate"),
  inputs: $("inputs"), moreFields: $("more-fields"), answerLine: $("answer-line"), bootProgress: $("boot-progress"),
};
const panels = Object.fromEntries(VIEWS.map((v) => [v, $("panel-" + v)]));
const tabs = Object.fromEntries(VIEWS.map((v) => [v, $("tab-" + v)]));
const toast = toastFn(els.toast);

const startFragment = location.hash.slice(1); // a state, or a lesson link (#lesson=...)
const store = new Store(pageState(startFragment));
const state = () => store.state;

// ---- the engine and what it answers --------------------------------------------------------------

const force = new URLSearchParams(location.search).get("engine");
/** @type {any} */
let engine = null;
try {
  engine = createEngine({ force: force === "pyodide" || force === "server" ? force : null });
} catch (e) {
  showRequestError("The engine could not start: " + (e instanceof Error ? e.message : String(e)));
}
/** @param {string} kind @param {object} params @param {object} [options] */
async function call(kind, params, options) {
  if (!engine) return { error: "no engine" };
  try {
    return await engine.call(kind, params, options);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
/** @param {string} msg */
function showRequestError(msg) {
  els.requestError.hidden = !msg;
  els.requestError.replaceChildren(msg ? vis(msg) : "");
}
let renders = 0;
/** An answer drawn (null: a refusal), for tests and benchmarks; the engine line after it.
 *  @param {any} answer */
function report(answer) {
  if (answer && !answer.error) status.render(answer);
  renders += 1;
  document.body.dataset.renders = String(renders);
  if (answer && !answer.error && answer.engine) document.body.dataset.engine = answer.engine;
}
const status = engineStatus(els, engine, force, () => parse.result() !== null);
const top = glance(els);
const announce = announcer($("answer-live")); // issue 29: the answer, once typing settles
const differ = enginesDiffer(els.differ, engine, () => (tooLong(state().input, state().base) ? null : parseRequest(state(), false)));
const parse = pageParse({
  state, call, engine, view: () => views[state().view],
  drawn: (answer) => {
    showRequestError("");
    top.render(answer.result);
    announce.answered(answer.result);
    status.renderBoot();
    differ.apply();
  },
  done: (answer) => {
    status.page(answer); // (issue 29: the badge names the parse's engine again when a view closes)
    report(answer);
    const r = answer.result;
    lessons.observe({ input: r.input, base: state().base, enc: state().enc, ops: [], href: r.ok ? r.getters.href : null });
    scheduleIdle();
  },
  refused: (message) => {
    showRequestError(message);
    announce.refused(message);
    report(null);
  },
});

// ---- the views ------------------------------------------------------------------------------------

const asking = { call, state, report };
const stepsView = new StepsView(panels.steps, { onChange: (/** @type {number} */ i) => store.dispatch("setStep", i) });
const settersView = new SettersView(panels.setters, {
  ...asking,
  setOps: (ops, structural) => store.dispatch(structural ? "setOpsStructural" : "setOps", ops),
  setTrace: (on) => store.dispatch("setSetterTrace", on),
  onModel: (model, params) => lessons.observe({ input: params.input, base: state().base, enc: "", ops: params.ops,
    href: model.ok ? model.getters.href : null }),
});
const editionsView = new EditionsView(panels.editions, {
  ...asking,
  setErrata: (on) => store.dispatch("setErrata", on),
  setCols: (cols) => store.dispatch("setCols", cols),
  onRandom: (r) => {
    store.dispatch("load", { input: r.input, base: r.base ?? "" });
    toast(`Random input from the ${r.name} grammar (seed ${r.seed})`);
  },
  report: (answer) => {
    report(answer);
    if (!answer.error) scheduleIdle(); // the paper tape records the comparison
  },
});
const implementationsView = new ImplementationsView(panels.implementations, asking);
const inWptView = new InWptView(panels.components, asking);
const historyView = new HistoryView(panels.history, { ...asking, setAsOf: (day) => store.dispatch("setAsOf", day) });
const surveyView = new SurveyView(panels.survey, {
  call,
  open: ({ input, base }) => {
    store.dispatch("load", { input, base });
    selectView("components");
  },
});
const calculators = new CalculatorsView(panels.calculators, { call, report, onState: (partial) => store.dispatch("setCalculator", partial) });
const { lessons, tape, addToTape } = lessonsAndTape({
  store, panels, tabs, $, els, toast, engine: () => engine, result: () => parse.result(),
  setters: () => settersView.last, editions: () => editionsView, selectView,
});
const views = createViews(panels, {
  steps: stepsView, setters: settersView, editions: editionsView, implementations: implementationsView, history: historyView,
  survey: surveyView, calculators, lessons, inWpt: inWptView,
  afterComponents: () => {
    differ.apply();
    inWptView.redraw();
  },
  onExample: (/** @type {any} */ ex) => {
    store.dispatch("load", { input: ex.input, base: ex.base || "" });
    selectView("components");
    toast("Loaded: " + ex.note);
  },
});
// The spec's words for the views that quote the steps they cite: asked once, when the page is
// idle (the first answers come first); Validation quotes the step of each error.
setTimeout(() => { loadSpec(call); }, 0);
onSpec(() => {
  views.validation.forget?.();
  if (state().view === "validation") parse.drawView();
});
/** @type {ReturnType<typeof setTimeout> | undefined} */
let idleTimer;
function scheduleIdle() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => { addToTape(); differ.check(); }, 900);
}

// ---- the state's changes, drawn ------------------------------------------------------------------

const fields = inputFields(els, store, () => {
  pageHistory.pushNow();
  addToTape();
});
/** @param {import("./state/store.js").PageState} s */
function showFields(s) {
  fields.show(s);
  top.extraFields(s);
}
store.subscribe((s, previous, action) => {
  const parseChanged = !sameParse(s, previous);
  if (parseChanged) {
    clearTimeout(idleTimer); // idle again only after the new input's render (compute schedules it)
    announce.changed();
    parse.compute(); // first: the engine gets the input now, and works while this task goes on
  }
  showFields(s);
  if (s.presenter !== previous.presenter) showPresenter(s.presenter);
  if (s.view !== previous.view) showView(s.view, previous.view);
  // (the Steps view goes to the state's step itself: views/index.js)
  if (action.name === "restore" || action.name === "showLessonStep") settersView.renderEditor();
  if (action.name === "restore") {
    calculators.load(s);
    views.calculators.forget?.();
  }
  if (!parseChanged) parse.drawView();
});
/** @param {string} view @param {string} [from] */
function showView(view, from) {
  if (from === "steps" && view !== "steps") stepsView.stop();
  if (from !== undefined && from !== view) status.showPage();
  for (const v of VIEWS) {
    const on = v === view;
    tabs[v].setAttribute("aria-selected", String(on));
    tabs[v].tabIndex = on ? 0 : -1;
    panels[v].hidden = !on;
  }
  document.body.dataset.view = view;
}
/** @param {string} view @param {{focus?: boolean}} [options] */
function selectView(view, { focus = false } = {}) {
  store.dispatch("selectView", VIEWS.includes(view) ? view : "components");
  if (focus) tabs[state().view].focus();
}
/** @param {boolean} on */
function showPresenter(on) {
  document.body.classList.toggle("presenter", on);
  els.presenter.setAttribute("aria-pressed", String(on));
  stepsView.fitToScreen();
}

// ---- the user's actions -------------------------------------------------------------------------

els.moreFields.addEventListener("click", () => top.toggleExtra(state()));
els.tabs.addEventListener("click", (e) => {
  const tab = e.target instanceof Element ? e.target.closest("[role=tab]") : null;
  if (tab instanceof HTMLElement && tab.dataset.view) selectView(tab.dataset.view);
});
els.tabs.addEventListener("keydown", (e) => {
  const i = VIEWS.indexOf(state().view);
  const j = { ArrowRight: (i + 1) % VIEWS.length, ArrowLeft: (i - 1 + VIEWS.length) % VIEWS.length, Home: 0, End: VIEWS.length - 1 }[e.key];
  if (j === undefined) return;
  e.preventDefault();
  selectView(VIEWS[j], { focus: true });
});
els.presenter.addEventListener("click", () => store.dispatch("setPresenter", !state().presenter));
$("help-btn").addEventListener("click", () => els.help.showModal());
const copy = copying({ state, result: () => parse.result(), setterModel: () => settersView.last?.model ?? null,
  engineLine: () => status.line(), engineInfo: () => (engine ? engine.info : null), els, toast,
  wptLookup: () => inWptView.lookup() });
$("copy-md").addEventListener("click", copy.markdown);
$("copy-wpt").addEventListener("click", copy.wpt);
shortcuts({ els, view: () => state().view, selectView, copy, steps: stepsView, lessons,
  togglePresenter: () => store.dispatch("setPresenter", !state().presenter) });
/** @type {HTMLElement} */ (document.querySelector(".skip")).addEventListener("click", (e) => {
  e.preventDefault();
  els.input.focus();
});
window.addEventListener("resize", () => stepsView.fitToScreen());
// (issue 29: what of a permalink the page could not use, said)
const permalinkIgnored = permalinkNotice(els.requestError);
const pageHistory = followHistory(store, { openLesson: (value, at) => lessons.openLink(value, at), ignored: permalinkIgnored });

// ---- start ----------------------------------------------------------------------------------------

$("legend").replaceWith(Object.assign(legend(), { id: "legend" }));
fillEncodings(els.enc);
showFields(state());
calculators.load(state());
settersView.renderEditor();
showPresenter(state().presenter);
stepsView.pos = state().step;
showView(state().view);
pageHistory.writeNow();
status.render(null);
if (engine && typeof engine.onchange === "function") {
  // Recompute when another engine takes over, not when only its info changes; the first engine
  // to take over is the one the start's compute() below is already waiting for.
  /** @type {string | null} */
  let engineSeen = null;
  engine.onchange(() => {
    status.render(null);
    if (engine.current === engineSeen) return;
    const firstEngine = engineSeen === null;
    engineSeen = engine.current;
    if (firstEngine) return;
    for (const v of Object.values(views)) v.forget?.();
    parse.compute();
  });
}
const startLink = lessonLink(startFragment);
if (startLink) {
  lessons.openLink(startLink.value, startLink.at).then((/** @type {boolean} */ ok) => { if (!ok) parse.compute(); });
} else {
  permalinkIgnored(ignoredParts(startFragment));
  lessons.resume().then(() => { if (lessons.playing) store.dispatch("resumeLesson", { ...lessons.playing }); });
  parse.compute();
}
// For scripting and debugging from the console: the engine, the page state, the examples.
/** @type {any} */ (window).urlcalc = { engine, get state() { return state(); }, store,
  examples: EXAMPLES.map((e) => ({ ...e })), lessons, tape };
