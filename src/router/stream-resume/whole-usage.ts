import { promptTokens } from '../../checks/token-count.js';
import { responseCost } from '../../cost/response-cost.js';
import type { ChatCompletionRequest, Deployment, Usage } from '../../types/index.js';

/** One deployment's part of a continued answer. */
export interface AnswerPart {
  deployment: Deployment;
  /** What was sent to it (for the second part on: the prompt plus the text already given). */
  request: ChatCompletionRequest;
  /** The text (content and reasoning) it gave the caller. */
  text: string;
  /** What its upstream reported, when it did (a broken stream reports nothing). */
  usage?: Usage | undefined;
}

const reported = (usage: Usage | undefined): usage is Usage =>
  typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number';

/** A part's tokens: its upstream's usage, else counted (its prompt, and the text it gave). */
async function partUsage(part: AnswerPart): Promise<Usage> {
  if (reported(part.usage)) return part.usage;
  const prompt = await promptTokens(part.request);
  const completion = part.text ? await promptTokens({ input: part.text }) : 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * The usage and cost of an answer continued over several deployments: every part's tokens summed
 * (each part's prompt was sent and billed, the second on with the text already given as input), each
 * priced at its own deployment's prices.
 */
export async function wholeUsage(parts: readonly AnswerPart[]): Promise<{ usage: Usage; cost: number }> {
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let cost = 0;
  let searches = 0;
  for (const part of parts) {
    const own = await partUsage(part);
    usage.prompt_tokens += own.prompt_tokens;
    usage.completion_tokens += own.completion_tokens;
    usage.total_tokens += own.prompt_tokens + own.completion_tokens;
    searches += own.server_tool_use?.web_search_requests ?? 0;
    cost += responseCost(part.deployment, own);
  }
  if (searches > 0) usage.server_tool_use = { web_search_requests: searches };
  return { usage, cost };
}

/** Tokens of text already given (for the continuation's `max_tokens`). */
export function textTokens(text: string): Promise<number> {
  return text ? promptTokens({ input: text }) : Promise.resolve(0);
}
