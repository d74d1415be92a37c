/**
 * `@svc/router-proxy`: the HTTP gateway (`svc-router`) that serves a Router to any OpenAI or Anthropic
 * client, with virtual keys, budgets, rate limits and spend logs on Postgres or embedded PGlite.
 */
export { buildProxyApp } from './build-app.js';
export type { ProxyContext, ReadinessCheck, SpendStats } from './proxy-context.js';
export { type RunningProxy, type StartProxyOptions, startProxy } from './start-proxy.js';
export { GATEWAY_V8_FLAGS, tuneV8ForGateway } from './v8-tuning.js';
