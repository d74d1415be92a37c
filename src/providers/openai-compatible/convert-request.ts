import type { ProviderTarget } from '../shared/provider-adapter.js';

/**
 * The OpenAI request body for a deployment: the deployment's request defaults under the caller's
 * fields, with the provider's model name. The router has already removed its own fields.
 */
export function toOpenAIBody<Req extends object>(
  request: Req,
  target: ProviderTarget,
  requestDefaults: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return { ...requestDefaults, ...request, model: target.model };
}

/** The same body for a streaming call, asking for the usage chunk at the end. */
export function toOpenAIStreamBody<Req extends object>(
  request: Req,
  target: ProviderTarget,
  requestDefaults: Readonly<Record<string, unknown>>,
  includeUsage: boolean,
): Record<string, unknown> {
  const body = toOpenAIBody(request, target, requestDefaults);
  body.stream = true;
  if (includeUsage) {
    body.stream_options = { ...(body.stream_options as object | undefined), include_usage: true };
  }
  return body;
}
