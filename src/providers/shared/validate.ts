/**
 * Runs a provider's own checks (functions that throw a clear error when a deployment lacks something)
 * and returns their messages, for `ProviderAdapter.validate`.
 */
export function problemsOf(...checks: Array<() => unknown>): string[] {
  const problems: string[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  return problems;
}
