// @ts-check
// Boot progress: what the Pyodide worker is loading and how far (engine.info.progress, reported
// by worker.js as the bytes arrive), shown until the first answer.
import { html, nothing } from "../vendor/lit-html.mjs";
import { show } from "./templates.js";

/**
 * The worker's boot progress (engine.info.progress): each file's bytes, the phase, and which
 * files this boot downloads.
 * @typedef {{files?: Record<string, {loaded: number, total: number|null, done: boolean}>,
 *   phase?: string, order?: string[]}|null|undefined} Progress
 */

// The files the worker may list (worker.js: BOOT_FILES), with what they are; progress.order says
// which ones this boot downloads (a snapshot boot: the wasm and snapshot.bin).
const FILES = {
  "pyodide.asm.wasm": "Python (WebAssembly)",
  "python_stdlib.zip": "Python's standard library",
  "bundle.zip": "urlcalc and idna",
  "snapshot.bin": "Python with urlcalc loaded (a memory snapshot)",
};
const NORMAL_ORDER = ["pyodide.asm.wasm", "python_stdlib.zip", "bundle.zip"];

/** The names of the files this boot downloads, in order.
 *  @param {Progress} progress
 *  @returns {string[]} */
function bootFiles(progress) {
  const order = Array.isArray(progress?.order) ? progress.order.filter((name) => name in FILES) : [];
  return order.length ? order : NORMAL_ORDER;
}

const PHASES = {
  download: "Downloading…",
  start: "Starting Python (compiling the WebAssembly)…",
  unpack: "Unpacking urlcalc…",
  import: "Importing urlcalc…",
  "warm-up": "Warming up (a first parse)…",
};

/** `n` bytes in MB, one decimal under 10 MB.
 *  @param {number} n */
export function megabytes(n) {
  return (n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0);
}

/** {loaded, total, known}: the bytes of all the boot files so far (known: every total is).
 *  @param {Progress} progress
 *  @returns {{loaded: number, total: number, known: boolean}} */
export function bootBytes(progress) {
  let loaded = 0;
  let total = 0;
  let known = true;
  for (const name of bootFiles(progress)) {
    const f = progress?.files?.[name];
    if (!f) {
      known = false;
      continue;
    }
    loaded += f.loaded;
    if (f.total) total += f.total;
    else known = false;
  }
  return { loaded, total, known };
}

/** One line for the top bar: "Pyodide: 4.1 of 12.7 MB" / "Pyodide: starting Python…".
 *  @param {Progress} progress
 *  @returns {string} */
export function bootLine(progress) {
  if (!progress) return "Pyodide booting…";
  if (progress.phase && progress.phase !== "download") return "Pyodide: " + PHASES[progress.phase].toLowerCase();
  const { loaded, total, known } = bootBytes(progress);
  return `Pyodide: ${megabytes(loaded)}${known ? " of " + megabytes(total) : ""} MB…`;
}

/** Fill `el` with the progress: one row per file (a bar and its bytes), then the phase; with no
 *  progress (null), empty it.
 *  @param {HTMLElement} el
 *  @param {Progress | null} progress */
export function renderBootProgress(el, progress) {
  if (progress === null) {
    show(el, nothing);
    return;
  }
  const rows = bootFiles(progress).map((name) => {
    const what = FILES[name];
    const f = progress?.files?.[name];
    const loaded = f ? f.loaded : 0;
    const total = f && f.total ? f.total : null;
    const state = !f ? "waiting" : f.done ? "done" : "loading";
    // (no value: an indeterminate bar)
    return html`<li class=${state} data-file=${name} data-loaded=${loaded} data-total=${total ?? ""} data-state=${state}><code title=${what}>${name}</code><progress max=${String(total ?? 1)} aria-label=${`${name}: ${what}`} value=${total !== null ? Math.min(loaded, total) : nothing}></progress><span class="bytes">${!f ? "waiting" : f.done ? `${megabytes(loaded)} MB ✓`
      : `${megabytes(loaded)}${total !== null ? " of " + megabytes(total) : ""} MB`}</span></li>`;
  });
  show(el, html`<h3>Loading Python into this page (Pyodide): the first answer comes when it has started</h3><ul class="boot-files">${rows}</ul><p class="boot-phase" id="boot-phase" data-phase=${progress?.phase ?? "download"}>${PHASES[progress?.phase ?? "download"] ?? PHASES.download}</p>`);
}
