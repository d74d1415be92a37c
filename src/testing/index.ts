/**
 * `@svc/router/testing`: a local mock provider that speaks the providers' wire formats, and helpers for
 * deterministic tests.
 */
export type { MockExchange, MockFormat, MockRequest } from './formats/format.js';
export type { MockBehavior, MockStreamOptions, MockToolCall } from './mock-behavior.js';
export { type MockProvider, type MockProviderOptions, startMockProvider } from './mock-provider.js';
export { seededRandom } from './seeded-random.js';
