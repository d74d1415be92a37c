import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, type DeploymentConfig, Router } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-cost-map-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const routers: Router[] = [];
afterAll(() => Promise.all(routers.map((r) => r.close())));

const entry = (model: string, info: Record<string, unknown> = {}, own: Record<string, unknown> = {}) =>
  ({
    model_name: 'm',
    svc_params: { model, api_key: 'sk-test-00000000', ...own },
    model_info: { id: 'd', ...info },
  }) as DeploymentConfig;

function groupInfo(list: DeploymentConfig[], model_cost_map: string) {
  const router = new Router(list, { model_cost_map });
  routers.push(router);
  return router.getModelGroupInfo()[0]!;
}

describe('model_cost_map', () => {
  const json = file(
    'prices.json',
    JSON.stringify({
      'openai/gpt-4o': { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6, max_input_tokens: 64000 },
      'llama3-70b-8192': {
        input_cost_per_token: 5.9e-7,
        output_cost_per_token: 7.9e-7,
        supports_reasoning: true,
      },
      'anthropic/claude-sonnet-4-5': { max_input_tokens: 100000 },
    }),
  );

  it('overrides the catalog’s prices and window by `<provider>/<model>`', () => {
    const info = groupInfo([entry('openai/gpt-4o')], json);
    expect(info).toMatchObject({
      input_cost_per_token: 1e-6,
      output_cost_per_token: 4e-6,
      max_input_tokens: 64000,
    });
  });

  it('prices a model the catalog does not know, keyed without its provider prefix', () => {
    const info = groupInfo(
      [entry('openai/llama3-70b-8192', {}, { api_base: 'http://127.0.0.1:9/v1' })],
      json,
    );
    expect(info).toMatchObject({
      input_cost_per_token: 5.9e-7,
      output_cost_per_token: 7.9e-7,
      supports_reasoning: true,
    });
  });

  it('overrides one field and keeps the catalog’s others', () => {
    const info = groupInfo([entry('anthropic/claude-sonnet-4-5')], json);
    expect(info).toMatchObject({
      max_input_tokens: 100000,
      input_cost_per_token: 3e-6,
      output_cost_per_token: 1.5e-5,
    });
  });

  it('gives way to the deployment’s own prices and window (deployment > file > catalog)', () => {
    const own = entry(
      'openai/gpt-4o',
      { max_input_tokens: 8000 },
      { input_cost_per_token: 2e-7, output_cost_per_token: 3e-7 },
    );
    expect(groupInfo([own], json)).toMatchObject({
      input_cost_per_token: 2e-7,
      output_cost_per_token: 3e-7,
      max_input_tokens: 8000,
    });
    const viaInfo = entry('openai/gpt-4o', { input_cost_per_token: 5e-7, output_cost_per_token: 6e-7 });
    expect(groupInfo([viaInfo], json)).toMatchObject({
      input_cost_per_token: 5e-7,
      output_cost_per_token: 6e-7,
    });
  });

  it('reads YAML with LiteLLM’s other fields left alone', () => {
    const yaml = file(
      'prices.yaml',
      'openai/gpt-4o:\n  input_cost_per_token: 0.000001\n  output_cost_per_token: 0.000002\n  litellm_provider: openai\n  mode: chat\n',
    );
    expect(groupInfo([entry('openai/gpt-4o')], yaml)).toMatchObject({
      input_cost_per_token: 1e-6,
      output_cost_per_token: 2e-6,
    });
  });

  it('reads a relative path from the config file’s folder', () => {
    file(
      'near.json',
      JSON.stringify({ 'gpt-4o': { input_cost_per_token: 7e-6, output_cost_per_token: 8e-6 } }),
    );
    const config = file(
      'config.yaml',
      'model_list:\n  - model_name: m\n    svc_params: { model: openai/gpt-4o, api_key: sk-test-00000000 }\nrouter_settings:\n  model_cost_map: ./near.json\n',
    );
    const router = Router.fromConfig(config);
    routers.push(router);
    expect(router.getModelGroupInfo()[0]).toMatchObject({ input_cost_per_token: 7e-6 });
  });

  it('refuses a bad entry at construction, naming the file, the entry and the field', () => {
    const bad = file('bad.json', JSON.stringify({ 'openai/gpt-4o': { input_cost_per_token: 'cheap' } }));
    expect(() => new Router([entry('openai/gpt-4o')], { model_cost_map: bad })).toThrow(ConfigError);
    expect(() => new Router([entry('openai/gpt-4o')], { model_cost_map: bad })).toThrow(
      new RegExp(`model_cost_map: ${bad}: entry \`openai/gpt-4o\`\\.input_cost_per_token`),
    );
  });

  it('refuses a misspelt field with its correct name', () => {
    const typo = file('typo.json', JSON.stringify({ 'gpt-4o': { input_cost_per_tokens: 1e-6 } }));
    expect(() => new Router([entry('openai/gpt-4o')], { model_cost_map: typo })).toThrow(
      /entry `gpt-4o`: unknown field `input_cost_per_tokens`; did you mean `input_cost_per_token`\?/,
    );
  });

  it('refuses a missing file and a syntax error, naming the file', () => {
    const missing = join(dir, 'nope.json');
    expect(() => new Router([entry('openai/gpt-4o')], { model_cost_map: missing })).toThrow(
      `Invalid router settings: model_cost_map: ${missing}: no such file`,
    );
    const broken = file('broken.json', '{ "gpt-4o": ');
    expect(() => new Router([entry('openai/gpt-4o')], { model_cost_map: broken })).toThrow(
      new RegExp(`model_cost_map: ${broken}: syntax`),
    );
  });
});
