// @ts-check
// The Lessons view: its modules are in ./lessons/ (index.js: the Lessons class; library.js,
// list.js, editor.js, bar.js, common.js), re-exported here for the page (app.js).
export { Lessons } from "./lessons/index.js";
export { download, keptText, tapeStep } from "./lessons/common.js";

/** The example lessons: files of the lesson format in web/js/lessons/, listed in this order
 *  (tests/test_lessons.py reads this list and checks every file). */
export const EXAMPLE_LESSONS = ["relative-resolution.json", "hosts.json", "setters.json"];
