import type { UpstreamFailure } from '../../errors/map-error.js';
import { readOpenAIError } from '../openai-compatible/error-map.js';
import { asRecord, parseJsonObject } from '../shared/json.js';

// The categories Azure's content filter flagged, e.g. "self_harm (medium)".
function filteredCategories(result: Record<string, unknown> | undefined): string[] {
  const out: string[] = [];
  for (const [category, value] of Object.entries(result ?? {})) {
    const r = asRecord(value);
    if (r?.filtered === true)
      out.push(typeof r.severity === 'string' ? `${category} (${r.severity})` : category);
  }
  return out;
}

/**
 * Azure's error body is OpenAI's, plus `innererror`. A prompt its content filter refused (400, `code:
 * 'content_filter'`, `innererror.code: 'ResponsibleAIPolicyViolation'`) is read as `content_filter`
 * (ContentPolicyViolationError) with the flagged categories added to the message.
 */
export function readAzureError(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const failure = readOpenAIError(status, bodyText, headers);
  const inner = asRecord(asRecord(parseJsonObject(bodyText)?.error)?.innererror);
  if (failure.code !== 'content_filter' && inner?.code !== 'ResponsibleAIPolicyViolation') return failure;
  const flagged = filteredCategories(asRecord(inner?.content_filter_result));
  const message =
    flagged.length > 0 ? `${failure.message} (filtered: ${flagged.join(', ')})` : failure.message;
  return { ...failure, message, code: 'content_filter' };
}
