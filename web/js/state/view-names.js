// @ts-check
// The page's views by name. A view's name is what the page calls it everywhere: its tab's
// data-view, the tab's and the panel's ids (tab-<name>, panel-<name>), the permalink's view=<name>,
// a lesson step's "view", its module (views/<name>.js) and its style sheet section; the tab's
// label says the same word (Setters lab for "setters"). Pure: no DOM, so node tests import it.

export const VIEWS = Object.freeze(["components", "steps", "resolution", "setters", "validation", "editions",
  "implementations", "calculators", "examples", "lessons", "history", "survey"]);

// Old names, still read from permalinks and lesson files: the Implementations view was the
// Browser view, view=compare (issue 13).
/** @type {Readonly<Record<string, string>>} */
export const VIEW_ALIASES = Object.freeze({ compare: "implementations" });

// The views a lesson step may show (not the Lessons view itself).
export const LESSON_VIEWS = Object.freeze(VIEWS.filter((v) => v !== "lessons" && v !== "survey"));

/** The view a permalink's or a lesson's name means: an old name read as the current one; an
 *  unknown name (or none) is null.
 *  @param {unknown} name
 *  @returns {string|null} */
export function viewNamed(name) {
  if (typeof name !== "string") return null;
  const current = Object.hasOwn(VIEW_ALIASES, name) ? VIEW_ALIASES[name] : name;
  return VIEWS.includes(current) ? current : null;
}
