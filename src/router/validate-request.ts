import { z } from 'zod';
import { positiveSeconds } from '../config/time-bounds.js';
import { zodProblems } from '../config/zod-problems.js';
import { BadRequestError } from '../errors/classes.js';
import { requestFault, unserialisablePath } from '../errors/request-fault.js';
import { CHAT_FIELDS, chatFields, samplingFields } from './openai-fields.js';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;

/**
 * The longest model name a request may ask for. Names are caller input that caches and spend rows
 * keep (wildcard groups, per-deployment counts, connection routes): a bound on their length bounds
 * what they hold. Real names (a Bedrock inference-profile ARN, a Vertex endpoint path) stay far
 * under it.
 */
export const MAX_MODEL_CHARS = 256;

const modelName = z.string().min(1).max(MAX_MODEL_CHARS, `expected at most ${MAX_MODEL_CHARS} characters`);

const routerFields = {
  timeout: positiveSeconds.optional(),
  num_retries: z.number().int().nonnegative().optional(),
  fallbacks: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  mock_response: z.string().optional(),
  drop_params: z.boolean().optional(),
};

const message = z.looseObject({ role: z.enum(ROLES) });

const schemas = {
  chat: z.looseObject({
    model: modelName,
    messages: z.array(message).min(1, 'expected at least one message'),
    stream: z.boolean().optional(),
    ...optional(chatFields),
    ...routerFields,
  }),
  embedding: z.looseObject({
    model: modelName,
    input: z.union([z.string(), z.array(z.unknown()).min(1, 'expected at least one input')]),
    ...routerFields,
  }),
  textCompletion: z.looseObject({
    model: modelName,
    prompt: z.union([z.string(), z.array(z.string())]),
    ...optional(samplingFields),
    ...routerFields,
  }),
  imageGeneration: z.looseObject({ model: modelName, prompt: z.string().min(1), ...routerFields }),
  transcription: z.looseObject({
    model: modelName,
    file: z.custom<unknown>(isUpload, 'expected bytes (Uint8Array, Blob) or an async iterable of bytes'),
    filename: z.string().min(1).optional(),
    ...routerFields,
  }),
  speech: z.looseObject({
    model: modelName,
    input: z.string().min(1),
    voice: z.string().min(1),
    ...routerFields,
  }),
  moderation: z.looseObject({
    model: modelName,
    input: z.union([z.string(), z.array(z.unknown()).min(1, 'expected at least one input')]),
    ...routerFields,
  }),
  rerank: z.looseObject({
    model: modelName,
    query: z.string().min(1),
    documents: z
      .array(z.union([z.string(), z.looseObject({ text: z.string() })]))
      .min(1, 'expected at least one document'),
    top_n: z.number().int().positive().optional(),
    ...routerFields,
  }),
};

/** The same fields, each optional. */
function optional<T extends Record<string, z.ZodType>>(fields: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
}

function isUpload(value: unknown): boolean {
  if (value instanceof Uint8Array || value instanceof Blob) return true;
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}

export type RequestKind = keyof typeof schemas;

const ROLE_SET: ReadonlySet<unknown> = new Set(ROLES);

/**
 * The common chat request, checked without zod (a few property reads): a model, messages with known
 * roles, an optional boolean `stream`, standard fields of their type and range (each checked alone,
 * a few hundred nanoseconds) and no router fields. True means the schema would accept it too;
 * anything else goes through the schema, which names what is wrong.
 */
function isPlainChat(request: unknown): boolean {
  if (typeof request !== 'object' || request === null) return false;
  const r = request as Record<string, unknown>;
  if (typeof r.model !== 'string' || r.model.length === 0 || r.model.length > MAX_MODEL_CHARS) return false;
  const messages = r.messages;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const m of messages) {
    if (typeof m !== 'object' || m === null || !ROLE_SET.has((m as { role?: unknown }).role)) return false;
  }
  if (r.stream !== undefined && typeof r.stream !== 'boolean') return false;
  // every field is read here, as the schema would: a getter that throws fails now, naming its field
  for (const key in r) {
    const value = r[key];
    if (value === undefined) continue;
    if (key in routerFields) return false;
    if (CHAT_FIELDS.get(key)?.safeParse(value).success === false) return false;
  }
  return true;
}

function problemsOf(kind: RequestKind, request: unknown): string[] | undefined {
  if (kind === 'chat' && isPlainChat(request)) return undefined;
  const result = schemas[kind].safeParse(request);
  if (result.success) return undefined;
  return zodProblems(result.error, request, { prefix: 'request', knownKeys: () => [], noun: 'field' });
}

/**
 * Checks a request's shape before any routing; throws BadRequestError naming each bad field
 * ("request.messages[0].role: ..."), or the field that throws when read (a getter, a Proxy). Returns
 * the request itself, not a copy.
 */
export function validateRequest<T>(kind: RequestKind, request: T): T {
  let problems: string[] | undefined;
  try {
    problems = problemsOf(kind, request);
  } catch (cause) {
    throw requestFault(unserialisablePath(request, 'request'), cause, 'cannot be read');
  }
  if (problems === undefined) return request;
  throw new BadRequestError(`Invalid request: ${problems.join('; ')}`);
}
