import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../../src/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import type {
  CallOptions,
  ProviderAdapter,
  ProviderTarget,
} from '../../src/providers/shared/provider-adapter.js';
import type { MockProvider } from '../../src/testing/index.js';

/** Shared by the OpenAI-family provider tests: one HTTP client, targets on the mock, fixture reading. */
// A live binding: test files close it when done and the next file (same worker, without isolation)
// gets a fresh one.
export let http = new HttpClient();

/** Closes the shared client and replaces it, so a later test file in the same worker can use it. */
export async function closeHttp(): Promise<void> {
  const closing = http;
  http = new HttpClient();
  await closing.close();
}
export const OPTIONS: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
export const USER = [{ role: 'user' as const, content: 'hi' }];

/** A fixture's text: `test/fixtures/<provider>/<name>`. */
export function fixture(provider: string, name: string): string {
  return readFileSync(fileURLToPath(new URL(`../fixtures/${provider}/${name}`, import.meta.url)), 'utf8');
}

/** A fixture parsed as JSON. */
export function fixtureJson(provider: string, name: string): Record<string, unknown> {
  return JSON.parse(fixture(provider, name)) as Record<string, unknown>;
}

/** A target of `adapter` pointing at `mock.url/<prefix>` (the provider's own base path appended). */
export function targetOn(
  mock: MockProvider,
  adapter: ProviderAdapter,
  model: string,
  apiBase: string,
  params: Record<string, unknown> = {},
): ProviderTarget {
  return {
    provider: adapter.name,
    model,
    modelId: `${adapter.name}-dep`,
    env: process.env,
    secrets: [],
    apiBase: `${mock.url}${apiBase}`,
    apiKey: (params.api_key as string | undefined) ?? 'sk-test-key-123456',
    apiVersion: params.api_version as string | undefined,
    params: { model: `${adapter.name}/${model}`, api_key: 'sk-test-key-123456', ...params },
  };
}

/** Calls the adapter's chat over real HTTP. */
export function chat(
  adapter: ProviderAdapter,
  target: ProviderTarget,
  request: Partial<ChatCompletionRequest> = {},
  options: CallOptions = OPTIONS,
) {
  return invokeJson(
    http,
    adapter,
    adapter.chat,
    { model: 'group', messages: USER, ...request } as ChatCompletionRequest,
    target,
    options,
  );
}

/** Streams the adapter's chat over real HTTP and collects every chunk. */
export async function stream(
  adapter: ProviderAdapter,
  target: ProviderTarget,
  request: Partial<ChatCompletionRequest> = {},
  options: CallOptions = OPTIONS,
): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  const iterable = await invokeStream(
    http,
    adapter,
    adapter.chatStream,
    { model: 'group', messages: USER, ...request } as ChatCompletionRequest,
    target,
    options,
  );
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

/** The joined text of a field of every chunk's first choice delta. */
export function joined(chunks: ChatCompletionChunk[], field: 'content' | 'reasoning_content'): string {
  return chunks.map((c) => c.choices[0]?.delta[field] ?? '').join('');
}

/** An SSE fixture replayed as the mock's raw answer. */
export function sseRaw(provider: string, name: string) {
  return { raw: { headers: { 'content-type': 'text/event-stream' }, body: fixture(provider, name) } };
}

/** A JSON fixture replayed as the mock's raw answer with a status. */
export function jsonRaw(provider: string, name: string, status = 200, headers: Record<string, string> = {}) {
  return {
    raw: {
      status,
      headers: { 'content-type': 'application/json', ...headers },
      body: fixture(provider, name),
    },
  };
}

/** The assistant turn a caller appends after a tool call, then the tool's answer. */
export const TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

/** The `messages` the mock received in its `index`-th request. */
export function sentMessages(mock: MockProvider, index = 0): unknown[] | undefined {
  return (mock.requests[index]?.body as { messages?: unknown[] } | undefined)?.messages;
}
