// @ts-check
// whatwg-url in the page, off the main thread: a module worker that imports the bundle
// (../vendor/whatwg-url.mjs, built by `make npm`) and reads inputs with its URL class for the
// Implementations view. Compiling the 500 KB module takes about 100 ms and whatwg-url parses a
// long input in tens of ms: here neither blocks the page.
//
//   in:  {id, input, base, sync}   sync: also put the answer (as JSON) into the page's buffer
//        {type: "channel", buffer}  that buffer (sync-channel.js), sent once
//   out: {id, version, reading}   reading as url-reading.js's readWith gives it
//        {id, error}              the bundle could not be loaded (then every answer says so)
import { readWith } from "../views/url-reading.js";
import { channelFrom } from "../engine/sync-channel.js";

// (by URL: a build product, not a source tsc reads; the bundle's version and URL class)
const BUNDLE = new URL("../vendor/whatwg-url.mjs", import.meta.url).href;
/** @type {Promise<{module: {version: string, URL: typeof URL}, error?: undefined} | {module?: undefined, error: string}>} */
const loaded = import(BUNDLE).then(
  (module) => ({ module }),
  (e) => ({ error: `the whatwg-url bundle did not load (${e?.message ?? e}); \`make npm\` builds it` }),
);

/** @type {ReturnType<typeof channelFrom>} */
let putShared = null; // the page's shared buffer (sync-channel.js), once it sent one

self.addEventListener("message", async (event) => {
  const msg = /** @type {MessageEvent} */ (event).data ?? {};
  const put = channelFrom(msg);
  if (put !== null) {
    putShared = put;
    return;
  }
  const { id, input, base, sync } = msg;
  const { module, error } = await loaded;
  const answer = error ? { id, error } : { id, version: module.version, reading: readWith(module.URL, input, base) };
  // The page may be waiting for it in the buffer (then the message is not read)
  if (sync && putShared !== null) putShared(id, JSON.stringify(answer));
  self.postMessage(answer);
});
