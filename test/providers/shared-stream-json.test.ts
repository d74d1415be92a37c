import { describe, expect, it } from 'vitest';
import { anthropicChunks } from '../../src/providers/anthropic/stream-transform.js';
import { geminiChunks } from '../../src/providers/gemini/stream-transform.js';
import { openAIChunks } from '../../src/providers/openai-compatible/stream-transform.js';
import type {
  CallWarning,
  ProviderTarget,
  StreamMonitor,
} from '../../src/providers/shared/provider-adapter.js';
import { parseStreamJson } from '../../src/providers/shared/stream-json.js';
import { bedrockTarget } from '../fixtures/bedrock/load.js';

const target: ProviderTarget = {
  ...bedrockTarget(undefined),
  provider: 'gemini',
  model: 'gemini-2.5-flash',
  apiKey: 'sk-secret-key-0001',
};

function recorder(): StreamMonitor & { warnings: CallWarning[] } {
  const warnings: CallWarning[] = [];
  return { warnings, event: () => {}, warn: (w) => warnings.push(w) };
}

describe('parseStreamJson', () => {
  it('returns the object a JSON event holds', () => {
    expect(parseStreamJson('{"type":"ping"}', target, 'an event')).toEqual({ type: 'ping' });
  });

  it('skips JSON that is not an object, with a malformed_event warning', () => {
    const monitor = recorder();
    expect(parseStreamJson('[1,2]', target, 'an event', monitor)).toBeUndefined();
    expect(monitor.warnings).toEqual([
      {
        code: 'malformed_event',
        message: 'gemini/gemini-2.5-flash streamed an event that is not a JSON object; skipped it: [1,2]',
      },
    ]);
  });

  it('skips text that is not JSON, with a warning naming the deployment and quoting the event', () => {
    const monitor = recorder();
    expect(parseStreamJson('{oops', target, 'a frame', monitor)).toBeUndefined();
    expect(monitor.warnings[0]?.message).toBe(
      'gemini/gemini-2.5-flash streamed a frame that is not JSON; skipped it: {oops',
    );
  });

  it('quotes at most 80 characters of the event, on one line', () => {
    const monitor = recorder();
    parseStreamJson(`{broken\n${'x'.repeat(500)}`, target, 'an event', monitor);
    const quote = monitor.warnings[0]?.message.split('skipped it: ')[1] ?? '';
    expect(quote).toBe(`{broken ${'x'.repeat(72)}…`);
  });

  it('keeps the deployment key out of the quote', () => {
    const monitor = recorder();
    parseStreamJson('{"echo": "sk-secret-key-0001" oops', target, 'an event', monitor);
    expect(monitor.warnings[0]?.message).not.toContain('sk-secret-key-0001');
  });
});

describe('stream transforms on an event that is not JSON', () => {
  const body = async function* (text: string): AsyncIterable<Uint8Array> {
    yield new TextEncoder().encode(text);
  };
  const collect = async (
    chunks: AsyncIterable<{ choices: Array<{ delta: { content?: string | null } }> }>,
  ) => {
    let text = '';
    for await (const chunk of chunks) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  };
  const broken = 'data: {not json\n\n';
  const openai = `${broken}data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`;
  const gemini = `${broken}data: {"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}\n\n`;
  const anthropic = [
    'data: {"type":"message_start","message":{"id":"m","usage":{}}}\n\n',
    broken,
    'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}\n\n',
    'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{}}\n\n',
    'data: {"type":"message_stop"}\n\n',
  ].join('');

  it.each([
    ['gemini', (m: StreamMonitor) => geminiChunks(body(gemini), target, m)],
    [
      'anthropic',
      (m: StreamMonitor) => anthropicChunks(body(anthropic), { ...target, provider: 'anthropic' }, m),
    ],
    ['openai', (m: StreamMonitor) => openAIChunks(body(openai), { ...target, provider: 'openai' }, {}, m)],
  ])('%s skips it, reports it, and yields the rest', async (_name, chunks) => {
    const monitor = recorder();
    expect(await collect(chunks(monitor))).toBe('ok');
    expect(monitor.warnings.map((w) => w.code)).toEqual(['malformed_event']);
  });
});
