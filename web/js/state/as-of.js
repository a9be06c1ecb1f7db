// @ts-check
// The History view's day (the permalink's asof=YYYY-MM-DD): the days its slider spans (from
// FIRST_DAY, the first day the variants cover, to today) and a day as the slider's position.
// Pure: no DOM, so node tests import it.

/** The first day of the slider: normative changes are counted, and undoable, from it on
 *  (urlcalc/history/view.py SINCE). */
export const FIRST_DAY = "2015-01-01";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Today, as YYYY-MM-DD (UTC). @param {Date} [now] */
export function today(now = new Date()) {
  return now.toISOString().slice(0, 10);
}

/** `s` if it is a real day between FIRST_DAY and today (YYYY-MM-DD), else "" (none chosen).
 *  @param {unknown} s @param {string} [last] */
export function validAsOf(s, last = today()) {
  if (typeof s !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return "";
  const t = Date.parse(s + "T00:00:00Z");
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== s) return "";
  return s >= FIRST_DAY && s <= last ? s : "";
}

/** Days from FIRST_DAY to `day` (the slider's position). @param {string} day */
export function dayIndex(day) {
  return Math.round((Date.parse(day + "T00:00:00Z") - Date.parse(FIRST_DAY + "T00:00:00Z")) / DAY_MS);
}

/** The day `n` days after FIRST_DAY. @param {number} n */
export function dayAt(n) {
  return new Date(Date.parse(FIRST_DAY + "T00:00:00Z") + Math.round(n) * DAY_MS).toISOString().slice(0, 10);
}
