import { describe, expect, it } from 'vitest';
import { chargeLeftCall } from '../../src/passthrough/left-charge.js';
import type { PassThroughEndpoint } from '../../src/passthrough/settings.js';
import { pathPricing } from '../../src/passthrough/unpriced.js';
import type { CallLedger } from '../../src/spend/call-ledger.js';

describe('pathPricing', () => {
  it('prices the generation paths whose answers carry their usage', () => {
    expect(pathPricing('openai', 'POST', '/v1/chat/completions')).toBe('metered');
    expect(pathPricing('openai', 'POST', '/v1/responses')).toBe('metered');
    expect(pathPricing('anthropic', 'POST', '/v1/messages')).toBe('metered');
    expect(pathPricing('gemini', 'POST', '/v1beta/models/gemini-2.0-flash:streamGenerateContent')).toBe(
      'metered',
    );
  });

  it('takes token counts and OpenAI moderations as free', () => {
    expect(pathPricing('openai', 'POST', '/v1/moderations')).toBe('free');
    expect(pathPricing('openai', 'POST', '/v1/responses/input_tokens')).toBe('free');
    expect(pathPricing('anthropic', 'POST', '/v1/messages/count_tokens')).toBe('free');
    expect(pathPricing('gemini', 'POST', '/v1beta/models/gemini-2.0-flash:countTokens')).toBe('free');
  });

  it('takes reads and removals as free whatever their path', () => {
    expect(pathPricing('openai', 'GET', '/v1/models')).toBe('free');
    expect(pathPricing('openai', 'GET', '/v1/responses/resp_123')).toBe('free');
    expect(pathPricing('openai', 'DELETE', '/v1/responses/resp_123')).toBe('free');
    expect(pathPricing('anthropic', 'HEAD', '/v1/models')).toBe('free');
  });

  it('takes a path as free only by its end, a trailing slash allowed', () => {
    expect(pathPricing('openai', 'POST', '/v1/moderations/')).toBe('free');
    expect(pathPricing('openai', 'POST', '/v1/moderations/x')).toBe('unpriced');
    expect(pathPricing('anthropic', 'POST', '/v1/messages/count_tokens/x')).toBe('unpriced');
  });

  it('leaves other writes unpriced: batches, fine-tuning jobs, audio, images', () => {
    expect(pathPricing('openai', 'POST', '/v1/fine_tuning/jobs')).toBe('unpriced');
    expect(pathPricing('openai', 'POST', '/v1/images/generations')).toBe('unpriced');
    expect(pathPricing('openai', 'POST', '/v1/responses/resp_123/cancel')).toBe('unpriced');
    expect(pathPricing('anthropic', 'POST', '/v1/messages/batches')).toBe('unpriced');
    expect(pathPricing('gemini', 'POST', '/v1beta/models/gemini-2.0-flash:batchGenerateContent')).toBe(
      'unpriced',
    );
  });
});

describe('chargeLeftCall', () => {
  /** The ledger's closing call, as the spend row would record it. */
  const closing = () => {
    const calls: Array<{ kind: 'fail' | 'answered'; args: unknown[] }> = [];
    const ledger = {
      fail: (...args: unknown[]) => calls.push({ kind: 'fail', args }),
      answered: (...args: unknown[]) => calls.push({ kind: 'answered', args }),
    } as unknown as CallLedger;
    return { ledger, calls };
  };
  const endpoint = {
    path: '/anthropic',
    target: 'http://127.0.0.1:1',
    provider: 'anthropic',
  } as PassThroughEndpoint;
  const body = JSON.stringify({
    model: 'claude-3-5-haiku-20241022',
    messages: [{ role: 'user', content: 'Count these words, please.' }],
  });
  const head = { model: 'claude-3-5-haiku-20241022', chunks: [Buffer.from(body)], json: true };

  it('charges the counted prompt of a generation call whose client left', async () => {
    const { ledger, calls } = closing();
    await chargeLeftCall(
      ledger,
      endpoint,
      head,
      pathPricing('anthropic', 'POST', '/v1/messages'),
      new Error('gone'),
    );
    expect(calls.map((c) => c.kind)).toEqual(['answered']);
    const charge = calls[0]!.args[1] as {
      usage: { prompt_tokens: number };
      cost: number;
      estimated: boolean;
    };
    expect(charge.usage.prompt_tokens).toBeGreaterThan(0);
    expect(charge.cost).toBeGreaterThan(0);
    expect(charge.estimated).toBe(true);
  });

  it('charges nothing for a token count whose client left, though its body has a prompt', async () => {
    const { ledger, calls } = closing();
    await chargeLeftCall(
      ledger,
      endpoint,
      head,
      pathPricing('anthropic', 'POST', '/v1/messages/count_tokens'),
      new Error('gone'),
    );
    expect(calls).toEqual([{ kind: 'fail', args: [new Error('gone'), true] }]);
  });
});
