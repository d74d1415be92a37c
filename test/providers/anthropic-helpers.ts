import { afterAll } from 'vitest';
import type { ChatCompletionChunk, ChatCompletionRequest, ChatMessage } from '../../src/index.js';
import { anthropicAdapter } from '../../src/providers/anthropic/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import type {
  CallOptions,
  ProviderAdapter,
  ProviderTarget,
} from '../../src/providers/shared/provider-adapter.js';
import { useMock } from '../helpers.js';

export const KEY = 'sk-ant-test-key-123456';
export const USER: ChatMessage[] = [{ role: 'user', content: 'hi' }];
export const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Get current weather for a location',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };

export const joined = (
  chunks: ChatCompletionChunk[],
  pick: (c: ChatCompletionChunk) => string | null | undefined,
) => chunks.map((c) => pick(c) ?? '').join('');

/** An Anthropic target as the router would build it, for calling the adapter directly. */
export function anthropicTarget(
  apiBase: string,
  options: { apiKey?: string; params?: Record<string, unknown> } = {},
): ProviderTarget {
  return {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    modelId: 'dep',
    env: process.env,
    secrets: [],
    apiBase,
    apiKey: options.apiKey ?? KEY,
    apiVersion: undefined,
    params: { model: 'anthropic/claude-sonnet-4-5', ...options.params },
  };
}

/**
 * A mock provider for the file (started before, reset before each test, closed after) and calls of the
 * Anthropic adapter against it.
 */
export function anthropicSuite() {
  const http = new HttpClient();
  const mock = useMock();
  afterAll(() => http.close());
  const target = (prefix = 'a', params: Record<string, unknown> = {}): ProviderTarget =>
    anthropicTarget(`${mock.url}/${prefix}`, { params });
  const request = (extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
    model: 'claude',
    messages: USER,
    ...extra,
  });
  const chat = (
    extra: Partial<ChatCompletionRequest> = {},
    t = target(),
    adapter: ProviderAdapter = anthropicAdapter,
  ) => invokeJson(http, adapter, adapter.chat, request(extra), t, options);
  const stream = async (
    extra: Partial<ChatCompletionRequest> = {},
    t = target(),
    adapter: ProviderAdapter = anthropicAdapter,
  ) => {
    const chunks: ChatCompletionChunk[] = [];
    const iterable = await invokeStream(http, adapter, adapter.chatStream, request(extra), t, options);
    for await (const c of iterable) chunks.push(c);
    return chunks;
  };
  return {
    mock,
    target,
    request,
    chat,
    stream,
  };
}
