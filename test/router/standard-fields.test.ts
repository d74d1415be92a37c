import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type ChatCompletionRequest,
  type FailureEvent,
  Router,
  type RouterError,
} from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';

// The standard OpenAI fields of a chat or text completion are checked for their type and range before
// any deployment is tried: a wrong one is a 400 naming the field, sent to no upstream, counted
// against no deployment. Fields a provider adds pass as given.

const mock = useMock();

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as RouterError,
  );

function watched() {
  const router = new Router([deployment(mock, 'a')], { allowed_fails: 0 });
  const failures: FailureEvent[] = [];
  router.on('failure', (e) => failures.push(e));
  return { router, failures };
}

describe('a standard chat field of the wrong type or out of range', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ max_tokens: -1 }, 'request.max_tokens: Too small: expected number to be >0'],
    [{ temperature: 'hot' }, 'request.temperature: expected number, received string'],
    [{ temperature: 3 }, 'request.temperature: Too big: expected number to be <=2'],
    [{ top_p: -0.1 }, 'request.top_p: Too small: expected number to be >=0'],
    [{ n: 1.5 }, 'request.n: expected int, received number'],
    [{ max_completion_tokens: '100' }, 'request.max_completion_tokens: expected number, received string'],
    [{ presence_penalty: 5 }, 'request.presence_penalty: Too big: expected number to be <=2'],
    [{ stop: 5 }, 'request.stop: expected a string or an array of strings (got number)'],
    [{ logit_bias: { '50256': 500 } }, 'request.logit_bias.50256: Too big: expected number to be <=100'],
    [{ tools: 'search' }, 'request.tools: expected array, received string'],
    [{ parallel_tool_calls: 'yes' }, 'request.parallel_tool_calls: expected boolean, received string'],
    [{ user: 42 }, 'request.user: expected string, received number'],
  ];
  it.each(cases)('%o is a BadRequestError naming the field, sent to no upstream', async (extra, reason) => {
    const { router, failures } = watched();
    const before = mock.requests.length;
    const error = await failure(router.acompletion({ model: 'gpt-4o', messages: USER, ...extra }));
    await router.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe(`Invalid request: ${reason}`);
    expect(mock.requests.length).toBe(before);
    expect(failures).toEqual([]);
  });

  it('is refused on a stream too', async () => {
    const { router } = watched();
    const error = await failure(
      router.acompletion({ model: 'gpt-4o', messages: USER, stream: true, max_tokens: 0 }),
    );
    await router.close();
    expect(error?.message).toBe('Invalid request: request.max_tokens: Too small: expected number to be >0');
  });
});

describe('standard chat fields within range, and fields a provider adds', () => {
  it('are sent to the upstream as given', async () => {
    const { router } = watched();
    const fields = {
      temperature: 0,
      top_p: 1,
      max_tokens: 16,
      stop: ['\n'],
      seed: -7,
      logit_bias: { '50256': -100 },
      top_k: 40,
      repetition_penalty: 'provider-defined',
      safe_prompt: true,
    };
    const answer = await router.acompletion({ model: 'gpt-4o', messages: USER, ...fields });
    await router.close();
    expect(answer.choices).toHaveLength(1);
    expect(mock.requests.at(-1)?.body).toMatchObject(fields);
  });

  it('take null where OpenAI takes it (unset)', async () => {
    const { router } = watched();
    const answer = await router.acompletion({
      model: 'gpt-4o',
      messages: USER,
      temperature: null,
      max_tokens: null,
      stop: null,
    } as unknown as ChatCompletionRequest);
    await router.close();
    expect(answer.choices).toHaveLength(1);
  });
});

describe('a text completion', () => {
  it('has its sampling fields checked the same way', async () => {
    const { router } = watched();
    const error = await failure(
      router.atextCompletion({ model: 'gpt-4o', prompt: 'hi', temperature: 'hot' } as never),
    );
    await router.close();
    expect(error?.message).toBe('Invalid request: request.temperature: expected number, received string');
  });
});
