/**
 * The keys a zod object schema allows at `path` (through optional, default and array wrappers), for
 * "did you mean" hints on unknown keys; `fallback` when the path does not lead to an object.
 */
export function schemaKeysAt(
  schema: unknown,
  path: readonly PropertyKey[],
  fallback: readonly string[],
): readonly string[] {
  let shape: unknown = schema;
  for (const key of path) {
    if (typeof key !== 'string') continue;
    shape = (shape as { shape?: Record<string, unknown> }).shape?.[key];
    // unwrap optional/default/array wrappers to reach the object's shape
    for (let i = 0; i < 4 && shape && !(shape as { shape?: unknown }).shape; i++) {
      const def = (shape as { def?: { innerType?: unknown; element?: unknown } }).def;
      shape = def?.innerType ?? def?.element;
    }
  }
  const s = (shape as { shape?: Record<string, unknown> } | undefined)?.shape;
  return s ? Object.keys(s) : fallback;
}
