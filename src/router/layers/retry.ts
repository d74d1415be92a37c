import pRetry, { AbortError } from 'p-retry';
import type { CooldownTracker } from '../../cooldown/cooldown-tracker.js';
import { NoDeploymentsAvailableError, RateLimitError, TimeoutError } from '../../errors/classes.js';
import { isRequestFault } from '../../errors/request-fault.js';
import { RouterError } from '../../errors/router-error.js';
import { RETRY_AFTER_CAP_MS, rateLimitBackoffMs, serverErrorBackoffMs } from '../../policies/backoff.js';
import { maxRetries, policyKeyOf, type RetryPolicy, retriesFor } from '../../policies/retry-policy.js';
import type { ModelGroup } from '../../types/index.js';
import type { Backoff, Call, Handler, Layer, Routed, Step } from '../call.js';

export interface RetryOptions {
  numRetries: number;
  retryPolicy: RetryPolicy | undefined;
  /** `retry_after` in ms: the least wait before retrying a rate limit. */
  retryAfterMs: number;
  maxFallbacks: number;
  /** Whether a group routes with weighted failover (`enable_weighted_failover` with simple-shuffle). */
  weightedFailover(group: ModelGroup): boolean;
}

export interface RetryDeps {
  tracker: CooldownTracker;
  now(): number;
  random(): number;
}

/**
 * CONTRACT 6.2: a 429 cooled its deployment for its `retry-after`, and no other deployment of the group
 * can take the call now: the call waits for it (when that fits its deadline) and tries it again, before
 * any fallback. Undefined when the call should move on at once instead.
 */
function retryAfterWait<T>(
  error: RouterError,
  id: string,
  call: Call<T>,
  step: Step,
  minimumMs: number,
  tracker: CooldownTracker,
  now: number,
): Backoff | undefined {
  if (!RateLimitError.isInstance(error) || error.retryAfterMs === undefined) return undefined;
  const untilMs = tracker.availableAt(id, now) - now;
  // cooled longer than the retry-after (its cooldown_time: a peer could serve when it failed)
  if (untilMs > Math.min(error.retryAfterMs, RETRY_AFTER_CAP_MS)) return undefined;
  const waitMs = Math.max(untilMs, minimumMs, 0);
  if (waitMs > call.deadline - now) return undefined;
  for (const other of step.group.ids)
    if (other !== id && !call.history.timedOut?.has(other) && tracker.isAvailable(other, now))
      return undefined;
  return { id, waitMs, error, cooling: true };
}

/**
 * Retries within the current tier. Each retry selects again (never a cooling deployment, preferring
 * ones that have not failed this call). A timeout is never retried on the deployment that timed out.
 * When the next pick lands on the deployment that just failed, it waits first: a jittered backoff
 * after a 5xx or reset, the rate-limit backoff (honouring `retry-after`) after a 429. Every wait must
 * fit in what is left of the call's timeout; a rate limit whose wait cannot fit fails now with its
 * `retryAfterMs`. A 429 on a deployment nothing else of the group can stand in for is waited out when
 * its `retry-after` fits (`retryAfterWait`), so the call does not go to a fallback for a short pause. The first attempt runs outside p-retry, so the common call pays nothing for it.
 */
export function retryLayer(options: RetryOptions, deps: RetryDeps): Layer {
  // a rejection handler, not an async frame: the first attempt is every call's, retries are rare
  return (next: Handler) =>
    <T>(call: Call<T>, step: Step): Promise<Routed<T>> =>
      next(call, step).catch((err: unknown) => {
        if (!retriable(err, call, step)) throw err;
        return retry(next, call, step, err as RouterError, options, deps);
      });
}

function retriable<T>(err: unknown, call: Call<T>, step: Step): boolean {
  return (
    !step.signal?.aborted &&
    RouterError.isInstance(err) &&
    !isRequestFault(err) &&
    call.spent?.() !== true &&
    !NoDeploymentsAvailableError.isInstance(err)
  );
}

async function retry<T>(
  next: Handler,
  call: Call<T>,
  step: Step,
  first: RouterError,
  options: RetryOptions,
  deps: RetryDeps,
): Promise<Routed<T>> {
  const failover = options.weightedFailover(step.group) && call.asyncEntry;
  const numRetries = call.numRetries ?? options.numRetries;
  const retries = failover ? options.maxFallbacks : maxRetries(numRetries, options.retryPolicy);
  const used = new Map<string, number>();
  let retryNumber = 0;
  let last = first;
  // the wait planned for the next attempt, handed to select with it
  let backoff: Backoff | undefined;

  const allowed = (e: RouterError): boolean => {
    if (failover) return e.retryable;
    const key = policyKeyOf(e) ?? (e.retryable ? 'retryable' : 'other');
    const count = (used.get(key) ?? 0) + 1;
    used.set(key, count);
    return count <= retriesFor(e, numRetries, options.retryPolicy);
  };
  // plans the wait for a pick of the same deployment (the select layer applies it, or fails the call
  // with this error when a rate limit's wait cannot fit the call's budget)
  const plan = (e: RouterError): boolean => {
    retryNumber += 1;
    const id = e.modelId;
    backoff = undefined;
    // a deployment that failover excludes will not be picked again: no wait then
    if (!id || TimeoutError.isInstance(e) || (failover && call.history.excluded?.has(id))) return true;
    const now = deps.now();
    if (!deps.tracker.isAvailable(id, now)) {
      backoff = retryAfterWait(e, id, call, step, options.retryAfterMs, deps.tracker, now);
      return true;
    }
    const waitMs = RateLimitError.isInstance(e)
      ? rateLimitBackoffMs(retryNumber, e.retryAfterMs, options.retryAfterMs, deps.random)
      : serverErrorBackoffMs(retryNumber, deps.random);
    backoff = { id, waitMs, error: e };
    return true;
  };
  const retryable = (e: unknown): boolean => {
    if (!retriable(e, call, step)) return false;
    const error = e as RouterError;
    last = error;
    return allowed(error) && plan(error);
  };

  if (retries === 0 || !retryable(first)) throw first;
  // p-retry turns a thrown non-Error into a TypeError, but a caller's abort reason may be any value:
  // such a throw is carried past p-retry as is. (No `signal` for p-retry either: after a result it
  // would throw the reason and drop the result unsettled, its slot never freed; `retryable` checks it.)
  let passed: { thrown: unknown } | undefined;
  try {
    return await pRetry(
      async () => {
        try {
          return await next(call, backoff ? { ...step, backoff } : step);
        } catch (err) {
          if (step.signal?.aborted || !(err instanceof Error)) {
            passed = { thrown: err };
            throw new AbortError('not retried');
          }
          // nothing left to pick in this tier: the last real failure says more than "no deployments"
          if (NoDeploymentsAvailableError.isInstance(err)) throw new AbortError(last);
          // the planned rate limit itself, rethrown by select: its wait cannot fit what is left
          if (err === last && RateLimitError.isInstance(err)) throw new AbortError(err);
          throw err;
        }
      },
      { retries: retries - 1, minTimeout: 0, factor: 1, shouldRetry: ({ error }) => retryable(error) },
    );
  } catch (err) {
    throw passed ? passed.thrown : err;
  }
}
