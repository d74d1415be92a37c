import type { ChatCompletionRequest } from '../../types/index.js';
import type { CallOptions } from '../shared/provider-adapter.js';
import { withoutReasoningControls } from '../shared/reasoning-controls.js';
import { openaiModelReasons, openaiReasoningParams } from './reasoning-params.js';

/**
 * OpenAI's chat body: the caller's reasoning controls become `reasoning_effort`. For a model known not
 * to reason, `drop_params` removes it (otherwise it is sent and OpenAI's answer says why it failed).
 * `model` is the name used to tell reasoning models apart (the deployment's `base_model` on Azure).
 */
export function adaptOpenAIChatBody(
  body: Record<string, unknown>,
  model: string,
  options: CallOptions,
): Record<string, unknown> {
  if (body.reasoning_effort === undefined && body.thinking === undefined) return body;
  const native = openaiReasoningParams(body as Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>);
  const rest = withoutReasoningControls(body);
  if (options.dropParams && openaiModelReasons(model) === false) return rest;
  return { ...rest, ...native };
}
