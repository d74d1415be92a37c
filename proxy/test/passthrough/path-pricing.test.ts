import { describe, expect, it } from 'vitest';
import { chargeLeftCall } from '../../src/passthrough/left-charge.js';
import type { PassThroughEndpoint } from '../../src/passthrough/settings.js';
import { pathPricing } from '../../src/passthrough/unpriced.js';
import type { CallLedger } from '../../src/spend/call-ledger.js';

type Case = Parameters<typeof pathPricing>;

describe('pathPricing', () => {
  it.each<Case>([
    ['openai', 'POST', '/v1/chat/completions'],
    ['openai', 'POST', '/v1/responses'],
    ['anthropic', 'POST', '/v1/messages'],
    ['gemini', 'POST', '/v1beta/models/gemini-2.0-flash:streamGenerateContent'],
  ])('prices a generation path whose answers carry their usage: %s %s %s', (...call) => {
    expect(pathPricing(...call)).toBe('metered');
  });

  it.each<Case>([
    ['openai', 'POST', '/v1/moderations'],
    ['openai', 'POST', '/v1/moderations/'],
    ['openai', 'POST', '/v1/responses/input_tokens'],
    ['anthropic', 'POST', '/v1/messages/count_tokens'],
    ['gemini', 'POST', '/v1beta/models/gemini-2.0-flash:countTokens'],
  ])('takes a token count or an OpenAI moderation as free: %s %s %s', (...call) => {
    expect(pathPricing(...call)).toBe('free');
  });

  it.each<Case>([
    ['openai', 'GET', '/v1/models'],
    ['openai', 'GET', '/v1/responses/resp_123'],
    ['openai', 'DELETE', '/v1/responses/resp_123'],
    ['anthropic', 'HEAD', '/v1/models'],
  ])('takes a read or a removal as free whatever its path: %s %s %s', (...call) => {
    expect(pathPricing(...call)).toBe('free');
  });

  it.each<Case>([
    // free paths only by their end
    ['openai', 'POST', '/v1/moderations/x'],
    ['anthropic', 'POST', '/v1/messages/count_tokens/x'],
    ['openai', 'POST', '/v1/fine_tuning/jobs'],
    ['openai', 'POST', '/v1/images/generations'],
    ['openai', 'POST', '/v1/responses/resp_123/cancel'],
    ['anthropic', 'POST', '/v1/messages/batches'],
    ['gemini', 'POST', '/v1beta/models/gemini-2.0-flash:batchGenerateContent'],
  ])('leaves another write unpriced: %s %s %s', (...call) => {
    expect(pathPricing(...call)).toBe('unpriced');
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
