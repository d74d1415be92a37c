import { NoDeploymentsAvailableError } from '../errors/classes.js';

/** The contract's exact "no deployments" error (CONTRACT 2.5, 5.2). */
export function noDeploymentsError(
  model: string,
  seconds: number,
  preCallChecks: boolean,
  region: string | undefined,
): NoDeploymentsAvailableError {
  return new NoDeploymentsAvailableError(
    `No deployments available for selected model, Try again in ${seconds} seconds. Passed model=${model}. pre-call-checks=${preCallChecks}, allowed_model_region=${region ?? 'n/a'}.`,
    { model, retryAfterMs: seconds * 1000 },
  );
}
