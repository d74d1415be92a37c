import { type CacheKind, cacheKey, keySpaceOf } from '../../cache/cache-key.js';
import { isCacheable } from '../../cache/cacheable.js';
import { replayChunks } from '../../cache/replay-stream.js';
import type { AnswerStore, Flights } from '../../cache/response-cache.js';
import { accumulateChunks } from '../../reasoning/accumulate-chunks.js';
import { isPromise } from '../../stores/store.js';
import type { ChatCompletion, ChatCompletionChunk, Endpoint } from '../../types/index.js';
import type { Call, Handler, Layer, Routed, Step } from '../call.js';
import type { OpenedStream } from '../executor.js';
import type { OutcomeChannel } from '../outcomes.js';

/** `cache` on a request (CONTRACT: per-request cache controls). */
interface CacheControls {
  'no-cache'?: boolean;
  'no-store'?: boolean;
  /** Seconds this answer is kept. */
  ttl?: number;
  namespace?: string;
}

export interface CacheLayerDeps {
  answers: AnswerStore;
  flights: Flights;
  /** Seconds an answer is kept unless a request says otherwise. */
  ttl: number;
  namespace: string;
  cachingGroups: ReadonlyArray<readonly string[]> | undefined;
  /** The endpoint of a `model_id` under the current config. */
  endpointOf(id: string): Endpoint | undefined;
  outcomes: OutcomeChannel;
  now(): number;
}

/** What is stored: the answer and the deployment that gave it. */
interface Entry {
  model_id: string;
  response: unknown;
}

function controlsOf(request: Readonly<Record<string, unknown>>): CacheControls {
  const cache = request.cache;
  return cache && typeof cache === 'object' ? (cache as CacheControls) : {};
}

/** A stream that replays chunks already in hand. */
function replayed(chunks: ChatCompletionChunk[]): OpenedStream {
  const rest = (async function* () {
    yield* chunks.slice(1);
  })();
  return { first: { done: false, value: chunks[0]! }, rest, onClose: () => undefined };
}

/**
 * Passes an opened stream through while keeping its chunks; `done` gets the whole answer when the
 * stream ended complete, undefined when it failed or the caller stopped early.
 */
function recorded(opened: OpenedStream, done: (answer: ChatCompletion | undefined) => void): OpenedStream {
  const chunks: ChatCompletionChunk[] = [];
  if (!opened.first.done) chunks.push(opened.first.value);
  let finished = false;
  const finish = (answer: ChatCompletion | undefined) => {
    if (finished) return;
    finished = true;
    done(answer);
  };
  const rest: AsyncIterator<ChatCompletionChunk> = {
    // `then`, not `await`: one promise per chunk
    next() {
      return opened.rest.next().then(
        (next) => {
          if (next.done) finish(accumulateChunks(chunks));
          else chunks.push(next.value);
          return next;
        },
        (error: unknown) => {
          finish(undefined);
          throw error;
        },
      );
    },
    async return(value?: unknown) {
      finish(undefined);
      return (await opened.rest.return?.(value)) ?? { done: true, value: undefined };
    },
  };
  return { first: opened.first, rest, onClose: (listener) => opened.onClose(listener) };
}

/**
 * The response cache (`cache_responses`), outermost in the call path: a hit is answered without any
 * routing (`cache_hit`, no cost; a streamed request gets the answer replayed as a stream); a miss goes
 * on, and its answer is kept when it is complete and successful (never an error, a cut stream or a
 * filtered answer). Identical misses in flight at once make one upstream call: the others wait for its
 * answer. Per request, `cache: { 'no-cache', 'no-store', ttl, namespace }` and `caching: false` apply.
 * A hit from a group the caller's `allowModel` refuses (a fallback's answer) is a miss for that caller:
 * checked on the hit, since the key cannot know who will ask.
 */
export function cacheLayer(deps: CacheLayerDeps): Layer {
  const { answers, flights, outcomes, now } = deps;

  const hit = <T>(call: Call<T>, step: Step, json: string): Routed<T> | undefined => {
    const entry = JSON.parse(json) as Entry;
    const endpoint = deps.endpointOf(entry.model_id) ?? step.group.endpoints[0];
    if (!endpoint) return undefined;
    // an answer a fallback gave from a group this caller may not reach is not replayed to it: a miss
    if (call.allowModel !== undefined && !call.allowModel(endpoint.deployment.modelName)) return undefined;
    const result = (
      call.stream ? replayed(replayChunks(entry.response as ChatCompletion)) : entry.response
    ) as T;
    const startMs = now();
    return {
      result,
      endpoint,
      attempts: 0,
      startMs,
      firstMs: startMs,
      cacheHit: true,
      settle: (s) =>
        outcomes.report({
          kind: 'cache_hit',
          endpoint,
          callStartMs: call.startMs,
          failures: call.history.failures,
          group: step.group,
          strategy: undefined,
          request: call.request,
          stream: call.stream,
          startMs,
          endMs: now(),
          firstMs: startMs,
          error: undefined,
          usage: s.usage,
          attempts: 0,
          hedged: false,
          excluded: undefined,
          response: s.response,
          cost: 0,
          cacheHit: true,
          trace: step.trace,
        }),
    };
  };

  const keep = <T>(call: Call<T>, routed: Routed<T>, store: (answer: unknown) => void): Routed<T> => {
    if (!call.stream) {
      store(routed.result);
      return routed;
    }
    const opened = recorded(routed.result as OpenedStream, store);
    return { ...routed, result: opened as T };
  };

  return (next: Handler) =>
    async <T>(call: Call<T>, step: Step): Promise<Routed<T>> => {
      const { request } = call;
      if (request.caching === false) return await next(call, step);
      const controls = controlsOf(request);
      const namespace = controls.namespace ?? deps.namespace;
      const key = `${namespace}:${cacheKey(call.kind as CacheKind, keySpaceOf(step.group.name, deps.cachingGroups), request)}`;
      if (!controls['no-cache']) {
        let found = answers.get(key);
        if (isPromise(found)) found = await found;
        if (found === undefined) {
          const flight = flights.get(key);
          if (flight) found = await flight;
        }
        const served = found === undefined ? undefined : hit(call, step, found);
        if (served) return served;
      }
      if (controls['no-store']) return await next(call, step);
      const land = flights.get(key) ? undefined : flights.start(key);
      const ttlMs = (controls.ttl ?? deps.ttl) * 1000;
      let routed: Routed<T>;
      try {
        routed = await next(call, step);
      } catch (error) {
        land?.(undefined);
        throw error;
      }
      return keep(call, routed, (answer) => {
        if (!isCacheable(call.kind as CacheKind, answer)) return land?.(undefined);
        const json = JSON.stringify({
          model_id: routed.endpoint.deployment.id,
          response: answer,
        } satisfies Entry);
        answers.set(key, json, ttlMs);
        land?.(json);
      });
    };
}
