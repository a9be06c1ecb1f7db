// @ts-check
// The page's keyboard shortcuts (listed in its help dialog): / and b focus the fields, 1-9 and 0
// the views, h History, s Survey, p presenter mode, ? the help, m and w copy, , . and k step the trace; ] and [ (and
// a presentation clicker's PgDn and PgUp) step through the lesson playing.
import { VIEWS } from "../state/view-names.js";

/** @param {EventTarget | null} t */
function editable(t) {
  return t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

/**
 * @param {object} page
 * @param {{ input: HTMLElement, base: HTMLElement, help: HTMLDialogElement }} page.els
 * @param {() => string} page.view the view shown
 * @param {(view: string, options?: {focus?: boolean}) => void} page.selectView
 * @param {() => void} page.togglePresenter
 * @param {{ markdown: () => void, wpt: () => void }} page.copy
 * @param {{ go: (i: number) => void, toggle: () => void, pos: number }} page.steps
 * @param {{ playing: unknown, go: (delta: number) => unknown, reveal: () => boolean, toggleAnswerOnly: () => void }} page.lessons
 *   (reveal: r, what a lesson step hides; toggleAnswerOnly: a, the answer-only display)
 */
export function shortcuts({ els, view, selectView, togglePresenter, copy, steps, lessons }) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    const t = e.target;
    if (editable(t)) {
      if (e.key === "Escape" && t instanceof HTMLElement && t.tagName !== "SELECT") t.blur();
      return;
    }
    if (t instanceof HTMLElement && t.id === "step-list" && [" ", "Enter", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"].includes(e.key)) return;
    let handled = true;
    if (e.key === "/") els.input.focus();
    else if (e.key === "b") els.base.focus();
    else if (/^[0-9]$/.test(e.key)) selectView(VIEWS[(Number(e.key) + 9) % 10], { focus: true });
    else if ((e.key === "]" || e.key === "[") && lessons.playing) lessons.go(e.key === "]" ? 1 : -1);
    else if (e.key === "r" && lessons.reveal()) { /* the lesson step's hidden answer */ }
    else if (e.key === "a") lessons.toggleAnswerOnly();
    else if (e.key === "h") selectView("history", { focus: true });
    else if (e.key === "s") selectView("survey", { focus: true });
    else if (e.key === "p") togglePresenter();
    else if (e.key === "?") els.help.showModal();
    else if (e.key === "m") copy.markdown();
    else if (e.key === "w") copy.wpt();
    else if (e.key === "," || e.key === ".") {
      if (view() !== "steps") selectView("steps");
      steps.go(steps.pos + (e.key === "." ? 1 : -1));
    } else if (e.key === "k") {
      if (view() !== "steps") selectView("steps");
      steps.toggle();
    } else handled = false;
    if (handled) e.preventDefault();
  });

  // While a lesson plays, PgDn / PgUp (what a presentation clicker sends) step through it, even
  // with the focus in the step list (where they would move ten trace steps).
  document.addEventListener("keydown", (e) => {
    if (!lessons.playing || (e.key !== "PageDown" && e.key !== "PageUp")) return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || document.querySelector("dialog[open]")) return;
    const t = e.target;
    if (editable(t) && t instanceof HTMLElement && t.tagName !== "SELECT") return;
    e.preventDefault();
    e.stopPropagation();
    lessons.go(e.key === "PageDown" ? 1 : -1);
  }, true);
}
