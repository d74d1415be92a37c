import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError, type EmbeddingRequest } from '../../src/index.js';
import { bedrockAdapter, toEmbeddingResponse } from '../../src/providers/bedrock/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import type { CallOptions, ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import { bedrockTarget, fixture } from '../fixtures/bedrock/load.js';
import { useMock } from '../helpers.js';

const mock = useMock();
const http = new HttpClient();
const options: CallOptions = { timeoutMs: 2000, streamTimeoutMs: 2000 };
const TITAN = 'amazon.titan-embed-text-v2:0';
const COHERE = 'cohere.embed-english-v3';
const embed = (model: string, request: Partial<EmbeddingRequest>) =>
  invokeJson(
    http,
    bedrockAdapter,
    bedrockAdapter.embedding!,
    { model: 'group', input: 'hello', ...request },
    bedrockTarget(`${mock.url}/em`, model),
    options,
  );

afterAll(async () => {
  await http.close();
});

describe('Bedrock embeddings over InvokeModel', () => {
  it('posts one Titan inputText to /model/{id}/invoke, signed, with dimensions', async () => {
    const res = await embed(TITAN, { input: 'hello world', dimensions: 4 });
    const [request] = mock.requests;
    expect(request?.path).toBe('/em/model/amazon.titan-embed-text-v2%3A0/invoke');
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(request?.body).toEqual({ inputText: 'hello world', dimensions: 4 });
    expect(res).toEqual({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.12, 0.24, 0.36, 0.48] }],
      model: TITAN,
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
  });

  it('posts Cohere texts with input_type search_document and returns one vector per text', async () => {
    const res = await embed(COHERE, { input: ['a', 'b'] });
    expect(mock.requests[0]?.body).toEqual({ texts: ['a', 'b'], input_type: 'search_document' });
    expect(res.data.map((d) => d.index)).toEqual([0, 1]);
    expect(res.model).toBe(COHERE);
  });

  it('lets the request choose the Cohere input_type', async () => {
    await embed(COHERE, { input: ['q'], input_type: 'search_query' });
    expect(mock.requests[0]?.body).toMatchObject({ input_type: 'search_query' });
  });

  it('refuses several inputs for Titan, which embeds one per call', async () => {
    await expect(embed(TITAN, { input: ['a', 'b'] })).rejects.toThrow(/one input per call/);
    expect(mock.requests).toHaveLength(0);
  });

  it('refuses embedding models it does not speak', async () => {
    await expect(embed('amazon.nova-pro-v1:0', {})).rejects.toBeInstanceOf(BadRequestError);
  });

  it('returns base64 float32 vectors when encoding_format is base64', async () => {
    const res = await embed(TITAN, { dimensions: 2, encoding_format: 'base64' });
    const bytes = Buffer.from(res.data[0]?.embedding as string, 'base64');
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)].map((v) => Number(v.toFixed(4)))).toEqual([
      0.06, 0.12,
    ]);
  });
});

describe('Bedrock embedding fixtures', () => {
  const target = (model: string): ProviderTarget => bedrockTarget('http://bedrock.test', model);

  it('parses a Titan V2 answer with its token count', () => {
    const json = fixture<{ embedding: number[] }>('embed-titan-v2.json');
    const res = toEmbeddingResponse(json, target(TITAN), { model: 'g', input: 'x' });
    expect(res.data).toEqual([{ object: 'embedding', index: 0, embedding: json.embedding }]);
    expect(res.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });
  });

  it('parses a Cohere v3 answer', () => {
    const json = fixture<{ embeddings: number[][] }>('embed-cohere-v3.json');
    const res = toEmbeddingResponse(json, target(COHERE), { model: 'g', input: ['x', 'y'] });
    expect(res.data.map((d) => d.embedding)).toEqual(json.embeddings);
  });

  it('parses Cohere embeddings by type', () => {
    const res = toEmbeddingResponse({ embeddings: { float: [[0.5, 0.25]] } }, target(COHERE), {
      model: 'g',
      input: 'x',
    });
    expect(res.data[0]?.embedding).toEqual([0.5, 0.25]);
  });
});

describe('Titan embeddings through the Router', () => {
  it('splits several inputs into one call each and merges the answers in order', async () => {
    const { Router } = await import('../../src/index.js');
    const router = new Router([
      {
        model_name: 'embed',
        svc_params: {
          model: `bedrock/${TITAN}`,
          api_base: `${mock.url}/split`,
          api_key: 'br-key',
          aws_region_name: 'us-east-1',
        },
      },
    ]);
    const inputs = ['a', 'bbbbbb', 'ccc'];
    const res = await router.aembedding({ model: 'embed', input: inputs });
    await router.close();
    expect(mock.requests.map((r) => (r.body as { inputText: string }).inputText).sort()).toEqual(
      inputs.slice().sort(),
    );
    expect(res.data.map((d) => d.index)).toEqual([0, 1, 2]);
    for (const [i, text] of inputs.entries()) {
      const single = await embed(TITAN, { input: text });
      expect(res.data[i]?.embedding).toEqual(single.data[0]?.embedding);
    }
    expect(res.data[0]?.embedding).not.toEqual(res.data[1]?.embedding);
  });
});
