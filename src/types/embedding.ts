import type { RouterRequestFields } from './chat.js';

/** The OpenAI embeddings request plus router fields. */
export interface EmbeddingRequest extends RouterRequestFields {
  model: string;
  input: string | string[] | number[] | number[][];
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
  user?: string;
  [extra: string]: unknown;
}

export interface EmbeddingResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}
