import { promptTokens, textTokens } from '@svc/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicToChatRequest } from '../../src/anthropic/to-chat-request.js';
import { ENGINES, eventually, startTestProxy, type TestProxy } from '../harness.js';
import { postThenAbort, postThenLeave } from '../leaving-client.js';
import { client } from '../management/client.js';

// the harness deployment's prices
const INPUT = 0.000001;
const OUTPUT = 0.000002;
const READ_ON_MS = 600;
const CHAT = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Count to five.' }], stream: true };
const CONTENT = 'one two three four five six seven eight nine';

type Row = Record<string, unknown>;

/**
 * A usage chunk the mock holds back until `release()`: called once the client left (a timer's turn
 * later, so the proxy has seen the socket close), it comes while the proxy reads on.
 */
function heldUsage() {
  let open: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    stream: { holdLastChunk: held },
    release: async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      open();
    },
  };
}

async function spendRowOf(t: TestProxy, callId: string): Promise<Row> {
  let row: Row | undefined;
  await eventually(async () => {
    const rows = (await (await fetch(`${t.url}/spend/logs`, { headers: t.admin })).json()) as Row[];
    row = rows.find((r) => r.call_id === callId);
    expect(row).toBeDefined();
  }, 10_000);
  return row!;
}

const minuteNow = (): number => Math.floor(Date.now() / 60_000);

/**
 * Failed calls of the deployment `east` this minute, as `/deployment/health` counts them, with the
 * wall-clock minutes before and after the read: the count starts again at 0 when a minute ends.
 */
async function eastFailures(t: TestProxy): Promise<{ failures: number | undefined; minutes: number[] }> {
  const from = minuteNow();
  const health = (await (await fetch(`${t.url}/deployment/health`, { headers: t.admin })).json()) as {
    data: Array<{ deployment_id: string; failures: number }>;
  };
  const failures = health.data.find((d) => d.deployment_id === 'east')?.failures;
  return { failures, minutes: [from, minuteNow()] };
}

/** The text of the content deltas in an OpenAI event stream. */
function streamedText(sse: string): string {
  let text = '';
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const data = JSON.parse(line.slice(6)) as { choices?: Array<{ delta?: { content?: string } }> };
    text += data.choices?.[0]?.delta?.content ?? '';
  }
  return text;
}

describe.each(ENGINES)('what an answer that reached its caller is charged (%s)', (engine) => {
  let t: TestProxy;
  beforeAll(async () => {
    t = await startTestProxy(engine, { general_settings: { disconnect_read_timeout: READ_ON_MS / 1000 } });
  });
  afterAll(() => t.close());

  it('a client that leaves after the finish_reason chunk is charged the usage the upstream sent after it', async () => {
    const usage = heldUsage();
    t.mock.setBehavior('/east', {
      content: CONTENT,
      usage: { prompt_tokens: 1000, completion_tokens: 2000 },
      stream: usage.stream,
    });
    const { callId } = await postThenLeave(
      t.url,
      '/v1/chat/completions',
      t.admin,
      CHAT,
      '"finish_reason":"stop"',
    );
    await usage.release();
    expect(await spendRowOf(t, callId)).toMatchObject({
      prompt_tokens: 1000,
      completion_tokens: 2000,
      total_tokens: 3000,
      cost: 1000 * INPUT + 2000 * OUTPUT,
      usage_estimated: false,
      status: 'failure',
      error_code: 'client_closed',
      http_status: 499,
    });
  });

  it('refuses a budgeted key once clients that leave before the usage chunk have spent its budget', async () => {
    const generated = await fetch(`${t.url}/key/generate`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ max_budget: 0.05 }),
    });
    const { key } = (await generated.json()) as { key: string };
    const auth = { authorization: `Bearer ${key}` };
    for (let call = 0; call < 2; call++) {
      const usage = heldUsage();
      t.mock.setBehavior('/east', {
        content: CONTENT,
        usage: { prompt_tokens: 10_000, completion_tokens: 10_000 }, // $0.03 a call
        stream: usage.stream,
      });
      const { callId } = await postThenLeave(
        t.url,
        '/v1/chat/completions',
        auth,
        CHAT,
        '"finish_reason":"stop"',
      );
      await usage.release();
      expect(await spendRowOf(t, callId)).toMatchObject({ cost: 0.03, error_code: 'client_closed' });
    }
    const refused = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(CHAT),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('budget_exceeded');
  });

  it('a client that leaves a /v1/messages stream mid-answer is charged the usage the upstream sent', async () => {
    const usage = heldUsage();
    t.mock.setBehavior('/east', {
      content: CONTENT,
      usage: { prompt_tokens: 300, completion_tokens: 40 },
      stream: usage.stream,
    });
    const body = {
      model: 'gpt-4o',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    };
    const { callId } = await postThenLeave(t.url, '/v1/messages', t.admin, body, 'content_block_delta');
    await usage.release();
    expect(await spendRowOf(t, callId)).toMatchObject({
      route: '/v1/messages',
      prompt_tokens: 300,
      completion_tokens: 40,
      cost: 300 * INPUT + 40 * OUTPUT,
      usage_estimated: false,
      error_code: 'client_closed',
    });
  });

  it('a stream the upstream cuts mid-answer is charged the counted tokens of the prompt and the text delivered', async () => {
    t.mock.setBehavior('/east', { content: CONTENT, stream: { cutAfter: 3 } });
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...t.admin, 'content-type': 'application/json' },
      body: JSON.stringify(CHAT),
    });
    const sse = await res.text();
    const delivered = streamedText(sse);
    expect(delivered).toBe('one two three four five six ');
    expect(sse).toContain('"error"');
    const prompt = await promptTokens(CHAT);
    const completion = await textTokens(delivered);
    const row = await spendRowOf(t, res.headers.get('x-svc-call-id')!);
    expect(row).toMatchObject({
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      usage_estimated: true,
      status: 'failure',
    });
    expect(row.cost).toBeCloseTo(prompt * INPUT + completion * OUTPUT, 12);
    expect(row.error_code).not.toBe('client_closed');
  });

  it('a usage chunk that does not come within disconnect_read_timeout: the upstream is cancelled, the delivered text counted', async () => {
    t.mock.setBehavior('/east', { content: CONTENT, stream: { lastChunkDelayMs: 20_000 } });
    const failuresBefore = await eastFailures(t);
    const { callId, received } = await postThenLeave(
      t.url,
      '/v1/chat/completions',
      t.admin,
      CHAT,
      '"finish_reason":"stop"',
    );
    const started = Date.now();
    const row = await spendRowOf(t, callId);
    expect(Date.now() - started).toBeLessThan(10_000); // the mock would send it after 20 s
    await eventually(() => expect(t.mock.inFlight).toBe(0));
    const prompt = await promptTokens(CHAT);
    const completion = await textTokens(CONTENT);
    expect(received).toContain('nine');
    expect(row).toMatchObject({
      prompt_tokens: prompt,
      completion_tokens: completion,
      usage_estimated: true,
      error_code: 'client_closed',
      http_status: 499,
    });
    expect(row.cost).toBeCloseTo(prompt * INPUT + completion * OUTPUT, 12);
    // cancelled by the proxy, the attempt says nothing about the deployment: the count is as it was
    // or, when a minute ended between the two reads, what came since is none
    let failuresAfter = await eastFailures(t);
    // a read across a minute's end may have counted either minute: the next is within one
    if (failuresAfter.minutes[0] !== failuresAfter.minutes[1]) failuresAfter = await eastFailures(t);
    const oneMinute = new Set([...failuresBefore.minutes, ...failuresAfter.minutes]).size === 1;
    expect(failuresAfter.failures).toBe(oneMinute ? failuresBefore.failures : 0);
  });

  /**
   * A call to `path` whose client leaves while the upstream holds its answer (a stream: before its
   * first byte), and the spend row it left, found by the new key it was made with.
   */
  async function leftUnderWay(path: string, body: Record<string, unknown>): Promise<Row> {
    const { keyHash, headers } = await client(() => t).newKey();
    t.mock.setBehavior('/east', { content: CONTENT, delayMs: 5_000 });
    await postThenAbort(`${t.url}${path}`, headers, body, () =>
      eventually(() => expect(t.mock.inFlight).toBe(1)),
    );
    let row: Row | undefined;
    await eventually(async () => {
      const rows = (await (
        await fetch(`${t.url}/spend/logs?key=${keyHash}`, { headers: t.admin })
      ).json()) as Row[];
      row = rows[0];
      expect(row).toBeDefined();
    }, 10_000);
    await eventually(() => expect(t.mock.inFlight).toBe(0));
    return row!;
  }

  const LONG_CHAT = (stream: boolean) => ({
    ...CHAT,
    stream,
    messages: [{ role: 'user', content: 'Count to five, slowly. '.repeat(40) }],
  });

  it('a client that leaves a plain call under way upstream is charged its prompt, counted, at the deployment’s prices', async () => {
    const row = await leftUnderWay('/v1/chat/completions', LONG_CHAT(false));
    const prompt = await promptTokens(LONG_CHAT(false));
    expect(prompt).toBeGreaterThan(200);
    expect(row).toMatchObject({
      model_id: 'east',
      prompt_tokens: prompt,
      completion_tokens: 0,
      usage_estimated: true,
      status: 'failure',
      error_code: 'client_closed',
      http_status: 499,
    });
    expect(row.cost).toBeCloseTo(prompt * INPUT, 12);
  });

  it('a client that leaves a stream before its first byte is charged its prompt, counted, the same way', async () => {
    const row = await leftUnderWay('/v1/chat/completions', LONG_CHAT(true));
    const prompt = await promptTokens(LONG_CHAT(true));
    expect(row).toMatchObject({
      model_id: 'east',
      prompt_tokens: prompt,
      completion_tokens: 0,
      usage_estimated: true,
      error_code: 'client_closed',
      http_status: 499,
    });
    expect(row.cost).toBeCloseTo(prompt * INPUT, 12);
  });

  it('a /v1/messages client that leaves is charged the prompt it sent, its system prompt counted', async () => {
    const body = {
      model: 'gpt-4o',
      max_tokens: 16,
      system: 'You count. '.repeat(100),
      messages: [{ role: 'user', content: 'Count to five.' }],
    };
    const row = await leftUnderWay('/v1/messages', body);
    const prompt = await promptTokens(anthropicToChatRequest(body));
    expect(prompt).toBeGreaterThan(200);
    expect(row).toMatchObject({ prompt_tokens: prompt, usage_estimated: true, error_code: 'client_closed' });
    expect(row.cost).toBeCloseTo(prompt * INPUT, 12);
  });
});
