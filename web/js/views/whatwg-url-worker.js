// whatwg-url in the page, off the main thread: a module worker that imports the bundle
// (../vendor/whatwg-url.mjs, built by `make npm`) and reads inputs with its URL class for the
// Implementations view. Compiling the 500 KB module takes about 100 ms and whatwg-url parses a
// long input in tens of ms: here neither blocks the page.
//
//   in:  {id, input, base}
//   out: {id, version, reading}   reading as url-reading.js's readWith gives it
//        {id, error}              the bundle could not be loaded (then every answer says so)
import { readWith } from "./url-reading.js";

const loaded = import("../vendor/whatwg-url.mjs").then(
  (module) => ({ module }),
  (e) => ({ error: `the whatwg-url bundle did not load (${e?.message ?? e}); \`make npm\` builds it` }),
);

self.addEventListener("message", async (event) => {
  const { id, input, base } = event.data ?? {};
  const { module, error } = await loaded;
  if (error) self.postMessage({ id, error });
  else self.postMessage({ id, version: module.version, reading: readWith(module.URL, input, base) });
});
