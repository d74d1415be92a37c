import type { ChatCompletionRequest, ReasoningEffort } from '../../types/index.js';
import { openaiReasoningParams } from '../openai/reasoning-params.js';

/**
 * Azure OpenAI's reasoning field: the same as OpenAI's (`reasoning_effort` as given; an explicit
 * `thinking` budget becomes the effort of that size, `disabled` sends nothing). The result replaces the
 * request's `reasoning_effort` and `thinking`.
 *
 * @example azureReasoningParams({ model: 'my-o3', messages: [], reasoning_effort: 'high' })
 * // => { reasoning_effort: 'high' }
 */
export function azureReasoningParams(request: Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>): {
  reasoning_effort?: ReasoningEffort;
} {
  return openaiReasoningParams(request);
}
