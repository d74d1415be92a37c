import { performance } from 'node:perf_hooks';
import { clampTimerMs } from './timers.js';

/** A deadline set on a `DeadlineQueue`. */
export interface Deadline {
  /** Takes the deadline out: it will not fire. Safe to call more than once, or after it fired. */
  cancel(): void;
}

// Past this many durations (a caller setting a different `timeout` on every request), new durations
// get a timer of their own: each duration's list and timer live until its deadlines are over.
const MAX_DURATIONS = 64;
// Cancelled deadlines behind a live one wait in their list; past this many (and more than half of
// the list) the list is compacted, so a long call at the head never holds a call's worth of memory
// for every call made since.
const COMPACT_AFTER = 1024;

class Entry implements Deadline {
  fire: (() => void) | undefined;
  constructor(
    readonly at: number,
    fire: () => void,
    private readonly list: DeadlineList,
  ) {
    this.fire = fire;
  }

  cancel(): void {
    if (this.fire === undefined) return;
    this.fire = undefined;
    this.list.cancelled();
  }
}

/**
 * The deadlines of one duration. They were set in time order, so they expire in list order: one Node
 * timer, armed for the earliest live one, serves the whole list.
 */
class DeadlineList {
  // a queue: live entries from #head on; slots before it are cleared and dropped now and then
  #entries: (Entry | undefined)[] = [];
  #head = 0;
  #dead = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly now: () => number,
    private readonly onIdle: () => void,
  ) {}

  add(fire: () => void): Entry {
    const entry = new Entry(this.now() + this.ms, fire, this);
    this.#entries.push(entry);
    this.#timer ??= this.#arm(this.ms);
    return entry;
  }

  cancelled(): void {
    this.#dead++;
    // calls mostly end in the order they started: their deadlines leave from the head
    while (this.#head < this.#entries.length && this.#entries[this.#head]!.fire === undefined) {
      this.#shift();
      this.#dead--;
    }
    const live = this.#entries.length - this.#head;
    if (live === 0) this.#reset();
    else if (this.#dead > COMPACT_AFTER && this.#dead * 2 > live) this.#compact();
    else this.#trim();
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#reset();
  }

  #arm(ms: number): NodeJS.Timeout {
    const timer = setTimeout(this.#expire, clampTimerMs(ms));
    timer.unref();
    return timer;
  }

  #shift(): void {
    this.#entries[this.#head] = undefined;
    this.#head++;
  }

  // drops the cleared slots once they are most of the array (amortised: each slot is copied once)
  #trim(): void {
    if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  #reset(): void {
    this.#entries = [];
    this.#head = 0;
    this.#dead = 0;
  }

  #compact(): void {
    this.#entries = this.#entries.slice(this.#head).filter((e) => e!.fire !== undefined);
    this.#head = 0;
    this.#dead = 0;
  }

  #expire = (): void => {
    this.#timer = undefined;
    const now = this.now();
    // `fire` may cancel or set deadlines on this list: read its state afresh on every turn
    while (this.#head < this.#entries.length) {
      const entry = this.#entries[this.#head]!;
      const fire = entry.fire;
      if (fire === undefined) {
        this.#shift();
        this.#dead--;
        continue;
      }
      // timers count whole milliseconds on a clock that may trail performance.now() by a fraction
      if (entry.at > now + 1) {
        this.#trim();
        this.#timer = this.#arm(Math.ceil(entry.at - now));
        return;
      }
      this.#shift();
      entry.fire = undefined;
      fire();
    }
    this.#reset();
    this.onIdle();
  };

  /** Entries held (live, and cancelled ones behind a live one): for tests. */
  get size(): number {
    return this.#entries.length - this.#head;
  }

  /** Array slots held, cleared ones included: for tests. */
  get slots(): number {
    return this.#entries.length;
  }
}

/**
 * Deadlines of a few fixed durations (a router's timeouts) on one Node timer per duration. Setting
 * and cancelling one is an array push and a flag, where a Node timer per deadline costs several times
 * that: a router sets one on every call and cancels nearly all of them. Fires no earlier than a
 * `setTimeout` of the same duration would; timers are unref'd, and `close()` clears them.
 *
 * @example
 * const deadlines = new DeadlineQueue();
 * const deadline = deadlines.set(30_000, () => controller.abort());
 * // ... the call answered
 * deadline.cancel();
 */
export class DeadlineQueue {
  readonly #lists = new Map<number, DeadlineList>();
  readonly #now: () => number;

  /** `now` is a monotonic clock in milliseconds (default `performance.now`). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Runs `fire` once `ms` milliseconds have passed, unless the deadline is cancelled first. */
  set(ms: number, fire: () => void): Deadline {
    let list = this.#lists.get(ms);
    if (!list) {
      if (this.#lists.size >= MAX_DURATIONS) return ownTimer(ms, fire);
      list = new DeadlineList(ms, this.#now, () => this.#lists.delete(ms));
      this.#lists.set(ms, list);
    }
    return list.add(fire);
  }

  /** Entries and array slots held across durations (what a long run must keep bounded). */
  get held(): { entries: number; slots: number } {
    let entries = 0;
    let slots = 0;
    for (const list of this.#lists.values()) {
      entries += list.size;
      slots += list.slots;
    }
    return { entries, slots };
  }

  /** Clears every timer; deadlines set before never fire. */
  close(): void {
    for (const list of this.#lists.values()) list.close();
    this.#lists.clear();
  }
}

function ownTimer(ms: number, fire: () => void): Deadline {
  const timer = setTimeout(fire, clampTimerMs(ms));
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
}
