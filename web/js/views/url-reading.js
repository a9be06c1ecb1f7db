// One URL class's reading of an input as the eleven getters: the Implementations view's own
// columns (this browser's URL, and whatwg-url's in whatwg-url-worker.js).
import { GETTERS } from "../facts.js";

/** new URLClass(input, base): {ok: true, getters} | {ok: false, error}. */
export function readWith(URLClass, input, base) {
  try {
    const u = base === null || base === undefined ? new URLClass(input) : new URLClass(input, base);
    const getters = {};
    for (const g of GETTERS) getters[g] = u[g];
    return { ok: true, getters };
  } catch (e) {
    return { ok: false, error: `${e?.name ?? "Error"}: ${e?.message ?? String(e)}` };
  }
}
