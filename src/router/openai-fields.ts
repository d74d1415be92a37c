import { z } from 'zod';

// The standard OpenAI request fields' types and ranges, as OpenAI's API reference gives them. A wrong
// one is the caller's fault, answered 400 naming the field before any deployment is tried (and so
// counted against none); before, `max_tokens: -1` or `temperature: "hot"` reached the upstream as
// sent. `null` is accepted where OpenAI takes it (it means "unset"). Fields a provider adds are not
// here: they pass as given.

const count = z.int().positive().nullable();
const penalty = z.number().min(-2).max(2).nullable();

/** The sampling and output fields of chat and text completions. */
export const samplingFields = {
  temperature: z.number().min(0).max(2).nullable(),
  top_p: z.number().min(0).max(1).nullable(),
  n: count,
  max_tokens: count,
  presence_penalty: penalty,
  frequency_penalty: penalty,
  seed: z.int().nullable(),
  stop: z
    .union([z.string(), z.array(z.string())], { error: 'expected a string or an array of strings' })
    .nullable(),
  logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullable(),
  user: z.string(),
};

/** The chat-only standard fields, beside `samplingFields`. */
export const chatFields = {
  ...samplingFields,
  max_completion_tokens: count,
  logprobs: z.boolean().nullable(),
  top_logprobs: z.int().min(0).max(20).nullable(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable(),
  tools: z.array(z.looseObject({ type: z.string() })),
  tool_choice: z.union([z.string(), z.looseObject({ type: z.string() })], {
    error: 'expected a string or an object with a `type`',
  }),
  parallel_tool_calls: z.boolean(),
  response_format: z.looseObject({ type: z.string() }),
  reasoning_effort: z.string().nullable(),
  service_tier: z.string().nullable(),
  store: z.boolean().nullable(),
  modalities: z.array(z.string()).nullable(),
};

/** `chatFields` by name, for the fast check of a plain chat request (a Map: no inherited names). */
export const CHAT_FIELDS: ReadonlyMap<string, z.ZodType> = new Map(Object.entries(chatFields));
