import { type DestinationEntry, isDestinationObject } from '../config/callback-setting.js';
import { buildDestination } from './build-destination.js';
import type { CallRecord } from './call-record.js';
import type { RecordDestination } from './destination.js';
import { type DeliveryStats, RecordQueue } from './record-queue.js';

/** A destination setting: a validated `callbacks` entry or a destination object. */
export type DestinationSetting = DestinationEntry | RecordDestination;

interface Slot {
  /** The entry's JSON, or the destination object itself: what `configure` recognizes it by. */
  key: string | RecordDestination;
  queue: RecordQueue;
}

/** Longest wait for records left at `close()`, unless told otherwise. */
export const DEFAULT_CLOSE_DEADLINE_MS = 5000;

/**
 * The call-record destinations in force, one {@link RecordQueue} each: `add` hands a record to every
 * queue (never waiting), `stats` reads their counts. `configure` swaps the set: a destination still
 * listed keeps its queue (and counts), one no longer listed is closed in the background.
 */
export class CallRecords {
  #slots: Slot[] = [];
  readonly #retiring = new Set<Promise<unknown>>();

  constructor(private readonly onProblem: (message: string) => void = () => undefined) {}

  /** Whether any destination is configured: with none, nothing is built per call. */
  get active(): boolean {
    return this.#slots.length > 0;
  }

  configure(settings: readonly DestinationSetting[]): void {
    const old = this.#slots;
    const next = settings.map((setting): Slot => {
      const key = isDestinationObject(setting) ? setting : JSON.stringify(setting);
      const index = old.findIndex((slot) => slot.key === key);
      if (index >= 0) return old.splice(index, 1)[0]!;
      const { destination, queue } = buildDestination(setting);
      return { key, queue: new RecordQueue(destination, { ...queue, onProblem: this.onProblem }) };
    });
    this.#slots = next;
    for (const slot of old) {
      const closing = slot.queue.close({ deadlineMs: DEFAULT_CLOSE_DEADLINE_MS });
      this.#retiring.add(closing);
      void closing.finally(() => this.#retiring.delete(closing));
    }
  }

  /** Queues the record for every destination. Constant time per destination; never throws. */
  add(record: CallRecord): void {
    for (const slot of this.#slots) slot.queue.add(record);
  }

  /** Each destination's counts, in `callbacks` order. */
  stats(): DeliveryStats[] {
    return this.#slots.map((slot) => slot.queue.stats());
  }

  /** Sends what is left to every destination at once, within `deadlineMs`, and closes them. */
  async close(options: { deadlineMs?: number } = {}): Promise<{ undelivered: number }> {
    const deadlineMs = options.deadlineMs ?? DEFAULT_CLOSE_DEADLINE_MS;
    const closed = await Promise.all(this.#slots.map((slot) => slot.queue.close({ deadlineMs })));
    await Promise.all(this.#retiring);
    return { undelivered: closed.reduce((sum, c) => sum + c.undelivered, 0) };
  }
}
