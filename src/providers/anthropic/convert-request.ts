import { BadRequestError } from '../../errors/classes.js';
import type { ChatCompletionRequest, ChatMessage, ToolDefinition } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { applyReasoningHistory } from '../shared/reasoning-history.js';
import { requestDefaultsOf } from '../shared/request-defaults.js';
import { toAnthropicPrompt } from './convert-messages.js';
import { toAnthropicToolChoice, toAnthropicTools } from './convert-tools.js';
import { anthropicReasoningParams } from './reasoning-params.js';

// OpenAI request fields this adapter translates itself; everything else not listed below passes
// through, so Anthropic-native fields (`top_k`, `service_tier`, `container`, ...) reach the API.
const TRANSLATED = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'reasoning_effort',
  'thinking',
  'stop',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'user',
]);

// OpenAI-only fields Anthropic has no counterpart for: removed with drop_params, refused without.
const OPENAI_ONLY = new Set([
  'n',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'response_format',
  'functions',
  'function_call',
  'prediction',
  'modalities',
  'audio',
  'store',
  'web_search_options',
]);

/** Values of OpenAI-only fields that ask for nothing beyond Anthropic's default behaviour. */
function isNeutral(key: string, value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (key === 'n') return value === 1;
  if (key === 'response_format') return (value as { type?: unknown }).type === 'text';
  return false;
}

function unsupported(
  fields: Record<string, unknown>,
  target: ProviderTarget,
  dropParams: boolean | undefined,
): void {
  const found = Object.keys(fields).filter((k) => OPENAI_ONLY.has(k) && !isNeutral(k, fields[k]));
  if (found.length === 0 || dropParams) return;
  throw new BadRequestError(
    `${target.provider}/${target.model} does not support \`${found.join('`, `')}\`; ` +
      'set `drop_params: true` (in settings or on the request) to remove them',
    { provider: target.provider, model: target.model, modelId: target.modelId },
  );
}

// With thinking on, Anthropic rejects any temperature but 1, any top_k and a top_p below 0.95.
function sampling(fields: Record<string, unknown>, thinking: boolean, dropParams: boolean | undefined) {
  const drop = thinking && dropParams === true;
  const out: Record<string, unknown> = {};
  const { temperature, top_p, top_k } = fields;
  if (temperature !== undefined && !(drop && temperature !== 1)) out.temperature = temperature;
  if (top_p !== undefined && !(drop && (typeof top_p !== 'number' || top_p < 0.95))) out.top_p = top_p;
  if (top_k !== undefined && !drop) out.top_k = top_k;
  return out;
}

function toolFields(fields: Record<string, unknown>): Record<string, unknown> {
  const tools = toAnthropicTools(fields.tools as ToolDefinition[] | undefined);
  const choice = toAnthropicToolChoice(fields.tool_choice, fields.parallel_tool_calls, tools !== undefined);
  const out: Record<string, unknown> = {};
  if (tools) out.tools = tools;
  if (choice) out.tool_choice = choice;
  return out;
}

/**
 * The Anthropic Messages body for a chat request: the deployment's request defaults under the
 * caller's fields, translated field by field (system lifted out, tools and tool_choice, stop to
 * stop_sequences, user to metadata.user_id, reasoning to thinking with max_tokens above the budget).
 *
 * @throws BadRequestError for OpenAI-only fields without `drop_params`, reasoning history Anthropic
 * cannot take without `drop_params`, or malformed tool history.
 */
export function toAnthropicBody(
  request: ChatCompletionRequest,
  target: ProviderTarget,
  dropParams: boolean | undefined,
): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...requestDefaultsOf(target), ...request };
  unsupported(fields, target, dropParams);
  const history = applyReasoningHistory(
    request.messages,
    { thinkingBlocks: true, reasoningContent: true },
    target,
    dropParams,
  );
  const { system, messages } = toAnthropicPrompt(history as ChatMessage[], target);
  const { max_tokens, thinking } = anthropicReasoningParams(fields);
  const body: Record<string, unknown> = { model: target.model };
  if (system !== undefined) body.system = system;
  body.messages = messages;
  body.max_tokens = max_tokens;
  if (thinking) body.thinking = thinking;
  // `adaptive` thinking (newer models) carries the same sampling limits as `enabled`
  const thinkingOn = thinking !== undefined && (thinking.type as string) !== 'disabled';
  Object.assign(body, sampling(fields, thinkingOn, dropParams));
  if (fields.stop !== undefined && fields.stop !== null)
    body.stop_sequences = Array.isArray(fields.stop) ? fields.stop : [fields.stop];
  Object.assign(body, toolFields(fields));
  if (typeof fields.user === 'string') body.metadata = { user_id: fields.user };
  for (const [key, value] of Object.entries(fields))
    if (!TRANSLATED.has(key) && !OPENAI_ONLY.has(key) && value !== undefined) body[key] = value;
  return body;
}
