import { describe, expect, it } from 'vitest';
import { BadRequestError, type DeploymentConfig, Router } from '../../src/index.js';
import { useMock } from '../helpers.js';

const mock = useMock();

const deployment = (name: string, model: string, mode: string, path = '/a'): DeploymentConfig => ({
  model_name: name,
  svc_params: { model: `openai/${model}`, api_base: `${mock.url}${path}/v1`, api_key: 'k' },
  model_info: { mode },
});

async function* chunks(count: number, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) yield new Uint8Array(size).fill(i);
}

describe('media calls on deployments of their mode', () => {
  it('a transcription streams its file upstream as multipart and is priced per second (whisper-1)', async () => {
    const router = new Router([deployment('stt', 'whisper-1', 'audio_transcription')]);
    const res = await router.atranscription({ model: 'stt', file: chunks(4, 8000), filename: 'a.mp3' });
    expect(res.text).toBeTypeOf('string');
    expect(mock.requests[0]?.path).toBe('/a/v1/audio/transcriptions');
    expect(mock.requests[0]?.body).toMatchObject({
      model: 'whisper-1',
      file: { filename: 'a.mp3', size: 32000 },
    });
    // 32,000 bytes are 2 s of mock audio; the catalog prices whisper-1 at $0.36 an hour
    expect(res._hidden_params.response_cost).toBeCloseTo(2 * 0.0001, 10);
    expect(res._hidden_params.priced).toBe(true);
    await router.close();
  });

  it('a group with no deployment of the mode is refused with 400 naming the mode', async () => {
    const router = new Router([deployment('chat', 'gpt-4o', 'chat')]);
    const error = await router.amoderation({ model: 'chat', input: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain('`moderation`');
    expect(mock.requests).toHaveLength(0);
    await router.close();
  });

  it('only deployments of the mode serve the call', async () => {
    const router = new Router([
      deployment('mixed', 'gpt-4o', 'chat', '/chat'),
      deployment('mixed', 'omni-moderation-latest', 'moderation', '/mod'),
    ]);
    for (let i = 0; i < 4; i++) await router.amoderation({ model: 'mixed', input: 'this is flagged' });
    expect(mock.hits('/mod')).toBe(4);
    expect(mock.hits('/chat')).toBe(0);
    await router.close();
  });

  it('rerank answers Cohere-shaped results, best first, top_n of them', async () => {
    const router = new Router([deployment('rr', 'rerank-v3.5', 'rerank')]);
    const res = await router.arerank({
      model: 'rr',
      query: 'red apples',
      documents: ['blue sky', 'red apples are sweet', 'apples'],
      top_n: 2,
    });
    expect(res.results.map((r) => r.index)).toEqual([1, 2]);
    expect(res._hidden_params.priced).toBe(false);
    await router.close();
  });

  it('speech answers the audio as a stream, priced per character when the deployment says so', async () => {
    const router = new Router([
      {
        ...deployment('tts', 'tts-1', 'audio_speech'),
        model_info: { mode: 'audio_speech', input_cost_per_character: 0.000015 },
      },
    ]);
    const res = await router.aspeech({ model: 'tts', input: 'Hello there', voice: 'alloy' });
    let size = 0;
    for await (const part of res.body) size += part.length;
    expect(res.content_type).toBe('audio/mpeg');
    expect(size).toBe('Hello there'.length * 64);
    expect(res._hidden_params.response_cost).toBeCloseTo(11 * 0.000015, 10);
    await router.close();
  });

  it('a streamed upload that failed once it started is not tried again; one given as bytes is', async () => {
    mock.setBehavior('/a', { status: 500 });
    mock.setBehavior('/b', { status: 500 });
    const router = new Router(
      [
        deployment('stt', 'whisper-1', 'audio_transcription', '/a'),
        deployment('stt', 'whisper-1', 'audio_transcription', '/b'),
      ],
      { num_retries: 2, retry_after: 0 },
    );
    const streamed = await router
      .atranscription({ model: 'stt', file: chunks(2, 100) })
      .catch((e: unknown) => e);
    expect((streamed as { status?: number }).status).toBe(500);
    expect(mock.requests).toHaveLength(1);
    mock.reset();
    mock.setBehavior('/a', { status: 500 });
    const whole = await router.atranscription({ model: 'stt', file: new Uint8Array(100) });
    expect(whole.text).toBeTypeOf('string');
    expect(mock.hits('/b')).toBe(1);
    await router.close();
  });
});
