import type { ToolChoice, ToolDefinition } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { badRequest } from '../shared/provider-errors.js';
import type { GeminiRequestBody } from './wire-types.js';

// Gemini's Schema is an OpenAPI 3.0 subset: any other key (`additionalProperties`, `$schema`, `$ref`,
// `strict`, `examples`, ...) fails the whole request with 400, so only these are kept.
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

function cleanType(out: Record<string, unknown>, type: unknown): void {
  if (!Array.isArray(type)) {
    if (type !== undefined) out.type = type;
    return;
  }
  // JSON Schema's ["string", "null"] is OpenAPI's { type: "string", nullable: true }
  const kinds = type.filter((t) => t !== 'null');
  if (kinds.length < type.length) out.nullable = true;
  if (kinds.length === 1) out.type = kinds[0];
  else if (kinds.length > 1) out.anyOf = kinds.map((t) => ({ type: t }));
}

/**
 * A JSON Schema reduced to what Gemini's `Schema` accepts: unknown keys removed at every level,
 * `type` arrays turned into `nullable`/`anyOf`, `const` into a one-value `enum`.
 */
export function toGeminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toGeminiSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'type') cleanType(out, value);
    else if (key === 'const') out.enum = [value];
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toGeminiSchema(v)]),
      );
    } else if (key === 'items' || key === 'anyOf') out[key] = toGeminiSchema(value);
    else if (SCHEMA_KEYS.has(key)) out[key] = value;
  }
  return out;
}

function hasProperties(schema: unknown): boolean {
  const props = (schema as { properties?: unknown } | undefined)?.properties;
  return !!props && typeof props === 'object' && Object.keys(props).length > 0;
}

/** OpenAI `tools` as Gemini `functionDeclarations` (one `tools` entry). */
export function toGeminiTools(tools: readonly ToolDefinition[] | undefined): GeminiRequestBody['tools'] {
  const functions = (tools ?? []).filter((t) => t.type === 'function' && t.function);
  if (functions.length === 0) return undefined;
  const functionDeclarations = functions.map(({ function: fn }) => {
    const declaration: Record<string, unknown> = { name: fn.name };
    if (fn.description) declaration.description = fn.description;
    // an OBJECT with no properties is rejected: a function without arguments declares none
    if (hasProperties(fn.parameters)) declaration.parameters = toGeminiSchema(fn.parameters);
    return declaration;
  });
  return [{ functionDeclarations }];
}

/** OpenAI `tool_choice` as `toolConfig.functionCallingConfig` (AUTO / ANY / NONE, allowed names). */
export function toToolConfig(
  choice: ToolChoice | undefined,
  target: ProviderTarget,
): GeminiRequestBody['toolConfig'] {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  const name = typeof choice === 'object' ? choice.function?.name : undefined;
  if (!name) throw badRequest(target, 'unsupported tool_choice');
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
}
