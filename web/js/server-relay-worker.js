// The server relay: a module Web Worker that asks the server's API for the page while the page
// waits in a SharedArrayBuffer (sync-channel.js), in the task of the keystroke that asked, as it
// waits for Pyodide's answers. Started by engine.js for calls that prefer the server (the
// Implementations view: the server runs every implementation), apart from the Pyodide worker, so
// that the request goes out at once, while Pyodide parses.
//
// It asks over the API's WebSocket (/api/socket, urlcalc/serving/socket_api.py), opened as soon as the
// relay starts and again when the server closed it (an idle socket is closed after 30 s): a
// message on an open socket costs the browser a fraction of what an HTTP request does (README,
// "Page speed"). Until the socket is open a request waits for it; when it cannot be opened (a
// server or proxy that does not speak WebSocket, or holds the handshake OPEN_TIMEOUT_MS) or
// closes with answers owed, those requests are made over HTTP instead, with a synchronous
// XMLHttpRequest (which a worker may make), and so are all requests for SOCKET_RETRY_MS after a
// socket that never opened.
//
// Messages it takes: {type: "channel", buffer, socket}: the page's shared buffer and the socket's
// URL (or null), sent once; {id, kind, url, body, sync}: the API request (kind, its JSON body)
// whose HTTP URL is url. It answers {id, json, python_ms, got_at, sent_at} (python_ms: the
// request's time), and with sync also puts the answer into the buffer. json is the API's JSON
// text; when the server did not answer 200, or asks to retry later, it is {"relay_failed": why},
// and the page asks the API itself.

import { channelFrom } from "./sync-channel.js";

const TIMEOUT_MS = 10000;
// A socket not open this long after it was asked for (a proxy that holds the handshake) is
// given up: what waits for it goes by HTTP.
const OPEN_TIMEOUT_MS = 3000;
// After a socket that could not be opened, HTTP only for this long.
const SOCKET_RETRY_MS = 60000;
let putShared = null;
let socketUrl = null;
let socket = null; // the open (or opening) WebSocket
let socketOpen = false;
let socketRefusedAt = -Infinity;
const waiting = []; // requests for the socket while it opens
const owed = new Map(); // id -> request sent over the socket, its answer not come yet

function answer({ id, sync }, json, startedAt) {
  const now = performance.now();
  const times = { python_ms: now - startedAt, got_at: performance.timeOrigin + startedAt,
    sent_at: performance.timeOrigin + now };
  if (sync && putShared !== null) putShared(id, json, times);
  self.postMessage({ id, json, ...times });
}

function overHttp(request, startedAt = performance.now()) {
  let json;
  try {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", request.url, false);
    xhr.timeout = TIMEOUT_MS; // allowed for a synchronous request in a worker
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.setRequestHeader("X-Urlcalc-Soft-Errors", "1");
    xhr.send(request.body);
    const retry = xhr.getResponseHeader("Retry-After");
    json = xhr.status === 200 && !retry ? xhr.responseText
      : JSON.stringify({ relay_failed: `HTTP ${xhr.status}${retry ? ", retry later" : ""}` });
  } catch (e) {
    json = JSON.stringify({ relay_failed: String(e?.message ?? e) });
  }
  answer(request, json, startedAt);
}

function send(request) {
  owed.set(request.id, request);
  request.timer = setTimeout(() => {
    // a socket that owes an answer this long is stuck: close it; what it owes goes by HTTP
    if (owed.has(request.id)) socket?.close();
  }, TIMEOUT_MS);
  // the body is the API's JSON object already: no parse and stringify again
  socket.send(`{"id":${request.id},"kind":${JSON.stringify(request.kind)},"params":${request.body}}`);
}

/** An answer message: a first line {"id", "status"}, then the API's body for that status. */
function received(text) {
  const cut = text.indexOf("\n");
  let head = null;
  try {
    head = JSON.parse(text.slice(0, cut));
  } catch {
    // not an answer of ours
  }
  const request = head !== null ? owed.get(head.id) : undefined;
  if (request === undefined) return;
  owed.delete(head.id);
  clearTimeout(request.timer);
  // 400: the API's refusal ({"error": ...}, shown as the HTTP API's soft errors are)
  const json = head.status === 200 || head.status === 400 ? text.slice(cut + 1)
    : JSON.stringify({ relay_failed: `status ${head.status} over the socket` });
  answer(request, json, request.startedAt);
}

function openSocket() {
  if (socketUrl === null || socket !== null) return;
  let s;
  try {
    s = new WebSocket(socketUrl);
  } catch {
    socketRefusedAt = performance.now();
    return;
  }
  socket = s;
  const openTimer = setTimeout(() => {
    if (!socketOpen && socket === s) s.close();
  }, OPEN_TIMEOUT_MS);
  s.addEventListener("open", () => {
    clearTimeout(openTimer);
    socketOpen = true;
    for (const request of waiting.splice(0)) send(request);
  });
  s.addEventListener("message", (event) => {
    if (typeof event.data === "string") received(event.data);
  });
  s.addEventListener("close", () => {
    clearTimeout(openTimer);
    if (!socketOpen) socketRefusedAt = performance.now();
    socket = null;
    socketOpen = false;
    // what the socket owed, and what waited for it, goes by HTTP, in the order asked
    const left = [...owed.values(), ...waiting.splice(0)];
    owed.clear();
    for (const request of left) {
      clearTimeout(request.timer);
      overHttp(request, request.startedAt);
    }
  });
}

function relay(request) {
  request.startedAt = performance.now();
  if (socketUrl !== null && performance.now() - socketRefusedAt > SOCKET_RETRY_MS) {
    openSocket();
    if (socket !== null) {
      if (socketOpen) send(request);
      else waiting.push(request);
      return;
    }
  }
  overHttp(request, request.startedAt);
}

self.addEventListener("message", (event) => {
  const msg = event.data;
  const put = channelFrom(msg);
  if (put !== null) {
    putShared = put;
    socketUrl = typeof msg.socket === "string" ? msg.socket : null;
    openSocket(); // open now: the first keystroke finds it open
  } else if (msg && typeof msg === "object" && msg.id !== undefined && typeof msg.url === "string") {
    relay(msg);
  }
});
