// The server relay: a module Web Worker that makes the page's API requests with a synchronous
// XMLHttpRequest (which a worker may make, the page may not), so that a cross-origin isolated
// page can wait for the server's answer in a SharedArrayBuffer (sync-channel.js), in the task of
// the keystroke that asked, as it waits for Pyodide's. Started by engine.js for calls that
// prefer the server (the Implementations view: the server runs every implementation), apart
// from the Pyodide worker, so that the request goes out at once, while Pyodide parses.
//
// Messages it takes: {type: "channel", buffer}: the page's shared buffer, sent once;
// {id, url, body, sync}: POST body (JSON text) to url. It answers {id, json, python_ms, got_at,
// sent_at} (python_ms: the request's time), and with sync also puts the answer into the buffer.
// json is the API's JSON text; when the server did not answer 200, or asks to retry later, it
// is {"relay_failed": why}, and the page asks the API itself.

import { channelFrom } from "./sync-channel.js";

const TIMEOUT_MS = 10000;
let putShared = null;

function relay({ id, url, body, sync }) {
  const t = performance.now();
  let json;
  try {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url, false);
    xhr.timeout = TIMEOUT_MS; // allowed for a synchronous request in a worker
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.setRequestHeader("X-Urlcalc-Soft-Errors", "1");
    xhr.send(body);
    const retry = xhr.getResponseHeader("Retry-After");
    json = xhr.status === 200 && !retry ? xhr.responseText
      : JSON.stringify({ relay_failed: `HTTP ${xhr.status}${retry ? ", retry later" : ""}` });
  } catch (e) {
    json = JSON.stringify({ relay_failed: String(e?.message ?? e) });
  }
  const times = { python_ms: performance.now() - t, got_at: performance.timeOrigin + t,
    sent_at: performance.timeOrigin + performance.now() };
  if (sync && putShared !== null) putShared(id, json, times);
  self.postMessage({ id, json, ...times });
}

self.addEventListener("message", (event) => {
  const msg = event.data;
  const put = channelFrom(msg);
  if (put !== null) putShared = put;
  else if (msg && typeof msg === "object" && msg.id !== undefined && typeof msg.url === "string") relay(msg);
});
