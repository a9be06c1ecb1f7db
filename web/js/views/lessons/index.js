// @ts-check
// Lessons: sequences of inputs (each with its base, view, trace step and a one-line note) that a
// teacher builds from the page or the paper tape, reorders, saves as a file, shares as one link
// and steps through in front of a class (the lesson bar; PgDn / PgUp or ] / [).
//
// The view's modules: this one (the Lessons class: the panel, playing a lesson, the bar's state),
// library.js (the lessons and what changes them: storage, examples, edits, import, export, links,
// the paper tape), list.js, editor.js and bar.js (lit-html templates of the lists, the editor and
// the lesson bar), common.js (types and helpers). The file format lives in
// state/lesson-format.js (documented in docs/lessons.md); the example lessons are files of that
// format in web/js/lessons/ (EXAMPLE_LESSONS in ../lessons.js). The teacher's own lessons are
// kept in localStorage, one key per lesson (state/lesson-store.js). The lesson that plays (and
// where) is in sessionStorage, so a reload keeps it.
import { html, render } from "../../vendor/lit-html.mjs";
import { LessonError, MAX_FILE_BYTES, lessonFromLinkValue } from "../../state/lesson-format.js";
import { readStore, vt, why, writeStore } from "./common.js";
import { renderBar } from "./bar.js";
import { editorTemplate } from "./editor.js";
import { LessonLibrary } from "./library.js";
import { listsTemplate } from "./list.js";
import { hiddenValues, markHidden } from "./reveal.js";

/** @typedef {import("./common.js").Entry} Entry */
/** @typedef {import("./common.js").Step} Step */
/** @typedef {import("./library.js").Options} Options */
/** @typedef {import("./bar.js").BarState} BarState */

const PLAYING_KEY = "urlcalc.lesson-playing";

export class Lessons extends LessonLibrary {
  /** panel: the Lessons tab panel; bar: the lesson bar; views / operations: the names a step may
   *  use (aliases: old view names); viewLabel(view): the tab's label; apply(step): show a step on
   *  the page; current(): the page as a step; tapeEntries(): the paper tape, oldest first;
   *  copy(text, what); toast(msg); present(on): presenter mode; onPlay(): after a step is shown or
   *  the lesson stops; publicBase(): the calculator's public address (state/permalink.js), or null.
   *  @param {Options} options */
  constructor(options) {
    super(options);
    /** @type {{expected: string | null, got: string | null} | null} the playing step's href now, when not the one written */
    this.drift = null;
    /** @type {Map<string, string>} the editor's fields as typed (by id), until the next render() */
    this.drafts = new Map();
    /** @type {number | null} the step typed in now (-1: the title or description), else null */
    this.typingIn = null;
    /** @type {string} what the editor's live region said last (crossing 90% of a limit, ...) */
    this.limitLive = "";
    /** @type {{id: string, bytes: number, quiet: boolean} | null} the editor's file size shown */
    this.size = null;
    /** @type {Map<string, Map<string, string>>} the class's guesses, by "<lesson id>:<step>" */
    this.guesses = new Map();
    /** @type {Map<string, import("./reveal.js").Hidden[]>} the answers as revealed, by "<lesson id>:<step>" */
    this.revealedValues = new Map();
  }

  // ---- the panel ----------------------------------------------------------------------------------

  /** Render the Lessons view (its tab was opened). */
  async show() {
    if (!this.built) {
      this.built = true;
      this.render();
    }
    await this.loadExamples();
    if (!this.selectedId || !this.entry(this.selectedId)) {
      this.selectedId = this.playing?.id ?? this.examples[0]?.id ?? this.mine[0]?.id ?? null;
    }
    this.render();
  }

  /** Render from the lessons: the fields show what the lessons hold (what was typed in them and
   *  not kept, a trimmed title, goes), the file size is measured again. The focus stays where it
   *  was, with its caret. */
  render() {
    if (!this.built) return;
    this.drafts.clear();
    this.limitLive = "";
    this.size = null;
    const active = /** @type {HTMLInputElement | null} */ (document.activeElement);
    const sel = active && this.panel.contains(active) && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
    this.paint();
    if (active && sel && document.activeElement === active && (active.selectionStart !== sel[0] || active.selectionEnd !== sel[1])) {
      try {
        active.setSelectionRange(sel[0], sel[1]);
      } catch {
        // a field without a caret (number, select)
      }
    }
  }

  /** Render the panel again (fields keep what was typed in them). */
  paint() {
    if (!this.built) return;
    render(html`<p class="lede">A lesson is a sequence of inputs, each with its base, the view to show, the trace step and a one-line note. Build one from the page or the paper tape, reorder it, save it as a file, share it as one link, and present it: <kbd>PgDn</kbd> / <kbd>PgUp</kbd> (what a presentation clicker sends) or <kbd>]</kbd> / <kbd>[</kbd> step through it.</p>${
      this.messageTemplate()}<div class="lessons"><div class="lesson-lists" id="lesson-lists">${listsTemplate(this)}</div><div class="lesson-editor" id="lesson-editor">${
      editorTemplate(this)}</div></div><input type="file" id="lesson-import" class="sr-only" accept=".json,application/json" tabindex="-1" aria-hidden="true" @change=${(/** @type {Event} */ ev) => this.filePicked(ev)}><p class="lesson-format-note">Lesson files are JSON (format "urlcalc-lesson", version 1), described in docs/lessons.md of urlcalc. Importing checks every field and says what is wrong; nothing in a lesson is ever run.</p>`, this.panel);
  }

  /** The message over the lists (#lesson-message: a status, an alert when bad; Undo): one
   *  element, whose text changes (a live region is announced when it changes, not when it is new). */
  messageTemplate() {
    const m = this.message;
    const undo = () => {
      m?.undo?.();
      this.say("");
      this.render();
    };
    return html`<div id="lesson-message" role=${m?.kind === "bad" ? "alert" : "status"} aria-live="polite" class=${m ? "lesson-message " + (m.kind === "bad" ? "bad" : "ok") : ""}>${m ? vt(m.text) : ""}${
      m?.undo ? html` <button type="button" class="small" id="lesson-undo" @click=${undo}>Undo</button>` : ""}${
      m?.action ? html` <button type="button" class="small" id="lesson-message-action" @click=${m.action.run}>${m.action.label}</button>` : ""}</div>`;
  }

  /** Import a file: the file picker. */
  pickFile() {
    /** @type {HTMLInputElement | null} */ (this.panel.querySelector("#lesson-import"))?.click();
  }

  /** @param {Event} ev */
  filePicked(ev) {
    const input = /** @type {HTMLInputElement} */ (ev.target);
    const file = input.files && input.files[0];
    input.value = "";
    if (file) this.importFile(file);
  }

  /** @param {Entry} e @param {boolean} structural */
  changed(e, structural) {
    if (!structural && this.size?.id === e.id) {
      // the file's size: measured again only when it may be over half of 1 MB
      if ((e.bytesBound ?? Infinity) * 2 >= MAX_FILE_BYTES) {
        const bytes = this.fileBytes(e);
        this.size = { id: e.id, bytes, quiet: bytes * 2 < MAX_FILE_BYTES };
      } else this.size = { ...this.size, quiet: true }; // under half of 1 MB
    }
    super.changed(e, structural);
  }

  newLesson() {
    super.newLesson();
    /** @type {HTMLInputElement | null} */ (this.panel.querySelector("#lesson-title"))?.select();
  }

  /** @param {Entry} e @param {number} i @param {number} d */
  move(e, i, d) {
    super.move(e, i, d);
    const row = `#lesson-editor [data-lesson-step="${i + d}"]`;
    const btn = /** @type {HTMLButtonElement | null} */ (this.panel.querySelector(`${row} .${d < 0 ? "ls-up" : "ls-down"}`));
    (btn && !btn.disabled ? btn : /** @type {HTMLButtonElement | null} */ (this.panel.querySelector(`${row} .ls-show`)))?.focus();
  }

  // ---- playing ----------------------------------------------------------------------------------

  /** Play lesson `id` from step `at` (shown on the page now).
   *  @param {string} id @param {number} [at] @param {{present?: boolean}} [how] */
  play(id, at = 0, { present = false } = {}) {
    const e = this.entry(id);
    if (!e) return;
    at = Math.max(0, Math.min(e.lesson.steps.length - 1, at));
    this.playing = { id, at };
    this.drift = null;
    this.guesses.delete(`${id}:${at}`); // shown again: hidden again, new guesses
    this.revealedValues.delete(`${id}:${at}`);
    writeStore(PLAYING_KEY, this.playing, sessionStorage);
    if (present) this.present(true);
    this.renderBar();
    this.apply(e.lesson.steps[at]);
    if (this.built) this.render();
    this.onPlay();
  }

  /** The next (1) or previous (-1) step; false when no lesson plays. @param {number} delta */
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

  /** The page went Back or Forward to where lesson `p` played (at its step; null: none played):
   *  the bar and the lists follow. The page already shows that step (the page's state holds it),
   *  so nothing is applied, and onPlay is not called.
   *  @param {{id: string, at: number, revealed?: boolean} | null} p */
  follow(p) {
    const e = p ? this.entry(p.id) : null;
    this.playing = e && p ? { id: p.id, at: Math.max(0, Math.min(e.lesson.steps.length - 1, p.at)), ...(p.revealed ? { revealed: true } : {}) } : null;
    this.drift = null;
    writeStore(PLAYING_KEY, this.playing, sessionStorage);
    this.renderBar();
    if (this.built) this.render();
  }

  /** After a reload: the lesson that was playing plays on (the page already shows its step). */
  async resume() {
    const p = readStore(PLAYING_KEY, sessionStorage);
    if (!p || typeof p.id !== "string" || !Number.isInteger(p.at)) return;
    if (p.id.startsWith("example:")) await this.loadExamples();
    const e = this.entry(p.id);
    if (!e || this.playing) return;
    this.playing = { id: p.id, at: Math.min(p.at, e.lesson.steps.length - 1), ...(p.revealed === true ? { revealed: true } : {}) };
    this.renderBar();
  }

  // ---- predict, then reveal ---------------------------------------------------------------------

  /** Whether the step playing hides part of its answer now (not revealed yet). */
  hiding() {
    const s = this.playingStep();
    return !!(s && s.hide && this.playing && !this.playing.revealed);
  }

  /** Reveal what the step playing hides, and mark the class's guesses (r, or the bar's Reveal):
   *  false when nothing is hidden. */
  reveal() {
    if (!this.hiding() || !this.playing) return false;
    const key = `${this.playing.id}:${this.playing.at}`;
    this.revealedValues.set(key, hiddenValues(this.playingStep()?.hide, this.answer()));
    this.playing = { ...this.playing, revealed: true };
    writeStore(PLAYING_KEY, this.playing, sessionStorage);
    this.renderBar();
    this.onReveal();
    if (!document.activeElement || document.activeElement === document.body) {
      /** @type {HTMLElement | null} */ (this.bar.querySelector("#lesson-predict"))?.focus(); // (the Reveal button is gone)
    }
    return true;
  }

  /** @param {string} key @returns {Map<string, string>} */
  guessesFor(key) {
    let m = this.guesses.get(key);
    if (!m) this.guesses.set(key, (m = new Map()));
    return m;
  }

  /** The page computed `seen` ({input, base, enc, ops, href}): if that is the playing step,
   *  say whether the engine still gives the href the lesson was written with.
   *  @param {{input: string, base: string, enc: string, ops: unknown[], href: string | null}} seen */
  observe(seen) {
    this.answered();
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

  /** The page drew an answer: the bar's predict row (its answers) follows. */
  answered() {
    this.onAnswer();
    if (this.playingStep()?.hide) this.renderBar();
  }

  /** @returns {Step | null} */
  playingStep() {
    if (!this.playing) return null;
    const e = this.entry(this.playing.id);
    return e ? e.lesson.steps[this.playing.at] ?? null : null;
  }

  /** A lesson link (#lesson=...&at=N) was opened. @param {string} value @param {number} [at] 1-based */
  async openLink(value, at = 1) {
    try {
      const lesson = await lessonFromLinkValue(value, this.names);
      await this.loadExamples();
      const entry = this.adopt(lesson);
      this.selectedId = entry.id;
      this.play(entry.id, Math.max(0, (Number.isSafeInteger(at) ? at : 1) - 1));
      this.toast(`Lesson “${lesson.title}”: ${lesson.steps.length} step${lesson.steps.length === 1 ? "" : "s"}. PgDn / ] for the next one.`);
      return true;
    } catch (e) {
      this.showLinkError(e instanceof LessonError ? e.message : `the lesson link could not be read (${why(e)})`);
      return false;
    }
  }

  /** @param {string} text */
  showLinkError(text) {
    this.playing = null;
    this.renderBar(text);
  }

  /** Render the lesson bar: the lesson that plays, or `linkError` (why a link cannot be opened).
   *  @param {string | null} [linkError] */
  renderBar(linkError = null) {
    const e = this.playing ? this.entry(this.playing.id) : null;
    /** @type {BarState} */
    let state = null;
    const p = this.playing;
    const step = e && p ? e.lesson.steps[p.at] : null;
    if (linkError !== null) state = { error: linkError, dismiss: () => this.renderBar() };
    else if (e && p) {
      const key = `${p.id}:${p.at}`;
      const revealed = !!p.revealed;
      const predict = step?.hide ? {
        hidden: (revealed ? this.revealedValues.get(key) : null) ?? hiddenValues(step.hide, this.answer()),
        revealed, guesses: this.guessesFor(key),
        guessed: (/** @type {string} */ name, /** @type {string} */ value) => { this.guessesFor(key).set(name, value); },
        reveal: () => this.reveal(),
      } : null;
      state = { entry: e, at: p.at, drift: this.drift, go: (d) => this.go(d), stop: () => this.stop(), predict };
    }
    markHidden(state && "entry" in state && !p?.revealed ? step?.hide : null);
    renderBar(this.bar, state);
  }
}
