import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  ContextWindowExceededError,
  createProviderRegistry,
  RateLimitError,
  Router,
  type RouterError,
} from '../../src/index.js';
import { useMock } from '../helpers.js';
import { acmeAdapter } from './acme-adapter.js';
import { chat, stream, targetOn } from './openai-family-helpers.js';

// A user-written adapter served by the mock through its own `mockFormat`, called the way the router
// calls any adapter (the shared invoke functions).
describe('a user-written provider adapter (acme/)', () => {
  const mock = useMock({ providers: [acmeAdapter] });
  const target = (prefix: string) => targetOn(mock, acmeAdapter, 'acme-large', `/${prefix}`);

  it('is found by its prefix and serves a chat call in its own format', async () => {
    const registry = createProviderRegistry([acmeAdapter]);
    const adapter = registry.adapterFor(registry.providerOfPrefix('acme')!)!;
    mock.setBehavior('/ok', { content: 'Hi from Acme' });
    const completion = await chat(adapter, target('ok'));
    expect(completion.choices[0]?.message.content).toBe('Hi from Acme');
    expect(completion.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(mock.requests[0]?.path).toBe('/ok/acme/v1/chat');
  });

  it('sends the reasoning fields its translation declares', async () => {
    await chat(acmeAdapter, target('think'), { reasoning_effort: 'medium' });
    expect(mock.requests[0]?.body).toMatchObject({ acme_thinking: { level: 'medium' } });
    expect(
      createProviderRegistry([acmeAdapter]).reasoningParams('acme', { reasoning_effort: 'medium' }),
    ).toEqual({
      acme_thinking: { level: 'medium' },
    });
  });

  it('streams in its own format', async () => {
    mock.setBehavior('/stream', { content: 'one two three' });
    const chunks = await stream(acmeAdapter, target('stream'));
    expect(chunks.map((c) => c.choices[0]?.delta.content)).toEqual(['one', 'two', 'three']);
  });

  it('maps its own error codes to the contract classes and stable codes', async () => {
    mock.setBehavior('/credit', { status: 402, error: { code: 'acme_out_of_credit', message: 'top up' } });
    const error = (await chat(acmeAdapter, target('credit')).catch((e: unknown) => e)) as RouterError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'insufficient_quota', upstreamStatus: 402, provider: 'acme' });
    expect(error.message).toBe('acme/acme-large answered 402: top up');
    expect(error.upstreamBody).toBe('{"error":{"kind":"acme_out_of_credit","text":"top up"}}');
  });

  it('maps a declared context-window code whatever the status', async () => {
    mock.setBehavior('/long', { status: 422, error: { code: 'acme_prompt_too_long', message: 'shorter' } });
    const error = await chat(acmeAdapter, target('long')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowExceededError);
    expect((error as RouterError).code).toBe('context_window_exceeded');
  });

  it('fails a stream cut before its terminal event', async () => {
    mock.setBehavior('/cut', {
      raw: { headers: { 'content-type': 'text/event-stream' }, body: 'data: {"delta":"a"}\n\n' },
    });
    await expect(stream(acmeAdapter, target('cut'))).rejects.toBeInstanceOf(APIConnectionError);
  });

  it("serves a deployment `acme/acme-large` through the Router, reporting custom_llm_provider 'acme'", async () => {
    mock.setBehavior('/routed', { content: 'Routed to Acme' });
    const router = new Router(
      [
        {
          model_name: 'acme-large',
          svc_params: { model: 'acme/acme-large', api_base: `${mock.url}/routed`, api_key: 'acme-key-0000' },
        },
      ],
      {},
      { providers: [acmeAdapter] },
    );
    const res = await router.acompletion({
      model: 'acme-large',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await router.close();
    expect(res.choices[0]?.message.content).toBe('Routed to Acme');
    expect(res._hidden_params.custom_llm_provider).toBe('acme');
    expect(mock.requests[0]?.path).toBe('/routed/acme/v1/chat');
  });

  it('is an unknown provider to a Router not given the adapter', () => {
    expect(
      () =>
        new Router([
          {
            model_name: 'x',
            svc_params: { model: 'acme/acme-large', api_base: 'http://127.0.0.1:1', api_key: 'k' },
          },
        ]),
    ).toThrow(/unknown provider `acme\/`/);
  });
});
