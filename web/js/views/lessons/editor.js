// @ts-check
// The Lessons view's editor (#lesson-editor): the selected lesson's title and description, its
// actions (Present, Play, Copy link, Export, Duplicate, Delete), its steps (an example's as text;
// ours as fields: URL, base, view, trace step, note; Show, Use the page, ↑ ↓ ✕) and the controls
// that add steps. A lit-html template of the library's state.
//
// The editor enforces the format's limits (LIMITS in lesson-format.js) where you type: maxlength,
// a counter, anything past the limit cut and said (a paste; bytes), the lesson file kept within
// its 1 MB; so what it lets you make, storage accepts. A field shows what was typed in it (the
// view's drafts: the title is kept trimmed) until the next full render shows the lesson again
// (lit-html's live(): a field is written only when its text differs, so the caret stays).
import { html, live, noChange, nothing } from "../../vendor/lit-html.mjs";
import { HIDE_GETTERS, LIMITS, MAX_FILE_BYTES, counterText, fitToLimit, hideFor, measure } from "../../state/lesson-format.js";
import { maxLengthFor, sizeBound, tapeStep, vt } from "./common.js";

/** @typedef {import("./common.js").Entry} Entry */
/** @typedef {import("./common.js").Limit} Limit */
/** @typedef {import("./common.js").Step} Step */
/** @typedef {import("./index.js").Lessons} Lessons */

/**
 * A text field of lesson `e` kept to `limit`: its id, its counter's id, the label its
 * announcements start with, what the lesson holds in it and how to store a value.
 * @typedef {{e: Entry, id: string, counterId: string, limit: Limit, label: string, value: string,
 *   set: (value: string) => void}} Field
 */

/** The field's text now (as typed, else what the lesson holds). @param {Lessons} v @param {Field} f */
function text(v, f) {
  return v.drafts.get(f.id) ?? f.value;
}

/** The counter of field `f` ("1,234 / 2,000"). @param {Lessons} v @param {Field} f */
function counter(v, f) {
  const n = measure(text(v, f), f.limit);
  const quiet = f.limit.unit === "bytes" && n * 2 < f.limit.max;
  return html`<span class=${"counter" + (n >= f.limit.max ? " at-limit" : "") + (quiet ? " quiet" : "")} id=${f.counterId}>${counterText(n, f.limit)}</span>`;
}

/** Something was typed in field `f`: cut it to its limit (and the lesson file to 1 MB), store it,
 *  say a cut, announce crossing 90% and reaching the limit politely.
 *  @param {Lessons} v @param {Field} f @param {number} step the step typed in (-1: the head)
 *  @param {Event} ev */
function typed(v, f, step, ev) {
  const el = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (ev.target);
  const { e, limit, label } = f;
  const last = measure(text(v, f), limit);
  let value = fitToLimit(el.value, limit);
  let cut = value !== el.value;
  f.set(value);
  // the lesson's file: measured only when an upper bound (its last size, plus this field written
  // out at 6 bytes a byte, JSON's worst) could pass 1 MB
  if (sizeBound(e, value) > MAX_FILE_BYTES) {
    for (let over = v.fileBytes(e) - MAX_FILE_BYTES; over > 0 && value; over = v.fileBytes(e) - MAX_FILE_BYTES) {
      value = fitToLimit(value, { ...LIMITS.file, max: Math.max(0, measure(value, LIMITS.file) - over) });
      f.set(value);
      cut = true;
    }
  } else e.bytesBound = sizeBound(e, value);
  if (cut) el.value = value;
  v.drafts.set(f.id, value);
  const n = measure(value, limit);
  const said = cut ? `${label}: cut at the limit, ${counterText(n, limit)}`
    : n >= limit.max && last < limit.max ? `${label}: at the limit, ${counterText(n, limit)}`
      : n * 10 >= limit.max * 9 && last * 10 < limit.max * 9 ? `${label}: ${counterText(n, limit)}` : "";
  if (said) v.limitLive = said;
  v.typingIn = step;
  if (cut) v.say(`${label} is at most ${limit.max.toLocaleString("en")} ${limit.unit}${v.fileBytes(e) >= MAX_FILE_BYTES - 64 ? " (and a lesson file at most 1 MB)" : ""}: the rest was cut.`, "bad");
  v.changed(e, false);
  v.typingIn = null;
}

/** @param {Lessons} v @param {Field} f @param {number} step @param {Record<string, string>} attrs */
function input(v, f, step, attrs) {
  const value = text(v, f);
  return html`<input type="text" id=${f.id} class=${attrs.class ?? nothing} spellcheck=${attrs.spellcheck} autocomplete=${attrs.autocomplete ?? nothing} placeholder=${attrs.placeholder ?? nothing} aria-label=${attrs.label} maxlength=${maxLengthFor(value, f.limit)} .value=${live(value)} @input=${(/** @type {Event} */ ev) => typed(v, f, step, ev)}>`;
}

/** The title, description and file size of a lesson of ours; an example's title and description.
 *  @param {Lessons} v @param {Entry} e */
function head(v, e) {
  const L = e.lesson;
  if (e.example) {
    return html`<div class="lesson-head"><h3 class="lesson-title-text" id="lesson-title">${vt(L.title)}</h3>${
      L.description ? html`<p class="muted" id="lesson-description">${vt(L.description)}</p>` : nothing}</div>`;
  }
  /** @type {Field} */
  const title = { e, id: "lesson-title", counterId: "lesson-title-count", limit: LIMITS.title, label: "Title", value: L.title, set: (x) => { L.title = x.trim() || "Untitled lesson"; } };
  /** @type {Field} */
  const desc = { e, id: "lesson-description", counterId: "lesson-description-count", limit: LIMITS.description, label: "Description", value: L.description ?? "", set: (x) => { L.description = x; } };
  if (!v.size || v.size.id !== e.id) {
    const bytes = v.fileBytes(e);
    v.size = { id: e.id, bytes, quiet: bytes * 2 < MAX_FILE_BYTES };
  }
  const descText = text(v, desc);
  return html`<div class="lesson-head"><span class="limited">${input(v, title, -1, { label: "Lesson title", spellcheck: "true" })}${counter(v, title)}</span><span class="limited"><textarea id="lesson-description" rows="2" aria-label="Lesson description" placeholder="a description (optional)" spellcheck="true" maxlength=${maxLengthFor(descText, desc.limit)} .value=${live(descText)} @input=${(/** @type {Event} */ ev) => typed(v, desc, -1, ev)}></textarea>${counter(v, desc)}</span><span class=${"counter lesson-size" + (v.size.quiet ? " quiet" : "")} id="lesson-size">lesson file: ${counterText(v.size.bytes, LIMITS.file)}</span><span class="sr-only" id="lesson-limit-live" aria-live="polite">${v.limitLive}</span></div>`;
}

/** @param {string} id @param {string} text @param {() => void} fn @param {{class?: string, title?: string}} [attrs] */
function action(id, text, fn, attrs = {}) {
  return html`<button type="button" id=${id} class=${attrs.class ?? nothing} title=${attrs.title ?? nothing} @click=${fn}>${text}</button>`;
}

/** @param {string} cls @param {string} text @param {string} label @param {() => void} fn @param {boolean} [disabled] */
function stepButton(cls, text, label, fn, disabled = false) {
  return html`<button type="button" class=${"small " + cls} aria-label=${label} title=${label} ?disabled=${disabled} @click=${fn}>${text}</button>`;
}

/** The setters of step `s` (one line), or nothing. @param {Step} s */
function opsLine(s) {
  return s.ops && s.ops.length ? html`<p class="ls-text small"><span class="muted">setters: </span>${
    s.ops.map((o, j) => html`${j ? "; " : ""}<code>${o[0]}${o[0].startsWith("searchParams.") ? ` (${o[1]})` : ` = ${o[1]}`}</code>`)}</p>` : nothing;
}

/** Step `i` of lesson `e`: text for an example's, fields for ours.
 *  @param {Lessons} v @param {Entry} e @param {Step} s @param {number} i */
function stepItem(v, e, s, i) {
  const L = e.lesson;
  const own = !e.example;
  const n = i + 1;
  const playingHere = v.playing?.id === e.id && v.playing.at === i;
  const buttons = html`${stepButton("ls-show", "Show", `Show step ${n} on the page (and play the lesson from there)`, () => v.play(e.id, i))}${own ? html`${
    stepButton("ls-use", "Use the page", `Replace step ${n} with what the page shows now (input, base, view, trace step, setters)`, () => v.replaceStep(e, i, withHide({ ...v.current(), note: L.steps[i].note }, L.steps[i].hide)))}${
    stepButton("ls-up", "↑", `Move step ${n} up`, () => v.move(e, i, -1), i === 0)}${
    stepButton("ls-down", "↓", `Move step ${n} down`, () => v.move(e, i, 1), i === L.steps.length - 1)}${
    stepButton("ls-remove", "✕", `Remove step ${n}`, () => v.removeStep(e, i), L.steps.length === 1)}` : nothing}`;
  const top = html`<div class="ls-head"><span class="ls-n">Step ${n}</span>${buttons}</div>`;
  const cls = "lesson-step" + (playingHere ? " playing" : "");
  if (!own) {
    return html`<li class=${cls} data-lesson-step=${i}>${top}<p class="ls-text">${
      s.input ? html`<code class="ls-input">${vt(s.input)}</code>` : html`<span class="ls-input muted">(the empty string)</span>`}${
      s.base ? html` <span class="muted">against </span><code class="ls-base">${vt(s.base)}</code>` : nothing}</p><p class="ls-text small"><span class="ls-view">${v.viewLabel(s.view)}</span>${
      s.view === "steps" ? ` · trace step #${s.step}` : ""}${s.enc ? ` · encoding ${s.enc}` : ""}</p>${opsLine(s)}${
      s.note ? html`<p class="ls-text ls-note">${vt(s.note)}</p>` : nothing}${
      s.hide ? html`<p class="ls-text small ls-hides">${hideText(s.hide)}</p>` : nothing}</li>`;
  }
  /** @param {"input" | "base" | "note"} key @param {string} label @param {Record<string, string>} attrs @param {(x: string) => void} set */
  const field = (key, label, attrs, set) => {
    /** @type {Field} */
    const f = { e, id: `ls-${key}-${i}`, counterId: `ls-${key}-count-${i}`, limit: LIMITS[key], label: `Step ${n}: ${label}`, value: s[key], set };
    return html`<label for=${f.id}>${label}</label><span class="limited">${input(v, f, i, { class: "ls-" + key, spellcheck: "false", autocomplete: "off", ...attrs })}${counter(v, f)}</span>`;
  };
  const noTrace = s.view !== "steps"; // the trace step is a Steps thing
  const viewChanged = (/** @type {Event} */ ev) => {
    s.view = /** @type {HTMLSelectElement} */ (ev.target).value;
    const hide = hideFor(s.hide, s.view); // "next-step" is a Steps thing
    if (hide === undefined) delete s.hide;
    e.bytesBound = undefined; // measured again at the next keystroke
    v.changed(e, false);
  };
  const traceTyped = (/** @type {Event} */ ev) => {
    const x = Number(/** @type {HTMLInputElement} */ (ev.target).value);
    if (Number.isSafeInteger(x) && x >= 0) {
      s.step = x;
      e.bytesBound = undefined;
      v.changed(e, false);
    }
  };
  return html`<li class=${cls} data-lesson-step=${i}>${top}<div class="ls-row">${
    field("input", "URL", { label: `Step ${n}: URL` }, (x) => { s.input = x; s.href = undefined; })}${
    field("base", "Base", { placeholder: "(none)", label: `Step ${n}: base` }, (x) => { s.base = x; s.href = undefined; })}<label for=${`ls-view-${i}`}>View</label><span class="ls-inline"><select class="ls-view" id=${`ls-view-${i}`} aria-label=${`Step ${n}: view`} @change=${viewChanged}>${
    v.views.map((name) => html`<option value=${name} ?selected=${name === s.view} .selected=${name === s.view}>${v.viewLabel(name)}</option>`)}</select><label for=${`ls-step-${i}`} ?hidden=${noTrace}>trace step</label><input type="number" min="0" step="1" class="ls-trace-step" id=${`ls-step-${i}`} aria-label=${`Step ${n}: trace step in Steps`} ?hidden=${noTrace} .value=${String(s.step)} @input=${traceTyped}></span>${
    field("note", "Note", { spellcheck: "true", placeholder: "one line for the class", label: `Step ${n}: note` }, (x) => { s.note = x; })}${
    hideControls(v, e, s, i)}</div>${opsLine(s)}</li>`;
}

/** `step` with `hide` (what it replaces hid), when its view allows it.
 *  @param {Step} step @param {Step["hide"]} hide @returns {Step} */
function withHide(step, hide) {
  const h = hideFor(hide, step.view);
  return h === undefined ? step : { ...step, hide: Array.isArray(h) ? h.slice() : h };
}

/** "Hides …" for a step's `hide`. @param {NonNullable<Step["hide"]>} hide */
function hideText(hide) {
  return hide === "all" ? "Hides the answer until revealed" : hide === "next-step" ? "Hides the trace's next step until revealed"
    : `Hides ${hide.join(", ")} until revealed`;
}

/** Predict, then reveal: what step `s` hides until the presenter reveals it (nothing, the whole
 *  answer, chosen getters, the trace's next step in Steps).
 *  @param {Lessons} v @param {Entry} e @param {Step} s @param {number} i */
function hideControls(v, e, s, i) {
  const n = i + 1;
  const kind = !s.hide ? "" : Array.isArray(s.hide) ? "getters" : s.hide;
  const kindChanged = (/** @type {Event} */ ev) => {
    const k = /** @type {HTMLSelectElement} */ (ev.target).value;
    if (k === "") delete s.hide;
    else s.hide = k === "getters" ? ["host"] : /** @type {"all" | "next-step"} */ (k);
    e.bytesBound = undefined;
    v.changed(e, true);
  };
  const chosen = Array.isArray(s.hide) ? s.hide : [];
  const toggle = (/** @type {string} */ g, /** @type {Event} */ ev) => {
    const on = /** @type {HTMLInputElement} */ (ev.target).checked;
    const next = HIDE_GETTERS.filter((x) => (x === g ? on : chosen.includes(x)));
    if (next.length) s.hide = next;
    e.bytesBound = undefined;
    v.changed(e, true);
  };
  return html`<label for=${`ls-hide-${i}`}>Hide</label><span class="ls-inline ls-hide"><select class="ls-hide-kind" id=${`ls-hide-${i}`} aria-label=${`Step ${n}: hide until revealed`} @change=${kindChanged}>${
    [["", "nothing"], ["all", "the answer"], ["getters", "chosen getters"], ["next-step", "the trace's next step (Steps)"]].map(([value, label]) =>
      html`<option value=${value} ?disabled=${value === "next-step" && s.view !== "steps"} ?selected=${value === kind} .selected=${value === kind}>${label}</option>`)}</select>${
    kind === "getters" ? html`<span class="ls-hide-getters" role="group" aria-label=${`Step ${n}: getters to hide`}>${HIDE_GETTERS.map((g) => html`<label class="check"><input type="checkbox" data-getter-hide=${g} .checked=${chosen.includes(g)} ?disabled=${chosen.length === 1 && chosen[0] === g} @change=${(/** @type {Event} */ ev) => toggle(g, ev)}> ${g}</label>`)}</span>` : nothing}</span>`;
}

/** Add what the page shows, add from the paper tape, and the count of steps. @param {Lessons} v @param {Entry} e */
function addControls(v, e) {
  const full = e.lesson.steps.length >= LIMITS.steps.max;
  const reason = full ? `A lesson has at most ${LIMITS.steps.max} steps: remove one to add another.` : "";
  const addCurrent = () => {
    const step = v.current();
    const problem = v.addProblem(e, step);
    if (problem) {
      v.say(`Not added: ${problem}.`, "bad");
      return;
    }
    e.lesson.steps.push(step);
    v.changed(e, true);
  };
  const entries = v.tapeEntries();
  const fromTape = (/** @type {Event} */ ev) => {
    const select = /** @type {HTMLSelectElement} */ (ev.target);
    const chosen = select.value;
    select.value = "";
    if (chosen === "") return;
    const picked = chosen === "all" ? entries : [entries[Number(chosen)]];
    const left = v.addSteps(e, picked.filter(Boolean).map((t) => tapeStep(t, v.views)));
    v.changed(e, true);
    if (left.length) v.say(`${left.length} of ${picked.length} tape entr${picked.length === 1 ? "y was" : "ies were"} not added: ${left[0]}${left.length > 1 ? " (and others)" : ""}.`, "bad");
  };
  const short = (/** @type {string} */ x, /** @type {number} */ n) => x.length > n ? x.slice(0, n) + "…" : x;
  return html`<div class="lesson-add"><button type="button" id="lesson-add-current" ?disabled=${full} aria-describedby="lesson-steps-count" @click=${addCurrent}>+ Add what the page shows</button><select id="lesson-add-tape" aria-label="Add a step from the paper tape" ?disabled=${!entries.length || full} @change=${fromTape}><option value="">${entries.length ? "+ Add from the paper tape…" : "(the paper tape is empty)"}</option>${
    entries.length > 1 ? html`<option value="all">all ${entries.length} entries, oldest first</option>` : nothing}${
    entries.map((t, k) => html`<option value=${String(k)}>${short(t.input, 60) + (t.base ? "  (base " + t.base.slice(0, 30) + ")" : "")}</option>`)}</select><span class=${"counter" + (full ? " at-limit" : "")} id="lesson-steps-count">${e.lesson.steps.length.toLocaleString("en")} / ${LIMITS.steps.max} steps${full ? ` · ${reason}` : ""}</span></div>`;
}

/** The editor of the selected lesson. While a field is typed in (v.typingIn: the step, -1 the
 *  head), the other steps and the add controls are left as they are (lit-html's noChange): a
 *  keystroke costs one step's bindings, not the lesson's.
 *  @param {Lessons} v */
export function editorTemplate(v) {
  const e = v.entry(v.selectedId);
  if (!e) return html`<p class="muted">Pick a lesson, or start a new one.</p>`;
  const own = !e.example;
  const typing = v.typingIn;
  return html`${head(v, e)}<div class="lesson-actions">${
    action("lesson-present", "▶ Present", () => v.play(e.id, 0, { present: true }), { class: "primary", title: "Presenter mode, from the first step" })}${
    action("lesson-play", "▶ Play here", () => v.play(e.id, 0), { title: "From the first step, in this layout" })}${
    action("lesson-link", "Copy link", () => v.copyLink(e), { title: "One link that carries the whole lesson" })}${
    action("lesson-export", "Export file", () => v.exportLesson(e), { title: "Save as a lesson file (JSON)" })}${
    action("lesson-print", "Print handout", () => v.panel.dispatchEvent(new CustomEvent("urlcalc-print-lesson", { detail: e.lesson })), { title: "Print the lesson as a handout: each step's input, base and note with space to write; the answers on the last page" })}${
    own ? action("lesson-duplicate", "Duplicate", () => v.duplicate(e))
      : action("lesson-duplicate", "Edit a copy", () => v.duplicate(e), { title: "Examples stay as shipped: edit a copy in Your lessons" })}${
    own ? action("lesson-delete", "Delete", () => v.deleteLesson(e)) : nothing}</div><ol class="lesson-steps" id="lesson-steps">${
    e.lesson.steps.map((s, i) => typing === null || typing === i ? stepItem(v, e, s, i) : noChange)}</ol>${
    own ? (typing === null ? addControls(v, e) : noChange) : nothing}`;
}
