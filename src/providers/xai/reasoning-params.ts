import type { ChatCompletionRequest } from '../../types/index.js';
import { reasoningIntent } from '../shared/reasoning-controls.js';

/** What a Grok model does with `reasoning_effort`. */
export type XaiEffortSupport =
  | { kind: 'accepts'; values: readonly string[] }
  | { kind: 'rejects' }
  | { kind: 'unknown' };

const accepts = (...values: string[]): XaiEffortSupport => ({ kind: 'accepts', values });
const REJECTS: XaiEffortSupport = { kind: 'rejects' };

// From xAI's reasoning guide and live reports (first match wins). These models reason but refuse the
// dial with "Argument not supported on this model: reasoningEffort".
const MODELS: ReadonlyArray<readonly [RegExp, XaiEffortSupport]> = [
  [/^grok-3-mini/, accepts('low', 'high')],
  [/^grok-4\.3/, accepts('none', 'low', 'medium', 'high')],
  [/^grok-4\.20-multi-agent/, accepts('low', 'medium', 'high')],
  [/^grok-4\.20(-\d{4})?-(non-)?reasoning/, REJECTS],
  [/^grok-4\.[5-9]/, accepts('low', 'medium', 'high')],
  [/^grok-4-\d{4}$/, REJECTS],
  [/^grok-4-(1-)?fast/, REJECTS],
  [/^grok-code-fast/, REJECTS],
  [/^grok-3(-fast)?(-beta|-latest)?$/, REJECTS],
  [/^grok-2/, REJECTS],
];

/**
 * Whether a Grok model takes `reasoning_effort`, and which values. Names it does not know (newer
 * models, aliases such as `grok-4` and `grok-latest` that move between versions) are `unknown`: the
 * effort is sent as asked and xAI's answer decides.
 */
export function xaiEffortSupport(model: string): XaiEffortSupport {
  const name = model.startsWith('xai/') ? model.slice(4) : model;
  return MODELS.find(([pattern]) => pattern.test(name))?.[1] ?? { kind: 'unknown' };
}

// The accepted value closest to the one asked: `minimal` thinks least, so `low`; `medium` sits between
// `low` and `high` and goes up (as DeepSeek's own table does), so the caller never gets less than asked.
function nearest(effort: string, values: readonly string[]): string {
  if (values.includes(effort)) return effort;
  if (effort === 'minimal' && values.includes('low')) return 'low';
  if (effort === 'medium' && values.includes('high')) return 'high';
  return effort;
}

/**
 * xAI's reasoning field for a request on `model` (default: the request's, an `xai/` prefix ignored):
 * `reasoning_effort` mapped to the nearest value the model accepts (grok-3-mini takes only `low` and
 * `high`, grok-4.3 also `none` and `medium`). An explicit `thinking` wins: a budget becomes the effort
 * of that size, `disabled` becomes `none`. Values a model cannot take are returned as asked, for the
 * adapter to drop under `drop_params`. The result replaces the request's `reasoning_effort` and
 * `thinking`.
 *
 * @example xaiReasoningParams({ model: 'grok-3-mini', messages: [], reasoning_effort: 'minimal' })
 * // => { reasoning_effort: 'low' }
 */
export function xaiReasoningParams(
  request: Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'> & { model?: string },
  model: string = request.model ?? '',
): { reasoning_effort?: string } {
  const intent = reasoningIntent(request);
  if (intent.kind === 'unset') return {};
  const asked = intent.kind === 'off' ? 'none' : intent.effort;
  if (!asked) return {};
  const support = xaiEffortSupport(model);
  return { reasoning_effort: support.kind === 'accepts' ? nearest(asked, support.values) : asked };
}
