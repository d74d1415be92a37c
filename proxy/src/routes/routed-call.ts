import { performance } from 'node:perf_hooks';
import { context, trace } from '@opentelemetry/api';
import type { AccessGroups, CallControl, CallSignal, ChatCompletionStream } from '@svc/router';
import type { Caller } from '../auth/caller.js';
import { modelRule } from '../auth/model-access.js';
import type { CallAbort } from '../http/call-abort.js';
import type { CallState } from '../http/call-state.js';
import type { CallLedger } from '../spend/call-ledger.js';

/**
 * Runs the router call of a request, timing it (the part of the request that is not the proxy's own
 * overhead) and closing the ledger when it throws: as failed, or as left by its client, who is
 * charged the prompt of `request` (the request routed) if the call had reached a provider.
 */
export async function routedCall<T>(
  state: CallState,
  ledger: CallLedger,
  abort: Pick<CallAbort, 'gone'>,
  request: Readonly<Record<string, unknown>>,
  call: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    // a traced request: the router's call span becomes a child of the request's span
    return await (state.span ? context.with(trace.setSpan(context.active(), state.span), call) : call());
  } catch (error) {
    if (abort.gone) ledger.left(error, request);
    else ledger.fail(error);
    throw error;
  } finally {
    state.routerMs += performance.now() - started;
  }
}

/**
 * The router's call control for an admitted call: no fallback may reach a model the caller could not
 * ask for (`allowModel`); the attempts its client's leaving cancels go to its books; a call charged
 * to a budget may use only priced deployments (or those with `allow_unpriced`), else it is refused
 * with 400 `model_unpriced`.
 */
export function callControl(
  ledger: CallLedger,
  signal: CallSignal,
  caller: Caller,
  accessGroups?: AccessGroups,
): CallControl {
  const allowModel = modelRule(caller, accessGroups);
  const onAbortedAttempt = ledger.attemptAborted;
  const control: CallControl = allowModel
    ? { signal, allowModel, onAbortedAttempt }
    : { signal, onAbortedAttempt };
  if (ledger.budgeted) control.pricedOnly = true;
  return control;
}

/** Whether a chat result is a stream (an async iterable of chunks) rather than a completion. */
export function isStream(result: unknown): result is ChatCompletionStream {
  return typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}
