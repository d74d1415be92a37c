import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../test/support/tcp-faults.js';
import { mockDeployment, startTestProxy, type TestProxy } from './harness.js';
import { client } from './management/client.js';

const PASSWORD = 'hunter22-db-secret';

// What a caller and the log are told when something fails that the caller did not cause. On Postgres
// only: the unexpected database error is made by moving a table away under the running proxy.
describe('what failures tell the caller and the log', () => {
  const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const lines: Array<Record<string, unknown>> = [];
  let t: TestProxy;
  let port: number;
  beforeAll(async () => {
    port = await closedPort();
    t = await startTestProxy('postgres', {
      models: (mock) => [
        mockDeployment(mock, 'east'),
        {
          model_name: 'down',
          svc_params: {
            model: 'openai/gpt-4o',
            api_base: `http://127.0.0.1:${port}/v1`,
            api_key: 'sk-up-0000',
          },
        },
      ],
      router_settings: { num_retries: 0 },
      // trust auth ignores the password: it is here to be looked for in what the proxy writes
      general_settings: {
        database_url: `postgres://postgres:${PASSWORD}@127.0.0.1:5432/test`,
        database_schema: schema,
        log_level: 'error',
      },
      logStream: { write: (line) => void lines.push(JSON.parse(line)) },
    });
  });
  afterAll(async () => {
    await t.close();
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  const { post, get } = client(() => t);
  const unexpected = () => lines.filter((line) => String(line.msg).startsWith('answered 500 internal_error'));

  it('a deployment that refuses connections: 500 api_connection naming no host or port', async () => {
    const { status, body } = await post('/v1/chat/completions', {
      model: 'down',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(status).toBe(500);
    expect(body.error.code).toBe('api_connection');
    expect(body.error.message).toContain('connection refused (ECONNREFUSED)');
    expect(body.error.message).not.toMatch(new RegExp(`127\\.0\\.0\\.1|${port}`));
    expect(unexpected()).toHaveLength(0);
  });

  it('an unexpected database error answers 500 and writes one log line with its cause, no secret', async () => {
    // moved away and back, not dropped: the spend rows the proxy writes charge organizations too, and
    // a table gone for good kept its close() retrying them for 25 s
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
    await admin.connect();
    await admin.query(`ALTER TABLE ${schema}.svc_organizations RENAME TO svc_organizations_away`);
    const answer = await get('/organization/info?organization_id=org_1').finally(async () => {
      await admin.query(`ALTER TABLE ${schema}.svc_organizations_away RENAME TO svc_organizations`);
      await admin.end();
    });
    const { status, body } = answer;
    expect(status).toBe(500);
    expect(body.error).toEqual({
      message: 'The proxy failed to handle this request.',
      type: 'api_error',
      code: 'internal_error',
    });
    expect(unexpected()).toHaveLength(1);
    const [line] = unexpected();
    expect(line).toMatchObject({
      level: 50,
      route: '/organization/info',
      call_id: expect.any(String),
      error: { type: 'error', code: '42P01', message: expect.stringContaining('svc_organizations') },
    });
    expect((line!.error as { stack: string }).stack).toContain('organizations-repo');
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });
});
