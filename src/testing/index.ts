/**
 * `@svc/router/testing`: a local mock provider that speaks the providers' wire formats, helpers for
 * deterministic tests, and the contract suites a store or routing strategy must pass (these two need
 * vitest, an optional peer dependency).
 */
export type {
  MockExchange,
  MockFormat,
  MockPrefill,
  MockRefusal,
  MockRequest,
} from '../types/mock-format.js';
export type { MockBehavior, MockStreamOptions, MockToolCall } from './mock-behavior.js';
export { type MockProvider, type MockProviderOptions, startMockProvider } from './mock-provider.js';
export { seededRandom } from './seeded-random.js';
export { type StoreContractDeps, type StoreContractOptions, storeContract } from './store-contract.js';
export {
  type StrategyContractDeps,
  type StrategyContractOptions,
  strategyContract,
} from './strategy-contract.js';
export { type TestDeploymentInput, testDeployment } from './test-deployment.js';
