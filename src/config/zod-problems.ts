import type { z } from 'zod';
import { didYouMean } from './did-you-mean.js';

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function pathOf(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path)
    v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/**
 * One readable line per zod issue, each naming the field. Unknown keys get the closest valid key;
 * type errors say what was given (its type, never its value, which may be a secret).
 */
export function zodProblems(
  error: z.ZodError,
  input: unknown,
  options: { prefix: string; knownKeys: (path: readonly PropertyKey[]) => readonly string[]; noun: string },
): string[] {
  const problems: string[] = [];
  for (const issue of error.issues) {
    const where = pathOf(options.prefix, issue.path);
    if (issue.code === 'unrecognized_keys') {
      const known = options.knownKeys(issue.path);
      for (const key of issue.keys) {
        const scope = where ? ` in \`${where}\`` : '';
        problems.push(`unknown ${options.noun} \`${key}\`${scope}${didYouMean(key, known)}`);
      }
      continue;
    }
    const given = valueAt(input, issue.path);
    const label = where || options.prefix || 'value';
    if (issue.code === 'invalid_type' && given === undefined) {
      problems.push(`${label}: is required`);
    } else if (
      issue.code === 'invalid_type' ||
      issue.code === 'invalid_union' ||
      issue.code === 'invalid_value'
    ) {
      problems.push(
        `${label}: ${issue.message.replace(/^Invalid input: /, '')} (got ${describeValue(given)})`,
      );
    } else {
      problems.push(`${label}: ${issue.message}`);
    }
  }
  return problems;
}
