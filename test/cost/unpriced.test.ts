import { afterAll, describe, expect, it } from 'vitest';
import { BadRequestError, type DeploymentConfig, type Logger, Router } from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';

interface Line {
  message: string;
  fields: Record<string, unknown> | undefined;
}

function recordingLogger(): Logger & { warnings: Line[] } {
  const warnings: Line[] = [];
  const nothing = () => {};
  return {
    warnings,
    debug: nothing,
    info: nothing,
    error: nothing,
    warn: (message, fields) => void warnings.push({ message, fields: fields as Record<string, unknown> }),
  };
}

describe('unpriced deployments', () => {
  const mock = useMock();
  const routers: Router[] = [];
  afterAll(async () => {
    await Promise.all(routers.map((r) => r.close()));
  });

  /** A deployment of a model no catalog prices (a house model behind an OpenAI-compatible server). */
  const house = (id: string, group = 'gpt-4o', info: Record<string, unknown> = {}): DeploymentConfig => ({
    ...deployment(mock, id, { model: 'openai/house-model' }, group),
    model_info: { id, ...info },
  });
  const make = (list: DeploymentConfig[], logger?: Logger) => {
    const router = new Router(list, {}, logger ? { logger } : {});
    routers.push(router);
    return router;
  };

  it('are named in one warning at construction, each by model_name and model', () => {
    const logger = recordingLogger();
    make([deployment(mock, 'a'), house('b'), house('c', 'other')], logger);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]?.message).toContain('gpt-4o (openai/house-model), other (openai/house-model)');
    expect(logger.warnings[0]?.fields).toEqual({
      unpriced: ['gpt-4o (openai/house-model)', 'other (openai/house-model)'],
    });
  });

  it('are not named again when the model list changes', () => {
    const logger = recordingLogger();
    const router = make([house('b')], logger);
    router.addDeployment(deployment(mock, 'a'));
    router.updateSettings({ num_retries: 1 });
    expect(logger.warnings).toHaveLength(1);
    router.addDeployment(house('c', 'other'));
    expect(logger.warnings).toHaveLength(2);
    expect(logger.warnings[1]?.fields).toEqual({ unpriced: ['other (openai/house-model)'] });
  });

  it('warn about nothing when every deployment is priced', () => {
    const logger = recordingLogger();
    make(
      [deployment(mock, 'a'), house('b', 'gpt-4o', { input_cost_per_token: 0, output_cost_per_token: 0 })],
      logger,
    );
    expect(logger.warnings).toEqual([]);
  });

  it('are flagged priced: false in getDeployments()', () => {
    const router = make([deployment(mock, 'a'), house('b')]);
    expect(router.getDeployments().map((d) => [d.model_id, d.priced])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('answer a plain call with response_cost 0 and priced: false', async () => {
    const router = make([house('b')]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER });
    expect(res._hidden_params).toMatchObject({ response_cost: 0, priced: false });
  });

  it('refuse a pricedOnly call with 400 model_unpriced before any upstream call', async () => {
    const router = make([house('b')]);
    const call = router.acompletion({ model: 'gpt-4o', messages: USER }, { pricedOnly: true });
    await expect(call).rejects.toBeInstanceOf(BadRequestError);
    await expect(call).rejects.toMatchObject({ code: 'model_unpriced', status: 400 });
    await expect(call).rejects.toThrow(/`gpt-4o` has no price .*`openai\/house-model`.*allow_unpriced/);
    expect(mock.requests).toHaveLength(0);
  });

  it('serve a pricedOnly call when they set model_info.allow_unpriced', async () => {
    const router = make([house('b', 'gpt-4o', { allow_unpriced: true })]);
    const res = await router.acompletion({ model: 'gpt-4o', messages: USER }, { pricedOnly: true });
    expect(res._hidden_params).toMatchObject({ model_id: 'b', priced: false });
  });

  it('are skipped by pricedOnly calls in a group that has priced deployments', async () => {
    const router = make([house('b'), deployment(mock, 'a'), house('c')]);
    const served = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const res = await router.acompletion({ model: 'gpt-4o', messages: USER }, { pricedOnly: true });
      served.add(res._hidden_params.model_id);
    }
    expect([...served]).toEqual(['a']);
  });
});

describe('context windows from the catalog', () => {
  const mock = useMock();

  it('keep a prompt off a deployment whose window is too small (pre-call checks)', async () => {
    // gpt-4: 8,192 tokens; gpt-4o: 128,000 (the catalog's windows)
    const router = new Router(
      [
        deployment(mock, 'small', { model: 'openai/gpt-4' }),
        deployment(mock, 'big', { model: 'openai/gpt-4o' }),
      ],
      { enable_pre_call_checks: true },
    );
    const prompt = [{ role: 'user' as const, content: 'word '.repeat(20_000) }];
    const served = new Set<string>();
    for (let i = 0; i < 6; i++)
      served.add((await router.acompletion({ model: 'gpt-4o', messages: prompt }))._hidden_params.model_id);
    await router.close();
    expect([...served]).toEqual(['big']);
  });
});
