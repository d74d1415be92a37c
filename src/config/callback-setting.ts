import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { LoggerCallback } from '../callbacks/logger-callback.js';
import type { RecordDestination } from '../records/destination.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { httpUrl } from './http-url.js';
import { litellmCallbacksMessage, litellmEquivalent } from './litellm-callbacks.js';
import { positiveSeconds } from './time-bounds.js';

/** The destination types a `callbacks` entry may name (CONTRACT 6.8). */
export const DESTINATION_TYPES = ['otlp', 'webhook', 'file'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

const headers = z.record(z.string(), z.string());

/** How every destination's records are batched, bounded and retried (docs/call-records.md). */
const delivery = {
  /** Records per send. @default 100 */
  batch_size: z.number().int().positive().optional(),
  /** Seconds between sends of what is waiting. @default 1 */
  flush_interval: positiveSeconds.optional(),
  /** Records kept while the destination is slow or down; beyond it new ones are dropped. @default 10000 */
  max_queue_size: z.number().int().positive().optional(),
  /** Seconds one send may take. @default 10 */
  timeout: positiveSeconds.optional(),
  /** Sends of a batch after its first fails. @default 3 */
  max_retries: z.number().int().nonnegative().optional(),
};

const ENTRY_SCHEMAS = {
  otlp: z.strictObject({
    type: z.literal('otlp'),
    /** The full traces URL (`.../v1/traces`). */
    endpoint: httpUrl,
    headers: headers.optional(),
    service_name: z.string().min(1).optional(),
    ...delivery,
  }),
  webhook: z.strictObject({
    type: z.literal('webhook'),
    url: httpUrl,
    headers: headers.optional(),
    ...delivery,
  }),
  file: z.strictObject({ type: z.literal('file'), path: z.string().min(1), ...delivery }),
} as const;

/** A `callbacks` entry naming a built-in destination, as validated. */
export type DestinationEntry = z.output<(typeof ENTRY_SCHEMAS)[DestinationType]>;
/** A `callbacks` entry as written. */
export type DestinationEntryInput = z.input<(typeof ENTRY_SCHEMAS)[DestinationType]>;
/** What the router setting `callbacks` holds: logger objects, destination objects and entries. */
export type CallbackSetting = LoggerCallback | RecordDestination | DestinationEntry;
export type CallbackSettingInput = LoggerCallback | RecordDestination | DestinationEntryInput;

const hasFunction = (value: object, name: string): boolean =>
  typeof (value as Record<string, unknown>)[name] === 'function';

/** A logger object (`logSuccessEvent`/`logFailureEvent`). */
export function isLoggerCallback(value: unknown): value is LoggerCallback {
  return (
    typeof value === 'object' &&
    value !== null &&
    (hasFunction(value, 'logSuccessEvent') || hasFunction(value, 'logFailureEvent'))
  );
}

/** A destination object of the user's (`send`). */
export function isDestinationObject(value: unknown): value is RecordDestination {
  return typeof value === 'object' && value !== null && hasFunction(value, 'send');
}

/** The user's live objects in `callbacks`: used as given, never copied or searched for `os.environ/`. */
export function isLiveCallback(value: unknown): boolean {
  return isLoggerCallback(value) || isDestinationObject(value);
}

const EXPECTED = `expected an entry { type: ${DESTINATION_TYPES.map((t) => `"${t}"`).join(' | ')}, ... }, a logger object with logSuccessEvent()/logFailureEvent(), or a destination object with type and send()`;

type Issue = { path: PropertyKey[]; message: string };

/** What is wrong with one `callbacks` element, each problem at its path under the element. */
function callbackProblems(value: unknown): Issue[] {
  if (typeof value === 'string') return [{ path: [], message: litellmCallbacksMessage(value) }];
  if (isLoggerCallback(value)) return [];
  if (isDestinationObject(value))
    return typeof value.type === 'string' && value.type !== ''
      ? []
      : [{ path: ['type'], message: 'a destination object needs a `type` string (it names it in stats)' }];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [{ path: [], message: EXPECTED }];
  const type = (value as { type?: unknown }).type;
  if (type === undefined) return [{ path: ['type'], message: `is required; ${EXPECTED}` }];
  if (typeof type !== 'string' || !(type in ENTRY_SCHEMAS))
    return [{ path: ['type'], message: unknownType(type) }];
  return entryProblems(type as DestinationType, value);
}

function unknownType(type: unknown): string {
  const name = typeof type === 'string' ? type : '';
  const equivalent = name ? litellmEquivalent(name) : undefined;
  const shown = typeof type === 'string' ? `\`${type}\`` : `a ${typeof type}`;
  const hint = didYouMean(name, DESTINATION_TYPES) || (equivalent ? `; for ${name} use ${equivalent}` : '');
  return `unknown callback type ${shown}${hint}; expected one of ${DESTINATION_TYPES.join(', ')}`;
}

function entryProblems(type: DestinationType, value: object): Issue[] {
  const schema = ENTRY_SCHEMAS[type];
  const parsed = schema.safeParse(value);
  if (parsed.success) return [];
  const fields = Object.keys(schema.shape);
  return parsed.error.issues.flatMap((issue): Issue[] => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({
        path: issue.path,
        message: `unknown field \`${key}\`${didYouMean(key, fields)}; a ${type} entry takes ${fields.join(', ')}`,
      }));
    const given = issue.path.reduce<unknown>(
      (v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k],
      value,
    );
    return [{ path: issue.path, message: given === undefined ? 'is required' : issue.message }];
  });
}

/**
 * One element of the router setting `callbacks`: a logger object or a destination object (kept as
 * given), or an entry `{ type: "otlp" | "webhook" | "file", ... }` (validated, every problem named by
 * its field). A LiteLLM callback name (`"langfuse"`) is refused with the equivalent entry.
 */
export const callbackSetting = z
  .custom<CallbackSettingInput>(() => true)
  .transform((value, ctx) => {
    const problems = callbackProblems(value);
    if (problems.length === 0)
      return isLiveCallback(value)
        ? (value as CallbackSetting)
        : ENTRY_SCHEMAS[(value as DestinationEntry).type].parse(value);
    for (const problem of problems) ctx.issues.push({ code: 'custom', input: value, ...problem });
    return z.NEVER;
  });

/**
 * `callbacks` as written in a config file: `file` entries' relative paths made absolute from `dir` (the
 * file's folder); everything else as given.
 */
export function withFilePathsFrom(dir: string, callbacks: unknown): unknown {
  if (!Array.isArray(callbacks)) return callbacks;
  return callbacks.map((c) => {
    const entry = c as { type?: unknown; path?: unknown } | null;
    const path = entry?.type === 'file' ? entry.path : undefined;
    if (typeof path !== 'string' || isAbsolute(path) || path.startsWith('os.environ/')) return c;
    return { ...entry, path: resolve(dir, path) };
  });
}

/** The destinations of a validated `callbacks` list (entries and destination objects), in order. */
export function destinationsOf(
  callbacks: readonly CallbackSetting[],
): (DestinationEntry | RecordDestination)[] {
  return callbacks.filter((c): c is DestinationEntry | RecordDestination => !isLoggerCallback(c));
}

/** The logger objects of a validated `callbacks` list. */
export function loggersOf(callbacks: readonly CallbackSetting[]): LoggerCallback[] {
  return callbacks.filter(isLoggerCallback);
}
