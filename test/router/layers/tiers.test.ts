import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NoDeploymentsAvailableError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../../../src/errors/classes.js';
import { requestFault } from '../../../src/errors/request-fault.js';
import type { RouterError } from '../../../src/errors/router-error.js';
import { isDeploymentFailure, tiersLayer } from '../../../src/router/layers/tiers.js';
import {
  drive,
  endpoint,
  fakeCall,
  group,
  noDeployments,
  type Step,
  scriptedNext,
  serverError,
} from './fixtures.js';

const primary = endpoint('primary', { svc_params: { order: 1 } });
const secondary = endpoint('secondary', { svc_params: { order: 2 } });
const backup = endpoint('backup');
const tiered = group([primary], [secondary], [backup]);

function setUp(steps: Step[], on = tiered) {
  const { next, seen } = scriptedNext(...steps);
  const tiers = drive(tiersLayer({ noDeployments })(next));
  return { tiers, call: fakeCall(on), seen };
}

const triedTiers = (seen: { tier: string[] }[]) => seen.map((s) => s.tier.join());

describe('tiers layer', () => {
  it('runs a group of one tier once, on that tier', async () => {
    const single = group([primary, backup]);
    const { tiers, call, seen } = setUp([serverError('primary')], single);
    await expect(tiers(call)).rejects.toThrow('primary failed');
    expect(triedTiers(seen)).toEqual(['primary,backup']);
  });

  it('answers from the lowest tier while it serves', async () => {
    const { tiers, call, seen } = setUp(['served']);
    expect((await tiers(call)).result).toBe('served');
    expect(triedTiers(seen)).toEqual(['primary']);
  });

  it('moves to the next tier when one fails', async () => {
    const { tiers, call, seen } = setUp([serverError('primary'), 'served']);
    expect((await tiers(call)).result).toBe('served');
    expect(triedTiers(seen)).toEqual(['primary', 'secondary']);
  });

  it('moves to the next tier when one has nothing available', async () => {
    const { tiers, call, seen } = setUp([noDeployments(tiered), noDeployments(tiered), 'served']);
    expect((await tiers(call)).result).toBe('served');
    expect(triedTiers(seen)).toEqual(['primary', 'secondary', 'backup']);
  });

  it.each([
    ['401', new AuthenticationError('invalid api key')],
    ['403', new PermissionDeniedError('no access to this model')],
    ['404', new NotFoundError('no such model')],
    ['429', new RateLimitError('slow down')],
  ])('moves to the next tier on a %s: it is the deployment that cannot serve', async (_, error) => {
    const { tiers, call, seen } = setUp([error, 'served']);
    expect((await tiers(call)).result).toBe('served');
    expect(seen).toHaveLength(2);
  });

  it('stops at a bad request: the next tier would refuse it too', async () => {
    const error = new BadRequestError('messages: must not be empty');
    const { tiers, call, seen } = setUp([error]);
    await expect(tiers(call)).rejects.toBe(error);
    expect(seen).toHaveLength(1);
  });

  it("stops at a request's own fault", async () => {
    const fault = requestFault('messages', new TypeError('cyclic structure'));
    const { tiers, call, seen } = setUp([fault]);
    await expect(tiers(call)).rejects.toBe(fault);
    expect(seen).toHaveLength(1);
  });

  it('stops when the caller aborted', async () => {
    const controller = new AbortController();
    const { tiers, call, seen } = setUp([
      () => {
        controller.abort();
        return serverError('primary');
      },
    ]);
    const aborted = { ...call, signal: controller.signal };
    await expect(tiers(aborted)).rejects.toThrow('primary failed');
    expect(seen).toHaveLength(1);
  });

  it('throws the last real failure when the later tiers have nothing available', async () => {
    const failure = serverError('primary');
    const { tiers, call } = setUp([failure, noDeployments(tiered), noDeployments(tiered)]);
    await expect(tiers(call)).rejects.toBe(failure);
  });

  it('throws the "no deployments" error when no tier had anything available', async () => {
    const none = () => noDeployments(tiered);
    const { tiers, call } = setUp([none(), none(), none()]);
    const error = await tiers(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoDeploymentsAvailableError);
    expect((error as Error).message).toBe('No deployments available for gpt-4o');
  });
});

describe('isDeploymentFailure', () => {
  it.each<[string, RouterError, boolean]>([
    ['a retryable 500', serverError('a'), true],
    ['a 401', new AuthenticationError('x'), true],
    ['a 403', new PermissionDeniedError('x'), true],
    ['a 404', new NotFoundError('x'), true],
    ['a 400', new BadRequestError('x'), false],
    ['a 500 marked not retryable', new InternalServerError('x', { retryable: false }), false],
  ])('tells whether %s is the deployment’s failure (%s)', (_, error, expected) => {
    expect(isDeploymentFailure(error)).toBe(expected);
  });
});
