import type { MockExchange, MockFormat } from '../types/mock-format.js';
import { DEFAULT_CONTENT } from './mock-text.js';

/**
 * What a request that ends with an assistant prefix gets: the format's refusal, written here (then
 * undefined), when the behavior says `prefill: 'refuse'` or the provider refuses that prefix anyway;
 * else the exchange with the answer's content continuing the prefix. Other requests pass unchanged.
 */
export function withPrefill(format: MockFormat, exchange: MockExchange): MockExchange | undefined {
  const prefill = format.prefill;
  const prefix = prefill?.of(exchange.request);
  if (!prefill || prefix === undefined) return exchange;
  const b = exchange.behavior;
  const refusal = b.prefill === 'refuse' ? prefill.refusal : prefill.problem?.(prefix);
  if (refusal) {
    format.writeError({ ...exchange, behavior: { ...b, error: refusal.error } }, refusal.status);
    return undefined;
  }
  if (b.content === undefined && b.toolCalls) return exchange;
  const content = b.content ?? DEFAULT_CONTENT;
  const rest = content.startsWith(prefix) ? content.slice(prefix.length) : content;
  return { ...exchange, behavior: { ...b, content: rest } };
}
