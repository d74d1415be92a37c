import { z } from 'zod';

// Blocks keep fields this proxy does not read (`citations`, newer options): loose objects, so a newer
// SDK's extra field is ignored rather than refused.
const cacheControl = z.looseObject({ type: z.string() }).optional();

const textBlock = z.looseObject({ type: z.literal('text'), text: z.string(), cache_control: cacheControl });

const imageSource = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('base64'), media_type: z.string().min(1), data: z.string() }),
  z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
]);

const imageBlock = z.looseObject({
  type: z.literal('image'),
  source: imageSource,
  cache_control: cacheControl,
});

// A PDF or text document: passed on as is (the Anthropic adapter sends it back verbatim).
const documentBlock = z.looseObject({
  type: z.literal('document'),
  source: z.looseObject({ type: z.string() }),
});

const toolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});

// A tool's result may show what it saw (a screenshot, a fetched PDF) besides text.
const toolResultContentBlock = z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock]);

const toolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(toolResultContentBlock)]).optional(),
  is_error: z.boolean().optional(),
});

const thinkingBlock = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string(),
});

const redactedThinkingBlock = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

const contentBlock = z.discriminatedUnion('type', [
  textBlock,
  imageBlock,
  documentBlock,
  toolUseBlock,
  toolResultBlock,
  thinkingBlock,
  redactedThinkingBlock,
]);

const message = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(contentBlock)]),
});

const customTool = z.looseObject({
  type: z.literal('custom').nullish(),
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()),
  strict: z.boolean().optional(),
});

// A tool Anthropic runs itself or defines the schema of (`web_search_20250305`, `bash_20250124`, ...):
// no input_schema, a versioned type. Only an Anthropic-type deployment can take one.
const serverTool = z.looseObject({
  type: z
    .string()
    .min(1)
    .refine((type) => type !== 'custom', 'a `custom` tool needs `input_schema`'),
  name: z.string().min(1),
});

// custom first: a tool without input_schema is reported as missing it, not as lacking a server type
const tool = z.union([customTool, serverTool]);

const toolChoice = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({
    type: z.literal('tool'),
    name: z.string().min(1),
    disable_parallel_tool_use: z.boolean().optional(),
  }),
  z.looseObject({ type: z.literal('none') }),
]);

// `adaptive` lets Claude choose its budget; other providers read any type but `disabled` as "on"
const thinking = z.looseObject({
  type: z.enum(['enabled', 'disabled', 'adaptive', 'between_tools']),
  budget_tokens: z.number().int().positive().optional(),
});

/**
 * The Anthropic Messages request body, as far as the proxy translates it. Unknown top-level fields
 * are dropped (a newer SDK's option should not fail the call); the router's own request fields
 * (`mock_response`, `fallbacks`, ...) are picked out by the translation.
 */
export const messagesRequestSchema = z.object({
  model: z.string().trim().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(message).min(1),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().positive().optional(),
  thinking: thinking.optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  stream: z.boolean().optional(),
  output_config: z
    .looseObject({
      effort: z.string().nullish(),
      format: z.looseObject({ type: z.string() }).nullish(),
    })
    .optional(),
});

/** A valid Anthropic Messages request. */
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
export type AnthropicRequestMessage = MessagesRequest['messages'][number];
export type AnthropicRequestBlock = z.infer<typeof contentBlock>;
export type AnthropicTextBlock = z.infer<typeof textBlock>;
export type AnthropicCustomTool = z.infer<typeof customTool>;
export type AnthropicToolResultContentBlock = z.infer<typeof toolResultContentBlock>;
