import { randomUUID } from 'node:crypto';
import type { MockExchange } from '../../types/mock-format.js';
import { DEFAULT_CONTENT } from '../mock-text.js';
import { bodyOf, modelOf } from './openai-chat.js';

/** A multipart upload's file as the mock records it (the bytes themselves are not kept). */
export interface MockUploadedFile {
  filename: string;
  type: string;
  size: number;
}

/** Seconds of audio the mock says a file holds: one per 16,000 bytes (128 kbit/s), at least one. */
export const mockAudioSeconds = (bytes: number): number => Math.max(1, Math.ceil(bytes / 16_000));

const TEXT_FORMATS = new Set(['text', 'srt', 'vtt']);

function fileOf(ex: MockExchange): MockUploadedFile | undefined {
  const file = bodyOf(ex).file as MockUploadedFile | undefined;
  return file && typeof file.size === 'number' ? file : undefined;
}

/** `/audio/transcriptions`: the behavior's `content` as the text, usage in seconds of audio. */
function transcription(ex: MockExchange): void {
  const text = ex.behavior.content ?? DEFAULT_CONTENT;
  const seconds = mockAudioSeconds(fileOf(ex)?.size ?? 0);
  const format = bodyOf(ex).response_format;
  if (typeof format === 'string' && TEXT_FORMATS.has(format)) {
    ex.res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', ...ex.behavior.headers });
    ex.res.end(text);
    return;
  }
  const answer: Record<string, unknown> = { text, usage: { type: 'duration', seconds } };
  if (format === 'verbose_json')
    Object.assign(answer, {
      task: 'transcribe',
      language: 'english',
      duration: seconds,
      segments: [{ id: 0, start: 0, end: seconds, text }],
    });
  json(ex, answer);
}

/** `/audio/speech`: audio bytes (an MP3 frame header, then filler), 64 bytes per character of `input`. */
function speech(ex: MockExchange): void {
  const input = String(bodyOf(ex).input ?? '');
  const bytes = Buffer.alloc(Math.max(64, input.length * 64), 0x55);
  bytes.set([0xff, 0xfb, 0x90, 0x64]);
  ex.res.writeHead(200, { 'content-type': 'audio/mpeg', ...ex.behavior.headers });
  ex.res.end(bytes);
}

const CATEGORIES = ['harassment', 'hate', 'self-harm', 'sexual', 'violence'];

/** `/moderations`: each input flagged (`violence`) when it contains the word `flagged`. */
function moderation(ex: MockExchange): void {
  const input = bodyOf(ex).input;
  const inputs = Array.isArray(input) ? input : [input];
  json(ex, {
    id: `modr-${randomUUID()}`,
    model: modelOf(ex),
    results: inputs.map((item) => {
      const flagged = /\bflagged\b/i.test(typeof item === 'string' ? item : JSON.stringify(item));
      const categories = Object.fromEntries(CATEGORIES.map((c) => [c, flagged && c === 'violence']));
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, flagged && c === 'violence' ? 0.97 : 0.0001]),
      );
      return { flagged, categories, category_scores: scores };
    }),
  });
}

const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** `/rerank` (Cohere's shape): documents scored by the share of the query's words they hold, best first. */
function rerank(ex: MockExchange): void {
  const body = bodyOf(ex);
  const query = words(String(body.query ?? ''));
  const documents = Array.isArray(body.documents) ? body.documents : [];
  const scored = documents.map((doc, index) => {
    const text = typeof doc === 'string' ? doc : String((doc as { text?: unknown }).text ?? '');
    const held = [...words(text)].filter((w) => query.has(w)).length;
    return { index, relevance_score: Number((held / Math.max(1, query.size)).toFixed(4)) };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const topN = typeof body.top_n === 'number' ? body.top_n : scored.length;
  json(ex, {
    id: randomUUID(),
    results: scored.slice(0, topN),
    meta: { billed_units: { search_units: 1 } },
  });
}

function json(ex: MockExchange, value: unknown): void {
  const text = JSON.stringify(value);
  ex.res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...ex.behavior.headers,
  });
  ex.res.end(text);
}

/** The OpenAI-format media routes the mock serves, by path suffix. */
export const MEDIA_ROUTES: ReadonlyArray<[suffix: string, answer: (ex: MockExchange) => void]> = [
  ['/audio/transcriptions', transcription],
  ['/audio/speech', speech],
  ['/moderations', moderation],
  ['/rerank', rerank],
];
