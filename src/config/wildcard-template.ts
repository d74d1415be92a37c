import type { ProviderName } from '../types/index.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The provider a `*` model (`svc_params.model: "*"`) stands for: whichever the requested model names. */
export const ANY_PROVIDER = '*' as ProviderName;

/**
 * Whether a model-list entry is a wildcard whose `svc_params.model` starts with `*` (`model_name: "*"`
 * with `model: "*"`): its provider is the one the requested model names, so it is checked with a
 * stand-in `<provider>/<model>` and the real one is checked when a request fills it in.
 */
export function anyProviderWildcard(entry: Record<string, unknown>): boolean {
  const name = entry.model_name;
  const svc = entry.svc_params;
  return (
    typeof name === 'string' &&
    name.endsWith('*') &&
    isObject(svc) &&
    typeof svc.model === 'string' &&
    svc.model.startsWith('*')
  );
}

/** The entry with a stand-in model that passes the `<provider>/<model>` check, for validating the rest. */
export function withStandInModel(entry: Record<string, unknown>): Record<string, unknown> {
  return { ...entry, svc_params: { ...(entry.svc_params as object), model: 'openai/wildcard' } };
}
