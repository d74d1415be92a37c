/**
 * The alert lines waiting for the webhook: first in, first out, at most `capacity`. When full, the
 * oldest line is dropped and counted, so a webhook that is down costs bounded memory and the next
 * delivery can say how many alerts were lost.
 */
export class AlertBuffer {
  #lines: string[] = [];
  #dropped = 0;

  /** @throws RangeError when `capacity` is not a positive integer. */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`alert buffer capacity must be a positive integer; got ${String(capacity)}`);
    }
  }

  /** Lines waiting. */
  get size(): number {
    return this.#lines.length;
  }

  /** Lines dropped since the count was last taken. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Whether anything is left to tell the webhook: lines, or a count of dropped ones. */
  get pending(): boolean {
    return this.#lines.length > 0 || this.#dropped > 0;
  }

  /** Adds a line; returns false when the buffer was full and its oldest line was dropped. */
  push(line: string): boolean {
    this.#lines.push(line);
    if (this.#lines.length <= this.capacity) return true;
    this.#lines.shift();
    this.#dropped += 1;
    return false;
  }

  /** Removes and returns up to `max` of the oldest lines. */
  take(max: number): string[] {
    return this.#lines.splice(0, max);
  }

  /** Puts lines taken earlier back in front (their delivery failed); the oldest beyond capacity are dropped. */
  restore(lines: readonly string[]): void {
    this.#lines.unshift(...lines);
    const over = this.#lines.length - this.capacity;
    if (over > 0) {
      this.#lines.splice(0, over);
      this.#dropped += over;
    }
  }

  /** Returns the dropped count and resets it (it goes into a delivery). */
  takeDropped(): number {
    const dropped = this.#dropped;
    this.#dropped = 0;
    return dropped;
  }

  /** Counts lines as dropped (a delivery that cannot succeed, or a count whose delivery failed). */
  addDropped(count: number): void {
    this.#dropped += count;
  }

  /** Drops every waiting line, counting them. */
  clear(): void {
    this.#dropped += this.#lines.length;
    this.#lines = [];
  }
}
