import type { ChatCompletionRequest } from '../../types/index.js';
import { asFiniteNumber } from '../shared/json.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { applyReasoningHistory } from '../shared/reasoning-history.js';
import { requestDefaultsFor } from '../shared/request-defaults.js';
import { toGeminiContents } from './convert-messages.js';
import { toGeminiSchema, toGeminiTools, toToolConfig } from './convert-tools.js';
import { geminiReasoningParams } from './reasoning-params.js';
import type { GeminiRequestBody } from './wire-types.js';

// Gemini-native body fields a caller may send as they are (either spelling)
const NATIVE_FIELDS: ReadonlyArray<[string, string]> = [
  ['safetySettings', 'safetySettings'],
  ['safety_settings', 'safetySettings'],
  ['cachedContent', 'cachedContent'],
  ['cached_content', 'cachedContent'],
  ['labels', 'labels'],
];

// OpenAI numeric fields and their `generationConfig` names (sent only when they are finite numbers)
const NUMERIC_FIELDS: ReadonlyArray<[string, string]> = [
  ['temperature', 'temperature'],
  ['top_p', 'topP'],
  ['top_k', 'topK'],
  ['n', 'candidateCount'],
  ['seed', 'seed'],
  ['presence_penalty', 'presencePenalty'],
  ['frequency_penalty', 'frequencyPenalty'],
];

function responseFormatConfig(format: unknown): Record<string, unknown> {
  const f = format as { type?: unknown; json_schema?: { schema?: unknown } } | undefined;
  if (f?.type === 'json_object') return { responseMimeType: 'application/json' };
  if (f?.type !== 'json_schema') return {};
  const schema = f.json_schema?.schema;
  return schema === undefined
    ? { responseMimeType: 'application/json' }
    : { responseMimeType: 'application/json', responseSchema: toGeminiSchema(schema) };
}

/** OpenAI sampling fields as `generationConfig`, with the reasoning translation folded in. */
function generationConfig(req: ChatCompletionRequest, model: string): Record<string, unknown> | undefined {
  const native = req.generationConfig && typeof req.generationConfig === 'object' ? req.generationConfig : {};
  const config: Record<string, unknown> = { ...(native as Record<string, unknown>) };
  for (const [from, to] of NUMERIC_FIELDS) {
    const value = asFiniteNumber(req[from]);
    if (value !== undefined) config[to] = value;
  }
  const maxTokens = asFiniteNumber(req.max_completion_tokens ?? req.max_tokens);
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (typeof req.stop === 'string') config.stopSequences = [req.stop];
  else if (Array.isArray(req.stop) && req.stop.length > 0) config.stopSequences = req.stop;
  Object.assign(config, responseFormatConfig(req.response_format));
  const reasoning = geminiReasoningParams({
    model,
    reasoning_effort: req.reasoning_effort,
    thinking: req.thinking,
  }).generationConfig;
  if (reasoning) config.thinkingConfig = reasoning.thinkingConfig;
  return Object.keys(config).length > 0 ? config : undefined;
}

/**
 * The `:generateContent` body for a chat request: the deployment's request defaults under the
 * caller's fields, messages as `contents`, tools, tool choice and `generationConfig` (reasoning
 * included). Earlier reasoning fields Gemini cannot take follow the `drop_params` rule. OpenAI fields
 * with no Gemini counterpart (`user`, `logit_bias`, `parallel_tool_calls`, ...) are not sent.
 */
export function toGeminiBody(
  request: ChatCompletionRequest,
  target: ProviderTarget,
  dropParams: boolean | undefined,
): GeminiRequestBody {
  const req = { ...requestDefaultsFor(target, request), ...request } as ChatCompletionRequest;
  // Gemini's own thought summaries come back on later turns of a tool loop (spec 4.1 rule 4): accepted,
  // not sent (Gemini takes back only its signatures). Another provider's thinking blocks follow drop_params.
  const messages = applyReasoningHistory(
    req.messages ?? [],
    { thinkingBlocks: false, reasoningContent: true },
    target,
    dropParams,
  );
  const body: GeminiRequestBody = toGeminiContents(messages, target);
  const tools = toGeminiTools(req.tools);
  if (tools) body.tools = tools;
  const toolConfig = toToolConfig(req.tool_choice, target);
  if (toolConfig) body.toolConfig = toolConfig;
  const config = generationConfig(req, target.model);
  if (config) body.generationConfig = config;
  for (const [from, to] of NATIVE_FIELDS) if (req[from] !== undefined) body[to] = req[from];
  return body;
}
