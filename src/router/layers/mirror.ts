import { responseCost } from '../../cost/response-cost.js';
import { errorFromNetwork } from '../../errors/map-error.js';
import type { Logger } from '../../logging/logger.js';
import type { ModelGroup, Usage } from '../../types/index.js';
import {
  type Call,
  firstStep,
  type Handler,
  type Layer,
  newHistory,
  type Routed,
  type Step,
} from '../call.js';
import type { OpenedStream } from '../executor.js';

/** One `mirrors` entry, resolved: calls to `from` are copied to the group `to` at `sampleRate`. */
export interface MirrorRule {
  from: string;
  to: ModelGroup;
  sampleRate: number;
}

export interface MirrorDeps {
  random(): number;
  now(): number;
  /** Select and attempt, nothing else: a mirror is never retried, never falls back. */
  path: Handler;
  logger(): Logger;
}

/**
 * Traffic mirroring (`mirrors`): a sampled copy of a call to a mirrored group is sent to its silent
 * group in the background, once the primary's result (or error) is in, so the primary's latency and
 * result are untouched. The copy takes a free deployment of the mirror group or is dropped (it never
 * waits for a slot), is never retried and never falls back; its answer is read to the end and thrown
 * away; its failures are logged and count against the mirror's own deployments only. Composed only
 * when `mirrors` is configured.
 */
export function mirrorLayer(rules: ReadonlyMap<string, readonly MirrorRule[]>, deps: MirrorDeps): Layer {
  return (next: Handler) =>
    async <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      const targets = rules.get(step.group.name);
      // a body that can be sent once cannot be copied
      if (!targets || call.spent) return await next(call, step);
      const sampled = targets.filter((rule) => deps.random() < rule.sampleRate);
      if (sampled.length === 0) return await next(call, step);
      try {
        return await next(call, step);
      } finally {
        for (const rule of sampled) mirror(call, rule, deps);
      }
    };
}

function mirror<T>(call: Call<T>, rule: MirrorRule, deps: MirrorDeps): void {
  const now = deps.now();
  const copy: Call<T> = {
    kind: call.kind,
    model: rule.to.name,
    group: rule.to,
    request: call.request,
    stream: call.stream,
    signal: undefined, // the caller leaving does not cut the copy short
    allowModel: undefined, // the operator's copy, never the caller's answer; it never falls back either
    asyncEntry: call.asyncEntry,
    pricedOnly: false, // a mirrored copy is charged to no one
    onAbortedAttempt: undefined,
    numRetries: 0,
    deadline: now, // never waits for a slot or a backoff
    startMs: now,
    operation: call.operation,
    body: call.body,
    timeoutMs: call.timeoutMs,
    dropParams: call.dropParams,
    mockResponse: call.mockResponse,
    history: newHistory(),
  };
  const failed = (err: unknown) =>
    deps.logger().warn(`mirror of ${rule.from} to ${rule.to.name} failed: ${(err as Error)?.message}`, {
      code: 'mirror_failed',
      model: rule.from,
      mirror: rule.to.name,
    });
  // a mirror is not part of the caller's call, nor of its trace: a first step of its own
  deps.path(copy, firstStep(copy)).then((routed) => drain(routed, copy.stream).catch(failed), failed);
}

/** Reads a mirror's answer to its end and settles its attempt with its usage and cost. */
async function drain<T>(routed: Routed<T>, stream: boolean): Promise<void> {
  const { deployment } = routed.endpoint;
  let usage: Partial<Usage> | undefined;
  if (stream) {
    const opened = routed.result as OpenedStream;
    try {
      for (let r = opened.first; !r.done; r = await opened.rest.next())
        if (r.value.usage) usage = r.value.usage;
    } catch (err) {
      const { target } = routed.endpoint;
      const error = errorFromNetwork(err, {
        provider: target.provider,
        model: target.model,
        modelId: target.modelId,
      });
      routed.settle({ error });
      throw error;
    }
  } else {
    usage = (routed.result as { usage?: Partial<Usage> }).usage;
  }
  routed.settle({ usage, cost: responseCost(deployment, usage), response: null });
}
