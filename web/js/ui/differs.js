// @ts-check
// "The engines differ": when the page is served and Pyodide runs too, the idle page asks both
// engines the same parse (engine.both) and marks the getters and record fields on which they
// differ (e.g. Unicode versions), with a line naming them.
import { html, nothing, show } from "../render/templates.js";

/** @param {unknown} p */
function pathString(p) {
  return Array.isArray(p) ? p.join(".") : String(p);
}

/**
 * @param {HTMLElement} line the "engines differ" line
 * @param {any} engine the page's engine, or null
 * @param {() => Record<string, any> | null} params the parse request of the page now (null: none)
 */
export function enginesDiffer(line, engine, params) {
  /** @type {{ key: string | null, paths: string[] }} */
  let differs = { key: null, paths: [] };

  /** Mark what differs for the page's input now (nothing if that was not asked). */
  function apply() {
    const now = params();
    const paths = now !== null && differs.key === JSON.stringify(now) ? differs.paths : [];
    for (const el of document.querySelectorAll(".engine-differs")) el.classList.remove("engine-differs");
    if (!paths.length) {
      line.hidden = true;
      show(line, nothing);
      return;
    }
    for (const p of paths) {
      const parts = p.split(/[./[\]]+/).filter(Boolean);
      const i = parts.indexOf("getters");
      if (i >= 0 && parts[i + 1]) {
        for (const el of document.querySelectorAll(`[data-getter="${CSS.escape(parts[i + 1])}"]`)) el.classList.add("engine-differs");
      }
      const j = parts.indexOf("record");
      if (j >= 0 && parts[j + 1]) {
        for (const el of document.querySelectorAll(`#panel-components tr[data-field="${CSS.escape(parts[j + 1])}"]`)) el.classList.add("engine-differs");
      }
    }
    line.hidden = false;
    show(line, html`<strong>The engines differ</strong> (server vs Pyodide, e.g. Unicode versions) on: <code>${paths.slice(0, 8).join(", ") + (paths.length > 8 ? ", …" : "")}</code>`);
  }

  /** (the page is idle) Ask both engines, if both run and this input was not asked yet. */
  async function check() {
    if (!engine || typeof engine.both !== "function") return;
    const asked = params();
    if (asked === null) return;
    const info = engine.info || {};
    if (info.status !== "ready" || !info.server) return;
    const key = JSON.stringify(asked);
    if (differs.key === key) return;
    try {
      const res = await engine.both("parse", asked);
      if (key !== JSON.stringify(params())) return;
      differs = { key, paths: Array.isArray(res && res.differs) ? res.differs.map(pathString) : [] };
    } catch {
      differs = { key, paths: [] };
    }
    apply();
  }

  return { apply, check };
}
