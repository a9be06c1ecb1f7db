// @ts-check
// The browser's history, derived from the store (state/store.js): every change writes the
// address bar's fragment (the permalink: render/share.js stateToFragment) and the whole state
// into the history entry, as its action says (push, replace, typing: at most every
// TYPING_HISTORY_MS, none); Back and Forward give the store the entry's state back ("restore"),
// lesson place included, so the lesson bar follows them. A fragment typed or pasted into the
// address bar (hashchange) is read as a permalink, or as a lesson link (#lesson=...&at=N).
import { stateToFragment } from "../render/share.js";
import { ignoredParts, pageState } from "./page-state.js";

/** @typedef {import("./store.js").Store} Store */
/** @typedef {import("./store.js").PageState} PageState */

// Browsers throttle floods of history updates: typing rewrites the entry at most this often.
export const TYPING_HISTORY_MS = 250;

/** The lesson link in a fragment ("lesson=<value>&at=<n>"), or null.
 *  @param {string} fragment */
export function lessonLink(fragment) {
  const parts = new URLSearchParams(fragment);
  if (!parts.has("lesson")) return null;
  const at = Number.parseInt(parts.get("at") ?? "1", 10);
  return { value: parts.get("lesson") ?? "", at: Number.isSafeInteger(at) && at > 0 ? at : 1 };
}

/**
 * Keep the history in step with `store`. `openLesson(value, at)`: a lesson link was put in the
 * address bar.
 * `ignored(lines)`: what of a permalink put in the address bar the page could not use
 * (page-state.js ignoredParts).
 * @param {Store} store
 * @param {{ openLesson: (value: string, at: number) => void, ignored?: (lines: string[]) => void }} hooks
 */
export function followHistory(store, { openLesson, ignored = () => {} }) {
  /** @type {string | null} */
  let written = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  /** @param {PageState} state @param {boolean} push */
  function write(state, push) {
    clearTimeout(timer);
    const fragment = stateToFragment(state);
    const url = location.pathname + location.search + "#" + fragment;
    const entry = { urlcalc: state };
    try {
      if (push && fragment !== written) history.pushState(entry, "", url);
      else history.replaceState(entry, "", url);
      written = fragment;
    } catch {
      // history can throttle very frequent updates: the next change writes it again
    }
  }

  store.subscribe((state, _previous, action) => {
    if (action.history === "push") write(state, true);
    else if (action.history === "replace") write(state, false);
    else if (action.history === "typing") {
      clearTimeout(timer);
      timer = setTimeout(() => write(store.state, false), TYPING_HISTORY_MS);
    }
  });

  /** @param {PopStateEvent} e */
  function popped(e) {
    const held = e.state && typeof e.state === "object" ? e.state.urlcalc : null;
    if (held) {
      written = location.hash.slice(1);
      store.dispatch("restore", held);
      return;
    }
    fromAddressBar();
  }

  function fromAddressBar() {
    const fragment = location.hash.slice(1);
    if (fragment === written) return;
    if (fragment && !fragment.includes("=")) return; // an in-page anchor, not a state
    written = fragment;
    const link = lessonLink(fragment);
    if (link) {
      openLesson(link.value, link.at);
      return;
    }
    ignored(ignoredParts(fragment));
    store.dispatch("restore", pageState(fragment));
    history.replaceState({ urlcalc: store.state }, "", location.href);
  }

  window.addEventListener("popstate", popped);
  window.addEventListener("hashchange", fromAddressBar);
  return {
    /** Write the current state now (at start: the entry holds it for Back). */
    writeNow: () => write(store.state, false),
    /** Enter in a field: the current state as an entry of its own. */
    pushNow: () => write(store.state, true),
  };
}
