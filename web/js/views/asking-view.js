// A view that asks the engine for an answer of its own (Editions, Implementations): it asks
// again only when its parameters changed since the last request, and draws only the newest
// answer (an older one arriving late is dropped). Subclasses give params() and compute(params),
// and kind (and askOptions) where the request can be prefetched behind the page's parse.

export class AskingView {
  constructor() {
    this.key = null; // the params of the last request, as JSON
    this.seq = 0; // the number of the last request
    this.renderedSeq = 0; // the number of the last answer drawn
  }

  /** Ask for the answer if the parameters changed since the last request (the view is shown). */
  refresh() {
    const params = this.params();
    const key = JSON.stringify(params);
    if (key === this.key) return;
    this.key = key;
    this.compute(params);
  }

  /** Before the page's parse: say which request refresh() is about to make, if its parameters
   *  changed (`prefetch` is the engine's: the worker then computes it right behind the parse).
   *  Subclasses that prefetch give kind (and askOptions, e.g. {prefer: "server"}). */
  prefetch(prefetch) {
    if (!this.kind) return null;
    const params = this.params();
    if (JSON.stringify(params) === this.key) return null;
    prefetch(this.kind, params, this.askOptions ?? {});
    return params; // what was prefetched (for a subclass that starts more with it)
  }

  /** Forget the last request: the next refresh asks again. */
  invalidate() {
    this.key = null;
  }

  /** The number of a new request. */
  ask() {
    return ++this.seq;
  }

  /** Whether the answer to request n is the newest so far; if so, it is the one drawn. */
  newest(n) {
    if (n < this.renderedSeq) return false;
    this.renderedSeq = n;
    return true;
  }
}
