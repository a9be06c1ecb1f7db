// @ts-check
// Cross-origin isolation on a static host: a classic script, first in the page's <head>, so that
// it runs before the module scripts (engine.js starts the Pyodide worker as soon as it runs).
//
// A keystroke's answer is drawn in the keystroke's own frame only where the page is cross-origin
// isolated (sync-channel.js). `urlcalc serve` sends the headers that make it so; a static host
// (GitHub Pages, `python -m http.server`) does not. There this script registers the site's
// service worker (../isolation-worker.js), which adds the headers to the page's navigations and
// worker scripts, and reloads the page ONCE, so that the document comes through the worker. A
// second visit is controlled from its first request and needs no reload.
//
// window.urlcalcIsolation = {by, reason, pending, settled}:
//   by       "headers" (the host sent them), "service worker" (this page came through it), or
//            null: not isolated (answers come by message, as before)
//   reason   why not isolated (null when isolated or while pending)
//   pending  true while a reload may still come: engine.js starts no worker meanwhile (its boot
//            would be thrown away)
//   settled  a promise: true when the page is about to reload (start nothing), false when it
//            stays (start the worker)
// Guards: never a second reload in a tab (a sessionStorage marker: still not isolated after the
// reload, the page stays as it is and says why); no reload once the user has typed into a field
// (the page stays, the worker starts at once; the next visit is isolated); no reload if the
// worker is not ready within WAIT_MS; nothing at all where the page is isolated already.
"use strict";
(function () {
  var MARKER = "urlcalc-isolation-reload";
  var WAIT_MS = 2000;
  /** @type {(reloading: boolean) => void} */
  var resolveSettled;
  /** @type {UrlcalcIsolation} */
  var state = {
    by: null,
    reason: null,
    pending: false,
    settled: new Promise(function (resolve) { resolveSettled = resolve; }),
  };
  window.urlcalcIsolation = state;

  function storage() {
    try {
      return window.sessionStorage; // throws where storage is disabled
    } catch (_e) {
      return null;
    }
  }

  function stay(reason) {
    state.reason = reason;
    state.pending = false;
    resolveSettled(false);
  }

  var store = storage();
  if (window.crossOriginIsolated === true) {
    var controlled = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
    state.by = controlled ? "service worker" : "headers";
    if (store) store.removeItem(MARKER);
    resolveSettled(false);
    return;
  }
  if (location.protocol !== "http:" && location.protocol !== "https:") {
    return stay("opened from " + location.protocol + " (a service worker needs http: or https:)");
  }
  if (!window.isSecureContext) {
    return stay("not a secure context (plain http: other than localhost): browsers allow " +
      "neither the isolation headers nor a service worker there");
  }
  if (!navigator.serviceWorker) return stay("this browser has no service workers here");
  if (!store) return stay("no sessionStorage: a reload could not be kept from looping");
  if (store.getItem(MARKER) !== null) {
    return stay("still not isolated after a reload through the service worker");
  }

  state.pending = true;
  var done = false;
  function finish(reason) {
    if (done) return false;
    done = true;
    clearTimeout(timer);
    document.removeEventListener("input", typed, true);
    if (reason !== null) stay(reason);
    return true;
  }
  function typed(event) {
    if (event.isTrusted) finish("typed into the page before the service worker was ready: " +
      "the next visit is isolated");
  }
  document.addEventListener("input", typed, true);
  var timer = setTimeout(function () {
    finish("the service worker was not ready within " + WAIT_MS / 1000 + " s: the next visit " +
      "is isolated");
  }, WAIT_MS);

  var script = new URL("../../isolation-worker.js",
    /** @type {HTMLScriptElement} */ (document.currentScript).src);
  navigator.serviceWorker.register(script.href).then(function () {
    // Active (or activating: the navigation waits for it) worker: the reload comes through it.
    return navigator.serviceWorker.ready;
  }).then(function () {
    if (!finish(null)) return;
    store.setItem(MARKER, String(Date.now()));
    resolveSettled(true);
    location.reload();
  }, function (e) {
    finish("the service worker could not be registered (" + (e && e.message || e) + ")");
  });
})();
