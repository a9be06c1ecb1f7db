// @ts-check
// Copying the page: this state's permalink at the calculator's public address, a Markdown table
// (for an issue or a pull request) and web-platform-tests entries (urltestdata.json, or
// setters_tests.json from the Setters lab). Without a public address the copy dialog opens and
// says why there is no link.
import { copyText, settersExport, stateToFragment, toMarkdown, urltestdataEntry, wptJSON } from "../render/share.js";
import { permalinkBase } from "../state/permalink.js";
import { duplicateOf } from "../views/in-wpt.js";

/**
 * @typedef {object} CopyContext
 * @property {() => import("../state/store.js").PageState} state
 * @property {() => any} result the parse answer drawn
 * @property {() => any} setterModel the Setters lab's answer drawn, or null
 * @property {() => string} engineLine
 * @property {() => any} engineInfo
 * @property {{ copyDialog: HTMLDialogElement, copyText: HTMLTextAreaElement, copyNoLink: HTMLElement, copyHere: HTMLElement, copyDuplicate?: HTMLElement | null }} els
 * @property {(text: string) => void} toast
 * @property {() => Promise<any>} [wptLookup] the "wpt" answer for the state now, or null
 *   (views/in-wpt.js): the dialog says when the entry copied is already in WPT
 */

/** @param {CopyContext} ctx */
export function copying(ctx) {
  /** This state's link at the calculator's public address, or null if it knows none. */
  function permalink() {
    const base = permalinkBase(ctx.engineInfo(), location);
    return base === null ? null : base + "#" + stateToFragment(ctx.state());
  }

  /** @param {string | null} link @param {string} what */
  function options(link, what) {
    /** @type {{ dialog: HTMLDialogElement, textarea: HTMLTextAreaElement, toast: (msg: string) => void, what: string, note?: Element }} */
    const out = { dialog: ctx.els.copyDialog, textarea: ctx.els.copyText, toast: ctx.toast, what };
    if (link === null) {
      ctx.els.copyHere.textContent = location.protocol === "file:" ? location.protocol : location.origin + location.pathname;
      out.note = ctx.els.copyNoLink;
    }
    return out;
  }

  async function markdown() {
    const link = permalink();
    await copyText(toMarkdown(ctx.state(), ctx.result(), ctx.engineLine(), link), options(link, "Markdown table"));
  }

  async function wpt() {
    const link = permalink();
    const comment = link === null ? null : "urlcalc: " + link;
    const state = ctx.state();
    const setters = ctx.setterModel();
    let text;
    let what;
    if (state.view === "setters" && setters) {
      // setters_tests.json's own top-level "comment" is a list of lines: what the export left out
      // and why first, then the permalink's line
      const out = settersExport(setters);
      const { comment: skippedLines = [], ...entries } = out.json;
      const lines = [...skippedLines, ...(comment ? [comment] : [])];
      text = wptJSON({ ...(lines.length ? { comment: lines } : {}), ...entries });
      what = `setters_tests.json entries (${out.exported} of ${out.exported + out.skipped.length} operations; ` +
        (out.skipped.length ? `not ${out.skipped.map((/** @type {{n: number}} */ x) => x.n).join(", ")}: no such form, see the comment)` : "all)");
    } else {
      // urltestdata.json entries may carry a "comment"
      text = wptJSON({ ...(comment ? { comment } : {}), ...urltestdataEntry(state, ctx.result()) });
      what = "urltestdata.json entry";
    }
    // Already in WPT? Asked beside the copy (which it does not delay); the toast names the
    // entries when the copy went straight to the clipboard, a line in the dialog when it opened.
    const ops = state.view === "setters" && setters ? state.ops.map((o) => /** @type {[string, string]} */ ([o[0], o[1]])) : null;
    const lookup = ctx.wptLookup ? ctx.wptLookup().catch(() => null) : Promise.resolve(null);
    const note = ctx.els.copyDuplicate;
    if (note) note.hidden = true;
    await copyText(text, options(link, what));
    const duplicate = duplicateOf(await lookup, ops);
    if (duplicate === null || !note) return;
    note.textContent = `Already in WPT: this ${ops === null ? "entry" : "setter case"} would duplicate ${duplicate}.`;
    if (ctx.els.copyDialog.open) note.hidden = false;
    else ctx.toast(`${what} copied; already in WPT: ${duplicate}.`);
  }

  return { permalink, markdown, wpt };
}
