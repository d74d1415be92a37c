import { catalogCost } from '@svc/router';
import { ProxyError } from '../http/proxy-error.js';
import type { RequestHead } from './request-head.js';
import type { PassThroughEndpoint, PassThroughProvider } from './settings.js';

/** OpenAI's paths whose streams carry usage only with `stream_options.include_usage` (Responses' always do). */
const CHAT_STREAM_PATH = /\/(chat\/)?completions\/?$/;

/**
 * Per provider, the paths whose answers say what they used (`metered`, as the usage reader reads
 * them), and those that cost nothing (`free`: token counts, OpenAI's moderations). Any other path may
 * cost what its answer does not say (batches, fine-tuning jobs, audio, images, caches), and is not for
 * a budget.
 */
const PRICED_PATHS: Record<PassThroughProvider, { metered: RegExp; free: RegExp; named: string }> = {
  openai: {
    metered: /\/(?:chat\/completions|completions|embeddings|responses)\/?$/,
    free: /\/(?:moderations|responses\/input_tokens)\/?$/,
    named:
      '`chat/completions`, `completions`, `embeddings` and `responses` (`moderations` and `responses/input_tokens` cost nothing)',
  },
  anthropic: {
    metered: /\/messages\/?$/,
    free: /\/messages\/count_tokens\/?$/,
    named: '`messages` (`messages/count_tokens` costs nothing)',
  },
  gemini: {
    metered: /:(?:generateContent|streamGenerateContent)$/,
    free: /:countTokens$/,
    named: '`:generateContent` and `:streamGenerateContent` (`:countTokens` costs nothing)',
  },
};

/**
 * Methods that only read or remove what a provider keeps (models, stored responses, files, batches):
 * none of the three providers bills them.
 */
const FREE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** What a pass-through call costs by its method and the path the target is asked for. */
export type PathPricing = 'metered' | 'free' | 'unpriced';

/**
 * Whether a call's answer says what it used (`metered`), it costs nothing (`free`: a read, a
 * removal, a token count), or it may cost what its answer does not say (`unpriced`).
 */
export function pathPricing(
  provider: PassThroughProvider,
  method: string,
  upstreamPath: string,
): PathPricing {
  if (FREE_METHODS.has(method)) return 'free';
  const paths = PRICED_PATHS[provider];
  if (paths.free.test(upstreamPath)) return 'free';
  return paths.metered.test(upstreamPath) ? 'metered' : 'unpriced';
}

const LET_THROUGH = 'set `allow_unpriced: true` on the endpoint to let such calls through at no cost';

/**
 * The refusal of a call charged to a budget whose answer the endpoint cannot price (no `provider` to
 * read its usage, a path whose answers do not say what they used, an OpenAI response run in the
 * background, a model the catalog has no price for, an OpenAI chat stream that does not ask for its
 * usage chunk), or undefined when it may go (`path.upstream`: the one the target is asked for;
 * `path.asked`: the caller's; `path.pricing`: `pathPricing`'s, with a `provider`): a budget that
 * cannot count a call cannot hold it, so such a call is refused before it is forwarded (as chat calls
 * on unpriced deployments are), unless the endpoint says `allow_unpriced: true`. A call that costs
 * nothing (`pathPricing`) always goes.
 */
export function unpricedRefusal(
  endpoint: PassThroughEndpoint,
  head: Pick<RequestHead, 'model' | 'stream' | 'includeUsage' | 'background'>,
  path: { upstream: string; asked: string; pricing: PathPricing | undefined },
  budgeted: boolean,
): ProxyError | undefined {
  if (!budgeted || endpoint.allow_unpriced) return undefined;
  const { provider } = endpoint;
  const { model } = head;
  if (provider === 'openai' && head.stream && !head.includeUsage && CHAT_STREAM_PATH.test(path.upstream))
    return new ProxyError(
      400,
      'stream_usage_required',
      `The pass-through endpoint \`${endpoint.path}\` charges an OpenAI stream from its usage chunk, which OpenAI sends only when asked, and this call is charged to a budget: send \`"stream_options": {"include_usage": true}\`, or set \`allow_unpriced: true\` on the endpoint to let such streams through at no cost.`,
    );
  if (provider) {
    if (path.pricing === 'free') return undefined;
    if (path.pricing === 'unpriced')
      return new ProxyError(
        400,
        'path_unpriced',
        `The pass-through endpoint \`${endpoint.path}\` reads what a call used from the answers of ${PRICED_PATHS[provider].named}; the answers of \`${path.asked}\` do not say what it costs, and this call is charged to a budget, so it cannot be counted: ${LET_THROUGH}.`,
      );
    if (provider === 'openai' && head.background)
      return new ProxyError(
        400,
        'path_unpriced',
        `The pass-through endpoint \`${endpoint.path}\` reads what a call used from its answer, and a \`background\` response is answered before it runs, without it; this call is charged to a budget, so it cannot be counted: send it without \`background\`, or ${LET_THROUGH}.`,
      );
    if (model !== undefined && catalogCost(provider, model, {}).priced) return undefined;
  }
  const what = !provider
    ? 'names no `provider`, so its answers are not read for usage'
    : model === undefined
      ? 'found no model in the request to price'
      : `has no catalog price for \`${provider}/${model}\``;
  return new ProxyError(
    400,
    'model_unpriced',
    `The pass-through endpoint \`${endpoint.path}\` ${what}, and this call is charged to a budget, so it ` +
      `cannot be counted: call a model the catalog prices, or ${LET_THROUGH}.`,
  );
}
