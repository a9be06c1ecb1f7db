// @ts-check
// The big parts of a view kept off the keystroke's frame while they are far from the screen
// (moved here from dom.js; the Editions and Implementations views use it).

/** The big parts of a view that are often far below the fold (the Editions and Implementations
 *  tables and lists: hundreds of elements, under the URL field's answer while one types). A
 *  keystroke updates such a part in its own task when the part is on screen or near it (within
 *  `margin` of the viewport's height, above or below). A part further away is updated once the
 *  typing pauses (`quietMs` without an update, then when the browser is idle), or as soon as it
 *  comes near (scrolling), whichever is first. The keystroke's frame then lays out and paints
 *  what one sees, and a burst of keystrokes does not spend its frames on parts one would have to
 *  scroll to (measured in the Editions view at 1280x720: a keystroke's layout and paint 9.1 ms
 *  with them, 3.7 ms without; content-visibility: auto did not skip them, the browser counting
 *  them as near enough). The document stays whole: find in page and assistive technologies see
 *  every part, behind the input only while one types. */
/** The element under `root` that `selector` finds (a part of a view's own template: it is there).
 *  @param {Element} root @param {string} selector */
export function el(root, selector) {
  return /** @type {any} */ (root.querySelector(selector));
}

export class OffscreenParts {
  constructor({ margin = "10%", quietMs = 300, idleMs = 200 } = {}) {
    this.far = new WeakSet(); // parts the observer last saw away from the viewport
    this.pending = new Map(); // part -> its latest update, not yet run
    this.quietMs = quietMs;
    this.idleMs = idleMs;
    this.timer = null; // the pause being waited for
    this.idle = null; // then the idle moment
    this.observer = typeof IntersectionObserver === "function"
      ? new IntersectionObserver((entries) => {
        for (const e of entries) {
          if (e.isIntersecting) {
            this.far.delete(e.target);
            this.run(e.target);
          } else this.far.add(e.target);
        }
      }, { rootMargin: `${margin} 0px` })
      : null;
  }

  /** Watch these parts (until the observer's first report, a part counts as near). */
  watch(...parts) {
    for (const part of parts) this.observer?.observe(part);
  }

  /** Run `update` (which changes `part`) now if the part is near, else later (see above); a
   *  later update of the same part replaces one not yet run. */
  update(part, update) {
    if (!this.far.has(part)) {
      this.pending.delete(part);
      update();
      return;
    }
    this.pending.set(part, update);
    this.schedule();
  }

  run(part) {
    const update = this.pending.get(part);
    if (update === undefined) return;
    this.pending.delete(part);
    update();
  }

  /** (Again) wait for a pause in the updates, then for an idle moment: one part per idle
   *  moment while the moments are short. */
  schedule() {
    clearTimeout(this.timer);
    if (this.idle !== null && typeof cancelIdleCallback === "function") cancelIdleCallback(this.idle);
    this.idle = null;
    const go = (deadline) => {
      this.idle = null;
      for (const part of [...this.pending.keys()]) {
        this.run(part);
        if (deadline && !deadline.didTimeout && deadline.timeRemaining() < 4 && this.pending.size) {
          this.idle = requestIdleCallback(go, { timeout: this.idleMs });
          return;
        }
      }
    };
    this.timer = setTimeout(() => {
      this.timer = null;
      if (typeof requestIdleCallback === "function") this.idle = requestIdleCallback(go, { timeout: this.idleMs });
      else go(null);
    }, this.quietMs);
  }
}
