import { z } from 'zod';
import { didYouMean } from '../shared/did-you-mean.js';
import { PROVIDER_PREFIXES } from '../types/provider.js';
import { positiveSeconds, seconds } from './time-bounds.js';

/**
 * The check of `svc_params.model` against the model prefixes a provider registry knows
 * (`registry.prefixes()`): `<prefix>/<model>` with a known prefix.
 */
export function prefixedModelSchema(prefixes: readonly string[]) {
  const known = new Set(prefixes);
  const list = prefixes.map((p) => `${p}/`).join(', ');
  return z.string().superRefine((model, ctx) => {
    const slash = model.indexOf('/');
    const prefix = slash > 0 ? model.slice(0, slash) : '';
    // `withoutValue`: the message to show when the model came from `os.environ/`, whose value is never printed
    if (slash <= 0 || slash === model.length - 1) {
      const expected = `expected \`<provider>/<model>\` (one of ${list})`;
      ctx.addIssue({
        code: 'custom',
        message: `${expected}, got \`${model}\``,
        params: { withoutValue: expected },
      });
    } else if (!known.has(prefix)) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown provider \`${prefix}/\`${didYouMean(prefix, prefixes)}; expected one of ${list}`,
        params: { withoutValue: `unknown provider; expected one of ${list}` },
      });
    }
  });
}

const prefixedModel = prefixedModelSchema(Object.keys(PROVIDER_PREFIXES));

/** The `svc_params` keys the router itself reads; anything else passes through to the provider adapter. */
export const svcParamsSchema = z.looseObject({
  model: prefixedModel,
  api_key: z.string().optional(),
  api_base: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  api_version: z.string().optional(),
  rpm: z.number().nonnegative().optional(),
  tpm: z.number().nonnegative().optional(),
  weight: z.number().nonnegative().optional(),
  order: z.number().int().optional(),
  max_parallel_requests: z.number().int().positive().optional(),
  cooldown_time: seconds.optional(),
  input_cost_per_token: z.number().nonnegative().optional(),
  output_cost_per_token: z.number().nonnegative().optional(),
  cache_read_input_token_cost: z.number().nonnegative().optional(),
  cache_creation_input_token_cost: z.number().nonnegative().optional(),
  region_name: z.string().optional(),
  base_model: z.string().optional(),
  vertex_project: z.string().optional(),
  vertex_location: z.string().optional(),
  thinking: z
    .looseObject({
      type: z.enum(['enabled', 'disabled']),
      budget_tokens: z.number().int().positive().optional(),
    })
    .optional(),
  mock_response: z.string().optional(),
  timeout: positiveSeconds.optional(),
  stream_timeout: positiveSeconds.optional(),
  first_token_timeout: positiveSeconds.optional(),
  stream_total_timeout: positiveSeconds.optional(),
  max_retries: z.number().int().nonnegative().optional(),
  max_new_tokens: z.number().int().positive().optional(),
  tags: z.array(z.string().min(1, 'expected a non-empty tag')).optional(),
});

export const ROUTER_SVC_PARAM_KEYS: readonly string[] = Object.keys(svcParamsSchema.shape);

/**
 * Provider pass-through keys that are legitimately close to a router key (`api_type` vs `api_key`), so
 * they are never reported as typos.
 */
export const KNOWN_PASS_THROUGH_KEYS: ReadonlySet<string> = new Set([
  'api_type',
  'organization',
  'tenant_id',
  'client_id',
  'client_secret',
  'azure_ad_token',
  'azure_ad_token_provider',
  'aws_access_key_id',
  'aws_secret_access_key',
  'aws_session_token',
  'aws_region_name',
  'aws_profile_name',
  'vertex_credentials',
  'max_tokens',
  'top_k',
  'top_p',
  'temperature',
  'seed',
  'extra_headers',
  'headers',
  'reasoning_effort',
]);

export const modelInfoSchema = z.looseObject({
  id: z.string().min(1).optional(),
  base_model: z.string().optional(),
  supports_reasoning: z.boolean().optional(),
  supports_assistant_prefill: z.boolean().optional(),
  mode: z.string().optional(),
  input_cost_per_token: z.number().nonnegative().optional(),
  output_cost_per_token: z.number().nonnegative().optional(),
  cache_read_input_token_cost: z.number().nonnegative().optional(),
  cache_creation_input_token_cost: z.number().nonnegative().optional(),
  max_input_tokens: z.number().int().positive().optional(),
  allow_unpriced: z.boolean().optional(),
  access_groups: z.array(z.string().min(1, 'expected a non-empty access group name')).optional(),
});

export const deploymentSchema = z.strictObject({
  model_name: z.string().min(1),
  svc_params: svcParamsSchema,
  model_info: modelInfoSchema.optional(),
});

export const DEPLOYMENT_KEYS: readonly string[] = Object.keys(deploymentSchema.shape);

/**
 * `deploymentSchema` with `svc_params.model` checked against `prefixes` (a provider registry's
 * `prefixes()`, which include the router's own adapters) instead of the built-in prefixes.
 */
export function deploymentSchemaFor(prefixes: readonly string[]) {
  return deploymentSchema.extend({
    svc_params: svcParamsSchema.extend({ model: prefixedModelSchema(prefixes) }),
  });
}
