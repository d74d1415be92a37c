import type { ChatCompletionRequest, ChatMessage, ToolDefinition } from '../../types/index.js';
import { withoutThinkingConflicts } from '../shared/claude-sampling.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { applyReasoningHistory } from '../shared/reasoning-history.js';
import { requestDefaultsFor } from '../shared/request-defaults.js';
import { withoutUnsupportedParams } from '../shared/unsupported-params.js';
import { toAnthropicPrompt } from './convert-messages.js';
import { toAnthropicToolChoice, toAnthropicTools } from './convert-tools.js';
import { anthropicReasoningParams } from './reasoning-params.js';

// OpenAI request fields this adapter translates itself; everything else that is not OpenAI-only passes
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
  const fields = withoutUnsupportedParams(
    { ...requestDefaultsFor(target, request), ...request },
    target,
    dropParams,
  );
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
  const sampling = withoutThinkingConflicts(fields, thinking, dropParams);
  for (const key of ['temperature', 'top_p', 'top_k'])
    if (sampling[key] !== undefined) body[key] = sampling[key];
  if (fields.stop !== undefined && fields.stop !== null)
    body.stop_sequences = Array.isArray(fields.stop) ? fields.stop : [fields.stop];
  Object.assign(body, toolFields(fields));
  if (typeof fields.user === 'string') body.metadata = { user_id: fields.user };
  for (const [key, value] of Object.entries(fields))
    if (!TRANSLATED.has(key) && value !== undefined) body[key] = value;
  return body;
}
