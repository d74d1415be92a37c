import { describe, expect, it } from 'vitest';
import { parseSse } from '../../src/providers/shared/sse.js';
import { useMock } from '../helpers.js';
import { fixture } from './gemini-helpers.js';

const mock = useMock();

const post = (path: string, body: unknown) =>
  fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const THINKING = { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } };
const ask = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

/** The key paths of a JSON value (arrays collapsed), to compare shapes and not values. */
function shape(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length > 0 ? shape(value[0], `${prefix}[]`) : [`${prefix}[]`];
  if (!value || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => shape(v, prefix ? `${prefix}.${k}` : k));
}

describe('Gemini mock format', () => {
  it('answers generateContent in the shape of the API reference fixture', async () => {
    mock.setBehavior('/m', {
      reasoning: 'thinking',
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }],
      signature: 'sig',
    });
    const res = await post('/m/v1beta/models/gemini-2.5-flash:generateContent', { ...ask, ...THINKING });
    const body = await res.json();
    const expected = JSON.parse(fixture('gemini', 'generate-content-thinking-tool-call.json'));
    expect(new Set(shape(body))).toEqual(new Set(shape(expected)));
  });

  it('answers thought parts only when the request set includeThoughts', async () => {
    mock.setBehavior('/m', { reasoning: 'thinking', content: 'answer' });
    const parts = async (body: unknown) =>
      (
        (await (await post('/m/v1beta/models/gemini-2.5-flash:generateContent', body)).json()) as {
          candidates: Array<{ content: { parts: Array<{ thought?: boolean }> } }>;
        }
      ).candidates[0]?.content.parts;
    expect((await parts(ask))?.some((p) => p.thought)).toBe(false);
    expect((await parts({ ...ask, ...THINKING }))?.[0]).toEqual({ text: 'thinking', thought: true });
  });

  it('ends an SSE stream with a finishReason fragment and sends no other terminal event', async () => {
    mock.setBehavior('/m', { content: 'a b c d e f', signature: 'sig-text' });
    const res = await post('/m/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', ask);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = [];
    for await (const event of parseSse(res.body as AsyncIterable<Uint8Array>))
      events.push(JSON.parse(event.data));
    expect(events.at(-1).candidates[0]).toEqual({
      content: { parts: [{ text: '', thoughtSignature: 'sig-text' }], role: 'model' },
      finishReason: 'STOP',
      index: 0,
    });
    expect(events.slice(0, -1).every((e) => e.candidates[0].finishReason === undefined)).toBe(true);
  });

  it('answers streamGenerateContent without alt=sse as one JSON array', async () => {
    const res = await post('/m/v1beta/models/gemini-2.5-flash:streamGenerateContent', ask);
    const fragments = (await res.json()) as Array<{ candidates: Array<{ finishReason?: string }> }>;
    expect(fragments.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('serves Vertex paths with createTime, and embedContent', async () => {
    const vertex = await post(
      '/m/v1/projects/p/locations/l/publishers/google/models/gemini-2.5-pro:generateContent',
      ask,
    );
    expect(await vertex.json()).toMatchObject({
      modelVersion: 'gemini-2.5-pro',
      createTime: expect.any(String),
    });
    const embed = await post('/m/v1beta/models/text-embedding-004:embedContent', {
      content: { parts: [{ text: 'x' }] },
    });
    expect(await embed.json()).toEqual({ embedding: { values: expect.any(Array) } });
  });
});
