// @ts-check
// The page's state read from a URL fragment (a permalink, or the address bar on back/forward):
// share.js's fragmentToState, then what the page makes of it. Pure: no DOM, so node tests import it.
import { fragmentToState } from "../render/share.js";
import { encodingValue } from "../render/encodings.js";
import { OPERATIONS } from "../facts.js";
import { viewNamed } from "./view-names.js";
import { validAsOf } from "./as-of.js";
import { validColumns } from "./columns.js";

/** @typedef {ReturnType<typeof fragmentToState>} PageState */

// What a fragment without input= shows (the page opened bare).
export const DEFAULT_INPUT = "HTTPS://user@EXAMPLE.com:443/a/./b/../%7Ec?q=1#top";

/** A fragment (without "#") as a state the page and the model can use: an old view name as the
 *  current one (view=compare: Implementations), an unknown one as Components; encoding labels as
 *  the select's value; only the operations the model knows.
 *  @param {string} fragment
 *  @returns {PageState} */
export function pageState(fragment) {
  const s = fragmentToState(fragment);
  if (!fragment.includes("input=")) s.input = DEFAULT_INPUT;
  s.view = viewNamed(s.view) ?? "components";
  s.enc = encodingValue(s.enc);
  s.pctenc = encodingValue(s.pctenc);
  s.ops = s.ops.filter(([op]) => OPERATIONS.includes(op));
  s.asof = validAsOf(s.asof);
  s.cols = validColumns(s.cols);
  return s;
}
