import { readFileSync } from 'node:fs';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../../src/index.js';
import { geminiAdapter } from '../../src/providers/gemini/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import type {
  CallOptions,
  ProviderAdapter,
  ProviderTarget,
} from '../../src/providers/shared/provider-adapter.js';
import type { MockProvider } from '../../src/testing/index.js';

// A live binding: test files close it when done and the next file (same worker, without isolation)
// gets a fresh one.
export let http = new HttpClient();

/** Closes the shared client and replaces it, so a later test file in the same worker can use it. */
export async function closeHttp(): Promise<void> {
  const closing = http;
  http = new HttpClient();
  await closing.close();
}
export const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
export const API_KEY = 'AIzaSyTEST-gemini-key-0001';

/** A fixture file's text. */
export function fixture(provider: 'gemini' | 'vertex_ai', name: string): string {
  return readFileSync(new URL(`../fixtures/${provider}/${name}`, import.meta.url), 'utf8');
}

/** An AI Studio target on the mock under `/<prefix>`. */
export function geminiTarget(
  mock: MockProvider,
  prefix = 'g',
  params: Record<string, unknown> = {},
  model = 'gemini-2.5-flash',
): ProviderTarget {
  return {
    provider: 'gemini',
    model,
    modelId: 'dep-gemini',
    env: process.env,
    secrets: [],
    apiBase: `${mock.url}/${prefix}`,
    apiKey: API_KEY,
    apiVersion: undefined,
    params: { model: `gemini/${model}`, ...params },
  };
}

export const USER_HI: ChatCompletionRequest = { model: 'group', messages: [{ role: 'user', content: 'hi' }] };

/** One plain chat call through the shared invoke path. */
export function chat(
  target: ProviderTarget,
  request: Partial<ChatCompletionRequest> = {},
  adapter: ProviderAdapter = geminiAdapter,
) {
  return invokeJson(http, adapter, adapter.chat, { ...USER_HI, ...request }, target, options);
}

/** One streamed chat call, all chunks collected. */
export async function stream(
  target: ProviderTarget,
  request: Partial<ChatCompletionRequest> = {},
  adapter: ProviderAdapter = geminiAdapter,
): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  const iterable = await invokeStream(
    http,
    adapter,
    adapter.chatStream,
    { ...USER_HI, ...request },
    target,
    options,
  );
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

/** The text of every content delta, joined. */
export const streamedText = (chunks: ChatCompletionChunk[]) =>
  chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

/** The text of every reasoning delta, joined. */
export const streamedReasoning = (chunks: ChatCompletionChunk[]) =>
  chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? '').join('');

/** The split of an SSE fixture into its frames (to replay them one write at a time). */
export const sseFrames = (text: string) => text.split(/(?<=\r\n\r\n)/);
