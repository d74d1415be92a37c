import { redactSecrets } from '../../errors/redact.js';
import { asRecord } from './json.js';
import type { ProviderTarget, StreamMonitor } from './provider-adapter.js';

/** How much of a skipped event a warning quotes. */
const EXCERPT_CHARS = 80;

/** The start of `text` for a message: one line, secrets removed, at most `EXCERPT_CHARS` long. */
function excerptOf(text: string, target: ProviderTarget): string {
  // redact before cutting, so a secret straddling the cut cannot leave its first half behind
  const head = redactSecrets(text.slice(0, 4 * EXCERPT_CHARS), [target.apiKey, ...(target.secrets ?? [])]);
  const line = head.replace(/\p{Cc}+/gu, ' ');
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
}

/**
 * Parses the payload of one stream event. An event that is not a JSON object (broken JSON, `null`, an
 * array) is skipped, as the SSE rules and the best gateways do, and reported to `monitor` as a
 * `malformed_event` warning naming the deployment and quoting the start of the event; the caller gets
 * undefined and moves on. The one place every stream format parses its events.
 *
 * @param what names the event in the warning (`an event`, `a frame`, `a contentBlockDelta event`).
 * @example parseStreamJson('{"type":"ping"}', target, 'an event') // => { type: 'ping' }
 * @example parseStreamJson('{oops', target, 'an event', monitor) // => undefined, monitor warned
 */
export function parseStreamJson(
  text: string,
  target: ProviderTarget,
  what: string,
  monitor?: StreamMonitor,
): Record<string, unknown> | undefined {
  let value: unknown;
  let problem: string;
  try {
    value = JSON.parse(text);
    const record = asRecord(value);
    if (record) return record;
    problem = 'is not a JSON object';
  } catch {
    problem = 'is not JSON';
  }
  monitor?.warn({
    code: 'malformed_event',
    message: `${target.provider}/${target.model} streamed ${what} that ${problem}; skipped it: ${excerptOf(text, target)}`,
  });
  return undefined;
}
