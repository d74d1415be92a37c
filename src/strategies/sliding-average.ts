/** How many buckets a window is split into: it forgets samples one tenth of its length at a time. */
const BUCKETS = 10;

const bucketMsOf = (windowMs: number): number => Math.max(1, windowMs / BUCKETS);

/**
 * The average of samples over a sliding time window of `windowMs`, in constant memory: samples are
 * summed into ten buckets of a tenth of the window each, and a bucket is dropped whole when it falls out
 * of the window (so the average covers between 90% and 100% of it). Adding and reading are O(1)
 * amortised. Times are milliseconds on any clock that does not go backwards.
 */
export class SlidingAverage {
  readonly #sums = new Float64Array(BUCKETS);
  readonly #counts = new Uint32Array(BUCKETS);
  readonly #bucketMs: number;
  /** The bucket number (time / bucketMs) of the newest bucket. */
  #head = Number.NEGATIVE_INFINITY;
  #sum = 0;
  #count = 0;

  constructor(windowMs: number) {
    this.#bucketMs = bucketMsOf(windowMs);
  }

  /**
   * The bucket a time falls in, for windows of this length (`averageIn` takes it): a selection works it
   * out once for all the windows it reads.
   */
  static bucketOf(now: number, windowMs: number): number {
    return Math.floor(now / bucketMsOf(windowMs));
  }

  add(now: number, value: number): void {
    this.#advance(now);
    const slot = this.#head % BUCKETS;
    this.#sums[slot]! += value;
    this.#counts[slot]! += 1;
    this.#sum += value;
    this.#count += 1;
  }

  /** The mean of the samples in the window, or NaN when it holds none. */
  average(now: number): number {
    this.#advance(now);
    return this.#count === 0 ? Number.NaN : this.#sum / this.#count;
  }

  /** `average` at a time given by its bucket number. */
  averageIn(bucket: number): number {
    if (bucket > this.#head) this.#advanceTo(bucket);
    return this.#count === 0 ? Number.NaN : this.#sum / this.#count;
  }

  /** Whether the window holds no sample now. */
  empty(now: number): boolean {
    this.#advance(now);
    return this.#count === 0;
  }

  #advance(now: number): void {
    const bucket = Math.floor(now / this.#bucketMs);
    if (bucket > this.#head) this.#advanceTo(bucket);
  }

  #advanceTo(bucket: number): void {
    if (bucket - this.#head >= BUCKETS) {
      this.#sums.fill(0);
      this.#counts.fill(0);
      this.#sum = 0;
      this.#count = 0;
    } else {
      for (let b = this.#head + 1; b <= bucket; b++) {
        const slot = b % BUCKETS;
        this.#sum -= this.#sums[slot]!;
        this.#count -= this.#counts[slot]!;
        this.#sums[slot] = 0;
        this.#counts[slot] = 0;
      }
      if (this.#count === 0) this.#sum = 0; // no rounding residue left behind
    }
    this.#head = bucket;
  }
}
