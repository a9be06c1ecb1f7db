// @ts-check
// The paper tape: the inputs this tab settled on (Enter, a view that records), newest first; an
// entry restores its input. It is kept in sessionStorage, so a reload keeps it (the tab's own
// tape: another tab has its own). At most TAPE_MAX entries: past that the oldest go, and the tape
// says how many went. Clear can be undone (the Undo in the tape, also after a reload) until
// something new is added. A tape that cannot be stored (storage full) says so: it is then kept
// until the tab closes.
import { html, nothing, show, vis } from "../render/templates.js";
import { MAX_TEXT } from "../render/dom.js";

export const TAPE_KEY = "urlcalc.tape";
export const TAPE_CLEARED_KEY = "urlcalc.tape-cleared";
export const TAPE_MAX = 60;

// A tape entry shows the start of a long input (the entry restores all of it): as much as the
// page shows of any string (facts.js MAX_SHOWN_CODE_POINTS); the entry scrolls past a few lines.
const TAPE_TEXT = MAX_TEXT;

/** The tape as stored: {entries, dropped} (an old tape, a bare list, reads as one). */
export function readTape(text) {
  let v;
  try {
    v = JSON.parse(text || "null");
  } catch {
    return { entries: [], dropped: 0 };
  }
  if (Array.isArray(v)) v = { entries: v, dropped: 0 };
  if (!v || typeof v !== "object" || !Array.isArray(v.entries)) return { entries: [], dropped: 0 };
  const entries = v.entries.filter((e) => e && typeof e === "object" && typeof e.input === "string");
  return { entries, dropped: Number.isSafeInteger(v.dropped) && v.dropped > 0 ? v.dropped : 0 };
}

/** Add `entry` to `tape` ({entries, dropped}) in place: not when it repeats the last entry (the
 *  same input, base and encoding giving the same answer: another view drew it), which takes the
 *  newer view and note if the entry brings one (the Editions view's count); past `max` the oldest
 *  go (counted in `dropped`). Returns whether the tape changed. */
export function addToTape(tape, entry, max = TAPE_MAX) {
  const last = tape.entries[tape.entries.length - 1];
  if (last && last.input === entry.input && (last.base || "") === (entry.base || "") &&
    (last.enc || "") === (entry.enc || "") && last.out === entry.out) {
    if (!entry.note || (last.note === entry.note && last.view === entry.view)) return false;
    last.note = entry.note;
    if (entry.view) last.view = entry.view;
    return true;
  }
  tape.entries.push(entry);
  if (tape.entries.length > max) {
    const n = tape.entries.length - max;
    tape.entries.splice(0, n);
    tape.dropped += n;
  }
  return true;
}

export class Tape {
  constructor(listEl, clearBtn, { onPick, storage = sessionStorageOrNull() }) {
    this.listEl = listEl;
    this.clearBtn = clearBtn;
    this.onPick = onPick;
    this.storage = storage;
    const { entries, dropped } = readTape(this.get(TAPE_KEY));
    this.entries = entries;
    this.dropped = dropped;
    this.cleared = this.get(TAPE_CLEARED_KEY) === null ? null : readTape(this.get(TAPE_CLEARED_KEY)); // what Undo restores
    if (this.cleared && !this.cleared.entries.length) this.cleared = null;
    this.unstored = false;
    clearBtn.addEventListener("click", () => this.clear());
    this.render();
  }

  get(key) {
    try {
      return this.storage ? this.storage.getItem(key) : null;
    } catch {
      return null;
    }
  }

  add(entry) {
    const tape = { entries: this.entries, dropped: this.dropped };
    if (!addToTape(tape, entry)) return;
    this.dropped = tape.dropped;
    this.cleared = null; // something new: the Undo of a Clear is over
    this.save();
    this.render();
  }

  /** Clear the tape, keeping what it held for Undo. */
  clear() {
    if (!this.entries.length) return;
    this.cleared = { entries: this.entries, dropped: this.dropped };
    this.entries = [];
    this.dropped = 0;
    this.save();
    this.render();
    this.listEl.querySelector("#tape-undo")?.focus();
  }

  /** Undo the last Clear. */
  undo() {
    if (!this.cleared) return;
    this.entries = this.cleared.entries.concat(this.entries);
    this.dropped = this.cleared.dropped;
    if (this.entries.length > TAPE_MAX) {
      this.dropped += this.entries.length - TAPE_MAX;
      this.entries.splice(0, this.entries.length - TAPE_MAX);
    }
    this.cleared = null;
    this.save();
    this.render();
    this.clearBtn.focus();
  }

  save() {
    let ok = !!this.storage;
    try {
      if (this.storage) {
        this.storage.setItem(TAPE_KEY, JSON.stringify({ entries: this.entries, dropped: this.dropped }));
        if (this.cleared) this.storage.setItem(TAPE_CLEARED_KEY, JSON.stringify(this.cleared));
        else this.storage.removeItem(TAPE_CLEARED_KEY);
      }
    } catch {
      ok = false;
    }
    this.unstored = !ok;
  }

  render() {
    const entries = this.entries.slice().reverse().map((e) => html`<li><button type="button" class=${"tape-entry " + (e.ok ? "ok" : "bad")} title="Restore this input" @click=${() => this.onPick(e)}><code class="t-in">${vis(e.input, TAPE_TEXT)}</code>${e.base
      ? html`<span class="t-base"> (base ${vis(e.base, TAPE_TEXT)})</span>` : nothing}<span class="t-arrow" aria-hidden="true"> → </span><span class="sr-only"> gives </span>${e.ok
      ? html`<code class="t-out">${vis(e.out, TAPE_TEXT)}</code>` : html`<span class="t-out bad-text">failure</span>`}${e.note
      ? html`<span class="t-note">${String(e.note)}</span>` : nothing}</button></li>`);
    const n = this.cleared ? this.cleared.entries.length : 0;
    const cleared = this.cleared
      ? html`<li class="tape-cleared" id="tape-cleared" role="status">${`Cleared ${n} entr${n === 1 ? "y" : "ies"}. `}<button type="button" class="small" id="tape-undo" @click=${() => this.undo()}>Undo</button></li>`
      : nothing;
    const empty = !this.entries.length && !this.cleared
      ? html`<li class="muted">Nothing computed yet. Inputs you settle on appear here.</li>` : nothing;
    const dropped = this.dropped
      ? html`<li class="tape-note muted small" id="tape-dropped">${`The tape keeps the last ${TAPE_MAX} entries: ${this.dropped.toLocaleString("en")} older entr${this.dropped === 1 ? "y was" : "ies were"} dropped. Export or make a lesson of it to keep more.`}</li>`
      : nothing;
    const unstored = this.unstored
      ? html`<li class="tape-note bad-text small" id="tape-unstored">This tab could not store the tape (storage full or disabled): it is kept until the tab closes, not across a reload.</li>`
      : nothing;
    show(this.listEl, html`${cleared}${entries}${empty}${dropped}${unstored}`);
  }
}

function sessionStorageOrNull() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
