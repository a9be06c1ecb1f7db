// Lessons: sequences of inputs (each with its base, view, trace step and a one-line note) that a
// teacher builds from the page or the paper tape, reorders, saves as a file, shares as one link
// and steps through in front of a class (the lesson bar; PgDn / PgUp or ] / [).
//
// The file format lives in lesson-format.js (documented in docs/lessons.md). Three example
// lessons ship as files of that format in ../lessons/. The teacher's own lessons are kept in
// localStorage, one key per lesson (lesson-store.js): a tab writes only the lesson it changed,
// and hears the others' changes (the storage event); a stored lesson this page cannot read is
// kept aside and shown with its problem and an Export, never deleted. The lesson that plays (and
// where) is in sessionStorage, so a reload keeps it.
//
// The editor enforces the format's limits (LIMITS in lesson-format.js) where you type: maxlength,
// a counter, and Add disabled at a cap with the reason; so what it lets you make, storage accepts.
import { append, fill, h, vis } from "../render/dom.js";
import {
  LIMITS, LessonError, MAX_FILE_BYTES, MAX_TITLE, counterText, fitToLimit, lessonBytes,
  lessonFileName, lessonFromLinkValue, lessonToJSON, lessonToLinkValue, measure, parseLesson,
  serializeLesson, stepProblem,
} from "../state/lesson-format.js";
import { isLessonKey, newId, readLessons, readStored, removeStored, writeLesson } from "../state/lesson-store.js";

export const EXAMPLE_LESSONS = ["relative-resolution.json", "hosts.json", "setters.json"];
const PLAYING_KEY = "urlcalc.lesson-playing";

/** localStorage, or null where the page may not use it (a sandboxed or locked-down browser). */
function local() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** maxlength for a field of `limit`, holding `value` now: code points for "characters" (the
 *  browser counts UTF-16 units, so each astral character already typed widens it by one); for
 *  "bytes", the byte limit (never fewer bytes than units), the input handler cuts the rest. */
function maxLengthFor(value, limit) {
  return String(limit.unit === "bytes" ? limit.max : limit.max + (value.length - [...value].length));
}

function readStore(key, storage) {
  try {
    return JSON.parse(storage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function writeStore(key, value, storage) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // storage full or disabled: the lessons live in memory for this page
  }
}

function sameLesson(a, b) {
  return JSON.stringify(lessonToJSON(a)) === JSON.stringify(lessonToJSON(b));
}

/** Save text as a file (a blob: link we made ourselves, clicked once). */
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export class Lessons {
  /** panel: the Lessons tab panel; bar: the lesson bar; views / operations: the names a step may
   *  use (aliases: old view names); viewLabel(view): the tab's label; apply(step): show a step on the page; current(): the
   *  page as a step; tapeEntries(): the paper tape, oldest first; copy(text, what); toast(msg);
   *  present(on): presenter mode; onPlay(): after a step is shown or the lesson stops;
   *  publicBase(): the calculator's public address (views/permalink.js), or null. */
  constructor({ panel, bar, views, operations, aliases = {}, viewLabel, apply, current, tapeEntries, copy, toast, present, onPlay = () => {}, publicBase = () => null }) {
    Object.assign(this, { panel, bar, views, operations, viewLabel, apply, current, tapeEntries, copy, toast, present, onPlay, publicBase });
    this.names = { views, operations, aliases };
    this.examples = []; // [{id, lesson, example: true, file}]
    this.exampleErrors = [];
    this.examplesLoaded = null;
    this.kept = []; // stored lessons this page cannot read: [{id, key, raw, problem, title}]
    this.mine = this.loadMine();
    this.selectedId = null;
    this.playing = null; // {id, at} (at: 0-based step index)
    this.drift = null;
    this.message = null; // {text, kind, undo}
    this.built = false;
    window.addEventListener("storage", (ev) => this.storageChanged(ev));
  }

  // ---- the library ------------------------------------------------------------------------------

  loadMine() {
    const storage = local();
    if (!storage) return [];
    try {
      const { mine, kept } = readLessons(storage, this.names);
      this.kept = kept;
      return mine;
    } catch (e) {
      this.kept = [];
      this.say(`This browser's stored lessons could not be read (${e?.message ?? e}): nothing was changed in storage.`, "bad");
      return [];
    }
  }

  /** Keep lesson `e` in this browser (its own key: the other lessons, and the other tabs', are
   *  not written). A failure says so and marks it: the lesson stays in this page. */
  save(e) {
    const storage = local();
    const problem = storage ? writeLesson(storage, e) : "this browser does not let the page store anything";
    e.unsaved = problem !== null;
    if (problem) {
      this.say(`“${e.lesson.title}” is not saved in this browser: ${problem}. It stays in this page until you close it: export it to keep it.`, "bad");
      if (this.built) this.renderLists();
    }
    return problem === null;
  }

  /** Forget lesson `e` in storage (it was deleted here). */
  unsave(e) {
    const storage = local();
    if (storage) removeStored(storage, "urlcalc.lesson:" + e.id);
  }

  /** Another tab changed a stored lesson: take its change (a lesson made, edited or deleted there
   *  is here too, and this tab's next save of another lesson cannot drop it). */
  storageChanged(ev) {
    const storage = local();
    if (!storage || ev.storageArea !== storage) return;
    if (ev.key !== null && !isLessonKey(ev.key) && ev.key !== "urlcalc.lessons") return;
    if (ev.key === null || ev.key === "urlcalc.lessons") {
      const unsaved = this.mine.filter((e) => e.unsaved);
      this.mine = this.loadMine();
      for (const e of unsaved) if (!this.mine.some((m) => m.id === e.id)) this.mine.push(e);
    } else {
      const id = ev.key.slice("urlcalc.lesson:".length);
      const k = this.mine.findIndex((e) => e.id === id);
      this.kept = this.kept.filter((x) => x.key !== ev.key);
      if (ev.newValue === null) {
        if (k >= 0) this.mine.splice(k, 1);
        if (this.playing?.id === id) this.stop();
      } else {
        const r = readStored(ev.key, ev.newValue, this.names);
        if (r.entry) {
          if (k >= 0) this.mine[k] = r.entry;
          else {
            this.mine.push(r.entry);
            this.mine.sort((a, b) => (a.order - b.order) || (a.id < b.id ? -1 : 1));
          }
        } else {
          if (k >= 0) this.mine.splice(k, 1);
          this.kept.push(r.kept);
        }
      }
    }
    if (this.playing && !this.entry(this.playing.id)) this.stop();
    else if (this.playing) this.renderBar();
    this.rerender();
  }

  /** Render again, keeping the focus (and the caret) where it was. */
  rerender() {
    if (!this.built) return;
    const active = document.activeElement;
    const id = active && this.panel.contains(active) ? active.id : "";
    const sel = id && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
    this.render();
    const again = id ? document.getElementById(id) : null;
    if (again) {
      again.focus();
      if (sel && "setSelectionRange" in again) {
        try {
          again.setSelectionRange(sel[0], sel[1]);
        } catch {
          // a field without a caret (number, select)
        }
      }
    }
  }

  /** Load the example lessons (once). */
  loadExamples() {
    if (!this.examplesLoaded) {
      this.examplesLoaded = Promise.all(EXAMPLE_LESSONS.map(async (file) => {
        try {
          const response = await fetch(new URL("../lessons/" + file, import.meta.url));
          if (!response.ok) throw new LessonError(`${file}: HTTP ${response.status}`);
          const lesson = parseLesson(await response.text(), { ...this.names, name: file });
          return { id: "example:" + file.replace(/\.json$/, ""), lesson, example: true, file };
        } catch (e) {
          this.exampleErrors.push(e instanceof LessonError ? e.message : `${file}: ${e?.message ?? e}`);
          return null;
        }
      })).then((list) => {
        this.examples = list.filter(Boolean);
      });
    }
    return this.examplesLoaded;
  }

  entry(id) {
    return this.examples.find((e) => e.id === id) ?? this.mine.find((e) => e.id === id) ?? null;
  }

  /** Add a lesson to "Your lessons" (or find the same one already there, or among the
   *  examples); returns its entry. */
  adopt(lesson) {
    const same = [...this.examples, ...this.mine].find((e) => sameLesson(e.lesson, lesson));
    if (same) return same;
    const entry = { id: newId(), order: Date.now(), lesson };
    this.mine.push(entry);
    this.save(entry);
    return entry;
  }

  say(text, kind = "ok", undo = null) {
    this.message = text ? { text, kind, undo } : null;
    if (this.built) this.renderMessage();
  }

  // ---- the panel ----------------------------------------------------------------------------------

  /** Render the Lessons view (its tab was opened). */
  async show() {
    if (!this.built) this.build();
    await this.loadExamples();
    if (!this.selectedId || !this.entry(this.selectedId)) {
      this.selectedId = this.playing?.id ?? this.examples[0]?.id ?? this.mine[0]?.id ?? null;
    }
    this.render();
  }

  build() {
    this.built = true;
    this.fileInput = h("input", { type: "file", id: "lesson-import", class: "sr-only", accept: ".json,application/json", tabindex: "-1", "aria-hidden": "true" });
    this.fileInput.addEventListener("change", () => {
      const file = this.fileInput.files && this.fileInput.files[0];
      this.fileInput.value = "";
      if (file) this.importFile(file);
    });
    this.messageEl = h("div", { id: "lesson-message", role: "status", "aria-live": "polite" });
    this.listsEl = h("div", { class: "lesson-lists", id: "lesson-lists" });
    this.editorEl = h("div", { class: "lesson-editor", id: "lesson-editor" });
    this.panel.replaceChildren(
      h("p", { class: "lede" }, "A lesson is a sequence of inputs, each with its base, the view to show, the trace step and a one-line note. ",
        "Build one from the page or the paper tape, reorder it, save it as a file, share it as one link, and present it: ",
        h("kbd", null, "PgDn"), " / ", h("kbd", null, "PgUp"), " (what a presentation clicker sends) or ", h("kbd", null, "]"), " / ",
        h("kbd", null, "["), " step through it."),
      this.messageEl,
      h("div", { class: "lessons" }, this.listsEl, this.editorEl),
      this.fileInput,
      h("p", { class: "lesson-format-note" }, "Lesson files are JSON (format \"urlcalc-lesson\", version 1), described in docs/lessons.md of urlcalc. ",
        "Importing checks every field and says what is wrong; nothing in a lesson is ever run."));
  }

  render() {
    if (!this.built) return;
    this.renderMessage();
    this.renderLists();
    this.renderEditor();
  }

  renderMessage() {
    const m = this.message;
    if (!m) {
      this.messageEl.replaceChildren();
      this.messageEl.className = "";
      return;
    }
    this.messageEl.className = "lesson-message " + (m.kind === "bad" ? "bad" : "ok");
    this.messageEl.setAttribute("role", m.kind === "bad" ? "alert" : "status");
    fill(this.messageEl, vis(m.text), m.undo ? [" ", h("button", { type: "button", class: "small", id: "lesson-undo", on: { click: () => { m.undo(); this.say(""); this.render(); } } }, "Undo")] : "");
  }

  listButton(e) {
    const b = h("button", { type: "button", class: "lesson-pick", data: { lessonId: e.id }, "aria-current": e.id === this.selectedId ? "true" : "false" },
      h("span", { class: "ll-title" }, vis(e.lesson.title)),
      h("span", { class: "ll-count" }, `${e.lesson.steps.length} step${e.lesson.steps.length === 1 ? "" : "s"}`,
        this.playing?.id === e.id ? " · playing" : "",
        e.unsaved ? h("span", { class: "bad-text ll-unsaved" }, " · not saved in this browser") : ""));
    b.addEventListener("click", () => {
      this.selectedId = e.id;
      this.render();
    });
    return h("li", null, b);
  }

  renderLists() {
    const newBtn = h("button", { type: "button", id: "lesson-new" }, "+ New lesson");
    newBtn.addEventListener("click", () => this.newLesson());
    const importBtn = h("button", { type: "button", id: "lesson-import-btn" }, "Import a file…");
    importBtn.addEventListener("click", () => this.fileInput.click());
    this.listsEl.replaceChildren(
      h("h3", null, "Examples"),
      h("ul", { class: "lesson-list", id: "lesson-examples" }, this.examples.map((e) => this.listButton(e)),
        this.exampleErrors.map((msg) => h("li", { class: "bad-text small" }, vis(msg)))),
      h("h3", null, "Your lessons"),
      h("ul", { class: "lesson-list", id: "lesson-mine" }, this.mine.length ? this.mine.map((e) => this.listButton(e))
        : h("li", { class: "muted small" }, "None yet: start one, import a file, or make one of the paper tape.")),
      ...(this.kept.length ? [
        h("h3", null, "Kept aside"),
        h("p", { class: "muted small" }, "Stored in this browser but not readable by this page: kept as they are (never deleted), with what is wrong. Export one to fix it by hand, then import it."),
        h("ul", { class: "lesson-list", id: "lesson-kept" }, this.kept.map((k) => this.keptItem(k)))] : []),
      h("div", { class: "lesson-actions" }, newBtn, importBtn));
  }

  /** A stored lesson this page cannot read: its title (when it has one), its problem, Export
   *  (a download of its text as stored), Copy, and Delete (with Undo). */
  keptItem(k) {
    const name = "kept-" + k.id.replace(/[^A-Za-z0-9_-]/g, "") + ".urlcalc-lesson.json";
    const exportBtn = h("button", { type: "button", class: "small kept-export", "aria-label": `Export the kept lesson ${k.title ?? k.id} as stored` }, "Export");
    exportBtn.addEventListener("click", () => {
      download(name, keptText(k));
      this.toast(`Saved ${name}`);
    });
    const copyBtn = h("button", { type: "button", class: "small kept-copy", "aria-label": `Copy the kept lesson ${k.title ?? k.id} as stored` }, "Copy");
    copyBtn.addEventListener("click", () => this.copy(keptText(k), "stored lesson"));
    const deleteBtn = h("button", { type: "button", class: "small kept-delete", "aria-label": `Delete the kept lesson ${k.title ?? k.id} from this browser` }, "Delete");
    deleteBtn.addEventListener("click", () => {
      const storage = local();
      if (!storage) return;
      const problem = removeStored(storage, k.key);
      if (problem) {
        this.say(`Not deleted: ${problem}.`, "bad");
        return;
      }
      this.kept = this.kept.filter((x) => x !== k);
      this.say(`Deleted the kept lesson ${k.title ? `“${k.title}”` : k.id} from this browser.`, "ok", () => {
        try {
          storage.setItem(k.key, k.raw);
          this.kept.push(k);
        } catch {
          this.say("It could not be put back (storage is full): export it from the message above next time.", "bad");
        }
      });
      this.renderLists();
    });
    return h("li", { class: "lesson-kept", data: { keptKey: k.key } },
      h("span", { class: "ll-title" }, k.title ? vis(k.title) : h("span", { class: "muted" }, vis(k.key))),
      h("span", { class: "kept-problem bad-text small" }, vis(k.problem)),
      h("span", { class: "kept-actions" }, exportBtn, copyBtn, deleteBtn));
  }

  renderEditor() {
    const e = this.entry(this.selectedId);
    if (!e) {
      this.editorEl.replaceChildren(h("p", { class: "muted" }, "Pick a lesson, or start a new one."));
      return;
    }
    const own = !e.example;
    const L = e.lesson;
    const button = (id, text, fn, attrs = {}) => {
      const b = h("button", { type: "button", id, ...attrs }, text);
      b.addEventListener("click", fn);
      return b;
    };
    let head;
    if (own) {
      const title = h("input", { type: "text", id: "lesson-title", "aria-label": "Lesson title", spellcheck: "true" });
      title.value = L.title;
      const titleCount = this.limited(e, title, LIMITS.title, "lesson-title-count", "Title", (v) => { L.title = v.trim() || "Untitled lesson"; }, L.title);
      const desc = h("textarea", { id: "lesson-description", rows: "2", "aria-label": "Lesson description", placeholder: "a description (optional)", spellcheck: "true" });
      desc.value = L.description;
      const descCount = this.limited(e, desc, LIMITS.description, "lesson-description-count", "Description", (v) => { L.description = v; }, L.description);
      const bytes = this.fileBytes(e);
      head = h("div", { class: "lesson-head" }, h("span", { class: "limited" }, title, titleCount), h("span", { class: "limited" }, desc, descCount),
        h("span", { class: ["counter", "lesson-size", bytes * 2 < MAX_FILE_BYTES ? "quiet" : null], id: "lesson-size" }, "lesson file: ", counterText(bytes, LIMITS.file)),
        h("span", { class: "sr-only", id: "lesson-limit-live", "aria-live": "polite" }));
    } else {
      head = h("div", { class: "lesson-head" }, h("h3", { class: "lesson-title-text", id: "lesson-title" }, vis(L.title)),
        L.description ? h("p", { class: "muted", id: "lesson-description" }, vis(L.description)) : null);
    }
    const actions = h("div", { class: "lesson-actions" },
      button("lesson-present", "▶ Present", () => this.play(e.id, 0, { present: true }), { class: "primary", title: "Presenter mode, from the first step" }),
      button("lesson-play", "▶ Play here", () => this.play(e.id, 0), { title: "From the first step, in this layout" }),
      button("lesson-link", "Copy link", () => this.copyLink(e), { title: "One link that carries the whole lesson" }),
      button("lesson-export", "Export file", () => this.exportLesson(e), { title: "Save as a lesson file (JSON)" }),
      own ? button("lesson-duplicate", "Duplicate", () => this.duplicate(e))
        : button("lesson-duplicate", "Edit a copy", () => this.duplicate(e), { title: "Examples stay as shipped: edit a copy in Your lessons" }),
      own ? button("lesson-delete", "Delete", () => this.deleteLesson(e)) : null);
    const steps = h("ol", { class: "lesson-steps", id: "lesson-steps" }, L.steps.map((s, i) => this.stepItem(e, s, i, own)));
    const parts = [head, actions, steps];
    if (own) parts.push(this.addControls(e));
    this.editorEl.replaceChildren(...parts);
  }

  /** Make `el` (a text field of lesson `e`) keep to `limit`: maxlength, anything past it cut
   *  (a paste; bytes, which maxlength cannot count) and said, the lesson file kept within its
   *  1 MB; `set(value)` stores the field. Returns the counter ("1,234 / 2,000"); crossing 90%
   *  and reaching the limit are announced politely. */
  limited(e, el, limit, counterId, label, set) {
    const counter = h("span", { class: "counter", id: counterId });
    let last = 0;
    const show = () => {
      const n = measure(el.value, limit);
      el.setAttribute("maxlength", maxLengthFor(el.value, limit));
      counter.textContent = counterText(n, limit);
      counter.classList.toggle("at-limit", n >= limit.max);
      counter.classList.toggle("quiet", limit.unit === "bytes" && n * 2 < limit.max);
      return n;
    };
    last = show();
    el.addEventListener("input", () => {
      let v = fitToLimit(el.value, limit);
      let cut = v !== el.value;
      set(v);
      // the lesson's file: measured only when an upper bound (its last size, plus this field
      // written out at 6 bytes a byte, JSON's worst) could pass 1 MB
      if (sizeBound(e, v) > MAX_FILE_BYTES) {
        for (let over = this.fileBytes(e) - MAX_FILE_BYTES; over > 0 && v; over = this.fileBytes(e) - MAX_FILE_BYTES) {
          v = fitToLimit(v, { max: Math.max(0, measure(v, LIMITS.file) - over), unit: "bytes" });
          set(v);
          cut = true;
        }
      } else e.bytesBound = sizeBound(e, v);
      if (cut) el.value = v;
      const n = show();
      const live = this.editorEl.querySelector("#lesson-limit-live");
      const text = cut ? `${label}: cut at the limit, ${counterText(n, limit)}`
        : n >= limit.max && last < limit.max ? `${label}: at the limit, ${counterText(n, limit)}`
          : n * 10 >= limit.max * 9 && last * 10 < limit.max * 9 ? `${label}: ${counterText(n, limit)}` : "";
      if (cut) this.say(`${label} is at most ${limit.max.toLocaleString("en")} ${limit.unit}${this.fileBytes(e) >= MAX_FILE_BYTES - 64 ? " (and a lesson file at most 1 MB)" : ""}: the rest was cut.`, "bad");
      if (live && text) live.textContent = text;
      last = n;
      this.changed(e, false);
    });
    return counter;
  }

  /** The size of lesson `e`'s file, measured (and remembered as the bound the editor keeps). */
  fileBytes(e) {
    e.bytesBound = lessonBytes(e.lesson);
    return e.bytesBound;
  }

  /** Why step `s` cannot be added to lesson `e` (or replace its step `at`), or null. */
  addProblem(e, s, at = -1) {
    if (at < 0 && e.lesson.steps.length >= LIMITS.steps.max) return `a lesson has at most ${LIMITS.steps.max} steps`;
    const problem = stepProblem(s, this.names);
    if (problem) return problem;
    const steps = e.lesson.steps.slice();
    if (at < 0) steps.push(s);
    else steps[at] = s;
    const bytes = lessonBytes({ ...e.lesson, steps });
    if (bytes > MAX_FILE_BYTES) return `the lesson file would be ${bytes.toLocaleString("en")} bytes, at most ${MAX_FILE_BYTES.toLocaleString("en")} (1 MB)`;
    return null;
  }

  stepItem(e, s, i, own) {
    const L = e.lesson;
    const playingHere = this.playing?.id === e.id && this.playing.at === i;
    const button = (cls, text, label, fn, disabled = false) => {
      const b = h("button", { type: "button", class: ["small", cls], "aria-label": label, title: label, disabled: disabled ? true : null }, text);
      b.addEventListener("click", fn);
      return b;
    };
    const headButtons = [button("ls-show", "Show", `Show step ${i + 1} on the page (and play the lesson from there)`, () => this.play(e.id, i))];
    if (own) {
      headButtons.push(
        button("ls-use", "Use the page", `Replace step ${i + 1} with what the page shows now (input, base, view, trace step, setters)`, () => {
          const note = L.steps[i].note;
          const step = { ...this.current(), note };
          const problem = this.addProblem(e, step, i);
          if (problem) {
            this.say(`Step ${i + 1} is unchanged: ${problem}.`, "bad");
            return;
          }
          L.steps[i] = step;
          this.changed(e, true);
        }),
        button("ls-up", "↑", `Move step ${i + 1} up`, () => this.move(e, i, -1), i === 0),
        button("ls-down", "↓", `Move step ${i + 1} down`, () => this.move(e, i, 1), i === L.steps.length - 1),
        button("ls-remove", "✕", `Remove step ${i + 1}`, () => this.removeStep(e, i), L.steps.length === 1));
    }
    const li = h("li", { class: ["lesson-step", playingHere ? "playing" : null], data: { lessonStep: i } },
      h("div", { class: "ls-head" }, h("span", { class: "ls-n" }, `Step ${i + 1}`), headButtons));
    const ops = s.ops && s.ops.length ? h("p", { class: "ls-text small" }, h("span", { class: "muted" }, "setters: "),
      s.ops.map((o, j) => [j ? "; " : "", h("code", null, o[0], o[0].startsWith("searchParams.") ? ` (${o[1]})` : ` = ${o[1]}`)])) : null;
    if (!own) {
      append(li, [
        h("p", { class: "ls-text" }, s.input ? h("code", { class: "ls-input" }, vis(s.input)) : h("span", { class: "ls-input muted" }, "(the empty string)"),
          s.base ? [" ", h("span", { class: "muted" }, "against "), h("code", { class: "ls-base" }, vis(s.base))] : null),
        h("p", { class: "ls-text small" }, h("span", { class: "ls-view" }, this.viewLabel(s.view)),
          s.view === "steps" ? ` · trace step #${s.step}` : "", s.enc ? ` · encoding ${s.enc}` : ""),
        ops,
        s.note ? h("p", { class: "ls-text ls-note" }, vis(s.note)) : null]);
      return li;
    }
    const field = (cls, label, value, attrs, onInput) => {
      const id = `ls-${cls}-${i}`;
      const input = h("input", { type: "text", id, class: "ls-" + cls, spellcheck: "false", autocomplete: "off", ...attrs });
      input.value = value;
      const counter = this.limited(e, input, LIMITS[cls], `ls-${cls}-count-${i}`, `Step ${i + 1}: ${label}`, onInput, value);
      return [h("label", { for: id }, label), h("span", { class: "limited" }, input, counter)];
    };
    const viewSel = h("select", { class: "ls-view", id: `ls-view-${i}`, "aria-label": `Step ${i + 1}: view` },
      this.views.map((v) => h("option", { value: v, selected: v === s.view ? true : null }, this.viewLabel(v))));
    viewSel.value = s.view;
    const traceStep = h("input", { type: "number", min: "0", step: "1", class: "ls-trace-step", id: `ls-step-${i}`, "aria-label": `Step ${i + 1}: trace step in Steps` });
    const traceLabel = h("label", { for: `ls-step-${i}` }, "trace step");
    const showTraceStep = () => {
      traceStep.hidden = traceLabel.hidden = s.view !== "steps"; // the trace step is a Steps thing
    };
    showTraceStep();
    viewSel.addEventListener("change", () => {
      s.view = viewSel.value;
      e.bytesBound = undefined; // measured again at the next keystroke
      showTraceStep();
      this.changed(e, false);
    });
    traceStep.value = String(s.step);
    traceStep.addEventListener("input", () => {
      const n = Number(traceStep.value);
      if (Number.isSafeInteger(n) && n >= 0) {
        s.step = n;
        e.bytesBound = undefined;
        this.changed(e, false);
      }
    });
    li.append(h("div", { class: "ls-row" },
      field("input", "URL", s.input, { "aria-label": `Step ${i + 1}: URL` }, (v) => { s.input = v; s.href = undefined; }),
      field("base", "Base", s.base, { placeholder: "(none)", "aria-label": `Step ${i + 1}: base` }, (v) => { s.base = v; s.href = undefined; }),
      h("label", { for: `ls-view-${i}` }, "View"),
      h("span", { class: "ls-inline" }, viewSel, traceLabel, traceStep),
      field("note", "Note", s.note, { spellcheck: "true", placeholder: "one line for the class", "aria-label": `Step ${i + 1}: note` },
        (v) => { s.note = v; })));
    if (ops) li.append(ops);
    return li;
  }

  addControls(e) {
    const full = e.lesson.steps.length >= LIMITS.steps.max;
    const reason = full ? `A lesson has at most ${LIMITS.steps.max} steps: remove one to add another.` : "";
    const addCurrent = h("button", { type: "button", id: "lesson-add-current", disabled: full ? true : null, "aria-describedby": "lesson-steps-count" }, "+ Add what the page shows");
    addCurrent.addEventListener("click", () => {
      const step = this.current();
      const problem = this.addProblem(e, step);
      if (problem) {
        this.say(`Not added: ${problem}.`, "bad");
        return;
      }
      e.lesson.steps.push(step);
      this.changed(e, true);
    });
    const entries = this.tapeEntries();
    const fromTape = h("select", { id: "lesson-add-tape", "aria-label": "Add a step from the paper tape", disabled: entries.length && !full ? null : true },
      h("option", { value: "" }, entries.length ? "+ Add from the paper tape…" : "(the paper tape is empty)"),
      entries.length > 1 ? h("option", { value: "all" }, `all ${entries.length} entries, oldest first`) : null,
      entries.map((t, k) => h("option", { value: String(k) }, (t.input.length > 60 ? t.input.slice(0, 60) + "…" : t.input) + (t.base ? "  (base " + t.base.slice(0, 30) + ")" : ""))));
    fromTape.addEventListener("change", () => {
      const v = fromTape.value;
      fromTape.value = "";
      if (v === "") return;
      const picked = v === "all" ? entries : [entries[Number(v)]];
      const left = [];
      for (const t of picked) {
        if (!t) continue;
        const step = tapeStep(t, this.views);
        const problem = this.addProblem(e, step);
        if (problem) left.push(problem);
        else e.lesson.steps.push(step);
      }
      this.changed(e, true);
      if (left.length) this.say(`${left.length} of ${picked.length} tape entr${picked.length === 1 ? "y was" : "ies were"} not added: ${left[0]}${left.length > 1 ? " (and others)" : ""}.`, "bad");
    });
    const count = h("span", { class: ["counter", full ? "at-limit" : null], id: "lesson-steps-count" },
      `${e.lesson.steps.length.toLocaleString("en")} / ${LIMITS.steps.max} steps`, full ? [" · ", reason] : "");
    return h("div", { class: "lesson-add" }, addCurrent, fromTape, count);
  }

  /** A lesson of ours changed: keep it, and redraw what shows it. */
  changed(e, structural) {
    this.save(e);
    if (structural) this.render();
    else {
      this.renderLists();
      const size = this.editorEl.querySelector("#lesson-size");
      if (size && (e.bytesBound ?? Infinity) * 2 >= MAX_FILE_BYTES) {
        const bytes = this.fileBytes(e);
        size.textContent = "lesson file: " + counterText(bytes, LIMITS.file);
        size.classList.toggle("quiet", bytes * 2 < MAX_FILE_BYTES);
      } else if (size) size.classList.add("quiet"); // under half of 1 MB
    }
    if (this.playing?.id === e.id) {
      if (this.playing.at >= e.lesson.steps.length) this.playing.at = e.lesson.steps.length - 1;
      this.renderBar();
    }
  }

  move(e, i, d) {
    const steps = e.lesson.steps;
    const [s] = steps.splice(i, 1);
    steps.splice(i + d, 0, s);
    if (this.playing?.id === e.id && this.playing.at === i) this.playing.at = i + d;
    this.changed(e, true);
    const btn = this.editorEl.querySelector(`[data-lesson-step="${i + d}"] .${d < 0 ? "ls-up" : "ls-down"}`);
    (btn && !btn.disabled ? btn : this.editorEl.querySelector(`[data-lesson-step="${i + d}"] .ls-show`))?.focus();
  }

  removeStep(e, i) {
    const [s] = e.lesson.steps.splice(i, 1);
    this.changed(e, true);
    this.say(`Removed step ${i + 1}.`, "ok", () => {
      e.lesson.steps.splice(i, 0, s);
      this.changed(e, true);
    });
  }

  newLesson() {
    const first = this.current();
    const problem = stepProblem(first, this.names);
    const entry = { id: newId(), order: Date.now(), lesson: { title: "Untitled lesson", description: "", steps: [problem ? { ...first, input: "", base: "", ops: [], href: undefined } : first] } };
    this.mine.push(entry);
    this.save(entry);
    this.selectedId = entry.id;
    if (entry.unsaved) {
      // save() said why it is not stored
    } else if (!problem) this.say("A new lesson with what the page shows as its first step: add more, write the notes.");
    else this.say(`A new lesson; its first step is empty, as what the page shows cannot be a step: ${problem}.`, "bad");
    this.render();
    this.editorEl.querySelector("#lesson-title")?.select();
  }

  duplicate(e) {
    const lesson = structuredClone(e.lesson);
    lesson.title = (e.lesson.title + (e.example ? "" : " (copy)")).slice(0, MAX_TITLE);
    const entry = { id: newId(), order: Date.now(), lesson };
    this.mine.push(entry);
    this.selectedId = entry.id;
    if (this.save(entry)) this.say(`“${lesson.title}” is in Your lessons: edit it there.`);
    this.render();
  }

  deleteLesson(e) {
    const k = this.mine.indexOf(e);
    if (k < 0) return;
    this.mine.splice(k, 1);
    this.unsave(e);
    if (this.playing?.id === e.id) this.stop();
    this.selectedId = this.mine[k]?.id ?? this.mine[k - 1]?.id ?? this.examples[0]?.id ?? null;
    this.say(`Deleted “${e.lesson.title}”.`, "ok", () => {
      this.mine.splice(Math.min(k, this.mine.length), 0, e);
      this.save(e);
      this.selectedId = e.id;
    });
    this.render();
  }

  async importFile(file) {
    const name = file.name || "the file";
    try {
      if (file.size > MAX_FILE_BYTES) {
        throw new LessonError(`${name} is ${(file.size / 1048576).toFixed(1)} MB: a lesson file is at most ${MAX_FILE_BYTES / 1048576} MB`);
      }
      const lesson = parseLesson(await file.text(), { ...this.names, name });
      const entry = this.adopt(lesson);
      this.selectedId = entry.id;
      this.say(`Imported “${lesson.title}” (${lesson.steps.length} step${lesson.steps.length === 1 ? "" : "s"}) from ${name}.`);
    } catch (e) {
      this.say(e instanceof LessonError ? `Not imported: ${e.message}` : `Not imported: ${name} could not be read (${e?.message ?? e})`, "bad");
    }
    this.render();
  }

  exportLesson(e) {
    download(lessonFileName(e.lesson), serializeLesson(e.lesson));
    this.toast(`Saved ${lessonFileName(e.lesson)}`);
  }

  /** The lesson's link: at the calculator's public address if it knows one, else at this page's
   *  own (a classroom's server on the local network: the students reach it there). */
  async linkFor(lesson, at = 0) {
    const value = await lessonToLinkValue(lesson);
    const base = this.publicBase() ?? location.origin + location.pathname;
    return base + "#lesson=" + value + (at ? "&at=" + (at + 1) : "");
  }

  async copyLink(e) {
    const link = await this.linkFor(e.lesson);
    await this.copy(link, "lesson link");
    if (this.publicBase() === null) {
      this.toast(location.protocol === "file:"
        ? "Copied, but this page is a file: the link works only on this computer."
        : `Copied a link to this page's own address (${location.host}): it works where that address does.`);
    }
  }

  // ---- the paper tape ---------------------------------------------------------------------------

  tapeLesson(entries) {
    const when = new Date().toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
    return { title: `Paper tape, ${when}`, description: "", steps: entries.map((t) => tapeStep(t, this.views)) };
  }

  /** The paper tape as a lesson file (a download). */
  exportTape(entries) {
    if (!entries.length) {
      this.toast("The paper tape is empty.");
      return;
    }
    const lesson = this.tapeLesson(entries);
    const name = "urlcalc-paper-tape-" + new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-") + ".urlcalc-lesson.json";
    download(name, serializeLesson(lesson));
    this.toast(`Saved ${name} (${entries.length} entries)`);
  }

  /** The paper tape as a new lesson of ours (selected). */
  lessonFromTape(entries) {
    if (!entries.length) {
      this.toast("The paper tape is empty.");
      return null;
    }
    const lesson = this.tapeLesson([]);
    const entry = { id: newId(), order: Date.now(), lesson };
    const left = [];
    for (const t of entries) {
      const step = tapeStep(t, this.views);
      const problem = this.addProblem(entry, step);
      if (problem) left.push(problem);
      else lesson.steps.push(step);
    }
    if (!lesson.steps.length) {
      this.say(`No lesson made: no tape entry can be a step (${left[0]}).`, "bad");
      return null;
    }
    this.mine.push(entry);
    this.selectedId = entry.id;
    if (this.save(entry)) {
      this.say(left.length ? `A lesson of ${lesson.steps.length} of the paper tape's ${entries.length} entries (${left.length} could not be steps: ${left[0]}).`
        : `A lesson of the paper tape's ${entries.length} entries: write the notes, reorder, present.`, left.length ? "bad" : "ok");
    }
    return entry;
  }

  // ---- playing ----------------------------------------------------------------------------------

  /** Play lesson `id` from step `at` (shown on the page now). */
  play(id, at = 0, { present = false } = {}) {
    const e = this.entry(id);
    if (!e) return;
    at = Math.max(0, Math.min(e.lesson.steps.length - 1, at));
    this.playing = { id, at };
    this.drift = null;
    writeStore(PLAYING_KEY, this.playing, sessionStorage);
    if (present) this.present(true);
    this.renderBar();
    this.apply(e.lesson.steps[at]);
    if (this.built) this.render();
    this.onPlay();
  }

  go(delta) {
    if (!this.playing) return false;
    const e = this.entry(this.playing.id);
    if (!e) return false;
    const at = this.playing.at + delta;
    if (at < 0 || at >= e.lesson.steps.length) {
      this.toast(at < 0 ? "This is the lesson's first step." : "That was the lesson's last step.");
      return true;
    }
    this.play(this.playing.id, at);
    return true;
  }

  stop() {
    this.playing = null;
    this.drift = null;
    writeStore(PLAYING_KEY, null, sessionStorage);
    this.renderBar();
    if (this.built) this.render();
    this.onPlay();
  }

  /** After a reload: the lesson that was playing plays on (the page already shows its step). */
  async resume() {
    const p = readStore(PLAYING_KEY, sessionStorage);
    if (!p || typeof p.id !== "string" || !Number.isInteger(p.at)) return;
    if (p.id.startsWith("example:")) await this.loadExamples();
    const e = this.entry(p.id);
    if (!e || this.playing) return;
    this.playing = { id: p.id, at: Math.min(p.at, e.lesson.steps.length - 1) };
    this.renderBar();
  }

  /** The page computed `seen` ({input, base, enc, ops, href}): if that is the playing step,
   *  say whether the engine still gives the href the lesson was written with. */
  observe(seen) {
    const s = this.playingStep();
    if (!s || s.href === undefined) return;
    if (s.input !== seen.input || s.base !== seen.base || s.enc !== seen.enc ||
      JSON.stringify(s.ops || []) !== JSON.stringify(seen.ops || [])) return;
    const drift = seen.href === s.href ? null : { expected: s.href, got: seen.href };
    if (JSON.stringify(drift) !== JSON.stringify(this.drift)) {
      this.drift = drift;
      this.renderBar();
    }
  }

  playingStep() {
    if (!this.playing) return null;
    const e = this.entry(this.playing.id);
    return e ? e.lesson.steps[this.playing.at] ?? null : null;
  }

  /** A lesson link (#lesson=...&at=N) was opened. */
  async openLink(value, at = 1) {
    try {
      const lesson = await lessonFromLinkValue(value, this.names);
      await this.loadExamples();
      const entry = this.adopt(lesson);
      this.selectedId = entry.id;
      this.play(entry.id, Math.max(0, (Number.isSafeInteger(at) ? at : 1) - 1));
      this.toast(`Lesson “${lesson.title}”: ${lesson.steps.length} steps. PgDn / ] for the next one.`);
      return true;
    } catch (e) {
      this.showLinkError(e instanceof LessonError ? e.message : `the lesson link could not be read (${e?.message ?? e})`);
      return false;
    }
  }

  showLinkError(text) {
    this.playing = null;
    const dismiss = h("button", { type: "button", class: "small", id: "lesson-dismiss" }, "Dismiss");
    dismiss.addEventListener("click", () => {
      this.bar.hidden = true;
      this.bar.classList.remove("error");
    });
    this.bar.classList.add("error");
    this.bar.replaceChildren(h("p", { class: "lb-error", id: "lesson-error", role: "alert" }, "This lesson cannot be opened: ", vis(text)), dismiss);
    this.bar.hidden = false;
  }

  renderBar() {
    const e = this.playing ? this.entry(this.playing.id) : null;
    this.bar.classList.remove("error");
    if (!e) {
      this.bar.hidden = true;
      this.bar.replaceChildren();
      return;
    }
    const at = this.playing.at;
    const n = e.lesson.steps.length;
    const s = e.lesson.steps[at];
    const button = (id, text, label, fn, disabled) => {
      const b = h("button", { type: "button", id, class: "small", title: label, "aria-label": label, disabled: disabled ? true : null }, text);
      b.addEventListener("click", fn);
      return b;
    };
    const d = this.drift;
    fill(this.bar,
      h("span", { class: "lb-title", id: "lesson-bar-title" }, vis(e.lesson.title)),
      h("span", { class: "lb-pos", id: "lesson-pos", data: { at: at + 1, of: n } }, `${at + 1} / ${n}`),
      h("span", { class: "lb-note", id: "lesson-note" }, s.note ? vis(s.note) : h("span", { class: "muted" }, "(no note)")),
      h("span", { class: "lb-buttons" },
        button("lesson-prev", "◀", "Previous step of the lesson (PgUp or [)", () => this.go(-1), at === 0),
        button("lesson-next", "▶", "Next step of the lesson (PgDn or ])", () => this.go(1), at === n - 1),
        button("lesson-stop", "✕", "End the lesson", () => this.stop(), false)),
      d ? h("p", { class: "lb-drift", id: "lesson-drift", role: "note" }, "This step was written when urlcalc gave ",
        d.expected === null ? "a failure" : h("code", null, vis(d.expected)), "; it now gives ",
        d.got === null ? "a failure" : h("code", null, vis(d.got)), ".") : null);
    this.bar.hidden = false;
  }
}

/** At most what lesson entry `e`'s file can be now that one of its fields holds `v`. */
function sizeBound(e, v) {
  return (e.bytesBound ?? Infinity) + 6 * new TextEncoder().encode(v).length;
}

/** The text of a kept (unreadable) stored lesson, for its Export and Copy: the lesson as stored
 *  (pretty-printed JSON, to mend by hand and import), or the stored text itself when it is not
 *  JSON with a lesson in it. */
export function keptText(k) {
  try {
    const obj = JSON.parse(k.raw);
    if (obj && typeof obj === "object" && !Array.isArray(obj) && "lesson" in obj) return JSON.stringify(obj.lesson, null, 2) + "\n";
  } catch {
    // not JSON: as it is
  }
  return k.raw;
}

/** A paper-tape entry as a lesson step (`views`: the names a step may use). */
export function tapeStep(t, views) {
  return {
    input: String(t.input), base: t.base ? String(t.base) : "", view: views.includes(t.view) ? t.view : "components",
    step: 0, note: t.note ? String(t.note).slice(0, 1000) : "", ops: [], enc: t.enc ? String(t.enc) : "",
    href: t.ok ? String(t.out) : null,
  };
}
