import { afterAll, describe, expect, it } from 'vitest';
import {
  ContentPolicyViolationError,
  ContextWindowExceededError,
  RateLimitError,
  Router,
} from '../../src/index.js';
import { openrouterAdapter, openrouterHeaders } from '../../src/providers/openrouter/index.js';
import { openrouterReasoningParams } from '../../src/providers/openrouter/reasoning-params.js';
import { useMock } from '../helpers.js';
import { chat, closeHttp, jsonRaw, TOOLS, targetOn, USER } from './openai-family-helpers.js';

const mock = useMock();
const CLAUDE = 'anthropic/claude-sonnet-4';
const target = (model = CLAUDE, params: Record<string, unknown> = {}) =>
  targetOn(mock, openrouterAdapter, model, '/or/api/v1', params);
const _SIGNATURE = 'EqQBCgIYAhIMsig==';

afterAll(async () => {
  await closeHttp();
});

describe('OpenRouter requests', () => {
  it('defaults to https://openrouter.ai/api/v1 with the key from OPENROUTER_API_KEY', () => {
    expect(openrouterAdapter.defaults).toEqual({
      apiBase: 'https://openrouter.ai/api/v1',
      apiKeyEnv: 'OPENROUTER_API_KEY',
    });
  });

  it('posts to {api_base}/chat/completions with a Bearer key, the attribution headers and reasoning.effort', async () => {
    const t = target(CLAUDE, {
      openrouter_site_url: 'https://app.example',
      openrouter_app_name: 'Example App',
    });
    await chat(openrouterAdapter, t, { tools: TOOLS, reasoning_effort: 'medium' });
    const [request] = mock.requests;
    expect(request?.path).toBe('/or/api/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect(request?.headers['http-referer']).toBe('https://app.example');
    expect(request?.headers['x-title']).toBe('Example App');
    expect(request?.body).toEqual({
      model: CLAUDE,
      messages: USER,
      tools: TOOLS,
      reasoning: { effort: 'medium' },
    });
  });

  it('reads the attribution from OR_SITE_URL and OR_APP_NAME when svc_params set none', () => {
    const headers = openrouterHeaders(target(), {
      OR_SITE_URL: 'https://env.example',
      OR_APP_NAME: 'Env App',
    });
    expect(headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer sk-test-key-123456',
      'HTTP-Referer': 'https://env.example',
      'X-Title': 'Env App',
    });
  });

  it('sends no attribution headers when neither svc_params nor the environment set them', () => {
    expect(Object.keys(openrouterHeaders(target(), {}))).toEqual(['content-type', 'authorization']);
  });
});

describe('OpenRouter reasoning controls', () => {
  it.each([
    [{ reasoning_effort: 'low' }, { reasoning: { effort: 'low' } }],
    [{ reasoning_effort: 'none' }, { reasoning: { enabled: false } }],
    [{ thinking: { type: 'enabled', budget_tokens: 2000 } }, { reasoning: { max_tokens: 2000 } }],
    [
      { thinking: { type: 'enabled', budget_tokens: 2000 }, reasoning_effort: 'high' },
      { reasoning: { max_tokens: 2000 } },
    ],
    [{ thinking: { type: 'enabled' } }, { reasoning: { enabled: true } }],
    [{ thinking: { type: 'disabled' } }, { reasoning: { enabled: false } }],
    [{}, {}],
  ] as const)('maps %j to %j', (request, expected) => {
    expect(openrouterReasoningParams(request)).toEqual(expected);
  });

  it('keeps a reasoning object the caller wrote in OpenRouter’s own terms', async () => {
    await chat(openrouterAdapter, target(), {
      reasoning: { effort: 'high', exclude: true },
      reasoning_effort: 'low',
    });
    expect(mock.requests[0]?.body).toEqual({
      model: CLAUDE,
      messages: USER,
      reasoning: { effort: 'high', exclude: true },
    });
  });
});

describe('OpenRouter errors', () => {
  it('maps 402 (no credits) to RateLimitError so the router moves on', async () => {
    mock.setBehavior('/or', jsonRaw('openrouter', 'error-402-insufficient-credits.json', 402));
    await expect(chat(openrouterAdapter, target())).rejects.toBeInstanceOf(RateLimitError);
  });

  it('reads the upstream provider’s raw error, so a context overflow behind OpenRouter is one', async () => {
    mock.setBehavior('/or', jsonRaw('openrouter', 'error-400-upstream-context.json', 400));
    const error = await chat(openrouterAdapter, target()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowExceededError);
    expect((error as Error).message).toContain('prompt is too long');
  });

  it('maps a moderation refusal to ContentPolicyViolationError', async () => {
    mock.setBehavior('/or', jsonRaw('openrouter', 'error-403-moderation.json', 403));
    await expect(chat(openrouterAdapter, target('openai/gpt-4o'))).rejects.toBeInstanceOf(
      ContentPolicyViolationError,
    );
  });
});

describe('OpenRouter through the Router', () => {
  it('routes openrouter/<vendor>/<model> to OpenRouter with the vendor model id', async () => {
    mock.setBehavior('/or', {
      content: 'Hi',
      reasoning: 'Greet.',
      openaiVariant: { reasoningFormat: 'openrouter' },
    });
    const r = new Router([
      {
        model_name: 'claude',
        svc_params: {
          model: `openrouter/${CLAUDE}`,
          api_base: `${mock.url}/or/api/v1`,
          api_key: 'sk-or-0000',
        },
      },
    ]);
    const res = await r.acompletion({
      model: 'claude',
      messages: USER,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    await r.close();
    expect(res._hidden_params.custom_llm_provider).toBe('openrouter');
    expect(res.choices[0]?.message.reasoning_content).toBe('Greet.');
    expect(mock.requests[0]?.body).toMatchObject({ model: CLAUDE, reasoning: { max_tokens: 1024 } });
  });
});
