import { describe, expect, it } from 'vitest';
import { buildDeployments } from '../../src/config/build-deployments.js';
import { parseSettings } from '../../src/config/parse-settings.js';
import { MAX_TIMER_SECONDS } from '../../src/config/time-bounds.js';
import { Router } from '../../src/index.js';
import { configErrorOf } from '../support/config-files.js';

const TOO_LONG = 1e7; // about 116 days: Node would clamp the timer to 1 ms
const LIMIT_TEXT = `at most ${MAX_TIMER_SECONDS} seconds (about 24.8 days), Node's timer limit`;

const deployment = (params: Record<string, unknown>) => ({
  model_name: 'm',
  svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test', ...params },
});

describe('time settings are bounded by Node’s timer limit', () => {
  it('rejects timeout: 1e7 (about 116 days) at construction instead of timing out every call', () => {
    const error = configErrorOf(() => new Router([deployment({})], { timeout: TOO_LONG }));
    expect(error.message).toBe(
      `Invalid router settings: timeout: must be ${LIMIT_TEXT}: a longer wait would fire at once`,
    );
  });

  it.each([
    [{ stream_timeout: TOO_LONG }, 'stream_timeout'],
    [{ first_token_timeout: TOO_LONG }, 'first_token_timeout'],
    [{ stream_total_timeout: TOO_LONG }, 'stream_total_timeout'],
    [{ cooldown_time: TOO_LONG }, 'cooldown_time'],
    [{ retry_after: TOO_LONG }, 'retry_after'],
    [{ routing_strategy_args: { ttl: TOO_LONG } }, 'routing_strategy_args.ttl'],
    [
      { routing_groups: [{ group_name: 'g', models: ['m'], routing_strategy_args: { ttl: TOO_LONG } }] },
      'routing_groups[0].routing_strategy_args.ttl',
    ],
    [{ alerting_config: { alerting_threshold: TOO_LONG } }, 'alerting_config.alerting_threshold'],
    [{ alerting_config: { flush_interval: TOO_LONG } }, 'alerting_config.flush_interval'],
    [{ default_svc_params: { timeout: TOO_LONG } }, 'default_svc_params.timeout'],
  ])('rejects the setting %j above the limit, naming %s', (settings, field) => {
    const error = configErrorOf(() => parseSettings(settings as never));
    expect(error.problems).toContain(`${field}: must be ${LIMIT_TEXT}: a longer wait would fire at once`);
  });

  it.each(['timeout', 'stream_timeout', 'first_token_timeout', 'stream_total_timeout', 'cooldown_time'])(
    'rejects svc_params.%s above the limit, naming the deployment and field',
    (field) => {
      const error = configErrorOf(() => buildDeployments([deployment({ [field]: TOO_LONG })], {}));
      expect(error.problems).toEqual([
        `model_list[0].svc_params.${field}: must be ${LIMIT_TEXT}: a longer wait would fire at once`,
      ]);
    },
  );

  it('accepts exactly the limit', () => {
    const settings = parseSettings({ timeout: MAX_TIMER_SECONDS, cooldown_time: MAX_TIMER_SECONDS });
    expect(settings.timeout).toBe(MAX_TIMER_SECONDS);
    expect(MAX_TIMER_SECONDS * 1000).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});
