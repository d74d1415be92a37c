// Usage read from pass-through answers as they pass (CONTRACT 6.7): each provider's shapes, events split
// anywhere across chunks, bytes handed on unchanged.

import { usageReader } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { answerTap } from '../src/passthrough/answer-tap.js';

async function through(
  provider: 'anthropic' | 'openai' | 'gemini',
  text: string,
  eventStream: boolean,
  cut = 7,
) {
  const tap = answerTap(usageReader(provider), eventStream);
  const out: Buffer[] = [];
  tap.stage.on('data', (c: Buffer) => out.push(c));
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += cut) tap.stage.write(bytes.subarray(i, i + cut));
  tap.stage.end();
  await new Promise((r) => tap.stage.once('end', r));
  expect(Buffer.concat(out).toString()).toBe(text);
  return tap.usage();
}

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

describe('pass-through usage', () => {
  it('reads an Anthropic stream: input from message_start, output from message_delta', async () => {
    const text = [
      `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { model: 'claude-x', usage: { input_tokens: 5, cache_read_input_tokens: 3, output_tokens: 1 } } })}\n\n`,
      `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', delta: { text: 'hi' } })}\n\n`,
      `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', usage: { output_tokens: 9 } })}\n\n`,
    ].join('');
    const { usage, model } = await through('anthropic', text, true);
    expect(model).toBe('claude-x');
    expect(usage).toMatchObject({
      prompt_tokens: 8,
      completion_tokens: 9,
      prompt_tokens_details: { cached_tokens: 3 },
    });
  });

  it('reads an OpenAI chat stream’s usage chunk', async () => {
    const text = `${sse([
      { model: 'gpt-4o', choices: [{ delta: { content: 'hi' } }] },
      { model: 'gpt-4o', choices: [], usage: { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 } },
    ])}data: [DONE]\n\n`;
    expect(await through('openai', text, true)).toMatchObject({
      model: 'gpt-4o',
      usage: { prompt_tokens: 4, completion_tokens: 6 },
    });
  });

  it('reads an OpenAI Responses body’s usage (input_tokens, cached)', async () => {
    const body = JSON.stringify({
      model: 'gpt-4o',
      usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 2 },
    });
    expect((await through('openai', body, false)).usage).toMatchObject({
      prompt_tokens: 10,
      completion_tokens: 2,
      prompt_tokens_details: { cached_tokens: 4 },
    });
  });

  it('reads Gemini’s last usageMetadata, from a stream and from a JSON array', async () => {
    const chunks = [
      { modelVersion: 'gemini-2.0-flash', usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1 } },
      {
        modelVersion: 'gemini-2.0-flash',
        usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 5, thoughtsTokenCount: 2 },
      },
    ];
    expect((await through('gemini', sse(chunks), true)).usage).toMatchObject({
      prompt_tokens: 7,
      completion_tokens: 7,
    });
    expect(await through('gemini', JSON.stringify(chunks), false)).toMatchObject({
      model: 'gemini-2.0-flash',
      usage: { prompt_tokens: 7, completion_tokens: 7 },
    });
  });

  it('reads no usage from an answer that is not JSON', async () => {
    expect((await through('openai', '<html>bad gateway</html>', false)).usage).toBeUndefined();
  });
});
