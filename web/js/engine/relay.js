// @ts-check
// The server relay (../workers/server-relay-worker.js, a worker of its own): where the page is
// served and cross-origin isolated, it asks the API for a call that waits for its answer (over
// the API's WebSocket where config.json has one, else by a synchronous request in the worker)
// and puts the answer into a shared buffer the page waits in (sync-channel.js).

import { SyncChannel, channelAvailable } from "./sync-channel.js";

const RELAY_URL = new URL("../workers/server-relay-worker.js", import.meta.url);

/**
 * The relay: its worker and the buffer it answers into.
 * @typedef {{worker: Worker, channel: SyncChannel}} Relay
 */

/** Start the relay, or null where calls cannot wait for answers (not cross-origin isolated) or
 *  no worker starts (calls then go to the server the ordinary way).
 *  @param {string|null} socket the API's WebSocket URL, or null (the relay asks by HTTP)
 *  @param {object} on
 *  @param {(msg: {id: number, envelope: string, python_ms: number, got_at: number, sent_at: number}) => void} on.answer
 *    the relay's answer to request msg.id
 *  @param {(relay: Relay) => void} on.failed the relay's worker failed (it is terminated)
 *  @returns {Relay|null} */
export function startRelay(socket, { answer, failed }) {
  if (!channelAvailable()) return null;
  let thread;
  try {
    thread = new Worker(RELAY_URL, { type: "module", name: "urlcalc-server-relay" });
  } catch {
    return null;
  }
  const relay = { worker: thread, channel: new SyncChannel("server relay") };
  thread.postMessage({ type: "channel", buffer: relay.channel.buffer, socket });
  thread.addEventListener("message", (event) => {
    const msg = event.data ?? {};
    if (msg.id !== undefined) answer(msg);
  });
  thread.addEventListener("error", (event) => {
    event.preventDefault();
    thread.terminate();
    failed(relay);
  });
  return relay;
}

/** The envelope of the relay's own failure, made here (server-relay-worker.js's statuses).
 *  @param {number} id
 *  @param {number} status
 *  @param {string} why */
export function relayFailure(id, status, why) {
  return JSON.stringify({ id, status, body: { error: `the server relay got no answer: ${why}` } });
}
