import type { AlertEvent, FailedAttempt } from './alert.js';

// a chat message stays readable and far below webhook size limits (Slack: 40,000 characters)
const MAX_MESSAGE_CHARS = 300;

/** A message on one line, at most 300 characters: one alert is one line of the webhook's text. */
export function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat;
}

const attemptText = (a: FailedAttempt): string => `${a.model_id ?? '-'} ${a.error}(${a.status})`;

/**
 * The webhook line of an alert (CONTRACT 5.5): the type, model group, deployment id and duration
 * first, as `key=value`, then what explains it.
 *
 * @example
 * alertLine(alert)
 * // '[llm_exception] model_group=gpt-4o model_id=b duration_ms=840 attempts=2 error=RateLimitError(429) "..." failed_attempts=[a InternalServerError(500), b RateLimitError(429)]'
 */
export function alertLine(alert: Omit<AlertEvent, 'text'>): string {
  const parts = [
    `[${alert.type}]`,
    `model_group=${alert.model_group}`,
    `model_id=${alert.model_id ?? '-'}`,
    `duration_ms=${Math.round(alert.duration_ms)}`,
  ];
  if (alert.model !== alert.model_group) parts.push(`model=${alert.model}`);
  if (alert.stream) parts.push('stream=true');
  if (alert.threshold_ms !== undefined) parts.push(`threshold_ms=${Math.round(alert.threshold_ms)}`);
  parts.push(`attempts=${alert.attempts}`);
  if (alert.error) {
    parts.push(
      `error=${alert.error.name}(${alert.error.status}) ${JSON.stringify(oneLine(alert.error.message))}`,
    );
  }
  if (alert.failed_attempts.length > 0) {
    parts.push(`failed_attempts=[${alert.failed_attempts.map(attemptText).join(', ')}]`);
  }
  return parts.join(' ');
}

/** The line that tells the webhook how many alerts were lost since its last delivery. */
export function droppedLine(dropped: number, capacity: number): string {
  return `[alerts_dropped] ${dropped} alert${dropped === 1 ? ' was' : 's were'} dropped: the webhook did not take them and the buffer (${capacity}) was full`;
}

/** The webhook body (CONTRACT 5.5): `{ "text": "<one line per alert>" }`. */
export function webhookBody(lines: readonly string[]): string {
  return JSON.stringify({ text: lines.join('\n') });
}
