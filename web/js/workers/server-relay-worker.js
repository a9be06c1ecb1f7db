// @ts-check
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
// whose HTTP URL is url. It answers {id, envelope, python_ms, got_at, sent_at} (python_ms: the
// request's time), and with sync also puts the envelope into the buffer. envelope is the JSON
// text {"id":ID,"status":STATUS,"body":BODY} of every answer (urlcalc/answers/answer.py): the
// socket's message as it came, or one made here of the HTTP answer's status and body. The
// relay's own failures are statuses too, with {"error": why} (engine.js then asks the API
// itself, as it does for any status from 500 up):
//   502  no answer at all (the HTTP request failed: the server is gone, the network is down);
//   504  no answer within TIMEOUT_MS.
// Requests over MAX_SOCKET_MESSAGE_BYTES go by HTTP (the socket would close on them).

import { MAX_SOCKET_MESSAGE_BYTES } from "../facts.js";
import { channelFrom } from "../engine/sync-channel.js";

const TIMEOUT_MS = 10000;
export const NO_ANSWER = 502;
export const NO_ANSWER_IN_TIME = 504;
// (UTF-8 bytes of a request message: urlcalc/model/limits.py, through facts.js)
export { MAX_SOCKET_MESSAGE_BYTES };
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

/** The envelope of a relay's own failure: {"id","status","body":{"error"}}.
 *  @param {unknown} id
 *  @param {number} status
 *  @param {string} why
 *  @returns {string} */
export function failed(id, status, why) {
  return JSON.stringify({ id, status, body: { error: `the server relay got no answer: ${why}` } });
}

/** The envelope of an HTTP answer: its status and its JSON body as they are (a body that is not
 *  JSON, from a proxy say, becomes {"error"}; a 200 without JSON, NO_ANSWER).
 *  @param {unknown} id
 *  @param {number} status
 *  @param {string|null} contentType
 *  @param {string} text
 *  @returns {string} */
export function httpEnvelope(id, status, contentType, text) {
  if (/^application\/json\b/i.test(contentType ?? "") && text) {
    return `{"id":${JSON.stringify(id)},"status":${status},"body":${text}}`;
  }
  const why = `HTTP ${status} without JSON`;
  return status === 200 ? failed(id, NO_ANSWER, why) : JSON.stringify({ id, status, body: { error: why } });
}

/** The id and status of an answer message, read from its first bytes (the server writes the
 *  envelope's members in the order id, status, body), or from the whole message; null when it is
 *  none of ours.
 *  @param {string} text
 *  @returns {{id: unknown, status: number}|null} */
export function headOf(text) {
  const m = /^\{"id":(-?\d+|"(?:[^"\\]|\\.)*"|null),"status":(\d+),/.exec(text);
  if (m !== null) return { id: JSON.parse(m[1]), status: Number(m[2]) };
  try {
    const { id, status } = JSON.parse(text);
    return Number.isInteger(status) ? { id, status } : null;
  } catch {
    return null;
  }
}

/** Whether a request message of this body fits the socket (UTF-8 bytes, with its id and kind).
 *  @param {string} body */
export function fitsSocket(body) {
  const room = MAX_SOCKET_MESSAGE_BYTES - 256;
  return body.length * 3 <= room || new TextEncoder().encode(body).length <= room;
}

function answer({ id, sync }, envelope, startedAt) {
  const now = performance.now();
  const times = { python_ms: now - startedAt, got_at: performance.timeOrigin + startedAt,
    sent_at: performance.timeOrigin + now };
  if (sync && putShared !== null) putShared(id, envelope, times);
  self.postMessage({ id, envelope, ...times });
}

function overHttp(request, startedAt = performance.now()) {
  let envelope;
  try {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", request.url, false);
    xhr.timeout = TIMEOUT_MS; // allowed for a synchronous request in a worker
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.send(request.body);
    envelope = httpEnvelope(request.id, xhr.status, xhr.getResponseHeader("Content-Type"), xhr.responseText);
  } catch (e) {
    const late = e?.name === "TimeoutError";
    envelope = failed(request.id, late ? NO_ANSWER_IN_TIME : NO_ANSWER,
      late ? `none within ${TIMEOUT_MS / 1000} s` : String(e?.message ?? e));
  }
  answer(request, envelope, startedAt);
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

/** An answer message: the envelope {"id","status","body"}, passed on as it came. */
function received(text) {
  const head = headOf(text);
  const request = head !== null ? owed.get(head.id) : undefined;
  if (request === undefined) return;
  owed.delete(head.id);
  clearTimeout(request.timer);
  answer(request, text, request.startedAt);
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
  if (socketUrl !== null && performance.now() - socketRefusedAt > SOCKET_RETRY_MS && fitsSocket(request.body)) {
    openSocket();
    if (socket !== null) {
      if (socketOpen) send(request);
      else waiting.push(request);
      return;
    }
  }
  overHttp(request, request.startedAt);
}

// (a worker: node's tests import the functions above)
if (typeof WorkerGlobalScope === "function" && self instanceof WorkerGlobalScope) {
  self.addEventListener("message", (event) => {
    const msg = /** @type {MessageEvent} */ (event).data;
    const put = channelFrom(msg);
    if (put !== null) {
      putShared = put;
      socketUrl = typeof msg.socket === "string" ? msg.socket : null;
      openSocket(); // open now: the first keystroke finds it open
    } else if (msg && typeof msg === "object" && msg.id !== undefined && typeof msg.url === "string") {
      relay(msg);
    }
  });
}
