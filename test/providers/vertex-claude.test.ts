import { afterAll, describe, expect, it } from 'vitest';
import { type ChatCompletion, Router, ServiceUnavailableError } from '../../src/index.js';
import { vertexAdapter } from '../../src/providers/vertex_ai/index.js';
import { useMock } from '../helpers.js';
import { chat, closeHttp, fixture, stream, streamedReasoning, streamedText } from './gemini-helpers.js';
import { vertexTarget } from './vertex-helpers.js';

const mock = useMock();
afterAll(async () => {
  await closeHttp();
});

const CLAUDE = 'claude-sonnet-4-5@20250929';
const CLAUDE_PATH = `/vx/v1/projects/my-project/locations/europe-west4/publishers/anthropic/models/${CLAUDE}`;

describe('Claude on Vertex AI', () => {
  it('posts the Anthropic body without model and with anthropic_version to :rawPredict', async () => {
    await chat(vertexTarget(mock, CLAUDE), { max_tokens: 256 }, vertexAdapter);
    const [request] = mock.requests;
    expect(request?.path).toBe(`${CLAUDE_PATH}:rawPredict`);
    expect(request?.headers.authorization).toBe('Bearer ya29.vertex-static-token');
    const body = request?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('model');
    expect(body).toMatchObject({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('returns thinking_blocks with their signature and reasoning_content', async () => {
    mock.setBehavior('/vx', { reasoning: 'Adding up.', signature: 'sig-claude-1', content: '391' });
    const res = await chat(vertexTarget(mock, CLAUDE), { reasoning_effort: 'low' }, vertexAdapter);
    const { message } = res.choices[0]!;
    expect(message.content).toBe('391');
    expect(message.reasoning_content).toBe('Adding up.');
    expect(message.thinking_blocks).toEqual([
      { type: 'thinking', thinking: 'Adding up.', signature: 'sig-claude-1' },
    ]);
    expect((mock.requests[0]!.body as { thinking?: unknown }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 1024,
    });
  });

  it('streams from :streamRawPredict with thinking_blocks deltas', async () => {
    mock.setBehavior('/vx', { reasoning: 'Adding up.', signature: 'sig-claude-2', content: '391' });
    const chunks = await stream(vertexTarget(mock, CLAUDE), { reasoning_effort: 'low' }, vertexAdapter);
    expect(mock.requests[0]?.path).toBe(`${CLAUDE_PATH}:streamRawPredict`);
    expect(mock.requests[0]?.body).toMatchObject({ stream: true, anthropic_version: 'vertex-2023-10-16' });
    expect(mock.requests[0]?.body).not.toHaveProperty('model');
    expect(streamedText(chunks)).toBe('391');
    expect(streamedReasoning(chunks)).toBe('Adding up.');
    const blocks = chunks.flatMap((c) => c.choices[0]?.delta.thinking_blocks ?? []);
    expect(blocks).toContainEqual({ type: 'thinking', thinking: '', signature: 'sig-claude-2' });
  });

  it('replays a rawPredict answer: thinking block with signature, end_turn -> stop', async () => {
    mock.setBehavior('/vx', { raw: { body: fixture('vertex_ai', 'claude-raw-predict.json') } });
    const res = await chat(vertexTarget(mock, CLAUDE), {}, vertexAdapter);
    expect(res.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: {
        content: '17 × 23 = 391.',
        thinking_blocks: [
          {
            type: 'thinking',
            thinking: 'The user asks for 17 * 23. 17 * 20 = 340, 17 * 3 = 51, total 391.',
            signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxDdlZ5ZTVhYzg3NDU5IjBzHz8AfFq0',
          },
        ],
      },
    });
    expect(res.usage).toMatchObject({ prompt_tokens: 45, completion_tokens: 62 });
  });

  it('reads an Anthropic-shaped error body (overloaded_error -> ServiceUnavailableError)', async () => {
    mock.setBehavior('/vx', {
      raw: { status: 529, body: fixture('vertex_ai', 'claude-error-overloaded.json') },
    });
    await expect(chat(vertexTarget(mock, CLAUDE), {}, vertexAdapter)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });

  it('routes a vertex_ai/claude-* deployment through the Router', async () => {
    mock.setBehavior('/vc', { content: 'hello from claude' });
    const router = new Router([
      {
        model_name: 'claude',
        svc_params: {
          model: `vertex_ai/${CLAUDE}`,
          api_base: `${mock.url}/vc`,
          api_key: 'ya29.router-token',
          vertex_project: 'proj-1',
          vertex_location: 'us-east5',
        },
      },
    ]);
    const res = (await router.acompletion({
      model: 'claude',
      messages: [{ role: 'user', content: 'hi' }],
    })) as ChatCompletion;
    await router.close();
    expect(mock.requests[0]?.path).toBe(
      `/vc/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/${CLAUDE}:rawPredict`,
    );
    expect(res.choices[0]?.message.content).toBe('hello from claude');
  });
});
