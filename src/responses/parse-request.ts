import type { z } from 'zod';
import { schemaKeysAt } from '../config/schema-keys.js';
import { zodProblems } from '../config/zod-problems.js';
import { BadRequestError } from '../errors/classes.js';
import {
  functionToolSchema,
  ITEM_SCHEMAS,
  MESSAGE_PARTS,
  OUTPUT_PARTS,
  PART_SCHEMAS,
  ROUTER_FIELDS,
  requestSchema,
} from './request-schema.js';
import type { FunctionCallOutputItem, MessageItem, ResponsesRequest } from './types.js';

/**
 * Responses API fields a chat model cannot serve, each with why: refused when set to anything but
 * their neutral value, rather than left out in silence.
 */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  background: 'background responses are not supported',
  conversation: 'conversations are not supported; use `previous_response_id`',
  prompt: 'stored prompts are not supported; send `instructions` and `input`',
  max_tool_calls: 'only function tools are supported, whose calls the caller runs',
  top_logprobs: 'log probabilities are not supported',
  context_management: 'server-side compaction is not supported',
  prompt_cache_options: 'not supported; `prompt_cache_key` is passed on',
  prompt_cache_retention: 'not supported; `prompt_cache_key` is passed on',
};

const ITEM_TYPES = Object.keys(ITEM_SCHEMAS).join(', ');

function isNeutral(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === 0;
}

function problemsOf(error: z.ZodError, input: unknown, prefix: string, schema: unknown): string[] {
  return zodProblems(error, input, {
    prefix,
    noun: 'field',
    knownKeys: (path) => schemaKeysAt(schema, path, []),
  });
}

function itemProblems(items: readonly unknown[]): string[] {
  return items.flatMap((item, i) => {
    const where = `input[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return [`${where}: expected an item object`];
    const declared = (item as { type?: unknown }).type;
    const type = declared ?? ('role' in item ? 'message' : undefined);
    const schema = typeof type === 'string' ? ITEM_SCHEMAS[type] : undefined;
    if (!schema) {
      const what =
        type === undefined
          ? 'an item needs a `type` (or a `role`)'
          : `\`${String(type)}\` items are not supported`;
      return [`${where}.type: ${what}; supported: ${ITEM_TYPES}`];
    }
    const result = schema.safeParse(item);
    if (!result.success) return problemsOf(result.error, item, where, schema);
    if (type === 'function_call_output')
      return partProblems((item as FunctionCallOutputItem).output, `${where}.output`, OUTPUT_PARTS);
    if (type !== 'message') return [];
    const problems = partProblems((item as MessageItem).content, `${where}.content`, MESSAGE_PARTS);
    if (problems.length === 0 && imageOutsideUser(item as MessageItem))
      problems.push(`${where}.content: images are only allowed in user messages and function outputs`);
    return problems;
  });
}

function partProblems(parts: unknown, where: string, allowed: readonly string[]): string[] {
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((part, i) => {
    const at = `${where}[${i}]`;
    const type = (part as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !allowed.includes(type)) {
      const what =
        type === undefined ? 'a part needs a `type`' : `\`${String(type)}\` parts are not supported here`;
      return [`${at}.type: ${what}; supported: ${allowed.join(', ')}`];
    }
    const schema = PART_SCHEMAS[type]!;
    const result = schema.safeParse(part);
    return result.success ? [] : problemsOf(result.error, part, at, schema);
  });
}

function imageOutsideUser(item: MessageItem): boolean {
  return (
    item.role !== 'user' && Array.isArray(item.content) && item.content.some((p) => p.type === 'input_image')
  );
}

function toolProblems(tools: readonly unknown[]): string[] {
  return tools.flatMap((tool, i) => {
    const where = `tools[${i}]`;
    const type = (tool as { type?: unknown } | null)?.type;
    if (typeof tool === 'object' && tool !== null && type !== 'function') {
      return [
        `${where}.type: built-in tool \`${String(type)}\` is not supported; only \`function\` tools are (the caller runs them)`,
      ];
    }
    const result = functionToolSchema.safeParse(tool);
    return result.success ? [] : problemsOf(result.error, tool, where, functionToolSchema);
  });
}

function unsupportedProblems(body: Record<string, unknown>): string[] {
  return Object.entries(UNSUPPORTED)
    .filter(([field]) => !isNeutral(body[field]))
    .map(([field, why]) => `${field}: ${why}`);
}

/**
 * Checks a `POST /v1/responses` body: the fields of the Responses API a chat model can serve (see
 * docs/responses.md), function tools only, input items of the types `message` (with `input_text`,
 * `input_image`, `output_text` or `refusal` parts), `function_call`, `function_call_output` and
 * `reasoning`. The router's own fields (`fallbacks`, `num_retries`, `mock_response`, ...) are kept
 * apart in `routerFields`.
 *
 * @throws BadRequestError listing every problem, each naming its field: an unknown field (with the
 * closest known one), a built-in tool (`tools[0].type: built-in tool \`web_search\` is not supported`),
 * an unsupported item type, a field a chat model cannot serve (`background`, `conversation`, ...).
 * @example parseResponsesRequest({ model: 'gpt-4o', input: 'hi' })
 * // => { model: 'gpt-4o', input: 'hi', routerFields: {} }
 */
export function parseResponsesRequest(body: unknown): ResponsesRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadRequestError('The request body must be a JSON object.');
  const raw = body as Record<string, unknown>;
  const problems = unsupportedProblems(raw);
  const known = Object.fromEntries(Object.entries(raw).filter(([field]) => !(field in UNSUPPORTED)));
  const result = requestSchema.safeParse(known);
  if (!result.success) problems.push(...problemsOf(result.error, known, '', requestSchema));
  if (Array.isArray(raw.input)) problems.push(...itemProblems(raw.input));
  if (Array.isArray(raw.tools)) problems.push(...toolProblems(raw.tools));
  if (problems.length > 0 || !result.success)
    throw new BadRequestError(`Invalid Responses request: ${problems.join('; ')}`);
  const routerFields: Record<string, unknown> = {};
  const request: Record<string, unknown> = { routerFields };
  for (const [field, value] of Object.entries(result.data)) {
    if (value === undefined) continue;
    if ((ROUTER_FIELDS as readonly string[]).includes(field)) routerFields[field] = value;
    else request[field] = value;
  }
  return request as unknown as ResponsesRequest;
}
