import { describe, expect, test } from 'vitest';
import { createRouteMatcher, matchRoute, ROUTE_GROUPS } from '../../src/jwt/index.js';

describe('ROUTE_GROUPS (spec 4.3)', () => {
  test.each([
    [
      'openai_routes',
      ['/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/images/generations', '/v1/models'],
    ],
    ['anthropic_routes', ['/v1/messages', '/v1/messages/count_tokens', '/v1/skills']],
    ['mapped_pass_through_routes', ['/anthropic/*', '/vertex-ai/*', '/bedrock/*']],
    ['passthrough_routes_wildcard', ['/anthropic/*', '/vllm/*']],
    ['google_routes', ['/v1beta/models/{model_name}:generateContent']],
    ['mcp_routes', ['/mcp/tools', '/mcp/tools/call']],
    ['info_routes', ['/key/info', '/team/info', '/v1/models']],
    ['management_routes', ['/team/new', '/key/generate', '/model/new']],
    ['spend_tracking_routes', ['/spend/logs', '/spend/keys']],
    ['public_routes', ['/', '/routes', '/.well-known/litellm-ui-config']],
  ] as const)('%s holds the spec paths', (group, paths) => {
    expect(ROUTE_GROUPS[group]).toEqual(expect.arrayContaining([...paths]));
  });

  test('global_spend_tracking_routes is a group of its own', () => {
    expect(ROUTE_GROUPS.global_spend_tracking_routes.length).toBeGreaterThan(0);
  });

  test('llm_api_routes is the union of the model-call groups', () => {
    const parts = [
      'openai_routes',
      'anthropic_routes',
      'google_routes',
      'mapped_pass_through_routes',
      'passthrough_routes_wildcard',
      'apply_guardrail_routes',
      'mcp_routes',
      'native_routes',
    ] as const;
    expect(new Set(ROUTE_GROUPS.llm_api_routes)).toEqual(new Set(parts.flatMap((g) => ROUTE_GROUPS[g])));
  });

  test('JWT-to-key mapping endpoints are in no group (they need the master key)', () => {
    for (const routes of Object.values(ROUTE_GROUPS)) {
      expect(routes.some((r) => r.startsWith('/jwt/'))).toBe(false);
    }
  });

  test('the groups cannot be changed', () => {
    expect(Object.isFrozen(ROUTE_GROUPS)).toBe(true);
    expect(Object.isFrozen(ROUTE_GROUPS.openai_routes)).toBe(true);
  });
});

describe('route matching', () => {
  test('a group name stands for its paths', () => {
    expect(matchRoute('/v1/chat/completions', ['openai_routes'])?.route).toBe('/v1/chat/completions');
    expect(matchRoute('/key/generate', ['openai_routes'])).toBeUndefined();
  });

  test('explicit paths and group names mix', () => {
    const match = createRouteMatcher(['info_routes', '/v1/embeddings']);
    expect([!!match('/v1/embeddings'), !!match('/key/info'), !!match('/v1/chat/completions')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  test('a {model_name} placeholder captures the model of a Google-style path', () => {
    const match = matchRoute('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', [
      'google_routes',
    ]);
    expect(match?.params).toEqual({ model_name: 'gemini-2.5-pro' });
  });

  test('a placeholder never spans two segments', () => {
    expect(matchRoute('/v1beta/models/a/b:generateContent', ['google_routes'])).toBeUndefined();
  });

  test('a /* prefix matches the prefix and everything under it, not a longer name', () => {
    const match = createRouteMatcher(['/anthropic/*']);
    expect([!!match('/anthropic'), !!match('/anthropic/v1/messages'), !!match('/anthropicx/v1')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  test('matching is case-sensitive', () => {
    expect(matchRoute('/V1/chat/completions', ['openai_routes'])).toBeUndefined();
  });

  test('the target is normalised first: a trailing slash and doubled slashes still match', () => {
    expect(matchRoute('//v1//embeddings/', ['openai_routes'])?.route).toBe('/v1/embeddings');
  });

  test('a target normalisation refuses matches nothing, not even a prefix', () => {
    expect(matchRoute('/anthropic/../key/generate', ['/anthropic/*'])).toBeUndefined();
  });
});
