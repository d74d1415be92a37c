import { adaptOpenAIChatBody } from '../openai/convert-request.js';
import type { CallOptions, ProviderTarget } from '../shared/provider-adapter.js';

/**
 * Azure's chat body, as OpenAI's. A deployment's name says nothing about its model, so whether it
 * reasons is judged from svc_params `base_model` (e.g. `gpt-4o` or `o3-mini`); without one the effort
 * is always sent.
 */
export function adaptAzureChatBody(
  body: Record<string, unknown>,
  target: ProviderTarget,
  options: CallOptions,
): Record<string, unknown> {
  const base = target.params.base_model;
  return adaptOpenAIChatBody(body, typeof base === 'string' ? base : '', options);
}
