import { describe, expect, it } from 'vitest';
import {
  ContentPolicyViolationError,
  ContextWindowExceededError,
  InternalServerError,
} from '../../../src/errors/classes.js';
import { requestFault } from '../../../src/errors/request-fault.js';
import type { RouterError } from '../../../src/errors/router-error.js';
import type { Call } from '../../../src/router/call.js';
import { type FallbacksDeps, fallbacksLayer } from '../../../src/router/layers/fallbacks.js';
import { drive, endpoint, fakeCall, group, type Step, scriptedNext, serverError } from './fixtures.js';

const groups = new Map(
  ['A', 'B', 'C', 'D'].map((name) => [name, group([endpoint(name.toLowerCase(), { group: name })])]),
);
const A = groups.get('A')!;

function setUp(steps: Step[], settings: Partial<FallbacksDeps['settings']> = {}) {
  const { next, seen } = scriptedNext(...steps);
  const hops: Array<[string, string, RouterError]> = [];
  const layer = fallbacksLayer({
    settings: {
      fallbacks: [],
      context_window_fallbacks: [],
      content_policy_fallbacks: [],
      default_fallbacks: [],
      maxFallbacks: 5,
      ...settings,
    },
    group: (name) => groups.get(name),
    onFallback: (from, to, error) => hops.push([from, to, error]),
  })(next);
  const fallbacks = drive(layer);
  const call = (overrides: Partial<Call<string>> = {}) => fakeCall(A, overrides);
  const tried = () => seen.map((s) => s.group);
  return { fallbacks, call, tried, hops, seen };
}

const refusal = () => new ContentPolicyViolationError('flagged by the safety system');
const tooLong = () => new ContextWindowExceededError('prompt is too long');

describe('fallbacks layer', () => {
  it('answers from the requested group without falling back', async () => {
    const { fallbacks, call, tried, hops } = setUp(['served'], { fallbacks: [{ A: ['B'] }] });
    expect((await fallbacks(call())).result).toBe('served');
    expect(tried()).toEqual(['A']);
    expect(hops).toEqual([]);
  });

  it("tries the group's fallbacks in order and tells each hop", async () => {
    const first = serverError('a');
    const second = serverError('b');
    const { fallbacks, call, tried, hops } = setUp([first, second, 'served'], {
      fallbacks: [{ A: ['B', 'C'] }],
    });
    expect((await fallbacks(call())).result).toBe('served');
    expect(tried()).toEqual(['A', 'B', 'C']);
    expect(hops).toEqual([
      ['A', 'B', first],
      ['B', 'C', second],
    ]);
  });

  it("moves the call to the fallback group's first tier, with a clean slate of pre-call checks and backoff", async () => {
    const { fallbacks, call, seen } = setUp([serverError('a')], { fallbacks: [{ A: ['B'] }] });
    const routed = call();
    await fallbacks(routed, {
      admits: () => true,
      backoff: { id: 'a', waitMs: 100, error: serverError('a') },
    });
    const B = groups.get('B')!;
    const moved = seen[1]!.step;
    expect(moved.group).toBe(B);
    expect(moved.tier).toBe(B.tiers[0]);
    expect(moved.admits).toBeUndefined();
    expect(moved.backoff).toBeUndefined();
    expect(routed.group.name).toBe('A');
  });

  it('throws the last fallback’s error when every group fails', async () => {
    const last = serverError('c');
    const { fallbacks, call } = setUp([serverError('a'), serverError('b'), last], {
      fallbacks: [{ A: ['B', 'C'] }],
    });
    await expect(fallbacks(call())).rejects.toBe(last);
  });

  it("takes the request's own fallbacks over the configured ones", async () => {
    const { fallbacks, call, tried } = setUp([serverError('a')], { fallbacks: [{ A: ['B'] }] });
    await fallbacks(call({ request: { model: 'A', fallbacks: ['C'] } }));
    expect(tried()).toEqual(['A', 'C']);
  });

  it('falls back to default_fallbacks when the group has none of its own', async () => {
    const { fallbacks, call, tried } = setUp([serverError('a')], { default_fallbacks: ['D'] });
    await fallbacks(call());
    expect(tried()).toEqual(['A', 'D']);
  });

  it('makes at most max_fallbacks hops', async () => {
    const errors = [serverError('a'), serverError('b'), serverError('c'), 'never'];
    const { fallbacks, call, tried } = setUp(errors, {
      fallbacks: [{ A: ['B', 'C', 'D'] }],
      maxFallbacks: 2,
    });
    await expect(fallbacks(call())).rejects.toBe(errors[2]);
    expect(tried()).toEqual(['A', 'B', 'C']);
  });

  it('tries each group at most once per call, the requested one included', async () => {
    const { fallbacks, call, tried } = setUp([serverError('a'), serverError('b')], {
      fallbacks: [{ A: ['A', 'B', 'B'] }],
    });
    await expect(fallbacks(call())).rejects.toThrow('b failed');
    expect(tried()).toEqual(['A', 'B']);
  });

  it('skips a fallback that names no group, without counting it as a hop', async () => {
    const { fallbacks, call, tried } = setUp([serverError('a'), 'served'], {
      fallbacks: [{ A: ['gone', 'B'] }],
      maxFallbacks: 1,
    });
    expect((await fallbacks(call())).result).toBe('served');
    expect(tried()).toEqual(['A', 'B']);
  });

  it('sends a content-policy refusal only to content_policy_fallbacks', async () => {
    const { fallbacks, call, tried } = setUp([refusal(), 'served'], {
      fallbacks: [{ A: ['B'] }],
      content_policy_fallbacks: [{ A: ['C'] }],
    });
    expect((await fallbacks(call())).result).toBe('served');
    expect(tried()).toEqual(['A', 'C']);
  });

  it('never routes around a refusal when no content_policy_fallbacks are set', async () => {
    const error = refusal();
    const { fallbacks, call, tried } = setUp([error], {
      fallbacks: [{ A: ['B'] }],
      default_fallbacks: ['C'],
    });
    await expect(fallbacks(call())).rejects.toBe(error);
    expect(tried()).toEqual(['A']);
  });

  it('stops at a refusal met on a general fallback', async () => {
    const error = refusal();
    const { fallbacks, call, tried } = setUp([serverError('a'), error], { fallbacks: [{ A: ['B', 'C'] }] });
    await expect(fallbacks(call())).rejects.toBe(error);
    expect(tried()).toEqual(['A', 'B']);
  });

  it('sends a context-window error to context_window_fallbacks first', async () => {
    const { fallbacks, call, tried } = setUp([tooLong(), 'served'], {
      fallbacks: [{ A: ['B'] }],
      context_window_fallbacks: [{ A: ['C'] }],
    });
    await fallbacks(call());
    expect(tried()).toEqual(['A', 'C']);
  });

  it('sends a context-window error to the general fallbacks when it has no list of its own', async () => {
    const { fallbacks, call, tried } = setUp([tooLong(), 'served'], { fallbacks: [{ A: ['B'] }] });
    await fallbacks(call());
    expect(tried()).toEqual(['A', 'B']);
  });

  it("never falls back on a request's own fault", async () => {
    const fault = requestFault('messages', new TypeError('cyclic structure'));
    const { fallbacks, call, tried } = setUp([fault], { fallbacks: [{ A: ['B'] }] });
    await expect(fallbacks(call())).rejects.toBe(fault);
    expect(tried()).toEqual(['A']);
  });

  it('never falls back after the caller aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    const { fallbacks, call, tried } = setUp(
      [
        () => {
          controller.abort(reason);
          return reason;
        },
      ],
      { fallbacks: [{ A: ['B'] }] },
    );
    await expect(fallbacks(call({ signal: controller.signal }))).rejects.toBe(reason);
    expect(tried()).toEqual(['A']);
  });

  it('never falls back on an error that is not a router error (a bug, not a provider failure)', async () => {
    const bug = new TypeError('cannot read properties of undefined');
    const { fallbacks, call, tried } = setUp([bug], { fallbacks: [{ A: ['B'] }] });
    await expect(fallbacks(call())).rejects.toBe(bug);
    expect(tried()).toEqual(['A']);
  });

  it('throws the error as is when the group has no fallbacks', async () => {
    const error = new InternalServerError('down');
    const { fallbacks, call } = setUp([error]);
    await expect(fallbacks(call())).rejects.toBe(error);
  });

  describe("with the caller's allowModel", () => {
    const onlyAandC = (model: string) => model === 'A' || model === 'C';

    it('skips a fallback the caller may not use, without a hop or an event, and serves from the next', async () => {
      const first = serverError('a');
      const { fallbacks, call, tried, hops } = setUp([first, 'served'], {
        fallbacks: [{ A: ['B', 'C'] }],
        maxFallbacks: 1,
      });
      expect((await fallbacks(call({ allowModel: onlyAandC }))).result).toBe('served');
      expect(tried()).toEqual(['A', 'C']);
      expect(hops).toEqual([['A', 'C', first]]);
    });

    it("skips a request's own fallbacks the caller may not use", async () => {
      const { fallbacks, call, tried } = setUp([serverError('a'), 'served']);
      await fallbacks(call({ request: { model: 'A', fallbacks: ['B', 'C'] }, allowModel: onlyAandC }));
      expect(tried()).toEqual(['A', 'C']);
    });

    it('skips context-window and content-policy fallbacks the caller may not use', async () => {
      const tooLongError = tooLong();
      const window = setUp([tooLongError], { context_window_fallbacks: [{ A: ['B'] }] });
      await expect(window.fallbacks(window.call({ allowModel: onlyAandC }))).rejects.toBe(tooLongError);
      expect(window.tried()).toEqual(['A']);
      const refused = refusal();
      const policy = setUp([refused], { content_policy_fallbacks: [{ A: ['D'] }] });
      await expect(policy.fallbacks(policy.call({ allowModel: onlyAandC }))).rejects.toBe(refused);
      expect(policy.tried()).toEqual(['A']);
    });

    it('throws the original failure when no fallback is allowed', async () => {
      const error = serverError('a');
      const { fallbacks, call, tried, hops } = setUp([error], {
        fallbacks: [{ A: ['B'] }],
        default_fallbacks: ['D'],
      });
      await expect(fallbacks(call({ allowModel: onlyAandC }))).rejects.toBe(error);
      expect(tried()).toEqual(['A']);
      expect(hops).toEqual([]);
    });

    it('asks about each fallback by the name its list gives', async () => {
      const asked: string[] = [];
      const { fallbacks, call } = setUp([serverError('a'), serverError('b'), serverError('c')], {
        fallbacks: [{ A: ['B', 'gone', 'C'] }],
      });
      const allowModel = (model: string) => {
        asked.push(model);
        return true;
      };
      await expect(fallbacks(call({ allowModel }))).rejects.toThrow('c failed');
      expect(asked).toEqual(['B', 'gone', 'C']);
    });
  });
});
