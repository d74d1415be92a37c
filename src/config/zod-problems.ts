import type { z } from 'zod';
import { didYouMean } from '../shared/did-you-mean.js';
import { pathOf } from './config-path.js';
import { type EnvReference, referenceAt } from './resolve-env.js';

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path)
    v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/**
 * A custom issue may carry `params.withoutValue`: its message with the given value left out, for when
 * that value came from the environment (and may be a secret put in the wrong field).
 */
function withoutValue(issue: z.core.$ZodIssue): string | undefined {
  const params = (issue as { params?: { withoutValue?: unknown } }).params;
  return typeof params?.withoutValue === 'string' ? params.withoutValue : undefined;
}

/** The message with the environment value replaced by its reference, wherever it is quoted. */
function hideValue(message: string, ref: EnvReference): string {
  const shown = `os.environ/${ref.name}`;
  let out = message.split(`\`${ref.value}\``).join(`\`${shown}\``);
  // a long value is unambiguous even unquoted; a short one ("5") would also match ordinary words
  if (ref.value.length >= 8) out = out.split(ref.value).join(shown);
  return out;
}

function reasonOf(issue: z.core.$ZodIssue, given: unknown): string {
  const message = issue.message.replace(/^Invalid input: /, '');
  const saysWhat =
    issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value';
  return saysWhat && !message.includes('received') ? `${message} (got ${describeValue(given)})` : message;
}

/**
 * One readable line per zod issue, each naming the field. Unknown keys get the closest valid key;
 * type errors say what was given (its type, never its value, which may be a secret). A value read from
 * `os.environ/NAME` is named by its variable, never printed.
 */
export function zodProblems(
  error: z.ZodError,
  input: unknown,
  options: {
    prefix: string;
    knownKeys: (path: readonly PropertyKey[]) => readonly string[];
    noun: string;
    /** Values that came from the environment (from `resolveEnvReferences`). */
    references?: readonly EnvReference[];
    /** Paths already reported (an unset variable, a cycle): their issues would only repeat it. */
    ignore?: (path: readonly PropertyKey[]) => boolean;
  },
): string[] {
  const problems: string[] = [];
  for (const issue of error.issues) {
    if (options.ignore?.(issue.path)) continue;
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
    const ref = options.references ? referenceAt(options.references, issue.path) : undefined;
    if (ref) {
      const reason = withoutValue(issue) ?? hideValue(reasonOf(issue, given), ref);
      const note = issue.code === 'invalid_type' ? ' (values read from the environment are strings)' : '';
      problems.push(`${label}: the value of environment variable ${ref.name} is invalid: ${reason}${note}`);
    } else if (issue.code === 'invalid_type' && given === undefined) {
      problems.push(`${label}: is required`);
    } else {
      problems.push(`${label}: ${reasonOf(issue, given)}`);
    }
  }
  return problems;
}
