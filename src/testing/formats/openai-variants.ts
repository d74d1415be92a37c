import type { MockExchange } from '../../types/mock-format.js';
import type { MockBehavior } from '../mock-behavior.js';

type Json = Record<string, unknown>;

/** The OpenAI-format variant of a behavior, with defaults. */
export function variantOf(b: MockBehavior): NonNullable<MockBehavior['openaiVariant']> {
  return b.openaiVariant ?? {};
}

/** Whether the request came in on an Azure path (`/openai/deployments/{d}/...`). */
export const isAzurePath = (ex: MockExchange): boolean => ex.request.path.includes('/openai/deployments/');

const SAFE = { filtered: false, severity: 'safe' };

/** Azure's per-choice content-filter annotations; `filtered` marks violence as filtered (medium). */
export function azureContentFilterResults(filtered = false): Json {
  return {
    hate: SAFE,
    self_harm: SAFE,
    sexual: SAFE,
    violence: filtered ? { filtered: true, severity: 'medium' } : SAFE,
  };
}

/** Azure's `prompt_filter_results` (answers and the first stream chunk). */
export function azurePromptFilterResults(): Json[] {
  return [
    {
      prompt_index: 0,
      content_filter_results: {
        ...azureContentFilterResults(),
        jailbreak: { filtered: false, detected: false },
      },
    },
  ];
}

/** Azure's 400 when its content filter refuses the prompt (Azure OpenAI REST reference). */
export function azurePromptFilteredError(message?: string): Json {
  return {
    error: {
      message:
        message ??
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. " +
          'Please modify your prompt and retry. To learn more about our content filtering policies please read ' +
          'our documentation: https://go.microsoft.com/fwlink/?linkid=2198766',
      type: null,
      param: 'prompt',
      code: 'content_filter',
      status: 400,
      innererror: {
        code: 'ResponsibleAIPolicyViolation',
        content_filter_result: {
          hate: SAFE,
          jailbreak: { filtered: false, detected: false },
          self_harm: { filtered: true, severity: 'medium' },
          sexual: SAFE,
          violence: SAFE,
        },
      },
    },
  };
}

/** OpenRouter's `format` of reasoning details: Anthropic's for `anthropic/` models. */
const detailFormat = (model: string) => (model.startsWith('anthropic/') ? 'anthropic-claude-v1' : 'unknown');

/** OpenRouter's `reasoning_details` of a whole answer: the text (signed when a signature is set), then encrypted reasoning. */
export function openrouterReasoningDetails(b: MockBehavior, model: string): Json[] {
  const format = detailFormat(model);
  const details: Json[] = [];
  if (b.reasoning !== undefined)
    details.push({
      type: 'reasoning.text',
      text: b.reasoning,
      ...(b.signature ? { signature: b.signature } : {}),
      format,
      index: 0,
    });
  if (b.redactedReasoning !== undefined)
    details.push({ type: 'reasoning.encrypted', data: b.redactedReasoning, format, index: details.length });
  return details;
}

/** OpenRouter's streamed reasoning: one delta per text piece, then the signature piece, then encrypted reasoning. */
export function openrouterReasoningDeltas(b: MockBehavior, model: string, textPieces: string[]): Json[] {
  const format = detailFormat(model);
  const deltas: Json[] = textPieces.map((p) => ({
    reasoning: p,
    reasoning_details: [{ type: 'reasoning.text', text: p, format, index: 0 }],
  }));
  if (b.signature && b.reasoning !== undefined)
    deltas.push({
      reasoning: null,
      reasoning_details: [{ type: 'reasoning.text', signature: b.signature, format, index: 0 }],
    });
  if (b.redactedReasoning !== undefined)
    deltas.push({
      reasoning: null,
      reasoning_details: [{ type: 'reasoning.encrypted', data: b.redactedReasoning, format, index: 1 }],
    });
  return deltas;
}
