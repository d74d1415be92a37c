import type { RouterRequestFields } from './chat.js';

/**
 * An uploaded file's bytes: whole (`Uint8Array`, `Blob`: replayable, so a failed attempt can be retried
 * elsewhere) or a stream (`AsyncIterable<Uint8Array>`, e.g. a `Readable`: sent as it arrives, never
 * buffered whole, and so never sent twice: a call whose upload has started is not retried).
 */
export type UploadBody = Uint8Array | Blob | AsyncIterable<Uint8Array>;

/** OpenAI's `/audio/transcriptions` request (sent as multipart) plus router fields. */
export interface TranscriptionRequest extends RouterRequestFields {
  model: string;
  /** The audio. */
  file: UploadBody;
  /** The file's name as sent upstream (providers read the format from its extension). @default "audio" */
  filename?: string;
  /** The file part's content type. @default "application/octet-stream" */
  file_content_type?: string;
  language?: string;
  prompt?: string;
  /** `json` (the default), `verbose_json`, `text`, `srt` or `vtt`; the last three answer `{ text }`. */
  response_format?: string;
  temperature?: number;
  [extra: string]: unknown;
}

/** A transcription: `text`, and what the provider adds (`duration`, `segments`, `usage`, ...). */
export interface TranscriptionResponse {
  text: string;
  /** Seconds of audio (`verbose_json`). */
  duration?: number;
  /** OpenAI's usage: `{ type: "duration", seconds }` or `{ type: "tokens", input_tokens, output_tokens }`. */
  usage?: { type?: string; seconds?: number; input_tokens?: number; output_tokens?: number };
  [extra: string]: unknown;
}

/** OpenAI's `/audio/speech` request plus router fields. */
export interface SpeechRequest extends RouterRequestFields {
  model: string;
  /** The text to speak. */
  input: string;
  voice: string;
  response_format?: string;
  speed?: number;
  instructions?: string;
  [extra: string]: unknown;
}

/** Synthesised speech: the audio as it streams from the provider. */
export interface SpeechResponse {
  /** The provider's content type (`audio/mpeg`, ...). */
  content_type: string;
  /** The audio bytes; read once. */
  body: AsyncIterable<Uint8Array>;
}

/** OpenAI's `/moderations` request plus router fields. */
export interface ModerationRequest extends RouterRequestFields {
  model: string;
  input: string | string[] | Array<Record<string, unknown>>;
  [extra: string]: unknown;
}

export interface ModerationResponse {
  id: string;
  model: string;
  results: Array<{
    flagged: boolean;
    categories: Record<string, boolean>;
    category_scores: Record<string, number>;
    [extra: string]: unknown;
  }>;
}

/** A rerank request in Cohere's shape (served at `/rerank` by Cohere- and Jina-style hosts). */
export interface RerankRequest extends RouterRequestFields {
  model: string;
  query: string;
  documents: Array<string | { text: string; [extra: string]: unknown }>;
  /** How many results to return, best first. @default every document */
  top_n?: number;
  return_documents?: boolean;
  [extra: string]: unknown;
}

export interface RerankResponse {
  id?: string;
  /** Best first: the document's index in `documents` and its score. */
  results: Array<{ index: number; relevance_score: number; document?: unknown }>;
  /** Cohere's billing: `{ billed_units: { search_units } }`. */
  meta?: Record<string, unknown>;
  usage?: Record<string, unknown>;
}
