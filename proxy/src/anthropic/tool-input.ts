/**
 * A tool call's JSON `arguments` as Anthropic's `input` object. Empty arguments are `{}`; arguments
 * that are not a JSON object (a model's broken JSON) are kept whole under `_raw`, not lost, since
 * Anthropic clients expect an object.
 *
 * @example toolInput('{"city":"Paris"}') // => { city: 'Paris' }
 */
export function toolInput(args: string | undefined): Record<string, unknown> {
  if (!args || args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through: keep what the model wrote
  }
  return { _raw: args };
}
