// @ts-check
// One URL class's reading of an input as the eleven getters: the Implementations view's own
// columns (this browser's URL, and whatwg-url's in whatwg-url-worker.js).
import { GETTERS } from "../facts.js";

/** new URLClass(input, base): {ok: true, getters} | {ok: false, error}.
 *  @param {new (input: string, base?: string) => any} URLClass @param {string} input @param {string | null | undefined} base
 *  @returns {{ok: true, getters: Record<string, string>} | {ok: false, error: string}} */
export function readWith(URLClass, input, base) {
  try {
    const u = base === null || base === undefined ? new URLClass(input) : new URLClass(input, base);
    /** @type {Record<string, string>} */
    const getters = {};
    for (const g of GETTERS) getters[g] = u[g];
    return { ok: true, getters };
  } catch (e) {
    return { ok: false, error: `${e?.name ?? "Error"}: ${e?.message ?? String(e)}` };
  }
}
