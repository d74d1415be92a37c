import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatCompletionChunk, Router } from '../../src/index.js';
import { type MockProvider, startMockProvider } from '../../src/testing/index.js';

let mock: MockProvider;
let router: Router;
const messages = [{ role: 'user' as const, content: 'hi' }];

beforeAll(async () => {
  mock = await startMockProvider({ record: false });
  router = new Router([
    { model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_base: `${mock.url}/r/v1`, api_key: 'k' } },
  ]);
});
afterAll(async () => {
  await router.close();
  await mock.close();
});

const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** An answer whose events all leave in one write, so that one read brings them. */
function answerInOneWrite(events: string[]): void {
  mock.setBehavior('/r', {
    raw: { headers: { 'content-type': 'text/event-stream' }, body: events.join('') },
  });
}

const textOf = (chunks: ChatCompletionChunk[]) =>
  chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe("a stream's iterator: nextReady()", () => {
  it('hands over the chunks one read brought without a promise, and nothing before the first', async () => {
    answerInOneWrite([
      event(chunk({ role: 'assistant', content: 'a' })),
      event(chunk({ content: 'b' })),
      event(chunk({ content: 'c' }, 'stop')),
      'data: [DONE]\n\n',
    ]);
    const chunks = (await router.acompletion({ model: 'm', messages, stream: true }))[Symbol.asyncIterator]();
    expect(chunks.nextReady?.()).toBeUndefined();
    const first = await chunks.next();
    const ready: ChatCompletionChunk[] = [];
    for (let step = chunks.nextReady?.(); step && !step.done; step = chunks.nextReady?.())
      ready.push(step.value);
    expect(first.done).toBe(false);
    expect(textOf([first.value as ChatCompletionChunk, ...ready])).toBe('abc');
    expect(ready.length).toBe(2);
    expect((await chunks.next()).done).toBe(true);
  });

  it('leaves a failure to the next next(), which rejects with it', async () => {
    answerInOneWrite([
      event(chunk({ role: 'assistant', content: 'a' })),
      event(chunk({ content: 'b' })),
      event({ error: { message: 'the model broke down', type: 'server_error' } }),
    ]);
    const chunks = (await router.acompletion({ model: 'm', messages, stream: true }))[Symbol.asyncIterator]();
    await chunks.next();
    const ready: ChatCompletionChunk[] = [];
    for (let step = chunks.nextReady?.(); step && !step.done; step = chunks.nextReady?.())
      ready.push(step.value);
    expect(textOf(ready)).toBe('b');
    await expect(chunks.next()).rejects.toThrow('the model broke down');
  });
});
