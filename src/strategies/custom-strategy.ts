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

/**
 * Adapts a user's strategy object to the RoutingStrategy interface. It chooses among the group's
 * current candidates; an entry that is not one (another group, cooling down) selects nothing.
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
      return id === undefined ? undefined : candidates.find((d) => d.id === id);
    },
  };
}
