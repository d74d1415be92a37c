/**
 * What the router reads of a call's abort signal (`CallControl.signal`): every `AbortSignal` is one,
 * and so is a lighter object of your own, for a server that makes one per request. On Node 20, making
 * an AbortController's signal costs about 2.7 µs and adding and removing a listener 1.4 µs more, a few
 * percent of a gateway's CPU per call; on Node 24 about 0.3 µs in all (docs/benchmarks.md).
 *
 * The router removes every listener it adds once it no longer needs it, and never asks for `once`: an
 * implementation calls each listener present when it aborts, once, and nothing after. The call rejects
 * with `reason` as it is.
 */
export interface CallSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
