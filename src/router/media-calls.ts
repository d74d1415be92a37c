import { BadRequestError } from '../errors/classes.js';
import type {
  Deployment,
  Endpoint,
  ModelGroup,
  RerankResponse,
  SpeechRequest,
  TranscriptionResponse,
  Usage,
  WithHiddenParams,
} from '../types/index.js';
import type { Routed } from './call.js';
import { hiddenParams } from './call-results.js';
import { withHiddenParams } from './hidden-params.js';

/** The calls served only by deployments of their own `model_info.mode`. */
export type MediaKind = 'transcription' | 'speech' | 'moderation' | 'rerank';

/** The `model_info.mode` a deployment must have to serve each kind. */
export const MEDIA_MODES: Readonly<Record<MediaKind, string>> = Object.freeze({
  transcription: 'audio_transcription',
  speech: 'audio_speech',
  moderation: 'moderation',
  rerank: 'rerank',
});

/** Whether an endpoint's deployment is of `mode`: a pure filter, made once per mode. */
const byMode = new Map<string, (endpoint: Endpoint) => boolean>();
export function ofMode(mode: string): (endpoint: Endpoint) => boolean {
  let filter = byMode.get(mode);
  if (!filter) {
    filter = (endpoint) => endpoint.deployment.info.mode === mode;
    byMode.set(mode, filter);
  }
  return filter;
}

/**
 * Refuses a call on a group with no deployment of the kind's mode, before any routing.
 * @throws BadRequestError naming the group and the mode.
 */
export function checkMode(group: ModelGroup, kind: MediaKind): void {
  const mode = MEDIA_MODES[kind];
  if (group.endpoints.some(ofMode(mode))) return;
  throw new BadRequestError(
    `Model group \`${group.name}\` has no deployment with model_info.mode \`${mode}\`, which ${kind} calls need.`,
    { model: group.name },
  );
}

/**
 * A streamed upload wrapped so the router knows once it has started: `started` is true once an attempt
 * asked for its bytes. Before that (the connection failed) another attempt may still send it.
 */
export class OneShotUpload implements AsyncIterable<Uint8Array> {
  #started = false;
  constructor(private readonly source: AsyncIterable<Uint8Array>) {}

  get started(): boolean {
    return this.#started;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (this.#started) throw new Error('a streamed upload can be sent once');
    this.#started = true;
    return this.source[Symbol.asyncIterator]();
  }
}

/** Whether a file must be wrapped as a `OneShotUpload`: a stream, not bytes in hand. */
export function isStreamedFile(file: unknown): file is AsyncIterable<Uint8Array> {
  return !(file instanceof Uint8Array) && !(file instanceof Blob);
}

const TRANSCRIPTION_TOKENS = 'tokens';

/** What a call is measured by for its price: seconds of audio, characters spoken, searches, tokens. */
function measure(
  kind: MediaKind,
  request: Readonly<Record<string, unknown>>,
  result: unknown,
): { seconds?: number; characters?: number; queries?: number; usage?: Partial<Usage> } {
  if (kind === 'transcription') {
    const { usage, duration } = result as TranscriptionResponse;
    if (usage?.type === TRANSCRIPTION_TOKENS)
      return {
        usage: { prompt_tokens: usage.input_tokens ?? 0, completion_tokens: usage.output_tokens ?? 0 },
      };
    const seconds = usage?.seconds ?? duration;
    return typeof seconds === 'number' ? { seconds } : {};
  }
  if (kind === 'speech') return { characters: (request as SpeechRequest).input.length };
  if (kind === 'rerank') {
    const meta = (result as RerankResponse).meta as { billed_units?: { search_units?: number } } | undefined;
    return { queries: meta?.billed_units?.search_units ?? 1 };
  }
  return {};
}

/** The cost of a media call on a deployment, and whether it was priced for what it is measured by. */
function mediaCost(
  kind: MediaKind,
  deployment: Deployment,
  request: Readonly<Record<string, unknown>>,
  result: unknown,
): { cost: number; priced: boolean; usage: Partial<Usage> | undefined } {
  const { prices, unitPrices } = deployment.cost;
  const m = measure(kind, request, result);
  if (m.usage) {
    const set = prices;
    const cost = set
      ? (m.usage.prompt_tokens ?? 0) * set.input + (m.usage.completion_tokens ?? 0) * set.output
      : 0;
    return { cost, priced: set !== undefined, usage: m.usage };
  }
  if (m.seconds !== undefined)
    return {
      cost: m.seconds * (unitPrices?.perSecond ?? 0),
      priced: unitPrices?.perSecond !== undefined,
      usage: undefined,
    };
  if (m.characters !== undefined)
    return {
      cost: m.characters * (unitPrices?.perCharacter ?? 0),
      priced: unitPrices?.perCharacter !== undefined,
      usage: undefined,
    };
  if (m.queries !== undefined)
    return {
      cost: m.queries * (unitPrices?.perQuery ?? 0),
      priced: unitPrices?.perQuery !== undefined,
      usage: undefined,
    };
  // moderations: free where the catalog lists the model (an empty price set), else unpriced
  return { cost: 0, priced: prices !== undefined, usage: undefined };
}

/** A media call's answer with its `_hidden_params` (cost and `priced` by what it is measured by); settles it. */
export function mediaResult<T extends object>(
  kind: MediaKind,
  routed: Routed<T>,
  request: Readonly<Record<string, unknown>>,
): WithHiddenParams<T> {
  const { cost, priced, usage } = mediaCost(kind, routed.endpoint.deployment, request, routed.result);
  const hidden = { ...hiddenParams(routed, cost), priced };
  const result = withHiddenParams(routed.result, hidden);
  routed.settle({ usage, response: result, cost });
  return result;
}
