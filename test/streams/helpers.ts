import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../../src/index.js';
import { anthropicAdapter } from '../../src/providers/anthropic/index.js';
import { bedrockAdapter } from '../../src/providers/bedrock/index.js';
import { geminiAdapter } from '../../src/providers/gemini/index.js';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeStream } from '../../src/providers/shared/invoke-stream.js';
import type {
  CallOptions,
  CallWarning,
  ProviderAdapter,
  ProviderTarget,
} from '../../src/providers/shared/provider-adapter.js';
import { type MockProvider, startMockProvider } from '../../src/testing/index.js';
import { bedrockTarget } from '../fixtures/bedrock/load.js';
import { anthropicTarget } from '../providers/anthropic-helpers.js';

/** Generous limits: a test that is about one limit sets that one low. */
export const OPTIONS: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };

export const REQUEST: ChatCompletionRequest = { model: 'group', messages: [{ role: 'user', content: 'hi' }] };

/** The four stream wire formats: OpenAI SSE, Anthropic SSE, Gemini SSE, Bedrock's binary event stream. */
export type Format = 'openai' | 'anthropic' | 'gemini' | 'bedrock';
export const FORMATS: Format[] = ['openai', 'anthropic', 'gemini', 'bedrock'];

const ADAPTERS: Record<Format, ProviderAdapter> = {
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  bedrock: bedrockAdapter,
};

/** A target of `format` at `mock.url/<prefix>` (the provider's own base path appended). */
export function targetOf(mock: MockProvider, format: Format, prefix = 's'): ProviderTarget {
  const base = `${mock.url}/${prefix}`;
  switch (format) {
    case 'openai':
      return {
        provider: 'openai',
        model: 'gpt-4o',
        modelId: 'openai-dep',
        env: process.env,
        secrets: [],
        apiBase: `${base}/v1`,
        apiKey: 'sk-test-key-123456',
        apiVersion: undefined,
        params: { model: 'openai/gpt-4o' },
      };
    case 'anthropic':
      return anthropicTarget(base);
    case 'gemini':
      return {
        provider: 'gemini',
        model: 'gemini-2.5-flash',
        modelId: 'gemini-dep',
        env: process.env,
        secrets: [],
        apiBase: base,
        apiKey: 'AIzaSyTEST-gemini-key-0001',
        apiVersion: undefined,
        params: { model: 'gemini/gemini-2.5-flash' },
      };
    case 'bedrock':
      return bedrockTarget(base);
  }
}

/** What reading a whole stream gave: its chunks, the error that ended it, warnings, and how long it took. */
export interface StreamRun {
  chunks: ChatCompletionChunk[];
  error: unknown;
  warnings: CallWarning[];
  ms: number;
  /** Milliseconds from the call's start to the first chunk the iterator yielded. */
  firstChunkMs: number | undefined;
}

/** A mock provider for the file (reset before each test) and streams of every format against it. */
export function streamSuite() {
  const http = new HttpClient();
  const state = {} as { mock: MockProvider };
  beforeAll(async () => {
    state.mock = await startMockProvider();
  });
  beforeEach(() => state.mock.reset());
  afterAll(async () => {
    await http.close();
    await state.mock.close();
  });

  /** Streams one chat call of `format` through `invokeStream` and reads it to the end. */
  async function run(format: Format, options: Partial<CallOptions> = {}): Promise<StreamRun> {
    const warnings: CallWarning[] = [];
    const started = performance.now();
    const result: StreamRun = { chunks: [], error: undefined, warnings, ms: 0, firstChunkMs: undefined };
    try {
      const adapter = ADAPTERS[format];
      const chunks = await invokeStream(
        http,
        adapter,
        adapter.chatStream,
        REQUEST,
        targetOf(state.mock, format),
        {
          ...OPTIONS,
          onWarning: (w) => warnings.push(w),
          ...options,
        },
      );
      for await (const chunk of chunks) {
        result.firstChunkMs ??= performance.now() - started;
        result.chunks.push(chunk);
      }
    } catch (error) {
      result.error = error;
    }
    result.ms = performance.now() - started;
    return result;
  }

  return {
    http,
    get mock() {
      return state.mock;
    },
    run,
  };
}

/** The text content of chunks, joined. */
export const textOf = (chunks: ChatCompletionChunk[]): string =>
  chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
