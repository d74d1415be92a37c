import { describe, expect, it } from 'vitest';
import { APIConnectionError, type ChatCompletionStream, TimeoutError } from '../../src/index.js';
import { useMock } from '../helpers.js';
import { ask, deployment, recordingRouter, trail } from './helpers.js';

const mock = useMock();

async function read(stream: ChatCompletionStream): Promise<{ text: string; error?: unknown }> {
  let text = '';
  try {
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  } catch (error) {
    return { text, error };
  }
  return { text };
}

const streamOf = (router: Parameters<typeof ask>[0]) =>
  ask(router, 'gpt-4o', { stream: true }) as unknown as Promise<ChatCompletionStream>;

describe('streaming failover', () => {
  it('retries a stream that fails before its first chunk, transparently', async () => {
    mock.setBehavior('/a', { status: 500 });
    mock.setBehavior('/b', { content: 'from b' });
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')]);
    const stream = await streamOf(router);
    const { text, error } = await read(stream);
    await router.close();
    expect(error).toBeUndefined();
    expect(text).toBe('from b');
    expect(stream._hidden_params).toMatchObject({ model_id: 'b', attempts: 2 });
  });

  it('retries a stream cut before its first chunk', async () => {
    mock.setBehavior('/a', { stream: { cutAfter: 0 } });
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')]);
    const { text } = await read(await streamOf(router));
    await router.close();
    expect(text).toBe('Hello from the mock provider.');
    expect(trail(mock)).toEqual(['a', 'b']);
  });

  it('after the first chunk, gives the caller a typed error and no duplicated text', async () => {
    mock.setBehavior('/a', { content: 'one two three four five six', stream: { cutAfter: 2 } });
    const { router } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')]);
    const { text, error } = await read(await streamOf(router));
    await router.close();
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(text).toBe('one two three ');
    expect(trail(mock)).toEqual(['a']);
  });

  it('treats a stream that stalls past stream_timeout as an error, never a silent end', async () => {
    mock.setBehavior('/a', { stream: { stallAfter: 2 } });
    const { router } = recordingRouter([deployment(mock, 'a', { stream_timeout: 0.1 })]);
    const { error } = await read(await streamOf(router));
    await router.close();
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('treats a stream that ends before its finish as an error', async () => {
    mock.setBehavior('/a', { stream: { endAfter: 2 } });
    const { router } = recordingRouter([deployment(mock, 'a')]);
    const { error } = await read(await streamOf(router));
    await router.close();
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('counts a mid-stream failure toward cooldown', async () => {
    mock.setBehavior('/a', { stream: { cutAfter: 1 } });
    const { router, cooldowns } = recordingRouter([deployment(mock, 'a'), deployment(mock, 'b')], {
      allowed_fails: 0,
    });
    await read(await streamOf(router));
    await router.close();
    expect(cooldowns.map((c) => c.model_id)).toEqual(['a']);
  });
});
