import type { RouterRequestFields } from './chat.js';

/** The OpenAI image generation request plus router fields. */
export interface ImageGenerationRequest extends RouterRequestFields {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  quality?: string;
  response_format?: 'url' | 'b64_json';
  [extra: string]: unknown;
}

export interface ImageGenerationResponse {
  created: number;
  data: Array<{ url?: string; b64_json?: string; revised_prompt?: string }>;
}
