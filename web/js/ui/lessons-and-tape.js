// @ts-check
// The lessons and the paper tape, wired to the page: a lesson step shown is a store action (its
// inputs, operations, view and the lesson's place: so Back and Forward bring the lesson bar
// along); the page as a lesson step; the tape's entries (what the page showed when it went idle).
import { encodingValue } from "../render/encodings.js";
import { copyText } from "../render/share.js";
import { permalinkBase } from "../state/permalink.js";
import { LESSON_VIEWS, VIEWS, VIEW_ALIASES } from "../state/view-names.js";
import { Lessons } from "../views/lessons.js";
import { Tape } from "../views/tape.js";
import { answerOnly } from "./answer-only.js";
import { lessonItems, printHandout } from "../views/handout.js";
import { OPERATIONS } from "../facts.js";

/**
 * @param {object} page
 * @param {import("../state/store.js").Store} page.store
 * @param {Record<string, HTMLElement>} page.panels
 * @param {Record<string, HTMLElement>} page.tabs
 * @param {(id: string) => HTMLElement} page.$
 * @param {{ copyDialog: HTMLDialogElement, copyText: HTMLTextAreaElement }} page.els
 * @param {(text: string) => void} page.toast
 * @param {() => any} page.engine
 * @param {() => any} page.result the parse answer drawn
 * @param {() => any} page.setters the Setters lab's last answer and request, or null
 * @param {() => any} page.editions the Editions view (its model and differing editions)
 * @param {(view: string) => void} page.selectView
 */
export function lessonsAndTape({ store, panels, tabs, $, els, toast, engine, result, setters, editions, selectView }) {
  const state = () => store.state;
  // the last view a lesson step could show
  let lastLessonView = LESSON_VIEWS.includes(store.state.view) ? store.state.view : "components";
  store.subscribe((s) => { if (LESSON_VIEWS.includes(s.view)) lastLessonView = s.view; });

  const tape = new Tape($("tape"), $("tape-clear"), {
    onPick: (/** @type {any} */ e) => {
      store.dispatch("load", { input: e.input, base: e.base || "", enc: e.enc || "" });
      if (e.view && VIEWS.includes(e.view)) selectView(e.view);
    },
  });

  /** Show a lesson step: its input, base, encoding, setters, view and trace step. @param {any} s */
  function apply(s) {
    window.scrollTo(0, 0); // the lesson bar, the answer and the top of the view
    store.dispatch("showLessonStep", { input: s.input, base: s.base, enc: encodingValue(s.enc), ops: s.ops, step: s.step,
      view: VIEWS.includes(s.view) ? s.view : "components", playing: lessons.playing ? { ...lessons.playing } : null });
  }

  /** The page as a lesson step (the view: the last one open before Lessons). */
  function current() {
    const s = state();
    const view = LESSON_VIEWS.includes(s.view) ? s.view : lastLessonView;
    /** @type {any} */
    const step = { input: s.input, base: s.base, view, step: view === "steps" ? s.step : 0, note: "",
      ops: view === "setters" ? s.ops.map((o) => o.slice()) : [], enc: s.enc };
    const set = setters();
    const r = result();
    if (step.ops.length) {
      if (set && set.params && set.params.input === s.input && JSON.stringify(set.params.ops) === JSON.stringify(s.ops)) {
        step.href = set.model.ok ? set.model.getters.href : null;
      }
    } else if (r && r.input === s.input) step.href = r.ok ? r.getters.href : null;
    return step;
  }

  // Predict, then reveal (issue 29): what the page answered for the step shown (the Setters lab's
  // model when the step has operations; in Steps, the state after the selected step); the
  // answer-only display.
  function answer() {
    const s = state();
    const set = setters();
    let model = result();
    if (s.ops.length && set && set.params && set.params.input === s.input && JSON.stringify(set.params.ops) === JSON.stringify(s.ops)) model = set.model;
    else if (!model || model.input !== s.input) return null;
    const after = /** @type {HTMLElement | null} */ (document.querySelector("#step-list li.selected"))?.nextElementSibling;
    const next = after instanceof HTMLElement ? after.dataset.state ?? null : null;
    return { ok: !!model.ok, getters: model.getters, next };
  }
  const big = answerOnly({ store, result, button: document.getElementById("answer-only-btn") });

  const lessons = new Lessons({
    panel: panels.lessons, bar: $("lesson-bar"), views: [...LESSON_VIEWS], aliases: VIEW_ALIASES, operations: [...OPERATIONS],
    viewLabel: (/** @type {string} */ v) => (tabs[v] ? (tabs[v].textContent ?? "").trim() : v),
    apply, current, tapeEntries: () => tape.entries.slice(),
    copy: (/** @type {string} */ text, /** @type {string} */ what) => copyText(text, { dialog: els.copyDialog, textarea: els.copyText, toast, what }),
    toast, present: (/** @type {boolean} */ on) => store.dispatch("setPresenter", on),
    onPlay: () => { if (!lessons.playing) store.dispatch("stopLesson"); },
    publicBase: () => permalinkBase(engine() ? engine().info : null, location),
    answer, onAnswer: () => big.render(), answerOnly: big.toggle,
    onReveal: () => { if (lessons.playing) store.dispatch("resumeLesson", { ...lessons.playing }); },
  });

  // Back and Forward: the lesson bar at the lesson's place the history entry holds
  store.subscribe((s, _previous, action) => {
    if (action.name !== "restore" || JSON.stringify(s.playing) === JSON.stringify(lessons.playing)) return;
    lessons.follow(s.playing ? { ...s.playing } : null);
  });

  /** The page's answer on the tape (the comparison, in the Editions view). */
  function addToTape() {
    const s = state();
    const r = result();
    if (!r || r.input !== s.input || s.input === "") return;
    const view = editions();
    const cmp = view.model;
    if (s.view === "editions" && cmp && cmp.input === s.input && (cmp.base ?? "") === s.base) {
      const n = view.differing(cmp).length;
      tape.add({ input: s.input, base: s.base, ok: cmp.current !== null, out: cmp.current !== null ? cmp.current.href : "failure",
        view: "editions", enc: s.enc || undefined, note: `${n} of ${cmp.editions.length} editions differ${cmp.errata ? " (errata)" : ""}` });
      return;
    }
    tape.add({ input: s.input, base: s.base, ok: !!r.ok, out: r.ok ? r.getters.href : "failure", enc: s.enc || undefined });
  }
  $("tape-export").addEventListener("click", () => lessons.exportTape(tape.entries));

  // Handouts (issue 29): a lesson (its editor's "Print handout") or the tape ("Print"), answered
  // by the engine, laid out for paper (views/handout.js, css/print.css).
  const ask = (/** @type {string} */ kind, /** @type {object} */ params) => (engine() ? engine().call(kind, params) : Promise.resolve(null));
  panels.lessons.addEventListener("urlcalc-print-lesson", (ev) => {
    const lesson = /** @type {CustomEvent} */ (ev).detail;
    lessonItems(lesson, ask).then((items) => printHandout({ title: String(lesson.title), description: lesson.description ? String(lesson.description) : "", kind: "lesson", items }));
  });
  $("tape-print").addEventListener("click", () => {
    const entries = tape.entries.slice();
    if (!entries.length) {
      toast("The paper tape is empty: nothing to print.");
      return;
    }
    const steps = entries.map((e) => ({ input: e.input, base: e.base || "", enc: e.enc || "", note: "", ops: [], href: e.ok ? e.out : null }));
    lessonItems({ steps }, ask).then((items) => printHandout({ title: "Exercises from the paper tape", kind: "tape", items }));
  });
  $("tape-lesson").addEventListener("click", () => { if (lessons.lessonFromTape(tape.entries)) selectView("lessons"); });

  return { lessons, tape, addToTape };
}
