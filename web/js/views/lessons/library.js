// @ts-check
// The lessons the Lessons view knows, and what changes them: the examples (files in
// web/js/lessons/), the teacher's own (localStorage, one key per lesson: state/lesson-store.js;
// another tab's changes arrive by the storage event), the kept-aside ones (stored but unreadable:
// shown with their problem, never deleted), and the edits, imports, exports, links and paper-tape
// lessons. No DOM here but a download: the view (index.js) renders, after each change.
import {
  LIMITS, LessonEncodingError, LessonError, MAX_FILE_BYTES, MAX_TITLE, lessonBytes, lessonFileName,
  lessonToLinkValue, parseLesson, parseLessonBytes, serializeLesson, stepProblem,
} from "../../state/lesson-format.js";
import { isLessonKey, newId, readLessons, readStored, removeStored, writeLesson } from "../../state/lesson-store.js";
import { EXAMPLE_LESSONS } from "../lessons.js";
import { download, local, sameLesson, tapeStep, why } from "./common.js";

/** @typedef {import("./common.js").Entry} Entry */
/** @typedef {import("./common.js").Kept} Kept */
/** @typedef {import("./common.js").Lesson} Lesson */
/** @typedef {import("./common.js").Message} Message */
/** @typedef {import("./common.js").Names} Names */
/** @typedef {import("./common.js").Step} Step */
/** @typedef {import("./common.js").TapeEntry} TapeEntry */

/**
 * What the page gives the Lessons view (see Lessons in index.js).
 * @typedef {{panel: HTMLElement, bar: HTMLElement, views: string[], operations: string[],
 *   aliases?: Record<string, string>, viewLabel: (view: string) => string,
 *   apply: (step: Step) => void, current: () => Step, tapeEntries: () => TapeEntry[],
 *   copy: (text: string, what: string) => unknown, toast: (msg: string) => void,
 *   present: (on: boolean) => void, onPlay?: () => void, publicBase?: () => string | null,
 *   answer?: () => import("./reveal.js").Answer | null, onReveal?: () => void, onAnswer?: () => void,
 *   answerOnly?: () => void}} Options
 */

export class LessonLibrary {
  /** @param {Options} options */
  constructor({ panel, bar, views, operations, aliases = {}, viewLabel, apply, current, tapeEntries, copy, toast, present, onPlay = () => {}, publicBase = () => null,
    answer = () => null, onReveal = () => {}, onAnswer = () => {}, answerOnly = () => {} }) {
    this.panel = panel;
    this.bar = bar;
    this.views = views;
    this.operations = operations;
    this.viewLabel = viewLabel;
    this.apply = apply;
    this.current = current;
    this.tapeEntries = tapeEntries;
    this.copy = copy;
    this.toast = toast;
    this.present = present;
    this.onPlay = onPlay;
    this.publicBase = publicBase;
    /** what the page answers for the step shown (predict, then reveal) */
    this.answer = answer;
    /** after a reveal: the page's state takes the lesson's place (revealed) into its history entry */
    this.onReveal = onReveal;
    /** the page drew an answer */
    this.onAnswer = onAnswer;
    /** the answer-only display on / off (a) */
    this.toggleAnswerOnly = answerOnly;
    /** @type {Names} */
    this.names = { views, operations, aliases };
    /** @type {Entry[]} */
    this.examples = [];
    /** @type {string[]} */
    this.exampleErrors = [];
    /** @type {Promise<void> | null} */
    this.examplesLoaded = null;
    /** @type {Kept[]} stored lessons this page cannot read */
    this.kept = [];
    /** @type {Message | null} */
    this.message = null;
    /** @type {boolean} the panel has been rendered (its tab was opened) */
    this.built = false;
    /** @type {{id: string, at: number, revealed?: boolean} | null} the lesson that plays (at: 0-based step
     *  index; revealed: its hidden answer has been revealed) */
    this.playing = null;
    /** @type {Entry[]} */
    this.mine = this.loadMine();
    /** @type {string | null} */
    this.selectedId = null;
    window.addEventListener("storage", (ev) => this.storageChanged(ev));
  }

  // ---- what the view (index.js) does after a change -------------------------------------------

  /** Render the panel from the lessons (fields show what the lessons hold). */
  render() {}

  /** Render the panel again, keeping what the fields hold as typed (a message, the lists). */
  paint() {}

  /** Render the lesson bar. */
  renderBar() {}

  /** Stop playing. */
  stop() {}

  // ---- the library ------------------------------------------------------------------------------

  /** @returns {Entry[]} */
  loadMine() {
    const storage = local();
    if (!storage) return [];
    try {
      const { mine, kept } = readLessons(storage, this.names);
      this.kept = kept;
      return mine;
    } catch (e) {
      this.kept = [];
      this.say(`This browser's stored lessons could not be read (${why(e)}): nothing was changed in storage.`, "bad");
      return [];
    }
  }

  /** Keep lesson `e` in this browser (its own key: the other lessons, and the other tabs', are
   *  not written). A failure says so and marks it: the lesson stays in this page.
   *  @param {Entry} e */
  save(e) {
    const storage = local();
    const problem = storage ? writeLesson(storage, e) : "this browser does not let the page store anything";
    e.unsaved = problem !== null;
    if (problem) {
      this.say(`“${e.lesson.title}” is not saved in this browser: ${problem}. It stays in this page until you close it: export it to keep it.`, "bad");
    }
    return problem === null;
  }

  /** Forget lesson `e` in storage (it was deleted here). @param {Entry} e */
  unsave(e) {
    const storage = local();
    if (storage) removeStored(storage, "urlcalc.lesson:" + e.id);
  }

  /** Another tab changed a stored lesson: take its change (a lesson made, edited or deleted there
   *  is here too, and this tab's next save of another lesson cannot drop it).
   *  @param {StorageEvent} ev */
  storageChanged(ev) {
    const storage = local();
    if (!storage || ev.storageArea !== storage) return;
    if (ev.key !== null && !isLessonKey(ev.key) && ev.key !== "urlcalc.lessons") return;
    if (ev.key === null || ev.key === "urlcalc.lessons") {
      const unsaved = this.mine.filter((e) => e.unsaved);
      this.mine = this.loadMine();
      for (const e of unsaved) if (!this.mine.some((m) => m.id === e.id)) this.mine.push(e);
    } else {
      const key = ev.key;
      const id = key.slice("urlcalc.lesson:".length);
      const k = this.mine.findIndex((e) => e.id === id);
      this.kept = this.kept.filter((x) => x.key !== key);
      if (ev.newValue === null) {
        if (k >= 0) this.mine.splice(k, 1);
        if (this.playing?.id === id) this.stop();
      } else {
        const r = readStored(key, ev.newValue, this.names);
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
    this.render();
  }

  /** Load the example lessons (once). */
  loadExamples() {
    if (!this.examplesLoaded) {
      this.examplesLoaded = Promise.all(EXAMPLE_LESSONS.map(async (file) => {
        try {
          const response = await fetch(new URL("../../lessons/" + file, import.meta.url));
          if (!response.ok) throw new LessonError(`${file}: HTTP ${response.status}`);
          const lesson = parseLesson(await response.text(), { ...this.names, name: file });
          return { id: "example:" + file.replace(/\.json$/, ""), order: 0, lesson, example: true, file };
        } catch (e) {
          this.exampleErrors.push(e instanceof LessonError ? e.message : `${file}: ${why(e)}`);
          return null;
        }
      })).then((list) => {
        this.examples = /** @type {Entry[]} */ (list.filter(Boolean));
      });
    }
    return this.examplesLoaded;
  }

  /** @param {string | null} id @returns {Entry | null} */
  entry(id) {
    return this.examples.find((e) => e.id === id) ?? this.mine.find((e) => e.id === id) ?? null;
  }

  /** Add a lesson to "Your lessons" (or find the same one already there, or among the
   *  examples); returns its entry.
   *  @param {Lesson} lesson @returns {Entry} */
  adopt(lesson) {
    const same = [...this.examples, ...this.mine].find((e) => sameLesson(e.lesson, lesson));
    if (same) return same;
    const entry = { id: newId(), order: Date.now(), lesson };
    this.mine.push(entry);
    this.save(entry);
    return entry;
  }

  /** Say `text` over the lists ("" clears it); `undo` adds an Undo button.
   *  @param {string} text @param {string} [kind] "ok" or "bad" @param {(() => void) | null} [undo] */
  say(text, kind = "ok", undo = null) {
    this.message = text ? { text, kind, undo } : null;
    if (this.built) this.paint();
  }

  // ---- editing a lesson of ours ---------------------------------------------------------------------

  /** The size of lesson `e`'s file, measured (and remembered as the bound the editor keeps).
   *  @param {Entry} e */
  fileBytes(e) {
    e.bytesBound = lessonBytes(e.lesson);
    return e.bytesBound;
  }

  /** Why step `s` cannot be added to lesson `e` (or replace its step `at`), or null.
   *  @param {Entry} e @param {Step} s @param {number} [at] @returns {string | null} */
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

  /** A lesson of ours changed: keep it, and redraw what shows it (`structural`: its steps or
   *  their order, else a field typed in). @param {Entry} e @param {boolean} structural */
  changed(e, structural) {
    this.save(e);
    if (structural) this.render();
    else this.paint();
    if (this.playing?.id === e.id) {
      if (this.playing.at >= e.lesson.steps.length) this.playing.at = e.lesson.steps.length - 1;
      this.renderBar();
    }
  }

  /** @param {Entry} e @param {number} i @param {Step} step */
  replaceStep(e, i, step) {
    const problem = this.addProblem(e, step, i);
    if (problem) {
      this.say(`Step ${i + 1} is unchanged: ${problem}.`, "bad");
      return;
    }
    e.lesson.steps[i] = step;
    this.changed(e, true);
  }

  /** Add steps to lesson `e` (those that can be steps); returns why the others cannot.
   *  @param {Entry} e @param {Step[]} steps @returns {string[]} */
  addSteps(e, steps) {
    const left = [];
    for (const step of steps) {
      const problem = this.addProblem(e, step);
      if (problem) left.push(problem);
      else e.lesson.steps.push(step);
    }
    return left;
  }

  /** Move step `i` of `e` by `d` (-1 up, 1 down). @param {Entry} e @param {number} i @param {number} d */
  move(e, i, d) {
    const steps = e.lesson.steps;
    const [s] = steps.splice(i, 1);
    steps.splice(i + d, 0, s);
    if (this.playing?.id === e.id && this.playing.at === i) this.playing.at = i + d;
    this.changed(e, true);
  }

  /** @param {Entry} e @param {number} i */
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
    if (/** @type {Entry} */ (entry).unsaved) {
      // save() said why it is not stored
    } else if (!problem) this.say("A new lesson with what the page shows as its first step: add more, write the notes.");
    else this.say(`A new lesson; its first step is empty, as what the page shows cannot be a step: ${problem}.`, "bad");
    this.render();
  }

  /** @param {Entry} e */
  duplicate(e) {
    const lesson = structuredClone(e.lesson);
    lesson.title = (e.lesson.title + (e.example ? "" : " (copy)")).slice(0, MAX_TITLE);
    const entry = { id: newId(), order: Date.now(), lesson };
    this.mine.push(entry);
    this.selectedId = entry.id;
    if (this.save(entry)) this.say(`“${lesson.title}” is in Your lessons: edit it there.`);
    this.render();
  }

  /** @param {Entry} e */
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

  /** Delete kept lesson `k` from this browser (with Undo). @param {Kept} k */
  deleteKept(k) {
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
  }

  /** Import a file: its bytes must be UTF-8 (never read with U+FFFD in their place); a file that
   *  is not says where, and when it reads as Latin-1 the message offers to read it so (`as`).
   *  @param {File} file @param {"utf-8" | "windows-1252"} [as] */
  async importFile(file, as = "utf-8") {
    const name = file.name || "the file";
    try {
      if (file.size > MAX_FILE_BYTES) {
        throw new LessonError(`${name} is ${(file.size / 1048576).toFixed(1)} MB: a lesson file is at most ${MAX_FILE_BYTES / 1048576} MB`);
      }
      const lesson = parseLessonBytes(new Uint8Array(await file.arrayBuffer()), { ...this.names, name, as });
      const entry = this.adopt(lesson);
      this.selectedId = entry.id;
      this.say(`Imported “${lesson.title}” (${lesson.steps.length} step${lesson.steps.length === 1 ? "" : "s"}) from ${name}${as === "utf-8" ? "" : ", read as Latin-1 (Windows-1252)"}.`);
    } catch (e) {
      this.say(e instanceof LessonError ? `Not imported: ${e.message}` : `Not imported: ${name} could not be read (${why(e)})`, "bad");
      if (e instanceof LessonEncodingError && e.latin1 && this.message) {
        this.message.action = { label: "Read it as Latin-1", run: () => this.importFile(file, "windows-1252") };
      }
    }
    this.render();
  }

  /** @param {Entry} e */
  exportLesson(e) {
    download(lessonFileName(e.lesson), serializeLesson(e.lesson));
    this.toast(`Saved ${lessonFileName(e.lesson)}`);
  }

  /** The lesson's link: at the calculator's public address if it knows one, else at this page's
   *  own (a classroom's server on the local network: the students reach it there).
   *  @param {Lesson} lesson @param {number} [at] */
  async linkFor(lesson, at = 0) {
    const value = await lessonToLinkValue(lesson);
    const base = this.publicBase() ?? location.origin + location.pathname;
    return base + "#lesson=" + value + (at ? "&at=" + (at + 1) : "");
  }

  /** @param {Entry} e */
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

  /** @param {TapeEntry[]} entries @returns {Lesson} */
  tapeLesson(entries) {
    const when = new Date().toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
    return { title: `Paper tape, ${when}`, description: "", steps: entries.map((t) => tapeStep(t, this.views)) };
  }

  /** The paper tape as a lesson file (a download). @param {TapeEntry[]} entries */
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

  /** The paper tape as a new lesson of ours (selected).
   *  @param {TapeEntry[]} entries @returns {Entry | null} */
  lessonFromTape(entries) {
    if (!entries.length) {
      this.toast("The paper tape is empty.");
      return null;
    }
    const lesson = this.tapeLesson([]);
    const entry = { id: newId(), order: Date.now(), lesson };
    const left = this.addSteps(entry, entries.map((t) => tapeStep(t, this.views)));
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
}
