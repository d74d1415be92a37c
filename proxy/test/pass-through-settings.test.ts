// `general_settings.pass_through_endpoints` checked at start (CONTRACT 6.7): each problem names its field.

import { loadConfigFile } from '@svc/router/config';
import { describe, expect, it } from 'vitest';
import { generalSettingsSchema } from '../src/config/general-settings.js';

const load = (endpoints: unknown, env: NodeJS.ProcessEnv = {}) =>
  loadConfigFile(
    { model_list: [], general_settings: { pass_through_endpoints: endpoints } },
    {
      env,
      generalSettings: generalSettingsSchema,
    },
  );

describe('pass_through_endpoints settings', () => {
  it('resolves os.environ/ header values', () => {
    const loaded = load(
      [{ path: '/anthropic', target: 'https://api.anthropic.com', headers: { 'x-api-key': 'os.environ/K' } }],
      {
        K: 'sk-ant-secret-1',
      },
    );
    expect(loaded.generalSettings.pass_through_endpoints[0]?.headers).toEqual({
      'x-api-key': 'sk-ant-secret-1',
    });
  });

  it('names a target that is not an http(s) URL', () => {
    expect(() => load([{ path: '/a', target: 'ftp://x' }])).toThrow(
      /pass_through_endpoints\[0\]\.target.*http\(s\) URL/,
    );
  });

  it('names a path with a trailing slash or a wildcard', () => {
    expect(() => load([{ path: '/a/', target: 'https://x' }])).toThrow(/pass_through_endpoints\[0\]\.path/);
    expect(() => load([{ path: '/a/*', target: 'https://x' }])).toThrow(/pass_through_endpoints\[0\]\.path/);
  });

  it('names a path the proxy serves itself, and one listed twice', () => {
    expect(() => load([{ path: '/v1', target: 'https://x' }])).toThrow(
      /pass_through_endpoints\[0\]\.path.*own routes/,
    );
    expect(() =>
      load([
        { path: '/a', target: 'https://x' },
        { path: '/a', target: 'https://y' },
      ]),
    ).toThrow(/pass_through_endpoints\[1\]\.path.*listed twice/);
  });

  it('names an unknown provider', () => {
    expect(() => load([{ path: '/a', target: 'https://x', provider: 'cohere' }])).toThrow(
      /pass_through_endpoints\[0\]\.provider/,
    );
  });

  it('names an unset os.environ/ variable without a value', () => {
    expect(() => load([{ path: '/a', target: 'https://x', headers: { h: 'os.environ/NOPE' } }])).toThrow(
      /NOPE/,
    );
  });
});
