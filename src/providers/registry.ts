import { BadRequestError } from '../errors/classes.js';
import { isRouterErrorCode } from '../errors/codes.js';
import { ConfigError } from '../errors/config-error.js';
import { didYouMean } from '../shared/did-you-mean.js';
import type { ProviderName } from '../types/index.js';
import { anthropicAdapter } from './anthropic/adapter.js';
import { azureAdapter } from './azure/adapter.js';
import { bedrockAdapter } from './bedrock/adapter.js';
import { deepseekAdapter } from './deepseek/adapter.js';
import { geminiAdapter } from './gemini/adapter.js';
import { openaiAdapter } from './openai/adapter.js';
import { HOST_ADAPTERS } from './openai-compatible-hosts/index.js';
import { openrouterAdapter } from './openrouter/adapter.js';
import type { ProviderAdapter, ReasoningRequest } from './shared/provider-adapter.js';
import { vertexAdapter } from './vertex_ai/adapter.js';
import { xaiAdapter } from './xai/adapter.js';

/**
 * The adapters this version ships: one per provider folder, then one per OpenAI-compatible host of
 * `OPENAI_COMPATIBLE_HOSTS`.
 */
export const BUILT_IN_ADAPTERS: readonly ProviderAdapter[] = Object.freeze([
  openaiAdapter,
  azureAdapter,
  anthropicAdapter,
  geminiAdapter,
  vertexAdapter,
  bedrockAdapter,
  deepseekAdapter,
  xaiAdapter,
  openrouterAdapter,
  ...HOST_ADAPTERS,
]);

/**
 * Which adapter serves each provider and which provider each model prefix names: the built-in adapters
 * plus the router's own. Immutable once made.
 */
export interface ProviderRegistry {
  /** The adapter serving a provider name, or undefined when none does. */
  adapterFor(provider: ProviderName): ProviderAdapter | undefined;
  /** The provider a model prefix names (`google` -> `gemini`), or undefined for an unknown prefix. */
  providerOfPrefix(prefix: string): ProviderName | undefined;
  /** Every known model prefix, without the `/`, in registration order. */
  prefixes(): readonly string[];
  /** Every provider name, in registration order (built-ins first). */
  names(): readonly ProviderName[];
  /**
   * The provider-native body fields for a request's `reasoning_effort` / `thinking`, from the adapter's
   * `reasoningParams`. `provider` is a provider name or a prefix. Pure.
   *
   * @throws BadRequestError for an unknown provider (naming the closest), a provider that declares no
   * reasoning translation, or an unknown `reasoning_effort`.
   */
  reasoningParams(provider: string, request: ReasoningRequest): Record<string, unknown>;
}

// A prefix is the text before the first `/` of `svc_params.model`; a name is reported as is.
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** What is wrong with one adapter's declaration, as lines for a ConfigError. */
function problemsOf(adapter: ProviderAdapter, where: string): string[] {
  if (!adapter || typeof adapter !== 'object') return [`${where}: expected a provider adapter object`];
  const named = typeof adapter.name === 'string' && PREFIX.test(adapter.name);
  const name = named ? `\`${adapter.name}\`` : where;
  const problems: string[] = [];
  if (!named)
    problems.push(
      `${where}.name: expected letters, digits, \`_\`, \`.\` or \`-\`, got ${JSON.stringify(adapter.name)}`,
    );
  for (const operation of ['chat', 'chatStream'] as const) {
    const op = adapter[operation];
    if (typeof op?.build !== 'function' || typeof op?.parse !== 'function')
      problems.push(`${name}: \`${operation}\` needs \`build\` and \`parse\` functions`);
  }
  if (typeof adapter.readError !== 'function') problems.push(`${name}: \`readError\` must be a function`);
  if (adapter.prefixes !== undefined && !Array.isArray(adapter.prefixes))
    problems.push(`${name}: \`prefixes\` must be an array of strings`);
  for (const prefix of adapter.prefixes ?? []) {
    if (typeof prefix !== 'string' || !PREFIX.test(prefix))
      problems.push(
        `${name}: prefix ${JSON.stringify(prefix)} must be letters, digits, \`_\`, \`.\` or \`-\` (no \`/\`)`,
      );
  }
  for (const [code, meaning] of Object.entries(adapter.errorCodes ?? {})) {
    if (!isRouterErrorCode(meaning))
      problems.push(`${name}: errorCodes.${code} is not a router error code: ${String(meaning)}`);
  }
  return problems;
}

// The adapters by name, user adapters replacing built-ins of the same name (keeping their place).
function adaptersByName(extra: readonly ProviderAdapter[]): Map<string, ProviderAdapter> {
  const problems: string[] = [];
  const byName = new Map<string, ProviderAdapter>(BUILT_IN_ADAPTERS.map((a) => [a.name, a]));
  const seen = new Set<string>();
  extra.forEach((adapter, index) => {
    const found = problemsOf(adapter, `providers[${index}]`);
    if (seen.has(adapter?.name)) found.push(`provider \`${adapter.name}\` is given twice`);
    problems.push(...found);
    if (found.length > 0) return;
    seen.add(adapter.name);
    const builtIn = byName.get(adapter.name);
    // a replacement that declares no prefixes answers to the built-in's (`google/` stays Gemini)
    byName.set(
      adapter.name,
      builtIn && !adapter.prefixes ? { ...adapter, prefixes: builtIn.prefixes } : adapter,
    );
  });
  if (problems.length > 0) throw new ConfigError('providers', problems);
  return byName;
}

function providersByPrefix(adapters: Iterable<ProviderAdapter>): Map<string, ProviderName> {
  const problems: string[] = [];
  const byPrefix = new Map<string, ProviderName>();
  for (const adapter of adapters) {
    for (const prefix of new Set(adapter.prefixes ?? [adapter.name])) {
      const owner = byPrefix.get(prefix);
      if (owner === undefined) byPrefix.set(prefix, adapter.name);
      else problems.push(`prefix \`${prefix}/\` is claimed by both \`${owner}\` and \`${adapter.name}\``);
    }
  }
  if (problems.length > 0) throw new ConfigError('providers', problems);
  return byPrefix;
}

// `gemini/gemini-2.5-flash` -> `gemini-2.5-flash`: the model name the provider knows
function withoutPrefix(model: string | undefined, isPrefix: (prefix: string) => boolean): string {
  const text = model ?? '';
  const slash = text.indexOf('/');
  const prefix = text.slice(0, slash);
  return slash > 0 && (isPrefix(prefix) || /^[a-z_]+$/.test(prefix)) ? text.slice(slash + 1) : text;
}

/**
 * A provider registry of the built-in adapters plus `extra`: a user adapter adds a provider (its name
 * and prefixes), or replaces the built-in adapter of the same name.
 *
 * @throws ConfigError listing every problem: an adapter missing `chat`, `chatStream` or `readError`, a
 * bad name or prefix, a name given twice, a prefix claimed by two providers, an `errorCodes` value that
 * is not a router error code.
 * @example
 * const registry = createProviderRegistry([acmeAdapter]);
 * registry.providerOfPrefix('acme'); // 'acme'
 * registry.adapterFor('acme'); // acmeAdapter
 */
export function createProviderRegistry(extra: readonly ProviderAdapter[] = []): ProviderRegistry {
  const byName = adaptersByName(extra);
  const byPrefix = providersByPrefix(byName.values());
  const names: readonly ProviderName[] = Object.freeze([...byName.keys()]);
  const prefixes: readonly string[] = Object.freeze([...byPrefix.keys()]);
  const adapterFor = (provider: ProviderName) => byName.get(provider);
  const providerOfPrefix = (prefix: string) => byPrefix.get(prefix);
  return Object.freeze({
    adapterFor,
    providerOfPrefix,
    prefixes: () => prefixes,
    names: () => names,
    reasoningParams(provider: string, request: ReasoningRequest): Record<string, unknown> {
      const name = providerOfPrefix(provider) ?? provider;
      const adapter = adapterFor(name);
      if (!adapter) {
        throw new BadRequestError(
          `unknown provider \`${provider}\`${didYouMean(provider, [...names, ...prefixes])}; expected one of ${names.join(', ')}`,
        );
      }
      if (!adapter.reasoningParams)
        throw new BadRequestError(
          `provider \`${name}\` declares no reasoning translation (\`reasoningParams\`)`,
        );
      return adapter.reasoningParams(
        request,
        withoutPrefix(request.model, (p) => byPrefix.has(p)),
      );
    },
  });
}

/** The registry of the built-in adapters alone: immutable, shared by everything that takes no user adapters. */
export const BUILT_IN_PROVIDERS: ProviderRegistry = createProviderRegistry();

/** The built-in adapter for a provider, or undefined when this version has none. */
export function adapterFor(provider: ProviderName): ProviderAdapter | undefined {
  return BUILT_IN_PROVIDERS.adapterFor(provider);
}
