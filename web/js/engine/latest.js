// @ts-check
// "The latest answer wins": the one rule of every asking part of the page. Requests are numbered
// as they are made; an answer is drawn only when no newer one has been drawn already, so that an
// older answer arriving late never replaces a newer one.

export class Latest {
  constructor() {
    /** the number of the last request made */
    this.asked = 0;
    /** the number of the last answer drawn */
    this.drawn = 0;
  }

  /** The number of a new request. */
  next() {
    return ++this.asked;
  }

  /** Whether the answer to request `n` is the newest so far (then it is the one drawn).
   *  @param {number} n */
  take(n) {
    if (n < this.drawn) return false;
    this.drawn = n;
    return true;
  }

  /** Whether request `n` is still the last one made (nothing newer was asked since).
   *  @param {number} n */
  isLast(n) {
    return n === this.asked;
  }
}
