import { describe, expect, it } from 'vitest';
import { droppedLine, oneLine, webhookBody } from '../../src/alerting/alert-line.js';
import { llmException, slowResponse } from '../../src/alerting/detect.js';
import { InternalServerError, RateLimitError } from '../../src/index.js';

const facts = {
  model: 'gpt-4o',
  group: 'gpt-4o',
  modelId: 'b',
  stream: false,
  attempts: 2,
  failures: [] as InternalServerError[],
};

describe('alert lines (CONTRACT 5.5)', () => {
  it('names the type, model group, deployment id and duration of a slow call, then its threshold', () => {
    const alert = slowResponse({ ...facts, attempts: 1 }, 1234.4, 1000, 0);
    expect(alert?.text).toBe(
      '[slow_response] model_group=gpt-4o model_id=b duration_ms=1234 threshold_ms=1000 attempts=1',
    );
  });

  it('raises no slow_response at or under the threshold', () => {
    expect(slowResponse(facts, 1000, 1000, 0)).toBeUndefined();
  });

  it('lists the error and every failed attempt of a failed call', () => {
    const first = new InternalServerError('upstream 500', { modelId: 'a' });
    const last = new RateLimitError('slow down', { modelId: 'b' });
    const alert = llmException({ ...facts, failures: [first, last] }, last, 840, 0);
    expect(alert.text).toBe(
      '[llm_exception] model_group=gpt-4o model_id=b duration_ms=840 attempts=2 ' +
        'error=RateLimitError(429) "slow down" failed_attempts=[a InternalServerError(500), b RateLimitError(429)]',
    );
    expect(alert.failed_attempts).toEqual([
      { model_id: 'a', error: 'InternalServerError', status: 500, message: 'upstream 500' },
      { model_id: 'b', error: 'RateLimitError', status: 429, message: 'slow down' },
    ]);
  });

  it('names the requested model after a fallback, and streams', () => {
    const alert = slowResponse({ ...facts, group: 'claude', stream: true }, 2000, 1000, 0);
    expect(alert?.text).toContain('model_group=claude model_id=b duration_ms=2000 model=gpt-4o stream=true');
  });

  it('keeps one alert on one line, however long or multi-line the error message', () => {
    const error = new InternalServerError(`line one\nline two ${'x'.repeat(1000)}`, { modelId: 'a' });
    const { text } = llmException(facts, error, 5, 0);
    expect(text).not.toContain('\n');
    expect(oneLine(error.message)).toHaveLength(300);
  });

  it('says how many alerts were dropped', () => {
    expect(droppedLine(12, 1000)).toBe(
      '[alerts_dropped] 12 alerts were dropped: the webhook did not take them and the buffer (1000) was full',
    );
  });

  it('sends { "text": "<one line per alert>" }', () => {
    expect(JSON.parse(webhookBody(['a', 'b']))).toEqual({ text: 'a\nb' });
  });
});
