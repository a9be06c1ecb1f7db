// @ts-check
// The encodings of the Encoding Standard, by name (every name is also a label). The page offers
// them in selects, so it never sends a label the model would refuse.
import { ENCODINGS } from "../facts.js";

/** Fill a <select>: "" (UTF-8, the default) then every other encoding.
 *  @param {HTMLSelectElement} select */
export function fillEncodings(select) {
  select.replaceChildren(new Option("UTF-8 (default)", ""),
    ...ENCODINGS.filter((e) => e !== "UTF-8").map((e) => new Option(e, e)));
}

/** The select value for a label from a permalink: a known name (case-insensitively) or "".
 *  @param {unknown} label
 *  @returns {string} */
export function encodingValue(label) {
  const l = String(label || "").trim().toLowerCase();
  if (l === "utf-8" || l === "utf8") return "";
  return ENCODINGS.find((e) => e.toLowerCase() === l) || "";
}
