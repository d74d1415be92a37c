import type { MockBehavior, MockStreamOptions } from '../types/mock-behavior.js';

export type { MockBehavior, MockStreamOptions, MockToolCall } from '../types/mock-behavior.js';

/** A behavior bound to a path prefix, with its failure counter. */
export interface BehaviorSlot {
  prefix: string;
  behavior: MockBehavior;
  failuresLeft: number;
}

/** Behaviors by path prefix; the longest matching prefix wins. */
export class BehaviorTable {
  #slots: BehaviorSlot[] = [];

  set(prefix: string, behavior: MockBehavior): void {
    const slot = { prefix, behavior, failuresLeft: behavior.failTimes ?? Number.POSITIVE_INFINITY };
    this.#slots = [...this.#slots.filter((s) => s.prefix !== prefix), slot].sort(
      (a, b) => b.prefix.length - a.prefix.length,
    );
  }

  clear(): void {
    this.#slots = [];
  }

  match(path: string): BehaviorSlot | undefined {
    return this.#slots.find((s) => path.startsWith(s.prefix));
  }
}

/** Whether this request should fail, consuming one of `failTimes`. */
export function shouldFail(slot: BehaviorSlot | undefined, random: () => number): boolean {
  const b = slot?.behavior;
  if (!slot || !b) return false;
  if (b.failRate !== undefined) return random() < b.failRate;
  if (b.status === undefined && b.fault === undefined) return false;
  if (slot.failuresLeft <= 0) return false;
  slot.failuresLeft -= 1;
  return true;
}

/** How much later than `delayMs` this request answers: `slowMs` with probability `slowRate`. */
export function extraDelayMs(b: MockBehavior, random: () => number): number {
  if (!b.slowRate) return 0;
  return random() < b.slowRate ? (b.slowMs ?? 1000) : 0;
}

/** The stream options of a behavior, with defaults. */
export function streamOptions(b: MockBehavior): MockStreamOptions {
  return typeof b.stream === 'object' ? b.stream : {};
}
