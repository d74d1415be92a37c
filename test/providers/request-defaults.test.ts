import { describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { useMock } from '../helpers.js';

const mock = useMock();

const preset = { thinking: { type: 'enabled' as const, budget_tokens: 2048 }, temperature: 1 };

describe('a deployment’s request presets (svc_params) under the caller’s request', () => {
  it('applies a preset thinking when the request says nothing of reasoning', async () => {
    const router = new Router([
      {
        model_name: 'c',
        svc_params: {
          model: 'anthropic/claude-sonnet-4-5',
          api_base: `${mock.url}/a`,
          api_key: 'k',
          ...preset,
        },
      },
    ]);
    await router.acompletion({ model: 'c', messages: [{ role: 'user', content: 'x' }] });
    await router.close();
    expect(mock.requests[0]?.body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      temperature: 1,
    });
  });

  it('lets the caller’s reasoning_effort: none switch a preset thinking off', async () => {
    const router = new Router([
      {
        model_name: 'c',
        svc_params: {
          model: 'anthropic/claude-sonnet-4-5',
          api_base: `${mock.url}/a`,
          api_key: 'k',
          ...preset,
        },
      },
    ]);
    await router.acompletion({
      model: 'c',
      messages: [{ role: 'user', content: 'x' }],
      reasoning_effort: 'none',
    });
    await router.close();
    const body = mock.requests[0]?.body as Record<string, unknown>;
    expect(body.thinking).toBeUndefined();
    expect(body.temperature).toBe(1); // other presets stay
  });

  it('lets the caller’s reasoning_effort replace a preset one on an OpenAI-compatible provider', async () => {
    const router = new Router([
      {
        model_name: 'd',
        svc_params: {
          model: 'deepseek/deepseek-reasoner',
          api_base: `${mock.url}/d`,
          api_key: 'k',
          reasoning_effort: 'high',
        },
      },
    ]);
    await router.acompletion({
      model: 'd',
      messages: [{ role: 'user', content: 'x' }],
      reasoning_effort: 'none',
    });
    await router.close();
    expect(mock.requests[0]?.body).toMatchObject({ thinking: { type: 'disabled' } });
    expect(mock.requests[0]?.body).not.toHaveProperty('reasoning_effort');
  });
});

describe('Gemini history', () => {
  it('accepts its own reasoning_content back on a tool-loop turn without drop_params, and does not send it', async () => {
    const router = new Router([
      {
        model_name: 'g',
        svc_params: { model: 'gemini/gemini-2.5-flash', api_base: `${mock.url}/g`, api_key: 'k' },
      },
    ]);
    await router.acompletion({
      model: 'g',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'I should call the tool.',
          tool_calls: [
            {
              id: 'call_0',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_0', content: '{"temp":20}' },
      ],
    });
    await router.close();
    expect(JSON.stringify(mock.requests[0]?.body)).not.toContain('I should call the tool.');
  });
});
