import { catalogCost, type HiddenParams, promptTokens, type Usage } from '@svc/router';
import { type CallLedger, CLIENT_CLOSED } from '../spend/call-ledger.js';
import type { RequestHead } from './request-head.js';
import type { PassThroughEndpoint } from './settings.js';
import type { PathPricing } from './unpriced.js';

/**
 * The largest JSON body parsed to count the prompt of a call whose client left: larger ones hold
 * images and documents (which are not counted), and any text prompt a provider takes fits well within.
 */
const MAX_COUNTED_BYTES = 8 * 1024 * 1024;

/**
 * Closes the books of a pass-through call whose client left before the target answered: the target
 * had the prompt, which its provider bills, so a call the endpoint can price (a `provider`, a model)
 * is charged the prompt's counted tokens (`usage_estimated`), as a routed call is. The prompt: the
 * body's `messages` with Anthropic's `system`, else its `input` (with `instructions`) or `prompt`
 * text. Nothing when nothing can be counted (an upload, a Gemini path's body, which is not held), nor
 * for a call that costs nothing (a token count, a moderation, a read: `pricing`, `pathPricing`'s).
 */
export async function chargeLeftCall(
  ledger: CallLedger,
  endpoint: PassThroughEndpoint,
  head: Pick<RequestHead, 'model' | 'chunks' | 'json'>,
  pricing: PathPricing | undefined,
  error: unknown,
): Promise<void> {
  const { provider } = endpoint;
  const { model } = head;
  const counted = provider && model !== undefined && pricing !== 'free';
  const prompt = counted ? await countedPrompt(head) : 0;
  if (!provider || model === undefined || prompt === 0) {
    ledger.fail(error, true);
    return;
  }
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt };
  const { cost, priced } = catalogCost(provider, model, usage);
  const hidden = {
    model_group: model,
    custom_llm_provider: provider,
    priced,
    cache_hit: false,
  } as unknown as HiddenParams;
  ledger.answered(hidden, { usage, cost, estimated: true }, CLIENT_CLOSED);
}

async function countedPrompt(head: Pick<RequestHead, 'chunks' | 'json'>): Promise<number> {
  const body = head.json ? head.chunks[0] : undefined;
  if (!body || body.length > MAX_COUNTED_BYTES) return 0;
  let request: Record<string, unknown>;
  try {
    request = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch {
    return 0;
  }
  return promptTokens(countable(request)).catch(() => 0);
}

/** The request as `promptTokens` counts it, with Anthropic's `system` and the Responses `instructions`. */
function countable(request: Record<string, unknown>): Record<string, unknown> {
  const { messages, system, input, instructions } = request;
  if (Array.isArray(messages))
    return system === undefined ? request : { messages: [{ role: 'system', content: system }, ...messages] };
  if (instructions === undefined || input === undefined) return request;
  return { input: [instructions, ...(Array.isArray(input) ? input : [input])] };
}
