// @ts-check
// The views, behind one interface. Each view is `{ update(state, parse) }`: called when its tab
// is shown and after every change of the page's state or of the parse answer while it is, it
// draws what it shows from the page's state and the parse answer (`parse`: the result model of
// the "parse" request, or null before the first one), and asks the engine for what else it needs
// (the asking views: views/asking-view.js). A view that draws the parse's trace says `traced`
// (the page's parse is then asked with trace). `prefetch` (the asking views): say to the engine,
// before the page's parse is posted, the request the view is about to make. `forget`: draw again
// at the next update (the spec's words came; another engine took over).
import { renderComponents } from "./components.js";
import { renderResolution } from "./resolution.js";
import { renderValidation } from "./validation.js";
import { renderExamples } from "./examples.js";

/** @typedef {import("../state/store.js").PageState} PageState */
/**
 * @typedef {object} View
 * @property {(state: PageState, parse: any) => void} update
 * @property {boolean} [traced]
 * @property {(prefetch: (kind: string, params: object, options: object) => void) => unknown} [prefetch]
 * @property {() => void} [forget]
 */

/** A view drawn from the parse answer alone, once per answer.
 *  @param {(parse: any, state: PageState) => void} draw @returns {View} */
function fromParse(draw) {
  /** @type {any} */
  let drawn = null;
  return {
    update(state, parse) {
      if (!parse || parse === drawn) return;
      drawn = parse;
      draw(parse, state);
    },
    forget() {
      drawn = null;
    },
  };
}

/** A view drawn once (its content does not depend on the input).
 *  @param {() => void} draw @returns {View} */
function once(draw) {
  let done = false;
  return {
    update() {
      if (done) return;
      done = true;
      draw();
    },
    forget() {
      done = false;
    },
  };
}

/** The Steps view: drawn from the traced parse, at the state's step.
 *  @param {import("./steps.js").StepsView} steps @returns {View} */
function tracedSteps(steps) {
  /** @type {any} */
  let drawn = null;
  return {
    traced: true,
    update(state, parse) {
      if (!parse || !parse.trace) return; // (the page asks again, with the trace)
      if (parse === drawn) {
        // the same trace at another step (a lesson's next step, Back)
        if (state.step !== steps.pos) steps.go(state.step);
        return;
      }
      drawn = parse;
      steps.pos = state.step;
      steps.render(parse);
    },
    forget() {
      drawn = null;
    },
  };
}

/** The Components view with its "Is this in WPT?" panel (views/in-wpt.js), which asks its own.
 *  @param {View} view @param {import("./in-wpt.js").InWptView} [inWpt] @returns {View} */
function withInWpt(view, inWpt) {
  if (!inWpt) return view;
  return {
    update(state, parse) {
      view.update(state, parse);
      inWpt.update(state);
    },
    prefetch: (prefetch) => inWpt.prefetch(prefetch),
    forget() {
      view.forget?.();
      inWpt.invalidate();
    },
  };
}

/**
 * The page's views, by name (state/view-names.js VIEWS).
 * @param {Record<string, HTMLElement>} panels
 * @param {object} parts
 * @param {import("./steps.js").StepsView} parts.steps
 * @param {import("./setters.js").SettersView} parts.setters
 * @param {import("./editions.js").EditionsView} parts.editions
 * @param {import("./implementations.js").ImplementationsView} parts.implementations
 * @param {import("./history.js").HistoryView} parts.history
 * @param {import("./survey.js").SurveyView} parts.survey
 * @param {import("./calculators.js").CalculatorsView} parts.calculators
 * @param {{ show: () => void }} parts.lessons
 * @param {(example: any) => void} parts.onExample
 * @param {() => void} parts.afterComponents
 * @param {import("./in-wpt.js").InWptView} [parts.inWpt]
 * @returns {Record<string, View>}
 */
export function createViews(panels, parts) {
  const asking = (/** @type {import("./asking-view.js").AskingView} */ v) => ({
    update: (/** @type {PageState} */ state) => v.update(state),
    prefetch: (/** @type {any} */ prefetch) => v.prefetch(prefetch),
    forget: () => v.invalidate(),
  });
  return {
    components: withInWpt(fromParse((parse) => {
      renderComponents(panels.components, parse);
      parts.afterComponents();
    }), parts.inWpt),
    steps: tracedSteps(parts.steps),
    resolution: fromParse((parse) => renderResolution(panels.resolution, parse)),
    setters: {
      update: (state) => parts.setters.update(state),
      prefetch: (prefetch) => parts.setters.prefetch(prefetch),
      forget: () => parts.setters.invalidate(),
    },
    validation: fromParse((parse) => renderValidation(panels.validation, parse)),
    editions: asking(parts.editions),
    implementations: asking(parts.implementations),
    calculators: fromParse((parse, state) => parts.calculators.follow(state, parse)),
    examples: once(() => renderExamples(panels.examples, { onPick: parts.onExample })),
    lessons: { update: () => parts.lessons.show() },
    history: asking(parts.history),
    survey: { update: (state) => parts.survey.update(state) },
  };
}
