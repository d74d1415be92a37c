/** A plain-object view of parsed JSON, or undefined when it is not an object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Reads a JSON error body and returns it as an object, or undefined when it is not JSON. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The value as a string when it is one. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The value when it is a finite number (what a token count or an index must be), else undefined:
 * strings, `null`, `NaN` and the infinities are not numbers here.
 *
 * @example asFiniteNumber(12) // => 12
 * @example asFiniteNumber('12') // => undefined
 */
export function asFiniteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
