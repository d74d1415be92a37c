import { customStrategy } from '../../src/strategies/custom-strategy.js';
import type { RandomSource } from '../../src/strategies/strategy.js';
import { strategyContract } from '../../src/testing/index.js';
import type { DeploymentEntry } from '../../src/types/index.js';

/** What a user's strategy typically does: a random entry of the asked group from `router.modelList`. */
const anyOfGroup = (modelList: readonly DeploymentEntry[], random: RandomSource, model: string) => {
  const group = modelList.filter((entry) => entry.model_name === model);
  return group[Math.floor(random() * group.length)];
};

strategyContract({
  name: 'custom strategy (getAvailableDeployment)',
  create: ({ modelList, random }) =>
    customStrategy({ getAvailableDeployment: ({ model }) => anyOfGroup(modelList, random, model) }),
});

// The object as a user writes it: the contract adapts it as the router does.
strategyContract({
  name: 'custom strategy (asyncGetAvailableDeployment)',
  create: ({ modelList, random }) => ({
    asyncGetAvailableDeployment: async ({ model }) => anyOfGroup(modelList, random, model),
  }),
});
