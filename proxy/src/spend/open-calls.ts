import { isPromise } from '@svc/router';
import type { Admit } from '../limits/admission.js';
import type { CallLedger } from './call-ledger.js';
import type { SpendSink } from './spend-entry.js';

/**
 * Counts the admitted calls whose spend row is not queued yet (each ledger writes exactly one row),
 * so that a shutdown flushes spend only once every call it let finish, or cut, has recorded its row.
 */
export class OpenCalls {
  #open = 0;
  #waiters: Array<() => void> = [];

  /** `admit`, counting each call it lets through as open. */
  admitting(admit: Admit): Admit {
    const opened = (ledger: CallLedger): CallLedger => {
      this.#open++;
      return ledger;
    };
    return (caller, facts, signal) => {
      const admitted = admit(caller, facts, signal);
      return isPromise(admitted) ? admitted.then(opened) : opened(admitted);
    };
  }

  /** `sink`, counting each row it takes as a call closed. */
  sinking(sink: SpendSink): SpendSink {
    return (call, row) => {
      sink(call, row);
      if (this.#open > 0) this.#open--;
      if (this.#open === 0) this.#wake();
    };
  }

  /** Resolves once no call is open (at once when none is). */
  settled(): Promise<void> {
    if (this.#open === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #wake(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
