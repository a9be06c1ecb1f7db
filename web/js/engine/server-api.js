// @ts-check
// The server's side of the engine, with no engine state: config.json (where the page runs, the
// API's and its WebSocket's addresses) and one HTTP request to the API. engine.js asks the API
// through these (over the server relay's socket first, where there is one: see callServer there).

import { errorMessage } from "./answers.js";

/**
 * What config.json says (urlcalc serve, urlcalc export-static): all optional.
 * @typedef {{api?: unknown, socket?: unknown, public_url?: unknown}} PageConfig
 */

/**
 * Where the page runs and where its API is.
 * @typedef {object} ApiPlace
 * @property {"served"|"static"|"file"} where
 * @property {string|null} publicUrl the calculator's public address for permalinks
 * @property {URL|null} api the API's root, or null (no API, or Pyodide forced)
 * @property {URL|null} socket the API's WebSocket (http: scheme), where config.json has one
 */

/** config.json at the page's root, or null (a static host without one: Pyodide alone).
 *  @param {URL} root
 *  @returns {Promise<PageConfig|null>} */
export async function readConfig(root) {
  try {
    const response = await fetch(new URL("config.json", root), { cache: "no-store" });
    if (!response.ok) return null;
    const config = await response.json();
    return config !== null && typeof config === "object" ? config : null;
  } catch {
    return null;
  }
}

/** Where the page runs and where its API is, from config.json and the engine's `force`.
 *  @param {URL} root
 *  @param {string|null} force "pyodide", "server" or null (createEngine's)
 *  @returns {Promise<ApiPlace>} */
export async function findApi(root, force) {
  const config = await readConfig(root);
  const api = typeof config?.api === "string" ? config.api : null;
  const where = location.protocol === "file:" ? "file" : api !== null ? "served" : "static";
  const publicUrl = typeof config?.public_url === "string" ? config.public_url : null;
  if (force === "pyodide") return { where, publicUrl, api: null, socket: null };
  // the API's WebSocket, where config.json says the server speaks it (urlcalc/serving/socket_api.py)
  const socket = typeof config?.socket === "string" ? new URL(config.socket, root) : null;
  if (force === "server") return { where, publicUrl, api: new URL("api/", root), socket };
  return { where, publicUrl, api: api !== null ? new URL(api, root) : null, socket };
}

/** The API's WebSocket URL (ws: or wss:) for the server relay, or null where the server has none.
 *  @param {URL|null} socketBase
 *  @returns {string|null} */
export function socketUrl(socketBase) {
  if (socketBase === null) return null;
  const url = new URL(socketBase);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/** One POST of `params` to the API at `url`: {body, retryAfter: null} for an answer, {body,
 *  retryAfter: seconds} when the server is busy (503 with Retry-After); throws Error(the
 *  refusal's body.error) for any other status, or when the server did not answer.
 *  @param {URL} url
 *  @param {unknown} params
 *  @returns {Promise<{body: any, retryAfter: number|null}>} */
export async function callServerOnce(url, params) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(params ?? {}),
      cache: "no-store",
    });
  } catch (e) {
    throw new Error(`the server did not answer: ${errorMessage(e)}`);
  }
  let body;
  try {
    body = await response.json();
  } catch {
    throw new Error(`the server sent HTTP ${response.status} without JSON`);
  }
  // (the answer's status is the response's: 200 an answer, any other an error with body.error)
  const retry = Number(response.headers.get("Retry-After"));
  if (response.status === 503 && Number.isFinite(retry) && retry > 0) return { body, retryAfter: retry };
  if (response.status !== 200) {
    throw new Error(typeof body?.error === "string" ? body.error : `HTTP ${response.status}`);
  }
  return { body, retryAfter: null };
}
