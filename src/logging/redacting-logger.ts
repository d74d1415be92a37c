import { isCredentialKey, maskKey } from '../callbacks/mask-key.js';
import { redactSecrets } from '../errors/redact.js';
import type { LogFields, Logger, LogLevel } from './logger.js';

// deep enough for any context the router logs; a deeper or cyclic value is cut, never walked forever
const MAX_DEPTH = 6;

function redactValue(value: unknown, secrets: readonly string[], depth: number, seen: Set<object>): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (!value || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[…]';
  if (value instanceof Error) {
    const status = (value as { status?: unknown }).status;
    return {
      name: value.name,
      message: redactSecrets(value.message, secrets),
      ...(typeof status === 'number' ? { status } : {}),
    };
  }
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = isCredentialKey(key)
        ? typeof inner === 'string'
          ? maskKey(inner)
          : inner == null
            ? inner
            : '****'
        : redactValue(inner, secrets, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/**
 * Fields with every credential-named field (`api_key`, `*_secret`, `*_token`, ...) masked as `****abcd`,
 * the given secrets and credential-shaped text (`Bearer ...`, `sk-...`) removed from every string, and
 * errors reduced to `{ name, message, status }`.
 */
export function redactFields(fields: LogFields, secrets: readonly string[] = []): LogFields {
  return redactValue(fields, secrets, 0, new Set()) as LogFields;
}

/** Wraps a logger so that it only ever sees redacted messages and fields, and cannot throw at its caller. */
export function redactingLogger(inner: Logger, secrets?: () => Iterable<string>): Logger {
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      try {
        const known = secrets ? [...secrets()] : [];
        const text = redactSecrets(message, known);
        if (fields === undefined) inner[level](text);
        else inner[level](text, redactFields(fields, known));
      } catch {
        // a broken logger must not break the call it was told about
      }
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
