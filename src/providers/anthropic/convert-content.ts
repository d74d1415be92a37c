import type { ContentPart } from '../../types/index.js';
import { asRecord, asString } from '../shared/json.js';

/** One Anthropic content block, as sent on the wire. */
export type AnthropicBlock = Record<string, unknown>;

const DATA_URI = /^data:([^;,]+)((?:;[^;,]+)*),(.*)$/s;

function sourceOf(url: string): { media_type: string; data: string } | undefined {
  const match = DATA_URI.exec(url);
  if (!match) return undefined;
  const [, mediaType = '', params = '', payload = ''] = match;
  const data = params.includes(';base64')
    ? payload
    : Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64');
  return { media_type: mediaType, data };
}

/**
 * An OpenAI `image_url` as an Anthropic block: a `data:` URI becomes a base64 source with its media
 * type (a PDF becomes a `document` block, the only other type Anthropic takes inline), any other URL a
 * `url` source that Anthropic fetches itself.
 */
export function imageBlock(url: string): AnthropicBlock {
  const inline = sourceOf(url);
  if (!inline) return { type: 'image', source: { type: 'url', url } };
  const type = inline.media_type === 'application/pdf' ? 'document' : 'image';
  return { type, source: { type: 'base64', ...inline } };
}

function partBlock(part: ContentPart): AnthropicBlock {
  const raw = part as unknown as Record<string, unknown>;
  let block: AnthropicBlock;
  if (part.type === 'text') block = { type: 'text', text: part.text };
  else if (part.type === 'image_url') {
    const url = typeof part.image_url === 'string' ? part.image_url : asString(asRecord(part.image_url)?.url);
    block = imageBlock(url ?? '');
  } else {
    // Anthropic-native blocks (document, search_result, ...) sent as parts pass through untouched
    return raw;
  }
  // prompt caching marks travel with the part they mark
  if (raw.cache_control !== undefined) block.cache_control = raw.cache_control;
  return block;
}

/** A message's `content` (text or parts) as Anthropic blocks; null and absent content give none. */
export function contentBlocks(content: string | ContentPart[] | null | undefined): AnthropicBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map(partBlock);
}
