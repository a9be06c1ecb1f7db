// @ts-check
// A view that draws an answer of its own (Editions, Implementations, the Setters lab): it says
// what it asks for in a state (`ask`) and how it draws the answer (`show`); this class does the
// asking, through the engine the page gives it: again only when the request changed since the
// last one, drawing only the newest answer (engine/latest.js), and said to the engine before the
// page's parse is posted (`prefetch`) so that the worker computes it right behind the parse.
import { Latest } from "../engine/latest.js";
import { KEYSTROKE_WAIT_MS } from "../engine/sync-channel.js";

/** @typedef {import("../state/store.js").PageState} PageState */
/** @typedef {{ result?: any, error?: string, engine?: string, ms?: number }} EngineAnswer */
/**
 * What a view asks for: a request of the API's (`kind`, `params`, the engine's `options`), or
 * `refuse`: a message shown without asking (an input the model would refuse).
 * @typedef {{ kind: string, params: Record<string, any>, options?: Record<string, any> } | { refuse: string }} Ask
 */
/**
 * What the page gives an asking view.
 * @typedef {object} AskingContext
 * @property {(kind: string, params: object, options?: object) => Promise<EngineAnswer>} call
 * @property {() => PageState} state the page's state now
 * @property {(answer: EngineAnswer) => void} report after each answer drawn
 */

export class AskingView {
  /** @param {AskingContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    /** @type {string | null} the last request, as JSON */
    this.key = null;
    this.latest = new Latest();
  }

  /** What the view asks for in `state` (null: nothing).
   *  @param {PageState} state @returns {Ask | null} */
  ask(state) { // eslint-disable-line no-unused-vars
    return null;
  }

  /** Draw an answer: `extra` is what `alongside` gave, `params` the request's.
   *  @param {EngineAnswer} answer @param {any} extra @param {Record<string, any> | null} params */
  show(answer, extra, params) { // eslint-disable-line no-unused-vars
  }

  /** Work started beside the request (its result is `show`'s `extra`).
   *  @param {Record<string, any>} params @returns {Promise<any> | null} */
  alongside(params) { // eslint-disable-line no-unused-vars
    return null;
  }

  /** After the request is posted, before its answer is awaited (a synchronous wait may go here). */
  posted() {
  }

  /** The view is shown, or the page's state changed while it is: ask if the request changed.
   *  @param {PageState} [state] */
  update(state = this.ctx.state()) {
    const request = this.ask(state);
    if (request === null) return;
    const key = JSON.stringify(request);
    if (key === this.key) return;
    this.key = key;
    this.request(request);
  }

  /** Ask again with the page's state now, whatever was asked before. */
  refresh() {
    this.key = null;
    this.update();
  }

  /** @param {Ask} request */
  async request(request) {
    const n = this.latest.next();
    if ("refuse" in request) {
      if (this.latest.take(n)) this.show({ error: request.refuse }, null, null);
      return;
    }
    const extra = this.alongside(request.params);
    const answer = this.ctx.call(request.kind, request.params, { ...request.options, waitMs: KEYSTROKE_WAIT_MS });
    this.posted();
    const [got, more] = await Promise.all([answer, extra]);
    if (!this.latest.take(n)) return; // an older answer arriving late
    this.show(got, more, request.params);
    this.ctx.report(got);
  }

  /** Before the page's parse: say which request `update` is about to make, if it changed
   *  (`prefetch`: the engine's). Returns its params, or null.
   *  @param {(kind: string, params: object, options: object) => void} prefetch */
  prefetch(prefetch) {
    const request = this.ask(this.ctx.state());
    if (request === null || "refuse" in request || JSON.stringify(request) === this.key) return null;
    prefetch(request.kind, request.params, request.options ?? {});
    return request.params;
  }

  /** Forget the last request: the next update asks again (another engine took over). */
  invalidate() {
    this.key = null;
  }
}
