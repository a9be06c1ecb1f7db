// @ts-check
// A synchronous hand-off from a worker to the page, for answers that should land in the frame of
// the keystroke that asked for them.
//
// Why: the page's answers come from workers (Pyodide; whatwg-url). An answer that arrives by
// postMessage is always at least one frame late: the browser paints the typed character a few ms
// after the input event, before any worker's answer can arrive (measured by `make bench-web`: a
// worker that echoes the input at once still takes 2.3x the keystroke floor, two frames). When
// the page is cross-origin isolated (`urlcalc serve` sends COOP and COEP), the page posts the
// request as usual and then waits, a bounded number of milliseconds, for the worker to put the
// answer's JSON text into a SharedArrayBuffer; the render then happens in the same task, and the
// keystroke and its answer are painted in one frame. If the answer is not there in time (or does
// not fit), the page goes on and takes the answer from the worker's ordinary message later.
//
// The main thread may not Atomics.wait(): it polls Atomics.load until the deadline. The wait is
// bounded (the caller's budget) and skipped when the last answer of the same kind took longer.
//
// The buffer holds the last SLOTS answers, in slots the worker fills in turn: a keystroke asks
// for two (the parse, and the view's own request posted right behind it: engine.js prefetch),
// and the worker may put the second before the page has taken the first (the page's thread was
// not running for that millisecond: on a machine with two cores, often enough to matter). With
// one answer at a time, the first was then gone and its wait ran out (a frame late). A slot is
// reused only SLOTS answers later; the worker may start doing so while the page copies it out:
// each slot's sequence number tells the page when that happened (a seqlock). The worker makes
// it odd before it writes and even after; the page reads only while it is even, and takes what
// it copied only if it did not change meanwhile (else it looks again, until its deadline: then
// a miss, and the answer comes by message).
//
// Layout of each slot (SLOT_HEADER_BYTES, then its data): Int32 [0] the id of the answer in it
// (0: none), [1] its length in bytes, or -1 when it did not fit, [2] the sequence number;
// Float64 at byte 16, [0..2] the worker's timings (python_ms, got_at, sent_at on the shared
// clock); then the UTF-8 bytes of the JSON text.

const SLOT_HEADER_BYTES = 40;
export const SLOTS = 4;
// How long a keystroke's call may hold the page's task waiting for its answer. The frame that
// paints the typed character waits as long, up to a frame (16.7 ms at 60 Hz): a wait that runs
// out costs more, a frame painted without the answer and the answer in the frame after. A
// Pyodide parse of a 100-character URL takes 1-3 ms, a traced one 3-10 ms, the server relay's
// answer 5-15 ms while the page types (at 12 ms, 2-5 in 100 keystrokes of Steps and
// Implementations ran out here; at 16 ms, 0-2).
export const KEYSTROKE_WAIT_MS = 16;
const TOO_BIG = -1;
// Room for the answers of a keystroke, SLOTS answers of up to a quarter of it each (a traced
// parse of a long URL is a few hundred KB); a bigger one comes by postMessage.
export const CHANNEL_BYTES = 8 * 1024 * 1024;

/**
 * A slot's views: state [id, length, sequence], times [python_ms, got_at, sent_at], the bytes.
 * @typedef {{state: Int32Array, times: Float64Array, data: Uint8Array}} Slot
 */

/**
 * An answer's timings as a worker reports them (ms; got_at and sent_at on the shared clock).
 * @typedef {{python_ms: number, got_at: number, sent_at: number}} AnswerTimes
 */

/** The views of a channel's slots in `buffer` (SLOTS of them, of equal size).
 *  @param {SharedArrayBuffer} buffer
 *  @returns {Slot[]} */
function slotsOf(buffer) {
  const size = buffer.byteLength / SLOTS;
  return Array.from({ length: SLOTS }, (_, i) => ({
    state: new Int32Array(buffer, i * size, 3),
    times: new Float64Array(buffer, i * size + 16, 3),
    data: new Uint8Array(buffer, i * size + SLOT_HEADER_BYTES, size - SLOT_HEADER_BYTES),
  }));
}

/** Whether this page can wait for a worker synchronously (SharedArrayBuffer is available only
 *  in a cross-origin isolated page). */
export function channelAvailable() {
  return typeof SharedArrayBuffer === "function" && globalThis.crossOriginIsolated === true;
}

// Every channel the page made, by name: how many answers each took from its buffer and how
// many waits ran out (engine.sync, for `make bench-web`).
/** @type {Map<string, SyncChannel>} */
const made = new Map();

/** {name: {waits, misses}} of every channel the page made.
 *  @returns {Record<string, {waits: number, misses: number}>} */
export function channelCounts() {
  return Object.fromEntries([...made].map(([name, c]) => [name, { waits: c.waits, misses: c.misses }]));
}

/** The page's end: make one (named after the thread that answers in it), hand `buffer` to the
 *  worker in a message, then `wait`. `bytes`: the room for answers, shared by the slots. */
export class SyncChannel {
  /** @param {string} name
   *  @param {number} [bytes] */
  constructor(name, bytes = CHANNEL_BYTES) {
    made.set(name, this);
    const slotBytes = SLOT_HEADER_BYTES + Math.ceil(bytes / SLOTS / 8) * 8;
    this.buffer = new SharedArrayBuffer(SLOTS * slotBytes);
    this.slots = slotsOf(this.buffer);
    this.decoder = new TextDecoder();
    this.waits = 0; // answers taken from the buffer
    this.misses = 0; // waits that ran out of time (or did not fit, or were overwritten)
  }

  /** Poll for the answer to request `id` for at most `ms`: {text, times} or null.
   *  @param {number} id
   *  @param {number} ms
   *  @returns {{text: string, times: AnswerTimes}|null} */
  wait(id, ms) {
    const deadline = performance.now() + ms;
    for (;;) {
      for (const { state, times, data } of this.slots) {
        const seq = Atomics.load(state, 2);
        // even: no write under way; the answer is ours
        if ((seq & 1) !== 0 || Atomics.load(state, 0) !== id) continue;
        const length = Atomics.load(state, 1);
        if (length === TOO_BIG) return this.miss();
        // TextDecoder refuses views of shared memory: copy the bytes out first.
        const bytes = data.slice(0, length);
        const [python_ms, got_at, sent_at] = times;
        // Written meanwhile: look again (the answer is still there, whole, unless the slot was
        // reused for another). Also when this thread was paused between its two first looks
        // and the worker wrote the whole answer then: the id was new but the number read old.
        if (Atomics.load(state, 2) !== seq) continue;
        this.waits += 1;
        return { text: this.decoder.decode(bytes), times: { python_ms, got_at, sent_at } };
      }
      if (performance.now() >= deadline) return this.miss();
    }
  }

  /** @returns {null} */
  miss() {
    this.misses += 1;
    return null;
  }
}

/** The worker's end, from the buffer the page sent: put(id, text, times) writes an answer into
 *  the next slot (the oldest answer's).
 *  @param {SharedArrayBuffer} buffer
 *  @returns {Put} */
export function channelWriter(buffer) {
  const slots = slotsOf(buffer);
  const encoder = new TextEncoder();
  let next = 0;
  return function put(id, text, { python_ms = 0, got_at = 0, sent_at = 0 } = {}) {
    const { state, times, data } = slots[next];
    next = (next + 1) % SLOTS;
    // encodeInto refuses shared memory too: encode, then copy.
    const bytes = encoder.encode(text);
    const fits = bytes.length <= data.length;
    Atomics.add(state, 2, 1); // odd: writing
    if (fits) data.set(bytes);
    times[0] = python_ms;
    times[1] = got_at;
    times[2] = sent_at;
    Atomics.store(state, 1, fits ? bytes.length : TOO_BIG);
    Atomics.store(state, 0, id);
    Atomics.add(state, 2, 1); // even: written
  };
}

/**
 * The worker's end: write the answer `text` to request `id` (with its timings) into the buffer.
 * @typedef {(id: number, text: string, times?: Partial<AnswerTimes>) => void} Put
 */

/** The worker's end from a message: put(id, text, times) if the message is the page's
 *  {type: "channel", buffer}, else null.
 *  @param {any} msg
 *  @returns {Put|null} */
export function channelFrom(msg) {
  const shared = typeof SharedArrayBuffer === "function" && msg?.buffer instanceof SharedArrayBuffer;
  return msg?.type === "channel" && shared ? channelWriter(msg.buffer) : null;
}
