import { z } from 'zod';

// Items come back from clients as the API answered them, with fields this gateway does not read (`id`,
// `status`, `phase`, `logprobs`): loose objects. The request itself and its tools are strict, so a field
// the gateway would silently ignore is refused instead.

const inputText = z.looseObject({ type: z.literal('input_text'), text: z.string() });

const inputImage = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().min(1, 'an image URL or data: URI is required (file_id is not supported)'),
  detail: z.enum(['auto', 'low', 'high']).optional(),
});

const outputText = z.looseObject({ type: z.literal('output_text'), text: z.string() });

const refusal = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/** The schema of each content part, by `type`; which types an item takes is `MESSAGE_PARTS` / `OUTPUT_PARTS`. */
export const PART_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  input_text: inputText,
  input_image: inputImage,
  output_text: outputText,
  refusal,
};

/** The part types of a message's `content`. */
export const MESSAGE_PARTS: readonly string[] = ['input_text', 'input_image', 'output_text', 'refusal'];

/** The part types of a function call output's `output`. */
export const OUTPUT_PARTS: readonly string[] = ['input_text', 'input_image'];

// parts are checked one by one afterwards, so a bad part is named by its index and type
const parts = z.union([z.string(), z.array(z.unknown())]);

const itemStatus = z.enum(['in_progress', 'completed', 'incomplete']).optional();

const message = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: parts,
  status: itemStatus,
});

const functionCall = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  status: itemStatus,
});

const functionCallOutput = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: parts,
  status: itemStatus,
});

const reasoningText = z.looseObject({
  type: z.enum(['summary_text', 'reasoning_text']),
  text: z.string(),
});

const reasoning = z.looseObject({
  type: z.literal('reasoning'),
  summary: z.array(reasoningText),
  content: z.array(reasoningText).nullish(),
  encrypted_content: z.string().nullish(),
  status: itemStatus,
});

/** The schema of each supported input item, by its `type` (a message may leave `type` out). */
export const ITEM_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  message,
  function_call: functionCall,
  function_call_output: functionCallOutput,
  reasoning,
};

/** A function tool, in the Responses shape. */
export const functionToolSchema = z.strictObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.strictObject({ type: z.literal('function'), name: z.string().min(1) }),
]);

const textFormat = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('json_object') }),
  z.strictObject({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    schema: z.record(z.string(), z.unknown()),
    description: z.string().optional(),
    strict: z.boolean().nullish(),
  }),
]);

const summaryMode = z.enum(['auto', 'concise', 'detailed']).nullish();

/** The router's own fields a body may carry, as on `/v1/chat/completions` and `/v1/messages`. */
export const ROUTER_FIELDS = [
  'drop_params',
  'mock_response',
  'mock_testing_rate_limit_error',
  'mock_testing_fallbacks',
  'num_retries',
  'fallbacks',
  'timeout',
] as const;

/**
 * The request body. `input` and `tools` are checked item by item afterwards (see `parse-request.ts`),
 * so a bad item is named by its index and type.
 */
export const requestSchema = z.strictObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
  instructions: z.string().nullish(),
  tools: z.array(z.unknown()).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: z.boolean().nullish(),
  reasoning: z
    .strictObject({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high']).nullish(),
      summary: summaryMode,
      generate_summary: summaryMode,
    })
    .nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  text: z
    .strictObject({ format: textFormat.optional(), verbosity: z.enum(['low', 'medium', 'high']).nullish() })
    .optional(),
  metadata: z.record(z.string(), z.string()).nullish(),
  user: z.string().optional(),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  include: z
    .array(
      z.literal('reasoning.encrypted_content', {
        message: 'only `reasoning.encrypted_content` is supported',
      }),
    )
    .nullish(),
  truncation: z.literal('disabled', { message: 'only `disabled` is supported' }).nullish(),
  service_tier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
  safety_identifier: z.string().nullish(),
  stream_options: z.strictObject({ include_obfuscation: z.boolean().optional() }).nullish(),
  ...Object.fromEntries(ROUTER_FIELDS.map((field) => [field, z.unknown().optional()])),
});
