import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config-file.js';
import { ConfigError, Router } from '../../src/index.js';

const MODELS = [{ model_name: 'gpt-4o', svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test-0000' } }];

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const routerProblems = (callbacks: unknown[]) =>
  problemsOf(() => new Router(MODELS, { callbacks: callbacks as never }));

describe('callbacks entries', () => {
  it('refuses an unknown type, suggesting the closest and listing the valid ones', () => {
    expect(routerProblems([{ type: 'webhok', url: 'https://hooks.example' }])).toEqual([
      'callbacks[0].type: unknown callback type `webhok`; did you mean `webhook`?; expected one of otlp, webhook, file',
    ]);
    expect(routerProblems([{ type: 'otel', endpoint: 'http://c/v1/traces' }])).toEqual([
      'callbacks[0].type: unknown callback type `otel`; for otel use { type: "otlp", endpoint: "http://<collector>:4318/v1/traces" }; expected one of otlp, webhook, file',
    ]);
  });

  it('refuses a LiteLLM integration as a type with the equivalent entry', () => {
    const [problem] = routerProblems([{ type: 'langfuse' }]);
    expect(problem).toContain('callbacks[0].type: unknown callback type `langfuse`; for langfuse use');
    expect(problem).toContain('https://cloud.langfuse.com/api/public/otel/v1/traces');
  });

  it('names each bad field of an entry', () => {
    expect(
      routerProblems([
        { type: 'webhook', url: 'ftp://hooks.example' },
        { type: 'otlp' },
        { type: 'file', path: 'calls.jsonl', batch_size: 0 },
        { type: 'webhook', url: 'https://hooks.example', header: {} },
      ]),
    ).toEqual([
      'callbacks[0].url: expected an http:// or https:// URL',
      'callbacks[1].endpoint: is required',
      'callbacks[2].batch_size: Too small: expected number to be >0',
      'callbacks[3]: unknown field `header`; did you mean `headers`?; a webhook entry takes type, url, headers, batch_size, flush_interval, max_queue_size, timeout, max_retries',
    ]);
  });

  it('refuses an entry without a type, saying what an element may be', () => {
    expect(routerProblems([{ url: 'https://hooks.example' }])).toEqual([
      expect.stringMatching(
        /^callbacks\[0\]\.type: is required; expected an entry \{ type: "otlp" \| "webhook" \| "file"/,
      ),
    ]);
  });

  it('refuses a string with the equivalent entry (LiteLLM’s callbacks: ["datadog"])', () => {
    expect(routerProblems(['datadog'])).toEqual([
      expect.stringContaining(
        'callbacks[0]: LiteLLM callback names are not built in; send call records with `callbacks` entries instead: callbacks: [{ type: "otlp", endpoint: "https://otlp.datadoghq.com/v1/traces"',
      ),
    ]);
  });

  it('reads entry headers from the environment and never prints them', () => {
    const router = new Router(
      MODELS,
      {
        callbacks: [
          {
            type: 'webhook',
            url: 'https://hooks.example',
            headers: { Authorization: 'os.environ/HOOK_AUTH' },
          },
        ],
      },
      { env: { HOOK_AUTH: 'Bearer hook-secret-123456' } },
    );
    const callbacks = router.settings.callbacks as Array<{ headers: Record<string, string> }>;
    expect(callbacks[0]?.headers.Authorization).toBe('Bearer hook-secret-123456');
    expect(inspect(router.settings, { depth: 5 })).not.toContain('hook-secret');
    void router.close();
  });

  it('keeps logger objects and destination objects as given, beside entries', () => {
    const logger = { logSuccessEvent: () => undefined };
    const destination = { type: 'mine', send: async () => undefined };
    const router = new Router(MODELS, {
      callbacks: [logger, destination, { type: 'file', path: '/tmp/x.jsonl' }],
    });
    expect(router.settings.callbacks[0]).toBe(logger);
    expect(router.settings.callbacks[1]).toBe(destination);
    expect(router.metrics().call_records.map((s) => s.destination)).toEqual(['mine', 'file']);
    void router.close();
  });
});

describe('LiteLLM callback settings in a config file', () => {
  const load = (svc: Record<string, unknown>) =>
    problemsOf(() => loadConfigFile({ model_list: MODELS, svc_settings: svc }, { env: {} }));

  it('refuses success_callback: ["langfuse"] with the equivalent callbacks entry', () => {
    expect(load({ success_callback: ['langfuse'] })).toEqual([
      'svc_settings.success_callback: not supported: LiteLLM callback names are not built in; send call records with `callbacks` entries instead: callbacks: [{ type: "otlp", endpoint: "https://cloud.langfuse.com/api/public/otel/v1/traces", headers: { Authorization: "Basic <base64 public:secret>" } }] (see docs/call-records.md)',
    ]);
  });

  it('refuses failure_callback: ["datadog"] with Datadog’s OTLP intake', () => {
    const [problem] = load({ failure_callback: ['datadog'] });
    expect(problem).toContain('svc_settings.failure_callback: not supported:');
    expect(problem).toContain('endpoint: "https://otlp.datadoghq.com/v1/traces"');
    expect(problem).toContain('"dd-api-key": "os.environ/DD_API_KEY"');
  });

  it('refuses svc_settings.callbacks: ["langfuse"] at the element', () => {
    expect(load({ callbacks: ['langfuse'] })).toEqual([
      expect.stringMatching(
        /^svc_settings\.callbacks\[0\]: LiteLLM callback names are not built in; .*cloud\.langfuse\.com/,
      ),
    ]);
  });

  it('takes svc_settings.callbacks entries as the router setting', () => {
    const loaded = loadConfigFile(
      {
        model_list: MODELS,
        svc_settings: { callbacks: [{ type: 'webhook', url: 'https://hooks.example' }] },
      },
      { env: {} },
    );
    expect(loaded.routerSettings.callbacks).toEqual([{ type: 'webhook', url: 'https://hooks.example' }]);
  });
});

describe('callbacks across updateSettings', () => {
  it('keeps a destination that is still listed (its queue and counts) and drops one that is not', async () => {
    const file = join(tmpdir(), `svc-records-update-${process.pid}.jsonl`);
    const sent: string[] = [];
    const mine = { type: 'mine', send: async () => void sent.push('batch') };
    const router = new Router(MODELS, {
      callbacks: [mine, { type: 'file', path: file }],
    });
    await router.acompletion({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      mock_response: 'ok',
    });
    router.updateSettings({ num_retries: 1 });
    expect(router.metrics().call_records.map((s) => s.pending)).toEqual([1, 1]);
    router.updateSettings({ callbacks: [mine] });
    expect(router.metrics().call_records).toEqual([
      { destination: 'mine', delivered: 0, dropped: 0, failed: 0, retries: 0, pending: 1 },
    ]);
    await router.close();
    expect(sent).toEqual(['batch']);
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(2); // the retired one sent its record
    await rm(file, { force: true });
  });
});
