import type { MockRefusal, MockRequest } from '../../types/mock-format.js';

type Json = Record<string, unknown>;

const lastOf = (list: unknown): Json | undefined =>
  Array.isArray(list) && list.length > 0 ? (list[list.length - 1] as Json) : undefined;

const body = (request: MockRequest): Json =>
  request.body && typeof request.body === 'object' ? (request.body as Json) : {};

/** The text of a message's content: a string, or the `text` of its parts (blocks). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof (part as Json)?.text === 'string' ? (part as Json).text : ''))
    .join('');
}

/** A trailing assistant message (OpenAI-compatible: DeepSeek's and Mistral's `prefix: true`, or none). */
export function openaiPrefill(request: MockRequest): string | undefined {
  const last = lastOf(body(request).messages);
  return last?.role === 'assistant' ? textOf(last.content) : undefined;
}

/** A trailing `assistant` message (Anthropic Messages, Bedrock Converse). */
export const assistantPrefill = openaiPrefill;

/** A trailing `model` turn (Gemini `contents`). */
export function geminiPrefill(request: MockRequest): string | undefined {
  const last = lastOf(body(request).contents);
  return last?.role === 'model' ? textOf(last.parts) : undefined;
}

// The providers' own words for a prefill they do not take.
export const OPENAI_PREFILL_REFUSAL: MockRefusal = {
  status: 400,
  error: {
    message: 'prefix is only available when using beta api (set base_url="https://api.deepseek.com/beta")',
    type: 'invalid_request_error',
    code: 'invalid_request_error',
  },
};

export const ANTHROPIC_PREFILL_REFUSAL: MockRefusal = {
  status: 400,
  error: {
    message:
      'This model does not support assistant message prefill. The conversation must end with a user message.',
    type: 'invalid_request_error',
  },
};

/** Anthropic refuses a final assistant turn that ends with whitespace, whatever the model. */
export function anthropicPrefillProblem(prefix: string): MockRefusal | undefined {
  if (!/\s$/.test(prefix)) return undefined;
  return {
    status: 400,
    error: {
      message: 'messages: final assistant content cannot end with trailing whitespace',
      type: 'invalid_request_error',
    },
  };
}

export const GEMINI_PREFILL_REFUSAL: MockRefusal = {
  status: 400,
  error: {
    message: 'Please ensure that multiturn requests ends with a user role or a function response.',
    code: 'INVALID_ARGUMENT',
  },
};

export const BEDROCK_PREFILL_REFUSAL: MockRefusal = {
  status: 400,
  error: {
    message:
      'A conversation must end with a user message. Try again with a conversation that ends with a user message.',
    code: 'ValidationException',
  },
};
