// @ts-check
// urlcalc's service worker: cross-origin isolation on a static host that sends no headers.
//
// Why: a keystroke's answer is drawn in the keystroke's own frame only where the page is
// cross-origin isolated (a SharedArrayBuffer: js/engine/sync-channel.js), and isolation comes from two
// response headers, Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy. `urlcalc serve`
// sends them; GitHub Pages or `python -m http.server` do not. This worker adds them (with the
// rest of what `urlcalc serve` sends: HEADERS below) to the only responses whose headers decide
// isolation: the page's navigations and the scripts of its dedicated workers (Pyodide's and
// whatwg-url's), same-origin GETs. Everything else (the megabytes of the boot) goes to the
// network untouched: no respondWith, and where the browser has the static routing API, a route
// that keeps this worker from even starting for it. No cache, no offline copy.
//
// Registered by js/engine/isolation.js (a classic script, first in the page's <head>) only where the
// page is not isolated already; that script then reloads the page once, so that the document
// comes through here. It lives at the site's root so that its scope covers the whole site.
"use strict";

// BEGIN HEADERS: written by `python -m urlcalc.site.webfacts` from urlcalc.serving.app.SECURITY_HEADERS (what
// `urlcalc serve` sends on every response); tests/test_webfacts.py checks it is current.
const HEADERS = Object.freeze({
  "Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp"
});
// END HEADERS

// This worker's global scope, typed as what it is (for tsc: tsconfig.workers.json).
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/**
 * The install event, with the static routing API where the browser has it (Chromium 123+).
 * @typedef {ExtendableEvent & {addRoutes?: (rules: object[]) => Promise<void>}} InstallEvent
 */

// Responses that may carry no body (new Response refuses one): passed on as they are.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Whether the headers of `request`'s response decide the page's isolation.
 *  (Arrow functions held in consts: a classic script's function declarations would be
 *  properties of the worker's global object, eslint's no-implicit-globals.)
 *  @param {Request} request */
const decidesIsolation = (request) => {
  if (request.method !== "GET") return false;
  if (new URL(request.url).origin !== sw.location.origin) return false;
  return request.mode === "navigate" || request.destination === "document" ||
    request.destination === "worker";
};

sw.addEventListener("install", (/** @type {InstallEvent} */ event) => {
  sw.skipWaiting();
  // The static routing API (Chromium 123+): every request but navigations and worker scripts
  // goes to the network without starting this worker. Rules are tried in order.
  const URLPattern = /** @type {any} */ (globalThis).URLPattern; // (not in TypeScript's lib yet)
  if (typeof event.addRoutes === "function" && typeof URLPattern === "function") {
    const routes = [
      { condition: { requestMode: "navigate" }, source: "fetch-event" },
      { condition: { requestDestination: "worker" }, source: "fetch-event" },
      { condition: { urlPattern: new URLPattern({}) }, source: "network" },
    ];
    // A browser that refuses a rule still has the fetch handler, which does the same.
    event.waitUntil(Promise.resolve().then(() => event.addRoutes(routes)).catch(() => {}));
  }
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // The navigation's request starts while this worker starts (event.preloadResponse).
    if (sw.registration.navigationPreload) {
      await sw.registration.navigationPreload.enable().catch(() => {});
    }
    await sw.clients.claim();
  })());
});

sw.addEventListener("fetch", (event) => {
  if (!decidesIsolation(event.request)) return; // the network's own answer, untouched
  event.respondWith(withHeaders(event));
});

/** The response to `event`'s request, with the isolation headers it lacks.
 *  @param {FetchEvent} event
 *  @returns {Promise<Response>} */
const withHeaders = async (event) => {
  const preloaded = event.request.mode === "navigate" ? await event.preloadResponse : undefined;
  const response = preloaded ?? await fetch(event.request);
  // A redirect (opaque to this worker), an error: the browser handles them as it would.
  if (response.type !== "basic" || NULL_BODY.has(response.status)) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(HEADERS)) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
};
