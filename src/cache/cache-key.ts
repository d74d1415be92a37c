import { hash } from 'node:crypto';
import { ROUTER_ONLY_FIELDS } from '../types/router-only-fields.js';

/** The kinds of call a key distinguishes: one prompt may be asked as a chat and as a text completion. */
export type CacheKind =
  | 'chat'
  | 'embedding'
  | 'textCompletion'
  | 'imageGeneration'
  | 'transcription'
  | 'speech'
  | 'moderation'
  | 'rerank';

/**
 * Request fields that never change the answer, left out of the key: who asked (`user`, `metadata`),
 * how the answer is delivered (`stream`, `stream_options`: a streamed call and a plain one share
 * entries), the model name (the group or caching group stands for it), and every router-only field but
 * `mock_response` (which is the answer).
 */
const NOT_IN_KEY: ReadonlySet<string> = new Set(
  [...ROUTER_ONLY_FIELDS, 'model', 'user', 'stream', 'stream_options'].filter((f) => f !== 'mock_response'),
);

/** JSON with object keys sorted and `undefined` left out: the same request always writes the same text. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) parts.push(`${JSON.stringify(key)}:${canonical(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The cache key of a request: a SHA-256 of the kind, the key space (the model group, or the caching
 * group it belongs to) and every request field that can change the answer. Everything not known to be
 * irrelevant is in the key, so a new provider field can only split the cache, never cross answers.
 * Pure.
 *
 * @example cacheKey('chat', 'gpt-4o', { model: 'gpt-4o', messages, temperature: 0 })
 */
export function cacheKey(kind: CacheKind, space: string, request: Readonly<Record<string, unknown>>): string {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(request)) if (!NOT_IN_KEY.has(key)) fields[key] = request[key];
  // one-shot: no Hash object a lookup (about 2 µs less here on a short request)
  return hash('sha256', `${kind}\n${space}\n${canonical(fields)}`, 'hex');
}

/**
 * The key space of a model group: the caching group that lists it (`caching_groups: [['gpt-4o',
 * 'gpt-4o-eu']]` makes both share answers), else the group itself.
 */
export function keySpaceOf(
  group: string,
  cachingGroups: ReadonlyArray<readonly string[]> | undefined,
): string {
  for (const members of cachingGroups ?? []) if (members.includes(group)) return `[${members.join(',')}]`;
  return group;
}
