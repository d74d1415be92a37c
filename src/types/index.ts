export type * from './chat.js';
export type * from './deployment.js';
export type * from './embedding.js';
export type * from './hidden-params.js';
export type * from './image.js';
export type * from './media.js';
export { type BuiltInProviderName, PROVIDER_PREFIXES, type ProviderName } from './provider.js';
export type * from './routing.js';
export type * from './text-completion.js';
