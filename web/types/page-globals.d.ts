// Globals the page's scripts share, for `tsc` (see tsconfig.json): what js/engine/isolation.js
// (a classic script, first in the page's <head>) leaves for the modules.

/** How the page got cross-origin isolated (js/engine/isolation.js). */
interface UrlcalcIsolation {
  /** "headers" (the host sent them), "service worker", or null: not isolated */
  by: "headers" | "service worker" | null;
  /** why not isolated (null when isolated or while pending) */
  reason: string | null;
  /** true while a reload may still come */
  pending: boolean;
  /** true when the page is about to reload, false when it stays */
  settled: Promise<boolean>;
}

// eslint-disable-next-line no-var
declare var urlcalcIsolation: UrlcalcIsolation | undefined;
