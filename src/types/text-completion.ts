import type { RouterRequestFields, Usage } from './chat.js';

/** The legacy `/v1/completions` request plus router fields. */
export interface TextCompletionRequest extends RouterRequestFields {
  model: string;
  prompt: string | string[];
  max_tokens?: number;
  temperature?: number;
  stop?: string | string[];
  [extra: string]: unknown;
}

export interface TextCompletion {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: Array<{ index: number; text: string; finish_reason: string | null; logprobs: unknown }>;
  usage: Usage;
}
