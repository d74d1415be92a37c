import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  type ChatCompletionChunk,
  type DeploymentConfig,
  type FallbackEvent,
  Router,
  type RouterSettings,
  TimeoutError,
} from '../../src/index.js';
import type { MockBehavior } from '../../src/testing/index.js';
import { deployment, USER, useMock } from '../helpers.js';

const mock = useMock();

const TEXT = 'one two three four five six seven eight nine ten eleven twelve';
// the mock streams TEXT three words a frame, after a role frame: `cutAfter: 3` gives the caller
// "one two three four five six " (with its trailing space)
const GIVEN = 'one two three four five six ';

/** A deployment whose model_info says it continues a trailing assistant message. */
const prefill = (name: string, group = 'gpt-4o'): DeploymentConfig => {
  const d = deployment(mock, name, {}, group);
  return { ...d, model_info: { id: name, supports_assistant_prefill: true } };
};

function resuming(list: DeploymentConfig[], settings: RouterSettings = {}) {
  const router = new Router(list, { stream_resume: true, ...settings }, { random: () => 0 });
  const fallbacks: FallbackEvent[] = [];
  router.on('fallback', (e) => fallbacks.push(e));
  return { router, fallbacks };
}

/** Reads a stream to its end: its chunks, its text, and the error that ended it, if one did. */
async function drain(router: Router) {
  const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
  const chunks: ChatCompletionChunk[] = [];
  let error: unknown;
  try {
    for await (const chunk of stream) chunks.push(chunk);
  } catch (err) {
    error = err;
  }
  const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  return { stream, chunks, text, error };
}

/** The last message of the requests a deployment got (its continuation's prefill). */
const lastMessages = (name: string) =>
  mock.requests
    .filter((r) => r.path.startsWith(`/${name}/`))
    .map((r) => (r.body as { messages: unknown[] }).messages.at(-1));

const broken = (stream: MockBehavior['stream']): MockBehavior => ({ content: TEXT, stream });

describe('stream_resume continues a broken stream on a deployment with assistant prefill', () => {
  it('gives one whole answer in one stream (same id) with one usage chunk after a cut', async () => {
    mock.setBehavior('/a', broken({ cutAfter: 3 }));
    mock.setBehavior('/b', { content: TEXT });
    const { router, fallbacks } = resuming([deployment(mock, 'a'), prefill('b')]);
    const { stream, chunks, text, error } = await drain(router);
    await router.close();
    expect(error).toBeUndefined();
    expect(text).toBe(TEXT);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    const usages = chunks.filter((c) => c.usage);
    expect(usages).toHaveLength(1);
    expect(chunks.at(-1)).toBe(usages[0]);
    const usage = usages[0]!.usage!;
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(usage.prompt_tokens).toBeGreaterThan(10); // both prompts: the mock reports 10 for the second
    expect(chunks.filter((c) => c.choices[0]?.delta.role)).toHaveLength(1);
    expect(chunks.filter((c) => c.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    expect(lastMessages('b')).toEqual([{ role: 'assistant', content: GIVEN.trimEnd(), prefix: true }]);
    expect(stream._hidden_params.model_id).toBe('b');
    expect(stream._hidden_params.response_cost).toBeCloseTo(
      usage.prompt_tokens * 2.5e-6 + usage.completion_tokens * 1e-5,
      12,
    );
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatchObject({ from: 'gpt-4o', to: 'gpt-4o', resumed: true });
    expect(fallbacks[0]!.error).toBeInstanceOf(APIConnectionError);
  });

  it('prices its whole usage part by part, each at its deployment’s prices, for a reader that charges it', async () => {
    mock.setBehavior('/a', broken({ cutAfter: 3 }));
    mock.setBehavior('/b', { content: TEXT });
    const dearer = { input_cost_per_token: 1e-4, output_cost_per_token: 2e-4 };
    const b = { ...prefill('b'), svc_params: { ...prefill('b').svc_params, ...dearer } };
    const { router } = resuming([deployment(mock, 'a'), b]);
    const { stream, chunks } = await drain(router);
    await router.close();
    const usage = chunks.at(-1)!.usage!;
    const cost = stream._hidden_params.response_cost!;
    expect(cost).toBeGreaterThan((usage.prompt_tokens * 2.5e-6 + usage.completion_tokens * 1e-5) * 2);
    expect(stream.costOf({ ...usage })).toBe(cost);
    // a count of what a reader that left was given: the first deployment's prices
    expect(stream.costOf({ prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 })).toBeCloseTo(
      10 * 2.5e-6 + 4 * 1e-5,
      12,
    );
  });

  it('continues a stream that stalls past stream_timeout', async () => {
    mock.setBehavior('/a', broken({ stallAfter: 3 }));
    mock.setBehavior('/b', { content: TEXT });
    const { router, fallbacks } = resuming([deployment(mock, 'a'), prefill('b')], { stream_timeout: 0.2 });
    const { text, error } = await drain(router);
    await router.close();
    expect(error).toBeUndefined();
    expect(text).toBe(TEXT);
    expect(fallbacks[0]?.error).toBeInstanceOf(TimeoutError);
  });

  it('continues a stream that ends without a finish_reason', async () => {
    mock.setBehavior('/a', broken({ endAfter: 3 }));
    mock.setBehavior('/b', { content: TEXT });
    const { router } = resuming([deployment(mock, 'a'), prefill('b')]);
    const { text, error } = await drain(router);
    await router.close();
    expect(error).toBeUndefined();
    expect(text).toBe(TEXT);
  });

  it('skips a deployment of the group without prefill', async () => {
    mock.setBehavior('/a', broken({ cutAfter: 3 }));
    mock.setBehavior('/b', { content: TEXT });
    const { router } = resuming([deployment(mock, 'a'), deployment(mock, 'c'), prefill('b')]);
    const { text } = await drain(router);
    await router.close();
    expect(text).toBe(TEXT);
    expect(mock.hits('/c/')).toBe(0);
    expect(mock.hits('/b/')).toBe(1);
  });

  it('continues on a fallback group when its own group has no prefill deployment left', async () => {
    mock.setBehavior('/a', broken({ cutAfter: 3 }));
    mock.setBehavior('/f', { content: TEXT });
    const { router, fallbacks } = resuming(
      [deployment(mock, 'a'), deployment(mock, 'c'), prefill('f', 'backup')],
      {
        fallbacks: [{ 'gpt-4o': ['backup'] }],
      },
    );
    const { text, stream } = await drain(router);
    await router.close();
    expect(text).toBe(TEXT);
    expect(stream._hidden_params.model_group).toBe('backup');
    expect(fallbacks.map((e) => [e.from, e.to, e.resumed])).toEqual([['gpt-4o', 'backup', true]]);
  });

  it('fails with the original error when no deployment is left to continue it', async () => {
    mock.setBehavior('/a', broken({ cutAfter: 3 }));
    const { router, fallbacks } = resuming([deployment(mock, 'a'), deployment(mock, 'c')]);
    const { text, error } = await drain(router);
    await router.close();
    expect(text).toBe(GIVEN);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).modelId).toBe('a');
    expect(mock.hits('/c/')).toBe(0);
    expect(fallbacks).toEqual([]);
  });

  it('never ends with a prefill refusal: the refusing deployment is left out, the next one continues', async () => {
    mock.setBehavior('/a', broken({ cutAfter: 3 }));
    mock.setBehavior('/r', { content: TEXT, prefill: 'refuse' });
    mock.setBehavior('/b', { content: TEXT });
    const { router } = resuming([deployment(mock, 'a'), prefill('r'), prefill('b')]);
    const { text, error } = await drain(router);
    await router.close();
    expect(error).toBeUndefined();
    expect(text).toBe(TEXT);
    expect([mock.hits('/r/'), mock.hits('/b/')]).toEqual([1, 1]);
  });

  it('fails with the original error, not the refusal, when every prefill deployment refuses', async () => {
    mock.setBehavior('/a', broken({ cutAfter: 3 }));
    mock.setBehavior('/r', { content: TEXT, prefill: 'refuse' });
    const { router } = resuming([deployment(mock, 'a'), prefill('r')]);
    const { error } = await drain(router);
    await router.close();
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(mock.hits('/r/')).toBe(1);
  });

  it('does not resume while a tool call is in progress', async () => {
    const call = { name: 'lookup', arguments: { q: 'x' } };
    // role, "checking", the tool call's header: then cut in its arguments
    mock.setBehavior('/a', { content: 'checking', toolCalls: [call], stream: { cutAfter: 3 } });
    const { router } = resuming([deployment(mock, 'a'), prefill('b')]);
    const { error, chunks } = await drain(router);
    await router.close();
    expect(chunks.some((c) => c.choices[0]?.delta.tool_calls)).toBe(true);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(mock.hits('/b/')).toBe(0);
  });

  it('does not resume an answer that gave only reasoning', async () => {
    mock.setBehavior('/a', { content: TEXT, reasoning: 'let me think about it', stream: { cutAfter: 2 } });
    const { router } = resuming([deployment(mock, 'a'), prefill('b')]);
    const { error, text } = await drain(router);
    await router.close();
    expect(text).toBe('');
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(mock.hits('/b/')).toBe(0);
  });

  it('continues at most stream_resume_max times', async () => {
    // b's continuation, " seven eight nine ten eleven twelve", is cut after its first frame: "seven eight "
    const twice = (max: number) => {
      mock.reset();
      mock.setBehavior('/a', broken({ cutAfter: 3 }));
      mock.setBehavior('/b', broken({ cutAfter: 2 }));
      mock.setBehavior('/c', { content: TEXT });
      return resuming([deployment(mock, 'a'), prefill('b'), prefill('c')], { stream_resume_max: max });
    };
    const once = twice(1);
    const first = await drain(once.router);
    await once.router.close();
    expect(first.text).toBe(`${GIVEN}seven eight `);
    expect(first.error).toBeInstanceOf(APIConnectionError);
    expect((first.error as APIConnectionError).modelId).toBe('b');
    expect(mock.hits('/c/')).toBe(0);

    const two = twice(2);
    const second = await drain(two.router);
    await two.router.close();
    expect(second.error).toBeUndefined();
    expect(second.text).toBe(TEXT);
    expect(second.chunks.filter((c) => c.usage)).toHaveLength(1);
    expect(two.fallbacks.map((e) => e.resumed)).toEqual([true, true]);
    expect(lastMessages('c')).toEqual([{ role: 'assistant', content: `${GIVEN}seven eight`, prefix: true }]);
  });

  it('is off by default: a cut stream fails as before', async () => {
    mock.setBehavior('/a', broken({ cutAfter: 3 }));
    const router = new Router([deployment(mock, 'a'), prefill('b')], {}, { random: () => 0 });
    const { error } = await drain(router);
    await router.close();
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(mock.hits('/b/')).toBe(0);
  });
});
