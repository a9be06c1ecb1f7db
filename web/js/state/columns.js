// @ts-check
// The Editions view's extra columns of the URL Standard (the permalink's cols=): a column per day
// ("2019-01-01": the standard on that day) and at most one change undone ("without:NAME": today's
// standard without it), comma-separated, in the order added. The engine reads them (the "compare"
// request's as_of and without: urlcalc/history/columns.py); here only what the page keeps. Pure:
// no DOM, so node tests import it.
import { MAX_AS_OF_COLUMNS, VARIANTS } from "../facts.js";
import { validAsOf } from "./as-of.js";

const WITHOUT = "without:";
/** The names of the changes urlcalc can undo (facts.js, from urlcalc.standard.variants). */
const NAMES = new Set(VARIANTS.map((v) => v[0]));

/** @typedef {{ kind: "as_of", day: string } | { kind: "without", change: string }} Column */

/** The columns a cols= value holds: the real days (at most MAX_AS_OF_COLUMNS, no repeats) and
 *  the last known change, the rest dropped. @param {unknown} cols @param {string} [last] today
 *  @returns {Column[]} */
export function readColumns(cols, last) {
  /** @type {Column[]} */
  const out = [];
  if (typeof cols !== "string") return out;
  let change = "";
  for (const item of cols.split(",")) {
    const s = item.trim();
    if (s.startsWith(WITHOUT)) {
      if (NAMES.has(s.slice(WITHOUT.length))) change = s.slice(WITHOUT.length);
      continue;
    }
    const day = validAsOf(s, last);
    if (day && out.length < MAX_AS_OF_COLUMNS && !out.some((c) => c.kind === "as_of" && c.day === day)) out.push({ kind: "as_of", day });
  }
  if (change) out.push({ kind: "without", change });
  return out;
}

/** The cols= value of `columns` ("" for none). @param {Column[]} columns */
export function writeColumns(columns) {
  return columns.map((c) => (c.kind === "as_of" ? c.day : WITHOUT + c.change)).join(",");
}

/** A cols= value kept as the page can use it (page-state.js). @param {unknown} cols @param {string} [last] */
export function validColumns(cols, last) {
  return writeColumns(readColumns(cols, last));
}

/** `cols` with a column added: a day (the oldest dropped when MAX_AS_OF_COLUMNS are there
 *  already; a day already there stays where it is), or a change (replacing the one undone).
 *  @param {string} cols @param {Column} column @param {string} [last] */
export function addColumn(cols, column, last) {
  let columns = readColumns(cols, last);
  if (column.kind === "without") columns = [...columns.filter((c) => c.kind !== "without"), column];
  else if (!columns.some((c) => c.kind === "as_of" && c.day === column.day)) {
    const days = columns.filter((c) => c.kind === "as_of");
    const drop = days.length >= MAX_AS_OF_COLUMNS ? days[0] : null;
    const change = columns.filter((c) => c.kind === "without");
    columns = [...days.filter((c) => c !== drop), column, ...change];
  }
  return validColumns(writeColumns(columns), last);
}

/** `cols` without the column whose answer id is `id` ("as_of:DAY" or "without:NAME").
 *  @param {string} cols @param {string} id @param {string} [last] */
export function removeColumn(cols, id, last) {
  return writeColumns(readColumns(cols, last).filter((c) => columnId(c) !== id));
}

/** A column's id in the "compare" answer (urlcalc/editions/view.py StandardColumn.id). @param {Column} c */
export function columnId(c) {
  return c.kind === "as_of" ? "as_of:" + c.day : "without:" + c.change;
}

/** The "compare" request's as_of and without for `cols` (absent when none).
 *  @param {string} cols @param {string} [last] @returns {{ as_of?: string, without?: string }} */
export function columnParams(cols, last) {
  const columns = readColumns(cols, last);
  /** @type {{ as_of?: string, without?: string }} */
  const p = {};
  const days = columns.flatMap((c) => (c.kind === "as_of" ? [c.day] : []));
  if (days.length) p.as_of = days.join(",");
  const change = columns.find((c) => c.kind === "without");
  if (change && change.kind === "without") p.without = change.change;
  return p;
}
