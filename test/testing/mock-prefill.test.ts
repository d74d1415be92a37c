import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useMock } from '../helpers.js';

const mock = useMock();

type Json = Record<string, unknown>;

async function post(path: string, body: unknown) {
  const res = await request(`${mock.url}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Json };
}

/** Each format: where it answers, a request ending in the assistant prefix `prefix`, and its answer's text. */
const formats = {
  openai: {
    path: '/x/v1/chat/completions',
    ask: (prefix: string) => ({
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: prefix, prefix: true },
      ],
    }),
    text: (b: Json) =>
      (b as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content,
    error: (b: Json) => (b as { error: { message: string } }).error.message,
  },
  anthropic: {
    path: '/x/v1/messages',
    ask: (prefix: string) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: prefix },
      ],
    }),
    text: (b: Json) => (b as { content: Array<{ text: string }> }).content[0]?.text,
    error: (b: Json) => (b as { error: { message: string } }).error.message,
  },
  gemini: {
    path: '/x/v1beta/models/gemini-2.5-flash:generateContent',
    ask: (prefix: string) => ({
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: prefix }] },
      ],
    }),
    text: (b: Json) =>
      (b as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> }).candidates[0]?.content
        .parts[0]?.text,
    error: (b: Json) => (b as { error: { message: string } }).error.message,
  },
  bedrock: {
    path: '/x/model/anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse',
    ask: (prefix: string) => ({
      messages: [
        { role: 'user', content: [{ text: 'hi' }] },
        { role: 'assistant', content: [{ text: prefix }] },
      ],
    }),
    text: (b: Json) =>
      (b as { output: { message: { content: Array<{ text: string }> } } }).output.message.content[0]?.text,
    error: (b: Json) => (b as { message: string }).message,
  },
};

const refusals: Record<keyof typeof formats, RegExp> = {
  openai: /^prefix is only available when using beta api/,
  anthropic: /^This model does not support assistant message prefill/,
  gemini: /^Please ensure that multiturn requests ends with a user role or a function response/,
  bedrock: /^A conversation must end with a user message/,
};

describe('the mock provider takes an assistant prefill', () => {
  for (const [name, format] of Object.entries(formats)) {
    it(`${name}: answers with the rest of its content after the prefix`, async () => {
      mock.setBehavior('/x', { content: 'Hello there, world' });
      const res = await post(format.path, format.ask('Hello there,'));
      expect(res.status).toBe(200);
      expect(format.text(res.body)).toBe(' world');
    });

    it(`${name}: refuses it with the provider's own error when told to`, async () => {
      mock.setBehavior('/x', { content: 'Hello there, world', prefill: 'refuse' });
      const res = await post(format.path, format.ask('Hello there,'));
      expect(res.status).toBe(400);
      expect(format.error(res.body)).toMatch(refusals[name as keyof typeof formats]);
    });
  }

  it('answers with all of its content when it does not start with the prefix', async () => {
    mock.setBehavior('/x', { content: 'Something else' });
    const res = await post(formats.openai.path, formats.openai.ask('Hello'));
    expect(formats.openai.text(res.body)).toBe('Something else');
  });

  it('refuses an Anthropic prefix that ends with whitespace, as Anthropic does', async () => {
    mock.setBehavior('/x', { content: 'Hello there, world' });
    const res = await post(formats.anthropic.path, formats.anthropic.ask('Hello there, '));
    expect(res.status).toBe(400);
    expect(formats.anthropic.error(res.body)).toBe(
      'messages: final assistant content cannot end with trailing whitespace',
    );
  });

  it('answers a Bedrock refusal as a ValidationException', async () => {
    mock.setBehavior('/x', { prefill: 'refuse' });
    const res = await post(formats.bedrock.path, formats.bedrock.ask('Hello'));
    expect(String(res.headers['x-amzn-errortype'])).toMatch(/^ValidationException:/);
  });

  it('streams a continuation with the behavior’s faults (a cut after its first frames)', async () => {
    mock.setBehavior('/x', { content: 'Hello there, my old friend', stream: { cutAfter: 2 } });
    const res = await request(`${mock.url}${formats.openai.path}`, {
      method: 'POST',
      body: JSON.stringify({ ...formats.openai.ask('Hello'), stream: true }),
      headers: { 'content-type': 'application/json' },
    });
    let text = '';
    try {
      for await (const part of res.body) text += String(part);
    } catch {
      // the cut
    }
    const pieces = [...text.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('');
    expect(pieces).toBe(' there, my ');
    expect(text).not.toContain('[DONE]');
  });
});
