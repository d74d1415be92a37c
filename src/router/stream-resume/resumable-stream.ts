import { APIConnectionError, BadRequestError } from '../../errors/classes.js';
import { RouterError } from '../../errors/router-error.js';
import type { CallSignal } from '../../shared/call-signal.js';
import type {
  ChatCompletionChunk,
  ChatCompletionRequest,
  Endpoint,
  HiddenParams,
  Usage,
} from '../../types/index.js';
import type { Admits, Routed } from '../call.js';
import { ChatCompletionStream } from '../chat-stream.js';
import type { OpenedStream } from '../executor.js';
import { ContinuationChunks, usageChunk } from './continuation-chunks.js';
import { continuationOf } from './continuation-request.js';
import { DeliveredAnswer } from './delivered-answer.js';
import { type AnswerPart, textTokens, wholeUsage } from './whole-usage.js';

/** A continuation the router opened: its stream (first chunk in hand) and who serves it. */
export interface OpenedContinuation {
  stream: ChatCompletionStream;
  endpoint: Endpoint;
}

/** What continuing a broken stream needs from the router. */
export interface ResumeDeps {
  /** `stream_resume_max`: most continuations of one stream. */
  maxResumes: number;
  /** Whether an endpoint can continue a stream (its deployment supports assistant prefill). */
  prefill(endpoint: Endpoint): boolean;
  /**
   * Routes `request` as a new streaming call on its `model` group, then that group's fallbacks, among
   * the endpoints `eligible` admits. Rejects like any call, the failures before the last in `attempts`.
   */
  open(request: ChatCompletionRequest, eligible: Admits): Promise<OpenedContinuation>;
  /** A stream was continued: one `fallback` event, `resumed: true`. */
  resumed(from: string, to: string, error: RouterError): void;
}

/** The call a stream answers: what was asked, and the caller's abort. */
export interface ResumedCall {
  request: ChatCompletionRequest;
  signal: CallSignal | undefined;
}

/**
 * `stream` (the first attempt's, unread) as a stream that is continued when it breaks after text
 * reached the caller (`stream_resume`, CONTRACT 6.2): cut, stalled past `stream_timeout`, or ended
 * without a finish, it goes on, in the same stream (same `id`), on another deployment that supports
 * assistant prefill (its group first, then its fallbacks), asked for the rest of the text already
 * given. The caller gets only the continuation, then one usage chunk for the whole answer. When no
 * deployment can continue it, the stream fails with the error that broke it, never with a refusal.
 * A stream that never breaks passes through unchanged.
 */
export function resumableStream(
  stream: ChatCompletionStream,
  routed: Routed<OpenedStream>,
  call: ResumedCall,
  deps: ResumeDeps,
): ChatCompletionStream {
  const { first } = routed.result;
  if (first.done || deps.maxResumes <= 0 || (call.request.n ?? 1) > 1) return stream;
  const hidden = stream._hidden_params;
  const priced: WholeAnswer = { usage: undefined, cost: 0 };
  const rest = resumingChunks(stream, first.value, routed.endpoint, hidden, call, deps, priced);
  const resumable = new ChatCompletionStream(
    { first, rest, onClose: () => {} },
    // each attempt's own stream settles it; the whole answer's cost is set before its usage chunk.
    // That usage is priced part by part, each at its deployment's prices; a count of what was
    // delivered (a reader that left) on the first deployment's.
    {
      onEnd: () => {},
      onError: () => {},
      costOf: (usage) =>
        priced.usage && sameTokens(usage, priced.usage) ? priced.cost : stream.costOf(usage),
    },
    hidden,
  );
  return resumable;
}

/** A continued answer's usage once its last part ended, and its cost, each part at its own prices. */
interface WholeAnswer {
  usage: Usage | undefined;
  cost: number;
}

const sameTokens = (a: Partial<Usage>, b: Usage): boolean =>
  a.prompt_tokens === b.prompt_tokens && a.completion_tokens === b.completion_tokens;

async function* resumingChunks(
  stream: ChatCompletionStream,
  first: ChatCompletionChunk,
  endpoint: Endpoint,
  hidden: HiddenParams,
  call: ResumedCall,
  deps: ResumeDeps,
  priced: WholeAnswer,
): AsyncGenerator<ChatCompletionChunk> {
  const answer = new DeliveredAnswer(first);
  const parts: AnswerPart[] = [];
  const broken = new Set<string>();
  let part = newPart(endpoint, call.request, answer);
  let source: AsyncIterator<ChatCompletionChunk> = stream[Symbol.asyncIterator]();
  let joining: ContinuationChunks | undefined;
  try {
    // the first chunk is the caller's already: the first attempt's stream repeats it
    for (let skip = 1; ; skip = 0) {
      const broke = yield* relay(source, skip, joining, answer, call.signal);
      if (!broke) break;
      // a stream that ended cleanly without its finish still ends so when it is not continued
      const ended = broke === 'ended';
      const failure = ended ? truncation(part.endpoint) : broke;
      const next =
        parts.length < deps.maxResumes && answer.continuable(failure)
          ? await continuation(answer, part.endpoint, broken, call, deps)
          : undefined;
      if (!next) {
        if (ended) break;
        throw failure;
      }
      parts.push(closePart(part, answer, joining));
      await source.return?.();
      source = next.opened.stream[Symbol.asyncIterator]();
      joining = new ContinuationChunks(answer, next.skipWhitespace);
      part = newPart(next.opened.endpoint, next.request, answer);
      hidden.attempts += next.opened.stream._hidden_params.attempts;
      deps.resumed(parts.at(-1)!.deployment.modelName, part.endpoint.deployment.modelName, failure);
    }
    if (!joining) return;
    parts.push(closePart(part, answer, joining));
    const whole = await wholeUsage(parts);
    priced.usage = whole.usage;
    priced.cost = whole.cost;
    describeServer(hidden, part.endpoint, whole.cost);
    yield usageChunk(answer, whole.usage);
  } finally {
    await source.return?.();
  }
}

/**
 * Passes one attempt's chunks on (from the `skip`th, made part of the stream by `joining` when it is
 * a continuation), recording them. Returns what broke it: its error, or `ended` when it ended without
 * a finish; undefined when the answer finished.
 */
async function* relay(
  source: AsyncIterator<ChatCompletionChunk>,
  skip: number,
  joining: ContinuationChunks | undefined,
  answer: DeliveredAnswer,
  signal: CallSignal | undefined,
): AsyncGenerator<ChatCompletionChunk, RouterError | 'ended' | undefined> {
  let left = skip;
  try {
    for (let next = await source.next(); !next.done; next = await source.next()) {
      if (left > 0) {
        left -= 1;
        continue;
      }
      const chunk = joining ? joining.next(next.value) : next.value;
      if (!chunk) continue;
      answer.record(chunk);
      yield chunk;
    }
  } catch (err) {
    if (signal?.aborted || !RouterError.isInstance(err)) throw err;
    return err;
  }
  return answer.finished ? undefined : 'ended';
}

/** The failure of a stream that ended without its finish (its adapter let it end cleanly). */
function truncation(endpoint: Endpoint): APIConnectionError {
  const { id } = endpoint.deployment;
  return new APIConnectionError(`the stream of ${id} ended before its finish`, { modelId: id });
}

/** A part being given, from where the answer stands now. */
interface OpenPart {
  endpoint: Endpoint;
  request: ChatCompletionRequest;
  textFrom: number;
  reasoningFrom: number;
}

function newPart(endpoint: Endpoint, request: ChatCompletionRequest, answer: DeliveredAnswer): OpenPart {
  return { endpoint, request, textFrom: answer.text.length, reasoningFrom: answer.reasoning.length };
}

function closePart(
  part: OpenPart,
  answer: DeliveredAnswer,
  joining: ContinuationChunks | undefined,
): AnswerPart {
  return {
    deployment: part.endpoint.deployment,
    request: part.request,
    text: answer.reasoning.slice(part.reasoningFrom) + answer.text.slice(part.textFrom),
    usage: joining?.usage,
  };
}

/** `_hidden_params` of a continued answer: the deployment that finished it, the cost of every part. */
function describeServer(hidden: HiddenParams, endpoint: Endpoint, cost: number): void {
  const { deployment, target } = endpoint;
  hidden.model_id = deployment.id;
  hidden.model_group = deployment.modelName;
  hidden.api_base = target.apiBase ?? null;
  hidden.custom_llm_provider = deployment.provider;
  hidden.response_cost = cost;
}

/** Opens a continuation of the answer after `from` broke (see `openContinuation`). */
function continuation(
  answer: DeliveredAnswer,
  from: Endpoint,
  broken: Set<string>,
  call: ResumedCall,
  deps: ResumeDeps,
): ReturnType<typeof openContinuation> {
  broken.add(from.deployment.id);
  // counting starts now: the tokenizer loads while the continuation streams (its usage needs it)
  const given = textTokens(answer.reasoning + answer.text).catch(() => 0);
  return openContinuation(answer, from, broken, given, call, deps);
}

/**
 * Opens the continuation on the group of the deployment that broke, then its fallbacks, among the
 * deployments that support prefill and have not broken this stream. A deployment that refuses the
 * request (a 400: its prefill support was overstated) is left out and the rest tried, so a refusal is
 * never the stream's end. Undefined when nothing could take it.
 */
async function openContinuation(
  answer: DeliveredAnswer,
  from: Endpoint,
  broken: ReadonlySet<string>,
  given: Promise<number>,
  call: ResumedCall,
  deps: ResumeDeps,
): Promise<
  { opened: OpenedContinuation; request: ChatCompletionRequest; skipWhitespace: number } | undefined
> {
  const bounded = call.request.max_tokens !== undefined || call.request.max_completion_tokens !== undefined;
  const tokens = bounded ? await given : 0;
  const group = from.deployment.modelName;
  const { request, skipWhitespace } = continuationOf(call.request, group, answer.text, tokens);
  const refused = new Set<string>();
  const eligible: Admits = (e) => {
    const { id } = e.deployment;
    return !broken.has(id) && !refused.has(id) && deps.prefill(e);
  };
  for (;;) {
    try {
      return { opened: await deps.open(request, eligible), request, skipWhitespace };
    } catch (err) {
      if (call.signal?.aborted) throw call.signal.reason ?? err;
      let more = false;
      for (const e of RouterError.isInstance(err) ? [err, ...err.attempts] : []) {
        if (!BadRequestError.isInstance(e) || !e.modelId || refused.has(e.modelId)) continue;
        refused.add(e.modelId);
        more = true;
      }
      if (!more) return undefined;
    }
  }
}
