import { EventEmitter } from 'eventemitter3';
import { afterEach, describe, expect, it } from 'vitest';
import type { RouterSettings } from '../../src/config/settings-schema.js';
import { type Call, compose, firstStep, type Handler, type Layer, type Step } from '../../src/router/call.js';
import { buildRouterConfig } from '../../src/router/router-config.js';
import type { RouterEvents } from '../../src/router/router-events.js';
import { RouterRuntime } from '../../src/router/runtime.js';
import type { DeploymentConfig, ModelGroup } from '../../src/types/index.js';
import { fakeCall, routed, serverError } from './layers/fixtures.js';

describe('compose', () => {
  /** A layer that notes when the call passes it on the way in and on the way out. */
  const noting =
    (name: string, trail: string[]): Layer =>
    (next) =>
    async (call, step) => {
      trail.push(`${name} in`);
      const result = await next(call, step);
      trail.push(`${name} out`);
      return result;
    };
  const end =
    (trail: string[]): Handler =>
    async <T>(call: Call<T>, step: Step) => {
      trail.push('end');
      return routed(call, step, 'done' as T);
    };
  const call = () => fakeCall(group('A'));
  const run = (handler: Handler) => handler(call(), firstStep(call()));

  it('runs the layers outermost first, each around the next', async () => {
    const trail: string[] = [];
    await run(
      compose([noting('fallbacks', trail), noting('retry', trail), noting('select', trail)], end(trail)),
    );
    expect(trail).toEqual([
      'fallbacks in',
      'retry in',
      'select in',
      'end',
      'select out',
      'retry out',
      'fallbacks out',
    ]);
  });

  it('never reaches the layers inside one that answers by itself', async () => {
    const trail: string[] = [];
    const answering: Layer = () => async (c, step) => routed(c, step, 'mocked' as never);
    const result = await run(
      compose([noting('fallbacks', trail), answering, noting('retry', trail)], end(trail)),
    );
    expect(result.result).toBe('mocked');
    expect(trail).toEqual(['fallbacks in', 'fallbacks out']);
  });

  it('is the end handler itself with no layers', () => {
    const handler = end([]);
    expect(compose([], handler)).toBe(handler);
  });
});

describe('the call path a config composes', () => {
  const runtimes: RouterRuntime[] = [];
  afterEach(async () => {
    for (const runtime of runtimes.splice(0)) await runtime.close(true);
  });

  const entry = (id: string, model_name: string, params: Record<string, unknown> = {}): DeploymentConfig => ({
    model_name,
    svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test-0000', ...params },
    model_info: { id },
  });

  function build(deployments: DeploymentConfig[], settings: RouterSettings = {}) {
    const events = new EventEmitter<RouterEvents>();
    const hops: string[] = [];
    events.on('fallback', ({ from, to }) => hops.push(`${from} -> ${to}`));
    const runtime = new RouterRuntime({ random: () => 0, env: {} }, { connections: 1 }, events);
    runtimes.push(runtime);
    const config = buildRouterConfig(deployments, settings, runtime);
    runtime.listen(() => config);
    /** A call whose attempts fail on the deployments listed, and notes every deployment tried. */
    const call = (model: string, failing: string[], request: Record<string, unknown> = {}) => {
      const tried: string[] = [];
      const on = config.registry.group(model)!;
      const c = fakeCall(on, {
        request: { model, ...request },
        deadline: runtime.now() + 60_000,
        operation: async (endpoint) => {
          const id = endpoint.deployment.id;
          tried.push(id);
          if (failing.includes(id)) throw serverError(id);
          return `answer from ${id}`;
        },
      });
      return { call: c, tried };
    };
    return { config, call, hops };
  }

  it('checks nothing before the call unless enable_pre_call_checks is on', async () => {
    // a region no deployment is in: only the pre-call checks refuse it
    const request = { allowed_model_region: 'eu' };
    const off = build([entry('a', 'A')]);
    const plain = off.call('A', [], request);
    await off.config.handler(plain.call);
    expect(plain.tried).toEqual(['a']);
    const on = build([entry('a', 'A')], { enable_pre_call_checks: true });
    const checked = on.call('A', [], request);
    await expect(on.config.handler(checked.call)).rejects.toThrow();
    expect(checked.tried).toEqual([]);
  });

  it('answers a mock fault before any retry or attempt', async () => {
    const { config, call } = build([entry('a', 'A')], { num_retries: 3 });
    const { call: c, tried } = call('A', [], { mock_testing_fallbacks: true });
    await expect(config.handler(c)).rejects.toThrow('mock_testing_fallbacks is set');
    expect(tried).toEqual([]);
    expect(c.history.attempts).toBe(0);
  });

  it('retries within each order tier before moving to the next', async () => {
    const { config, call } = build([entry('a1', 'A', { order: 1 }), entry('a2', 'A', { order: 2 })], {
      num_retries: 1,
    });
    const { call: c, tried } = call('A', ['a1']);
    expect((await config.handler(c)).result).toBe('answer from a2');
    expect(tried).toEqual(['a1', 'a1', 'a2']);
  });

  it('falls back only after the group has used its retries', async () => {
    const { config, call, hops } = build([entry('a', 'A'), entry('b', 'B')], {
      num_retries: 1,
      fallbacks: [{ A: ['B'] }],
    });
    const { call: c, tried } = call('A', ['a']);
    expect((await config.handler(c)).result).toBe('answer from b');
    expect(tried).toEqual(['a', 'a', 'b']);
    expect(hops).toEqual(['A -> B']);
  });

  it('falls back to the fallbacks a request names when none are configured', async () => {
    const { config, call, hops } = build([entry('a', 'A'), entry('b', 'B')], { num_retries: 0 });
    const plain = call('A', ['a']);
    await expect(config.handler(plain.call)).rejects.toThrow('a failed');
    expect(plain.tried).toEqual(['a']);
    const own = call('A', ['a'], { fallbacks: ['B'] });
    expect((await config.handler(own.call)).result).toBe('answer from b');
    expect(hops).toEqual(['A -> B']);
  });
});

function group(name: string): ModelGroup {
  return {
    name,
    endpoints: [],
    tiers: [{ endpoints: [], deployments: [] }],
    ids: [],
    coolable: false,
    billable: 'all',
  };
}
