import type { UpstreamFailure } from '../../errors/map-error.js';
import { readOpenAIError } from '../openai-compatible/error-map.js';

/**
 * DeepSeek's error body is OpenAI's. Its 402 "Insufficient Balance" means this key can serve nothing
 * more: it is read as `insufficient_quota` (a RateLimitError, like OpenAI's own quota error) so the
 * router moves to another deployment instead of treating it as a bad request.
 */
export function readDeepseekError(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const failure = readOpenAIError(status, bodyText, headers);
  return status === 402 ? { ...failure, code: 'insufficient_quota' } : failure;
}
