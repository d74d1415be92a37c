import { InternalServerError } from '../errors/classes.js';
import type { ChatMessage, Deployment, DeploymentEntry } from '../types/index.js';
import type { RoutingStrategy, SelectionContext } from './strategy.js';

/** What a user's strategy object receives (CONTRACT 2.6). */
export interface CustomStrategyArgs {
  model: string;
  messages?: ChatMessage[] | undefined;
  input?: unknown;
  specificDeployment?: boolean;
  requestKwargs: Readonly<Record<string, unknown>>;
}

/** A user-written strategy: returns one element of `router.modelList`. */
export interface CustomRoutingStrategy {
  asyncGetAvailableDeployment?(args: CustomStrategyArgs): Promise<DeploymentEntry | undefined | null>;
  getAvailableDeployment?(args: CustomStrategyArgs): DeploymentEntry | undefined | null;
}

/** What an entry a custom strategy returned is, when it is not one of the candidates. */
function whyNotCandidate(entry: DeploymentEntry | null | undefined, context: SelectionContext): string {
  if (!entry) return 'returned nothing';
  const id = entry.model_info?.id;
  if (id === undefined)
    return 'returned an object that is not an element of router.modelList (no model_info.id)';
  if (entry.model_name !== context.model)
    return `returned deployment \`${id}\` of model group \`${entry.model_name}\`, not of \`${context.model}\``;
  return `returned deployment \`${id}\`, which cannot take this call now (cooling down, at its limit, failed or filtered out)`;
}

/**
 * Adapts a user's strategy object to the RoutingStrategy interface. It chooses among the group's
 * current candidates; anything else fails the call with an error that says what was returned.
 */
export function customStrategy(custom: CustomRoutingStrategy): RoutingStrategy {
  const toArgs = (context: SelectionContext): CustomStrategyArgs => ({
    model: context.model,
    messages: context.request.messages as ChatMessage[] | undefined,
    input: context.request.input,
    specificDeployment: false,
    requestKwargs: context.request,
  });
  return {
    name: 'custom',
    async select(candidates: readonly Deployment[], context) {
      const args = toArgs(context);
      const entry = custom.asyncGetAvailableDeployment
        ? await custom.asyncGetAvailableDeployment(args)
        : custom.getAvailableDeployment?.(args);
      const id = entry?.model_info?.id;
      const chosen = id === undefined ? undefined : candidates.find((d) => d.id === id);
      if (chosen) return chosen;
      const ids = candidates.map((d) => d.id).join(', ');
      throw new InternalServerError(
        `custom routing strategy ${whyNotCandidate(entry, context)} for model group ${context.model} (candidates: ${ids})`,
        { model: context.model, retryable: false },
      );
    },
  };
}
