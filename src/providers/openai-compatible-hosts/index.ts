import { hostAdapter } from './host-adapter.js';
import { OPENAI_COMPATIBLE_HOSTS } from './hosts.js';

export { keepAnswerFields } from './answer-fields.js';
export { hostChatBody } from './chat-body.js';
export type { OpenAICompatibleHost } from './host.js';
export { hostAdapter } from './host-adapter.js';
export { OPENAI_COMPATIBLE_HOSTS } from './hosts.js';

/** One adapter per host of `OPENAI_COMPATIBLE_HOSTS`, in its order. */
export const HOST_ADAPTERS = Object.freeze(OPENAI_COMPATIBLE_HOSTS.map(hostAdapter));
