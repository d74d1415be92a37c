import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeploymentConfig } from '@svc/router';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, eventually, startTestProxy, type TestProxy } from './harness.js';

const openai = (
  mock: { url: string },
  id: string,
  group: string,
  model: string,
  info: object,
): DeploymentConfig => ({
  model_name: group,
  svc_params: { model: `openai/${model}`, api_base: `${mock.url}/${id}/v1`, api_key: `sk-upstream-${id}` },
  model_info: { id, ...info },
});

/** An upstream that tells when the first bytes of an upload arrive, and answers a transcription at the end. */
function slowUpstream(): Promise<{ server: Server; url: string; firstBytes: Promise<void> }> {
  let seen!: () => void;
  const firstBytes = new Promise<void>((resolve) => {
    seen = resolve;
  });
  const server = createServer((req, res) => {
    req.once('data', () => seen());
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'streamed', usage: { type: 'duration', seconds: 60 } }));
    });
    req.resume();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, firstBytes }),
    ),
  );
}

describe.each(ENGINES)('audio, moderation and rerank routes (%s)', (engine) => {
  let t: TestProxy;
  let client: OpenAI;
  let upstream: Awaited<ReturnType<typeof slowUpstream>>;
  const rows = async (model: string) =>
    (
      (await (await fetch(`${t.url}/spend/logs`, { headers: t.admin })).json()) as Array<
        Record<string, unknown>
      >
    ).filter((r) => r.model_group === model);

  beforeAll(async () => {
    upstream = await slowUpstream();
    t = await startTestProxy(engine, {
      models: (mock) => [
        openai(mock, 'stt', 'whisper', 'whisper-1', { mode: 'audio_transcription' }),
        openai(mock, 'tts', 'voice', 'tts-1', { mode: 'audio_speech', input_cost_per_character: 0.000015 }),
        openai(mock, 'mod', 'moderation', 'omni-moderation-latest', { mode: 'moderation' }),
        openai(mock, 'rr', 'reranker', 'rerank-v3.5', { mode: 'rerank', input_cost_per_query: 0.002 }),
        openai(mock, 'chat', 'gpt-4o', 'gpt-4o', { mode: 'chat' }),
        {
          model_name: 'slow-whisper',
          svc_params: { model: 'openai/whisper-1', api_base: upstream.url, api_key: 'sk-upstream' },
          model_info: { id: 'slow', mode: 'audio_transcription' },
        },
      ],
    });
    client = new OpenAI({ apiKey: 'sk-master-test-0123456789', baseURL: `${t.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await t.close();
    upstream.server.close();
  });

  it('transcribes an upload from the openai SDK and writes a spend row priced per second', async () => {
    const file = await toFile(Buffer.alloc(48_000, 1), 'speech.mp3', { type: 'audio/mpeg' });
    const res = await client.audio.transcriptions.create({ file, model: 'whisper', language: 'en' });
    expect(res.text).toBeTypeOf('string');
    const sent = t.mock.requests.find((r) => r.path === '/stt/v1/audio/transcriptions');
    expect(sent?.body).toMatchObject({
      model: 'whisper-1',
      language: 'en',
      file: { filename: 'speech.mp3', size: 48_000 },
    });
    expect(sent?.headers.authorization).toBe('Bearer sk-upstream-stt');
    await eventually(async () => {
      const [row] = await rows('whisper');
      expect(row).toMatchObject({ route: '/v1/audio/transcriptions', model_id: 'stt', status: 'success' });
      // 48,000 bytes are 3 s of mock audio at the catalog's $0.36 an hour
      expect(row?.cost).toBeCloseTo(3 * 0.0001, 10);
    });
  });

  it('answers speech as audio bytes to the openai SDK, charged per character', async () => {
    const res = await client.audio.speech.create({ model: 'voice', input: 'Hello there', voice: 'alloy' });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect((await res.arrayBuffer()).byteLength).toBe('Hello there'.length * 64);
    await eventually(async () => {
      const [row] = await rows('voice');
      expect(row).toMatchObject({ route: '/v1/audio/speech', status: 'success' });
      expect(row?.cost).toBeCloseTo(11 * 0.000015, 12);
    });
  });

  it('answers moderations to the openai SDK', async () => {
    const res = await client.moderations.create({ model: 'moderation', input: ['fine', 'this is flagged'] });
    expect(res.results.map((r) => r.flagged)).toEqual([false, true]);
    await eventually(async () => {
      const [row] = await rows('moderation');
      expect(row).toMatchObject({ route: '/v1/moderations', status: 'success', cost: 0 });
    });
  });

  it('reranks in the Cohere shape, charged per search', async () => {
    const res = await fetch(`${t.url}/v1/rerank`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'reranker',
        query: 'red apples',
        documents: ['sky', 'red apples', 'apples'],
        top_n: 2,
      }),
    });
    const body = (await res.json()) as { results: Array<{ index: number; relevance_score: number }> };
    expect(res.status).toBe(200);
    expect(body.results.map((r) => r.index)).toEqual([1, 2]);
    await eventually(async () => {
      const [row] = await rows('reranker');
      expect(row).toMatchObject({ route: '/v1/rerank', status: 'success' });
      expect(row?.cost).toBeCloseTo(0.002, 12);
    });
  });

  it('refuses a group with no deployment of the mode with 400 naming the mode', async () => {
    const error = await client.moderations.create({ model: 'gpt-4o', input: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('`moderation`');
  });

  it('streams a big upload: the upstream has its first bytes before the caller has sent the last', async () => {
    const boundary = 'test-boundary';
    const enc = new TextEncoder();
    const piece = new Uint8Array(256 * 1024).fill(7);
    async function* parts(): AsyncGenerator<Uint8Array> {
      yield enc.encode(
        `--${boundary}\r\ncontent-disposition: form-data; name="model"\r\n\r\nslow-whisper\r\n`,
      );
      yield enc.encode(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.wav"\r\ncontent-type: audio/wav\r\n\r\n`,
      );
      for (let i = 0; i < 8; i++) yield piece;
      // the rest of the upload waits until the upstream has bytes: a proxy that held it whole would stall here
      const timeout = new Promise((_, reject) =>
        setTimeout(() => reject(new Error('upstream saw no bytes')), 5000),
      );
      await Promise.race([upstream.firstBytes, timeout]);
      for (let i = 0; i < 8; i++) yield piece;
      yield enc.encode(`\r\n--${boundary}--\r\n`);
    }
    const stream = ReadableStream.from(parts());
    const res = await fetch(`${t.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { text: string }).text).toBe('streamed');
  });

  it('refuses a multipart body of more fields, or a larger field, than a transcription takes', async () => {
    const upload = (form: FormData, headers: Record<string, string>) =>
      fetch(`${t.url}/v1/audio/transcriptions`, { method: 'POST', headers, body: form });
    const many = new FormData();
    for (let i = 0; i < 100; i++) many.append(`f${i}`, 'x');
    const large = new FormData();
    large.append('prompt', 'x'.repeat(100_000));
    for (const form of [many, large]) {
      const res = await upload(form, t.admin);
      const body = (await res.json()) as { error: { code: string } };
      expect([res.status, body.error.code]).toEqual([413, 'request_too_large']);
    }
  });
});
