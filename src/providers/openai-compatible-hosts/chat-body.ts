import type { ChatCompletionRequest } from '../../types/index.js';
import { openaiReasoningParams } from '../openai/reasoning-params.js';
import type { CallOptions, ProviderTarget } from '../shared/provider-adapter.js';
import { withoutReasoningControls } from '../shared/reasoning-controls.js';
import { withoutUnsupportedParams } from '../shared/unsupported-params.js';
import type { OpenAICompatibleHost } from './host.js';

type ChatBodyHook = (
  body: Record<string, unknown>,
  target: ProviderTarget,
  options: CallOptions,
) => Record<string, unknown>;

// `name` is part of OpenAI's tool-result shape on some hosts (Mistral); elsewhere it is a speaker label
const isLabelled = (message: unknown): boolean => {
  const m = message as { role?: unknown; name?: unknown } | null;
  return typeof m === 'object' && m !== null && m.role !== 'tool' && m.name !== undefined;
};

function withoutNames(messages: unknown[]): unknown[] {
  return messages.map((message) => {
    if (!isLabelled(message)) return message;
    const { name: _name, ...rest } = message as Record<string, unknown>;
    return rest;
  });
}

// reasoning controls as OpenAI spells them: the convention every OpenAI-compatible host follows
function withOpenAIReasoning(body: Record<string, unknown>): Record<string, unknown> {
  if (body.reasoning_effort === undefined && body.thinking === undefined) return body;
  const native = openaiReasoningParams(body as Pick<ChatCompletionRequest, 'reasoning_effort' | 'thinking'>);
  return { ...withoutReasoningControls(body), ...native };
}

function renamed(body: Record<string, unknown>, renames: Readonly<Record<string, string>>) {
  let out = body;
  for (const [from, to] of Object.entries(renames)) {
    if (body[from] === undefined) continue;
    if (out === body) out = { ...body };
    out[to] = out[from];
    delete out[from];
  }
  return out;
}

/**
 * The host's changes to a chat body: reasoning controls as `reasoning_effort`, fields the host spells
 * differently renamed, and the fields it refuses (request fields, `messages[].name`) removed with
 * `drop_params`. Without `drop_params` a refused field fails the call with a BadRequestError naming
 * it, before anything is sent.
 *
 * @example
 * hostChatBody(groq)({ model: 'm', messages, logprobs: true }, target, { dropParams: false });
 * // throws BadRequestError: groq/m does not support `logprobs`; set `drop_params: true` ...
 */
export function hostChatBody(host: OpenAICompatibleHost): ChatBodyHook {
  const refused = new Set(host.refuses ?? []);
  const renames = host.renames ?? {};
  return (body, target, options) => {
    let out = renamed(withOpenAIReasoning(body), renames);
    const messages = Array.isArray(out.messages) ? out.messages : [];
    const labelled = host.refusesMessageName === true && messages.some(isLabelled);
    if (refused.size > 0 || labelled) {
      out = withoutUnsupportedParams(out, target, options.dropParams, {
        unsupported: refused,
        alsoRefused: labelled ? ['messages[].name'] : [],
      });
    }
    if (labelled) out.messages = withoutNames(messages);
    return out;
  };
}
