import { describe, expect, it } from 'vitest';
import { errorContextOf } from '../../src/providers/shared/error-context.js';
import type { ProviderTarget } from '../../src/providers/shared/provider-adapter.js';
import { createProviderRuntime, runtimeFor } from '../../src/providers/shared/provider-runtime.js';

const target = (): ProviderTarget => ({
  provider: 'openai',
  model: 'gpt-4o',
  modelId: 'dep',
  apiBase: undefined,
  apiKey: 'sk-configured-key',
  apiVersion: undefined,
  params: { model: 'openai/gpt-4o' },
  env: {},
  secrets: [],
});

describe('createProviderRuntime', () => {
  it('creates a shared value once per key and drops it on close()', () => {
    const runtime = createProviderRuntime();
    let created = 0;
    const make = () => ({ n: ++created });
    const first = runtime.shared('cache', make);
    expect(runtime.shared('cache', make)).toBe(first);
    runtime.close();
    expect(runtime.shared('cache', make)).not.toBe(first);
    expect(created).toBe(2);
  });

  it('keeps every secret added (once), and keeps them after close() so late errors stay redacted', () => {
    const runtime = createProviderRuntime();
    runtime.addSecret('token-1');
    runtime.addSecret('token-1');
    runtime.addSecret('x'); // too short to redact safely
    runtime.close();
    expect(runtime.secrets()).toEqual(['token-1']);
  });

  it('keeps the most recent 1024 secrets (tokens rotate)', () => {
    const runtime = createProviderRuntime();
    for (let i = 0; i < 1100; i++) runtime.addSecret(`token-${i}`);
    expect(runtime.secrets()).toHaveLength(1024);
    expect(runtime.secrets()).toContain('token-1099');
    expect(runtime.secrets()).not.toContain('token-0');
  });
});

describe('runtimeFor', () => {
  it('is the call’s runtime when given, and its secrets join the error context of the target', () => {
    const runtime = createProviderRuntime();
    const t = target();
    expect(runtimeFor(t, { runtime })).toBe(runtime);
    runtime.addSecret('fetched-access-token');
    expect(errorContextOf(t).secrets).toEqual(['sk-configured-key', 'fetched-access-token']);
  });

  it('without a runtime, keeps one per target: the same for every call on that target, another for another target', () => {
    const t = target();
    expect(runtimeFor(t, {})).toBe(runtimeFor(t, {}));
    expect(runtimeFor(target(), {})).not.toBe(runtimeFor(t, {}));
  });
});
