/**
 * The isolate-wide budget of Session Durable Object caches. Objects of one class can share an isolate, and
 * the isolate has 128 MB (PLATFORM.md §4.2), so each object's own bound is not enough: every object charges
 * its cache here, and when the sum passes the budget the least recently used caches are dropped whole (a
 * dropped object reads its rows from SQL again, checked again, on its next read).
 */
export class CacheLedger {
  readonly #budget: number;
  /** Owners in least- to most-recently charged order, with their bytes and how to drop them. */
  readonly #owners = new Map<object, { bytes: number; drop: () => void }>();
  #total = 0;

  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }

  /** The bytes charged now, all owners together. */
  get total(): number {
    return this.#total;
  }

  /** Records `owner`'s cache size as its newest use; drops older caches while the sum is over budget. */
  charge(owner: object, bytes: number, drop: () => void): void {
    this.forget(owner);
    this.#owners.set(owner, { bytes, drop });
    this.#total += bytes;
    for (const [other, entry] of this.#owners) {
      if (this.#total <= this.#budget || other === owner) break;
      this.forget(other);
      entry.drop();
    }
  }

  /** Removes `owner`'s charge (its cache was dropped or its session deleted). */
  forget(owner: object): void {
    const entry = this.#owners.get(owner);
    if (!entry) return;
    this.#total -= entry.bytes;
    this.#owners.delete(owner);
  }
}
