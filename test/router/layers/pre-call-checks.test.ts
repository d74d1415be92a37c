import { describe, expect, it } from 'vitest';
import { ContextWindowExceededError } from '../../../src/errors/classes.js';
import type { Call } from '../../../src/router/call.js';
import { preCallChecksLayer } from '../../../src/router/layers/pre-call-checks.js';
import type { Endpoint } from '../../../src/types/index.js';
import { drive, endpoint, fakeCall, group, scriptedNext } from './fixtures.js';

const eu = endpoint('eu', { svc_params: { region_name: 'eu' } });
const us = endpoint('us', { svc_params: { region_name: 'us' } });
// gpt-4 holds 8,192 tokens, gpt-4o 128,000 (the cost map)
const small = endpoint('small', { svc_params: { model: 'openai/gpt-4' } });
const big = endpoint('big', { svc_params: { model: 'openai/gpt-4o' } });
const longPrompt = [{ role: 'user', content: 'lorem ipsum dolor sit amet '.repeat(2500) }];

function setUp(endpoints: Endpoint[], request: Record<string, unknown> = {}) {
  const { next, seen } = scriptedNext('served');
  const on = group(endpoints);
  const call: Call<string> = fakeCall(on, { request: { ...fakeCall(on).request, ...request } });
  return { checks: drive(preCallChecksLayer(next)), call, seen };
}

describe('pre-call checks layer', () => {
  it('gives the rest of the call the checks of its group before calling on', async () => {
    const { checks, call, seen } = setUp([eu, us]);
    expect((await checks(call)).result).toBe('served');
    expect(seen[0]?.admits).toBe(true);
  });

  it('admits only deployments in the region the request asks for', async () => {
    const { checks, call, seen } = setUp([eu, us], { allowed_model_region: 'eu' });
    await checks(call);
    expect([eu, us].filter(seen[0]!.step.admits!).map((e) => e.deployment.id)).toEqual(['eu']);
  });

  it('admits only deployments whose context window holds the prompt', async () => {
    const { checks, call, seen } = setUp([small, big], { messages: longPrompt });
    await checks(call);
    expect([small, big].filter(seen[0]!.step.admits!).map((e) => e.deployment.id)).toEqual(['big']);
  });

  it('fails with ContextWindowExceededError, calling nothing, when no deployment holds the prompt', async () => {
    const { checks, call, seen } = setUp([small], { messages: longPrompt });
    const error = await checks(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowExceededError);
    expect((error as Error).message).toMatch(
      /^The prompt \(about \d+ tokens\) does not fit the context window of any deployment of gpt-4o$/,
    );
    expect(seen).toEqual([]);
  });
});
