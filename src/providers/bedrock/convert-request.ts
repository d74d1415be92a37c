import type { ChatCompletionRequest, ToolDefinition } from '../../types/index.js';
import { withoutThinkingConflicts } from '../shared/claude-sampling.js';
import { asRecord } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { applyReasoningHistory } from '../shared/reasoning-history.js';
import { requestDefaultsFor } from '../shared/request-defaults.js';
import { OPENAI_ONLY_PARAMS, withoutUnsupportedParams } from '../shared/unsupported-params.js';
import { hasToolHistory, toBedrockPrompt } from './convert-messages.js';
import { toToolConfig } from './convert-tools.js';
import { isClaudeModel } from './model-id.js';
import { bedrockReasoningParams } from './reasoning-params.js';

// OpenAI request fields this adapter translates itself.
const TRANSLATED = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'user',
]);

// Converse's own top-level fields, passed through as given when a caller (or svc_params) sets them.
const CONVERSE_FIELDS = new Set([
  'guardrailConfig',
  'performanceConfig',
  'requestMetadata',
  'additionalModelResponseFieldPaths',
  'promptVariables',
  'serviceTier',
]);

// OpenAI-only fields Converse has no counterpart for, and OpenAI's `service_tier` (Converse's own is
// `serviceTier`): removed with drop_params, refused without.
const UNSUPPORTED: ReadonlySet<string> = new Set([...OPENAI_ONLY_PARAMS, 'service_tier']);

function inferenceConfig(fields: Record<string, unknown>, maxTokens: number | undefined) {
  const config: Record<string, unknown> = {};
  const max = maxTokens ?? fields.max_tokens ?? fields.max_completion_tokens;
  if (max !== undefined && max !== null) config.maxTokens = max;
  if (fields.temperature !== undefined && fields.temperature !== null)
    config.temperature = fields.temperature;
  if (fields.top_p !== undefined && fields.top_p !== null) config.topP = fields.top_p;
  if (fields.stop !== undefined && fields.stop !== null)
    config.stopSequences = Array.isArray(fields.stop) ? fields.stop : [fields.stop];
  return config;
}

/**
 * The fields for `additionalModelRequestFields`: every request field this adapter does not translate
 * and that is neither OpenAI-only nor a Converse top-level field (`top_k`, Claude's `anthropic_beta`,
 * gpt-oss `reasoning_effort`, ...), merged over an explicit `additionalModelRequestFields`. For Claude,
 * `reasoning_effort` and `thinking` are translated instead.
 */
function additionalFields(fields: Record<string, unknown>, claude: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...asRecord(fields.additionalModelRequestFields) };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || TRANSLATED.has(key) || CONVERSE_FIELDS.has(key)) continue;
    if (key === 'additionalModelRequestFields') continue;
    if (claude && (key === 'reasoning_effort' || key === 'thinking')) continue;
    out[key] = value;
  }
  return out;
}

/**
 * The Converse body for a chat request: the deployment's request defaults under the caller's fields;
 * system messages lifted into `system`; `max_tokens` / `temperature` / `top_p` / `stop` into
 * `inferenceConfig`; tools into `toolConfig`; Converse's own fields (`guardrailConfig`, ...) as given;
 * everything else into `additionalModelRequestFields`. For Claude models, `thinking` /
 * `reasoning_effort` become Claude's `thinking` with `maxTokens` above the budget, and assistant
 * `thinking_blocks` go back as `reasoningContent`; other models cannot take `thinking_blocks`
 * (removed with `drop_params`, refused without).
 *
 * @throws BadRequestError for OpenAI-only fields or reasoning history without `drop_params`, malformed
 * tool history, or images Converse cannot take.
 */
export function toConverseBody(
  request: ChatCompletionRequest,
  target: ProviderTarget,
  dropParams: boolean | undefined,
): Record<string, unknown> {
  const requested: Record<string, unknown> = { ...requestDefaultsFor(target, request), ...request };
  const claude = isClaudeModel(target);
  const supported = withoutUnsupportedParams(requested, target, dropParams, {
    unsupported: UNSUPPORTED,
    // Converse cannot turn parallel tool calls off
    alsoRefused: requested.parallel_tool_calls === false ? ['parallel_tool_calls'] : [],
  });
  const reasoning = claude ? bedrockReasoningParams(supported) : {};
  const fields = withoutThinkingConflicts(
    supported,
    reasoning.additionalModelRequestFields?.thinking,
    dropParams,
  );
  // plain `reasoning_content` of earlier turns is accepted and not sent: Converse has no field for
  // unsigned reasoning
  const history = applyReasoningHistory(
    request.messages,
    { thinkingBlocks: claude, reasoningContent: true },
    target,
    dropParams,
  );
  const body: Record<string, unknown> = { ...toBedrockPrompt(history, claude, target) };
  const config = inferenceConfig(fields, reasoning.inferenceConfig?.maxTokens);
  if (Object.keys(config).length > 0) body.inferenceConfig = config;
  const toolConfig = toToolConfig(
    fields.tools as ToolDefinition[] | undefined,
    fields.tool_choice,
    hasToolHistory(history),
    target,
  );
  if (toolConfig) body.toolConfig = toolConfig;
  const additional = { ...additionalFields(fields, claude), ...reasoning.additionalModelRequestFields };
  if (Object.keys(additional).length > 0) body.additionalModelRequestFields = additional;
  for (const key of CONVERSE_FIELDS) if (fields[key] !== undefined) body[key] = fields[key];
  return body;
}
