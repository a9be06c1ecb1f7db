// @ts-check
// The engine host's types (what createEngine in engine.js returns), with what each member means.
// Types only: page modules name them as
//   /** @typedef {import("../engine/host-types.js").EngineHost} EngineHost */

/**
 * Who answers: the JSON API of `urlcalc serve`, or Pyodide in the page's worker.
 * @typedef {"server"|"pyodide"} EngineName
 */

/**
 * An answer as the page gets it.
 * @typedef {object} Answered
 * @property {any} result the answer (the result model of its kind: ../result-model.js AnswerOf)
 * @property {EngineName} engine who answered
 * @property {number} ms the round trip seen by the page
 */

/**
 * One engine's side of both(): {result, engine, ms}, or {error, engine} if it rejected.
 * @typedef {Answered | {error: string, engine: EngineName}} Settled
 */

/**
 * How a call is asked.
 * @typedef {object} CallOptions
 * @property {"server"|null} [prefer] "server" asks the API first when there is one (the
 *   Implementations view: the server runs more implementations than Pyodide), Pyodide if the API
 *   cannot answer.
 * @property {number} [waitMs] when the page is cross-origin isolated, wait up to this long, in
 *   this task, for Pyodide's answer (sync-channel.js), so that the promise is already settled when
 *   the caller's task ends and the answer is drawn in the same frame as the keystroke that asked;
 *   skipped when the last answer of the same kind took Python longer than waitMs. With prefer:
 *   "server", the server relay (server-relay-worker.js, a worker of its own) asks the API (over
 *   its WebSocket where config.json has one, else by a synchronous request in the worker) and the
 *   page waits for that answer the same way.
 */

/**
 * How the page got cross-origin isolated.
 * @typedef {object} IsolationInfo
 * @property {"headers"|"service worker"|null} by "headers" (the host sent COOP and COEP),
 *   "service worker" (isolation.js reloaded the page through the site's service worker, or it
 *   controlled the page from its first request), or null: not isolated
 * @property {string|null} reason why not (null while a reload may still come)
 */

/**
 * What the host knows about its engines.
 * @typedef {object} EngineInfo
 * @property {Record<string, any>|null} server the API's engine dict (name, python, unicode,
 *   idna_tables, idna, urlcalc) plus model_version, or null (not available / not asked)
 * @property {Record<string, any>|null} pyodide the same dict from the worker plus pyodide
 *   (version) and timings (ms: the worker's load_pyodide, bundle, import, warm_up, total;
 *   started_at and ready_at on the page's clock, since navigation), and, once the worker's typing
 *   warm-up after boot is done, warm: {calls, python_ms, wall_ms}; or null
 * @property {"booting"|"ready"|"failed"} status the preferred engine (Pyodide, or the API when
 *   forced) is still starting / answers / could not start (then `error` says why, and current
 *   is "server" if the API can stand in)
 * @property {string|null} error
 * @property {"served"|"static"|"file"|null} where where the page runs, from config.json:
 *   "served" (by `urlcalc serve`: the API is there), "static" (an export on a static host:
 *   Pyodide only), "file" (opened from a file: URL), or null until config.json has been read
 * @property {string|null} publicUrl the calculator's public address for permalinks (config.json's
 *   public_url: `urlcalc export-static --public-url` or `urlcalc serve --public-url`), or null
 * @property {any} progress the worker's boot progress while it boots ({files: {name: {loaded,
 *   total, done}}, phase}: see pyodide-worker.js), or null
 * @property {IsolationInfo} isolation how the page got cross-origin isolated (see sync)
 */

/**
 * Whether calls can wait for their answers, and how often they did.
 * @typedef {object} SyncCounts
 * @property {boolean} available calls can wait for their answer (the page is cross-origin isolated)
 * @property {number} waits answers taken in the caller's task
 * @property {number} misses waits that ran out of time
 * @property {Record<string, {waits: number, misses: number}>} by both per channel, the page's
 *   whatwg-url worker's included (sync-channel.js channelCounts)
 * @property {number} relays API answers the server relay brought
 * @property {number} prefetched calls answered by a prefetched request
 */

/**
 * The last answer of a worker, in parts (ms).
 * @typedef {object} Timings
 * @property {number} to_worker_ms posting the request until the worker took it
 * @property {number} python_ms
 * @property {number} to_page_ms the answer's postMessage until the page took it
 * @property {number} parse_ms JSON.parse
 * @property {number} chars the JSON text's length
 */

/**
 * The engine host.
 * @typedef {object} EngineHost
 * @property {(kind: string, params?: Record<string, any>, options?: CallOptions) => Promise<Answered>} call
 *   kind as in urlcalc.answers.kinds.dispatch ("parse", "set", "host", "urlencoded", "percent",
 *   "validate", "compare", "random", "version", "implementations"); params a plain JSON-able
 *   object. Rejects with Error(message) for a bad request (the answer's status is not 200: its
 *   body's {"error"}, the same from every engine) or when no engine can answer. A call made
 *   while Pyodide is the only engine and still booting waits for it. Every answer comes as one
 *   envelope {id, status, body} (urlcalc/answers/answer.py): from the worker, from the server
 *   relay (the socket's message, or the relay's own failure: 502 no answer, 504 none in time)
 *   and, over HTTP, the response's status and JSON body; status 200 is an answer, any other an
 *   error with body.error (see outcomeOf). The page's other requests to the API go over the
 *   relay's socket too, when there is one (see callServer): there, a refusal is an answer in a
 *   message; over HTTP it is a 4xx response, which the browser logs as a console error.
 * @property {(kind: string, params?: Record<string, any>, options?: {prefer?: "server"|null}) => void} prefetch
 *   says that the page is about to call(kind, params, {prefer}) (a view's own request, after the
 *   parse it is drawing first): where calls can wait for their answer, the request is posted to
 *   the worker right behind the next request the worker gets, so that the worker computes it
 *   while the page draws that one; the call() that asks for it then waits for (or takes) that
 *   answer instead of posting the request again. Only the last prefetch is kept; one that no
 *   call asks for is dropped. Elsewhere it does nothing.
 * @property {(kind: string, params?: Record<string, any>) => Promise<{server: Settled|null, pyodide: Settled|null, differs: string[]}>} both
 *   asks every engine that is available right now (does not wait for a booting worker); a side
 *   is null if that engine is not available; differs: JSON Pointers (RFC 6901, e.g.
 *   "/getters/host", "/record/path/0") where the two results differ, ignoring the top-level
 *   "engine" field; [""] if one side failed and the other did not (or both failed
 *   differently); [] otherwise.
 * @property {EngineName|null} current who answers calls now
 * @property {EngineInfo} info
 * @property {Timings|null} lastTimings the last answer of the worker, in parts; or null
 * @property {(callback: (host: EngineHost) => void) => () => void} onchange callback(host) after
 *   every change of current/info; returns the unsubscribe function
 * @property {number} busy how many calls (call, both) are in flight now
 * @property {SyncCounts} sync
 */

export {};
