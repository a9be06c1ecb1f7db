// @ts-check
// The Lessons view's lists (#lesson-lists): the examples, "Your lessons", the lessons kept aside
// (stored but unreadable here: their problem, Export, Copy, Delete with Undo), and New / Import.
// A lit-html template of the library's state (library.js); the buttons call its actions.
import { html, nothing } from "../../vendor/lit-html.mjs";
import { download, keptText, vt } from "./common.js";

/** @typedef {import("./common.js").Entry} Entry */
/** @typedef {import("./common.js").Kept} Kept */
/** @typedef {import("./index.js").Lessons} Lessons */

/** @param {Lessons} v @param {Entry} e */
function listItem(v, e) {
  const n = e.lesson.steps.length;
  const pick = () => {
    v.selectedId = e.id;
    v.render();
  };
  return html`<li><button type="button" class="lesson-pick" data-lesson-id=${e.id} aria-current=${e.id === v.selectedId ? "true" : "false"} @click=${pick}><span class="ll-title">${vt(e.lesson.title)}</span><span class="ll-count">${n} step${n === 1 ? "" : "s"}${
    v.playing?.id === e.id ? " · playing" : ""}${
    e.unsaved ? html`<span class="bad-text ll-unsaved"> · not saved in this browser</span>` : ""}</span></button></li>`;
}

/** A stored lesson this page cannot read: its title (when it has one), its problem, Export
 *  (a download of its text as stored), Copy, and Delete (with Undo).
 *  @param {Lessons} v @param {Kept} k */
function keptItem(v, k) {
  const name = "kept-" + k.id.replace(/[^A-Za-z0-9_-]/g, "") + ".urlcalc-lesson.json";
  const what = k.title ?? k.id;
  const exportIt = () => {
    download(name, keptText(k));
    v.toast(`Saved ${name}`);
  };
  return html`<li class="lesson-kept" data-kept-key=${k.key}><span class="ll-title">${k.title ? vt(k.title) : html`<span class="muted">${vt(k.key)}</span>`}</span><span class="kept-problem bad-text small">${vt(k.problem)}</span><span class="kept-actions"><button type="button" class="small kept-export" aria-label=${`Export the kept lesson ${what} as stored`} @click=${exportIt}>Export</button><button type="button" class="small kept-copy" aria-label=${`Copy the kept lesson ${what} as stored`} @click=${() => v.copy(keptText(k), "stored lesson")}>Copy</button><button type="button" class="small kept-delete" aria-label=${`Delete the kept lesson ${what} from this browser`} @click=${() => v.deleteKept(k)}>Delete</button></span></li>`;
}

/** The lists. @param {Lessons} v */
export function listsTemplate(v) {
  const kept = v.kept.length ? html`<h3>Kept aside</h3><p class="muted small">Stored in this browser but not readable by this page: kept as they are (never deleted), with what is wrong. Export one to fix it by hand, then import it.</p><ul class="lesson-list" id="lesson-kept">${v.kept.map((k) => keptItem(v, k))}</ul>` : nothing;
  return html`<h3>Examples</h3><ul class="lesson-list" id="lesson-examples">${v.examples.map((e) => listItem(v, e))}${
    v.exampleErrors.map((msg) => html`<li class="bad-text small">${vt(msg)}</li>`)}</ul><h3>Your lessons</h3><ul class="lesson-list" id="lesson-mine">${
    v.mine.length ? v.mine.map((e) => listItem(v, e)) : html`<li class="muted small">None yet: start one, import a file, or make one of the paper tape.</li>`}</ul>${
    kept}<div class="lesson-actions"><button type="button" id="lesson-new" @click=${() => v.newLesson()}>+ New lesson</button><button type="button" id="lesson-import-btn" @click=${() => v.pickFile()}>Import a file…</button></div>`;
}
