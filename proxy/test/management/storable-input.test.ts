import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestProxy, type TestProxy } from '../harness.js';
import { type Answer, client } from './client.js';

const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';

/** `{"a": {"a": ... 1}}`, `depth` objects deep, as JSON text (JSON.stringify would recurse). */
const nestedJson = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

// Input the schema used to accept and the database cannot store got a 500; each is a 400 naming the
// field and why, and the largest values that can be stored still are, on both engines.
describe.each(ENGINES)('management input the database cannot store (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine);
  });
  afterAll(() => t.close());
  const { post, get, newKey } = client(() => t);
  const raw = async (url: string, payload: string): Promise<Answer> => {
    const res = await t.proxy.app.inject({
      method: 'POST',
      url,
      headers: { ...t.admin, 'content-type': 'application/json' },
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const refused = (answer: Answer, field: string, reason: string) => {
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    expect(answer.body.error.message).toContain(`${field}: ${reason}`);
  };

  it('GET /spend/logs with a date outside the years the database reads is 400, for a virtual key too', async () => {
    const { headers } = await newKey();
    const reason = 'outside the times the database stores: from 0001-01-01 to 9999-12-31 (UTC)';
    refused(await get('/spend/logs?start_date=-271821-04-20T00:00:00.000Z', headers), 'start_date', reason);
    refused(await get('/spend/logs?end_date=%2B010000-01-01T00:00:00.000Z', headers), 'end_date', reason);
  });

  it('GET /spend/logs takes the first and last times of that range', async () => {
    const first = await get('/spend/logs?start_date=0001-01-01T00:00:00.000Z');
    const last = await get('/spend/logs?end_date=9999-12-31');
    expect([first.status, last.status]).toEqual([200, 200]);
    expect(Array.isArray(first.body) && Array.isArray(last.body)).toBe(true);
  });

  it('GET /spend/report takes days from 0001-01-01 to 9999-12-31, and no other', async () => {
    const reason = 'outside the times the database stores: from 0001-01-01 to 9999-12-31 (UTC)';
    refused(await get('/spend/report?start_date=0000-06-01&end_date=0000-12-31'), 'start_date', reason);
    const first = await get('/spend/report?start_date=0001-01-01&end_date=0001-01-31');
    const last = await get('/spend/report?start_date=9999-12-01&end_date=9999-12-31');
    expect([first.status, last.status]).toEqual([200, 200]);
    expect(last.body).toMatchObject({ start_date: '9999-12-01', end_date: '9999-12-31', data: [] });
  });

  it.each([
    ['/key/generate', { key_alias: `a${NUL}b` }, 'key_alias'],
    ['/key/generate', { team_id: `t${NUL}` }, 'team_id'],
    ['/key/generate', { models: ['gpt-4o', `m${NUL}`] }, 'models[1]'],
    ['/team/new', { team_id: `t${NUL}` }, 'team_id'],
    ['/team/new', { team_alias: `t${NUL}` }, 'team_alias'],
    ['/user/new', { user_id: `u${NUL}` }, 'user_id'],
    ['/organization/new', { organization_alias: `o${NUL}` }, 'organization_alias'],
    ['/jwt/key/mapping/new', { jwt_claim_name: `c${NUL}`, jwt_claim_value: 'v', key: 'k' }, 'jwt_claim_name'],
  ])('POST %s with a NUL character in %j is 400 naming the field', async (route, body, field) => {
    refused(await post(route, body), field, 'contains a NUL character (U+0000)');
  });

  it.each([
    ['/key/generate', { key_alias: `a${LONE_SURROGATE}` }, 'key_alias'],
    ['/team/new', { team_id: `t${LONE_SURROGATE}x` }, 'team_id'],
    ['/user/new', { user_id: `\udc00u` }, 'user_id'],
  ])('POST %s with a lone surrogate in %j is 400 rather than stored altered', async (route, body, field) => {
    refused(await post(route, body), field, 'contains a lone surrogate');
  });

  it('text with a surrogate pair (an emoji) is stored and read back as given', async () => {
    const { status, body } = await post('/team/new', { team_alias: 'rocket 🚀', metadata: { icon: '🚀' } });
    expect(status).toBe(200);
    const read = await get(`/team/info?team_id=${body.team_id}`);
    expect(read.body.team_info).toMatchObject({ team_alias: 'rocket 🚀', metadata: { icon: '🚀' } });
  });

  it('a NUL character in a metadata value or key is 400 naming where it is', async () => {
    refused(
      await post('/key/generate', { metadata: { note: `x${NUL}` } }),
      'metadata.note',
      'contains a NUL',
    );
    refused(
      await post('/team/new', { metadata: { tags: ['ok', `y${LONE_SURROGATE}`] } }),
      'metadata.tags[1]',
      'contains a lone surrogate',
    );
    refused(
      await post('/key/generate', { metadata: { [`k${NUL}`]: 1 } }),
      'metadata',
      'a key contains a NUL',
    );
  });

  it('a NUL character in a query filter is 400 naming it', async () => {
    refused(await get('/team/info?team_id=a%00b'), 'team_id', 'contains a NUL');
    refused(await get('/spend/logs?user_id=a%00b'), 'user_id', 'contains a NUL');
  });

  it('rpm_limit and tpm_limit above the integer column are 400; its largest value is stored', async () => {
    refused(await post('/key/generate', { rpm_limit: 2147483648 }), 'rpm_limit', 'at most 2147483647');
    refused(await post('/team/new', { tpm_limit: 2147483648 }), 'tpm_limit', 'at most 2147483647');
    const { status, body } = await post('/key/generate', { rpm_limit: 2147483647, tpm_limit: 2147483647 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ rpm_limit: 2147483647, tpm_limit: 2147483647 });
  });

  it('a duration whose expiry no database time can hold is 400; 100 years is stored', async () => {
    refused(
      await post('/key/generate', { duration: '99999999999d' }),
      'duration',
      'at most 36500d (100 years)',
    );
    const { status, body } = await post('/key/generate', { duration: '36500d' });
    expect(status).toBe(200);
    expect(new Date(body.expires).getUTCFullYear()).toBeGreaterThanOrEqual(new Date().getUTCFullYear() + 99);
  });

  it('metadata nested 10,000 deep is 400; 32 levels are stored and read back', async () => {
    refused(
      await raw('/key/generate', `{"metadata":${nestedJson(10_000)}}`),
      'metadata',
      'nests deeper than 32 levels',
    );
    refused(
      await raw('/team/new', `{"metadata":{"x":[${nestedJson(40)}]}}`),
      'metadata',
      'nests deeper than 32 levels',
    );
    const { status, body } = await raw('/team/new', `{"metadata":${nestedJson(32)}}`);
    expect(status).toBe(200);
    expect(JSON.stringify(body.metadata)).toBe(nestedJson(32));
  });

  it('router_settings the settings table cannot store are 400', async () => {
    const answer = await post('/config/update', {
      router_settings: { model_group_alias: { [`a${NUL}`]: 'gpt-4o' } },
    });
    refused(answer, 'router_settings.model_group_alias', 'a key contains a NUL');
  });
});
