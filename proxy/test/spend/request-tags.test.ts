// Request tags (CONTRACT 6.6, issue 25 item 3): `metadata.tags` or header `x-svc-tags` on the call's
// spend row, `/spend/report?group_by=tag`, and tag routing through the proxy (`enable_tag_filtering`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TAG_LENGTH, MAX_TAGS } from '../../src/http/request-tags.js';
import { ENGINES, eventually, mockDeployment, startTestProxy, type TestProxy } from '../harness.js';
import { client } from '../management/client.js';

const USER = [{ role: 'user', content: 'hi' }];
const today = () => new Date().toISOString().slice(0, 10);

describe.each(ENGINES)('request tags (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine, {
      models: (mock) => [
        mockDeployment(mock, 'paid', 'gpt-4o', { tags: ['paid'] }),
        mockDeployment(mock, 'free', 'gpt-4o', { tags: ['free', 'default'] }),
      ],
      router_settings: { enable_tag_filtering: true },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const { post, get, newKey } = client(() => t);
  const rowsOf = async (keyHash: string, count: number) => {
    let rows: Array<{ tags: string[] | null; model_id: string }> = [];
    await eventually(async () => {
      rows = (await get(`/spend/logs?key=${keyHash}`)).body;
      if (rows.length < count) throw new Error(`${rows.length} of ${count} spend rows`);
    });
    return rows;
  };

  it("keeps metadata.tags and the x-svc-tags header's tags on the spend row, each once", async () => {
    const { headers, keyHash } = await newKey();
    const body = { model: 'gpt-4o', messages: USER, metadata: { tags: ['paid', 'checkout'] } };
    const res = await post('/v1/chat/completions', body, { ...headers, 'x-svc-tags': 'prod, checkout,' });
    expect(res.status).toBe(200);

    const [row] = await rowsOf(keyHash, 1);
    expect(row!.tags).toEqual(['paid', 'checkout', 'prod']);
  });

  it('routes by the tags of the header too: a paid call goes to the paid deployment', async () => {
    const { headers, keyHash } = await newKey();
    for (let i = 0; i < 4; i++) {
      const res = await post(
        '/v1/chat/completions',
        { model: 'gpt-4o', messages: USER },
        {
          ...headers,
          'x-svc-tags': 'paid',
        },
      );
      expect(res.status).toBe(200);
    }
    expect((await rowsOf(keyHash, 4)).map((r) => r.model_id)).toEqual(['paid', 'paid', 'paid', 'paid']);
  });

  it('routes an untagged call to the deployment tagged default and stores tags null', async () => {
    const { headers, keyHash } = await newKey();
    for (let i = 0; i < 3; i++) {
      expect((await post('/v1/chat/completions', { model: 'gpt-4o', messages: USER }, headers)).status).toBe(
        200,
      );
    }
    const rows = await rowsOf(keyHash, 3);
    expect(rows.map((r) => [r.model_id, r.tags])).toEqual([
      ['free', null],
      ['free', null],
      ['free', null],
    ]);
  });

  it("reads /v1/messages' metadata.tags and /v1/responses' header tags", async () => {
    const { headers, keyHash } = await newKey();
    const messages = { model: 'gpt-4o', max_tokens: 16, messages: USER, metadata: { tags: ['paid'] } };
    expect((await post('/v1/messages', messages, headers)).status).toBe(200);
    const responses = { model: 'gpt-4o', input: 'hi', store: false };
    expect((await post('/v1/responses', responses, { ...headers, 'x-svc-tags': 'paid,ui' })).status).toBe(
      200,
    );

    const rows = await rowsOf(keyHash, 2);
    expect(rows.map((r) => [r.model_id, r.tags])).toEqual([
      ['paid', ['paid', 'ui']],
      ['paid', ['paid']],
    ]);
  });

  it('refuses a tagged call no deployment serves with 400 naming the tags', async () => {
    const { headers } = await newKey();
    const res = await post(
      '/v1/chat/completions',
      { model: 'gpt-4o', messages: USER },
      {
        ...headers,
        'x-svc-tags': 'beta',
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('no_deployment_for_tags');
    expect(res.body.error.message).toContain('`beta`');
  });

  it.each([
    [{ tags: 'paid' }, undefined, '`metadata.tags`: expected a list of strings.'],
    [{ tags: ['paid', 7] }, undefined, '`metadata.tags[1]`: expected a non-empty string; got 7.'],
    [{ tags: ['x'.repeat(MAX_TAG_LENGTH + 1)] }, undefined, '`metadata.tags[0]`: a tag is at most'],
    [
      { tags: Array.from({ length: MAX_TAGS + 1 }, (_, i) => `t${i}`) },
      undefined,
      `at most ${MAX_TAGS} tags`,
    ],
    [undefined, 'y'.repeat(MAX_TAG_LENGTH + 1), '`x-svc-tags`: a tag is at most'],
  ])('refuses bad tags with 400 naming the field (%#)', async (metadata, header, message) => {
    const { headers } = await newKey();
    const res = await post(
      '/v1/chat/completions',
      { model: 'gpt-4o', messages: USER, ...(metadata && { metadata }) },
      { ...headers, ...(header && { 'x-svc-tags': header }) },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it('reports spend by tag in the shape of group_by=team: a row per tag, untagged under null', async () => {
    // rows are written in batches: every call above (11 rows; a refused tag writes none) first
    await eventually(async () => expect((await get('/spend/logs')).body).toHaveLength(11));
    const { status, body } = await get(
      `/spend/report?group_by=tag&start_date=${today()}&end_date=${today()}`,
    );
    expect(status).toBe(200);
    expect(body.group_by).toBe('tag');
    const groups = body.data.map((r: { group: string | null }) => r.group);
    // `beta`: the refused call's failure row keeps its tags too
    expect(groups).toEqual(['beta', 'checkout', 'paid', 'prod', 'ui', null]);
    const requests = Object.fromEntries(
      body.data.map((r: { group: string | null; requests: number }) => [r.group, r.requests]),
    );
    // the call tagged paid, checkout and prod counts under each of them
    expect(requests).toEqual({ beta: 1, checkout: 1, paid: 7, prod: 1, ui: 1, null: 3 });
    expect(Object.keys(body.data[0]).sort()).toEqual(
      ['completion_tokens', 'day', 'group', 'prompt_tokens', 'requests', 'spend'].sort(),
    );
  });
});
