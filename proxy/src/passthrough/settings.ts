import { z } from 'zod';

/** The providers whose answers a pass-through endpoint reads usage from (for its spend rows). */
export const PASS_THROUGH_PROVIDERS = ['anthropic', 'openai', 'gemini'] as const;
export type PassThroughProvider = (typeof PASS_THROUGH_PROVIDERS)[number];

// `/anthropic`, `/gemini/v1beta`: a path of its own, no `*` (the route adds it), no trailing `/`
const path = z.string().regex(/^(\/[A-Za-z0-9._~-]+)+$/, {
  error:
    'expected a path like `/anthropic` (segments of letters, digits, `.`, `_`, `~`, `-`; no trailing `/`)',
});

/** One `general_settings.pass_through_endpoints` entry (CONTRACT 6.7; docs/proxy.md). */
export const passThroughEndpointSchema = z.strictObject({
  /** Requests to `path` and `path/*` are forwarded. */
  path,
  /** Where to: `path/<rest>` goes to `target/<rest>`, the query string kept. */
  target: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
  /** Sent upstream over the caller's (values may be `os.environ/NAME`). */
  headers: z.record(z.string(), z.string()).default({}),
  /** Reads the answer's usage for the spend row; absent: rows cost 0 with no tokens. */
  provider: z.enum(PASS_THROUGH_PROVIDERS).optional(),
  /**
   * Let calls charged to a budget through although their answers cannot be priced (no `provider`, or
   * a model the catalog has no price for); they then cost 0. Without it they are refused with 400
   * `model_unpriced` before forwarding, as chat calls on unpriced deployments are.
   */
  allow_unpriced: z.boolean().default(false),
});

export type PassThroughEndpoint = z.output<typeof passThroughEndpointSchema>;

/** The list, its paths distinct and clear of the proxy's own routes. */
export const passThroughEndpointsSchema = z.array(passThroughEndpointSchema).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((entry, index) => {
    if (seen.has(entry.path))
      ctx.addIssue({ code: 'custom', path: [index, 'path'], message: `\`${entry.path}\` is listed twice` });
    seen.add(entry.path);
    if (RESERVED.some((r) => entry.path === r || entry.path.startsWith(`${r}/`)))
      ctx.addIssue({
        code: 'custom',
        path: [index, 'path'],
        message: `\`${entry.path}\` is one of the proxy's own routes (${RESERVED.join(', ')})`,
      });
  });
});

// the proxy's own route prefixes a pass-through may not take over
const RESERVED = [
  '/v1',
  '/chat',
  '/completions',
  '/embeddings',
  '/images',
  '/responses',
  '/models',
  '/model_group',
  '/key',
  '/team',
  '/user',
  '/organization',
  '/spend',
  '/health',
  '/metrics',
  '/ui',
  '/config',
  '/routes',
  '/jwt',
  '/deployment',
];
