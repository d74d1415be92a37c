import { ownCopy } from '../db/spend-log-row.js';
import { ProxyError } from './proxy-error.js';

/** At most this many tags per request. */
export const MAX_TAGS = 32;
/** At most this many characters per tag. */
export const MAX_TAG_LENGTH = 128;

/** The request header that carries tags, comma-separated (`x-svc-tags: checkout,prod`). */
export const TAGS_HEADER = 'x-svc-tags';

const EMPTY: readonly string[] = Object.freeze([]);

function invalid(field: string, reason: string): ProxyError {
  return new ProxyError(400, 'invalid_request', `\`${field}\`: ${reason}`);
}

function checked(tag: string, field: string): string {
  if (tag.length > MAX_TAG_LENGTH)
    throw invalid(field, `a tag is at most ${MAX_TAG_LENGTH} characters; got ${tag.length}.`);
  return tag;
}

/** The tags of `metadata.tags`: a list of non-empty strings, or absent. */
function bodyTags(metadata: unknown): readonly string[] {
  if (typeof metadata !== 'object' || metadata === null) return EMPTY;
  const tags = (metadata as { tags?: unknown }).tags;
  if (tags === undefined || tags === null) return EMPTY;
  if (!Array.isArray(tags)) throw invalid('metadata.tags', 'expected a list of strings.');
  return tags.map((tag, i) => {
    if (typeof tag !== 'string' || tag.trim() === '')
      throw invalid(`metadata.tags[${i}]`, `expected a non-empty string; got ${JSON.stringify(tag)}.`);
    return checked(tag, `metadata.tags[${i}]`);
  });
}

/** The tags of the header: comma-separated, blanks around and empty entries ignored. */
function headerTags(header: string | string[] | undefined): readonly string[] {
  if (header === undefined) return EMPTY;
  const joined = Array.isArray(header) ? header.join(',') : header;
  return (
    joined
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '')
      // copies: a split or trim points into the header, and a tag outlives the request in its spend row
      .map((tag) => ownCopy(checked(tag, TAGS_HEADER)))
  );
}

/**
 * A request's tags: its body's `metadata.tags` then the `x-svc-tags` header's, each once. Throws 400
 * naming the field for a tag that is not a string, is empty or too long, or for too many tags.
 *
 * @example
 * requestTags({ tags: ['checkout'] }, 'prod, checkout'); // ['checkout', 'prod']
 */
export function requestTags(metadata: unknown, header: string | string[] | undefined): readonly string[] {
  const fromBody = bodyTags(metadata);
  const fromHeader = headerTags(header);
  if (fromBody.length + fromHeader.length === 0) return EMPTY;
  const tags = [...new Set([...fromBody, ...fromHeader])];
  if (tags.length > MAX_TAGS) {
    const field = fromHeader.length > 0 ? `metadata.tags, ${TAGS_HEADER}` : 'metadata.tags';
    throw invalid(field, `at most ${MAX_TAGS} tags; got ${tags.length}.`);
  }
  return tags;
}

/**
 * The request the router is given: with the tags in `metadata.tags` (those of the header too), which
 * the router's tag filtering reads. The request itself when its metadata already says so.
 */
export function withTags<R extends object>(request: R, tags: readonly string[]): R {
  if (tags.length === 0) return request;
  const metadata = ((request as { metadata?: unknown }).metadata ?? {}) as Record<string, unknown>;
  const current = metadata.tags;
  if (Array.isArray(current) && current.length === tags.length && current.every((t, i) => t === tags[i]))
    return request;
  return { ...request, metadata: { ...metadata, tags } };
}
