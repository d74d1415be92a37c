/**
 * Whether a Claude `thinking` object turns thinking on: `enabled` and `adaptive` do, `disabled` and
 * no object do not.
 */
function thinkingOn(thinking: { type?: unknown } | undefined): boolean {
  return thinking !== undefined && thinking.type !== 'disabled';
}

/**
 * The request fields without the sampling values Claude rejects while thinking (wherever Claude is
 * hosted): any `temperature` but 1, any `top_k`, and a `top_p` below 0.95. They are removed only when
 * thinking is on and `dropParams` is set; otherwise the fields come back unchanged (the same object)
 * and the provider names the conflict in its own error.
 *
 * @example
 * withoutThinkingConflicts({ temperature: 0.2, top_p: 0.97 }, { type: 'enabled' }, true);
 * // => { top_p: 0.97 }
 */
export function withoutThinkingConflicts(
  fields: Record<string, unknown>,
  thinking: { type?: unknown } | undefined,
  dropParams: boolean | undefined,
): Record<string, unknown> {
  if (!thinkingOn(thinking) || dropParams !== true) return fields;
  const { temperature, top_p, top_k: _topK, ...rest } = fields;
  if (temperature === 1) rest.temperature = temperature;
  if (typeof top_p === 'number' && top_p >= 0.95) rest.top_p = top_p;
  return rest;
}
