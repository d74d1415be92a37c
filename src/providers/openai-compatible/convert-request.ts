import type { ChatCompletionRequest } from '../../types/index.js';
import type { CallOptions, ProviderTarget } from '../shared/provider-adapter.js';
import type { ReasoningHistorySupport } from '../shared/reasoning-history.js';
import { type HistoryMessageHook, toWireMessages } from './convert-messages.js';

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

/** How a provider's chat body is made from the caller's request. */
export interface ChatBodyPlan {
  stream: boolean;
  includeUsage: boolean;
  support: ReasoningHistorySupport;
  adaptMessage?: HistoryMessageHook | undefined;
  adaptBody?:
    | ((
        body: Record<string, unknown>,
        target: ProviderTarget,
        options: CallOptions,
      ) => Record<string, unknown>)
    | undefined;
}

/**
 * The chat body: request defaults and the caller's fields, the history made fit for the provider
 * (reasoning fields per spec 4.1 rule 3, envelope-only fields removed), then the provider's own
 * changes. Throws BadRequestError, before anything is sent, when the history carries reasoning the
 * provider cannot take and `drop_params` is off.
 */
export function toChatBody(
  request: ChatCompletionRequest,
  target: ProviderTarget,
  requestDefaults: Readonly<Record<string, unknown>>,
  options: CallOptions,
  plan: ChatBodyPlan,
): Record<string, unknown> {
  const body = plan.stream
    ? toOpenAIStreamBody(request, target, requestDefaults, plan.includeUsage)
    : toOpenAIBody(request, target, requestDefaults);
  if (Array.isArray(request.messages)) {
    body.messages = toWireMessages(request.messages, target, {
      support: plan.support,
      dropParams: options.dropParams,
      adapt: plan.adaptMessage,
    });
  }
  return plan.adaptBody ? plan.adaptBody(body, target, options) : body;
}
