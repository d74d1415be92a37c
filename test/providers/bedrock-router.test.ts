import { describe, expect, it } from 'vitest';
import { type ChatCompletionChunk, type DeploymentConfig, Router } from '../../src/index.js';
import { CLAUDE, KEYS } from '../fixtures/bedrock/load.js';
import { useMock } from '../helpers.js';

const mock = useMock();
const USER = [{ role: 'user' as const, content: 'hello' }];

const deployment = (name: string, model: string, params: Record<string, unknown> = {}): DeploymentConfig => ({
  model_name: name,
  svc_params: { model: `bedrock/${model}`, api_base: `${mock.url}/${name}`, ...KEYS, ...params },
  model_info: { id: name },
});

describe('Bedrock through the Router', () => {
  it('routes a bedrock/ deployment to Converse and reports provider bedrock', async () => {
    mock.setBehavior('/claude', { content: 'Hi from Bedrock' });
    const router = new Router([deployment('claude', CLAUDE)]);
    const res = await router.acompletion({ model: 'claude', messages: USER, metadata: { trace: 'x' } });
    await router.close();
    expect(res.choices[0]?.message.content).toBe('Hi from Bedrock');
    expect(res.model).toBe(CLAUDE);
    expect(res._hidden_params.custom_llm_provider).toBe('bedrock');
    expect(res._hidden_params.api_base).toBe(`${mock.url}/claude`);
    expect(mock.requests[0]?.path).toBe(`/claude/model/${encodeURIComponent(CLAUDE)}/converse`);
    expect(mock.requests[0]?.body).toEqual({ messages: [{ role: 'user', content: [{ text: 'hello' }] }] });
  });

  it('turns reasoning_effort into Claude thinking and returns its thinking_blocks', async () => {
    mock.setBehavior('/claude', { content: '4', reasoning: '2+2', signature: 'c2ln' });
    const router = new Router([deployment('claude', CLAUDE)]);
    const res = await router.acompletion({ model: 'claude', messages: USER, reasoning_effort: 'low' });
    await router.close();
    expect(mock.requests[0]?.body).toMatchObject({
      inferenceConfig: { maxTokens: 4096 },
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
    });
    expect(res.choices[0]?.message.thinking_blocks).toEqual([
      { type: 'thinking', thinking: '2+2', signature: 'c2ln' },
    ]);
  });

  it('streams through the router', async () => {
    mock.setBehavior('/claude', { content: 'streamed answer here' });
    const router = new Router([deployment('claude', CLAUDE)]);
    const chunks: ChatCompletionChunk[] = [];
    const stream = (await router.acompletion({
      model: 'claude',
      messages: USER,
      stream: true,
    })) as AsyncIterable<ChatCompletionChunk>;
    for await (const chunk of stream) chunks.push(chunk);
    await router.close();
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('streamed answer here');
    expect(chunks.at(-1)?.usage).toBeDefined();
  });

  it('embeds with Titan through the router', async () => {
    const router = new Router([deployment('titan', 'amazon.titan-embed-text-v2:0')]);
    const res = await router.aembedding({ model: 'titan', input: 'hello' });
    await router.close();
    expect(res.data).toHaveLength(1);
    expect(mock.requests[0]?.body).toEqual({ inputText: 'hello' });
  });

  it('uses a Bedrock API key from AWS_BEARER_TOKEN_BEDROCK in the router’s environment', async () => {
    const router = new Router(
      [
        {
          model_name: 'claude',
          svc_params: {
            model: `bedrock/${CLAUDE}`,
            api_base: `${mock.url}/claude`,
            aws_region_name: 'us-east-1',
          },
        },
      ],
      {},
      { env: { AWS_BEARER_TOKEN_BEDROCK: 'bedrock-key-from-env' } },
    );
    await router.acompletion({ model: 'claude', messages: USER });
    await router.close();
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer bedrock-key-from-env');
  });
});
