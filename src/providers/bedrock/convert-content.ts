import type { ChatMessage, ContentPart } from '../../types/index.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { badRequest } from '../shared/provider-errors.js';

/** A Converse image source: inline base64 bytes or an S3 object. */
export type BedrockImageSource = { bytes: string } | { s3Location: { uri: string } };

/** Converse reasoning as sent back: signed text, or the encrypted (redacted) bytes in base64. */
export type BedrockReasoningBlock =
  | { reasoningText: { text: string; signature?: string } }
  | { redactedContent: string };

/** One Converse content block (blocks are told apart by their single key, not by a `type`). */
export type BedrockBlock =
  | { text: string }
  | { image: { format: string; source: BedrockImageSource } }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | { toolResult: { toolUseId: string; content: Array<{ text: string }> } }
  | { reasoningContent: BedrockReasoningBlock };

const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  png: 'png',
  jpeg: 'jpeg',
  jpg: 'jpeg',
  gif: 'gif',
  webp: 'webp',
};

/**
 * An `image_url` part as a Converse image block. Converse takes images inline (a base64 `data:` URI)
 * or from S3 (`s3://bucket/key.png`); it cannot fetch an http(s) URL, and the adapter does no I/O of
 * its own to fetch one.
 *
 * @throws BadRequestError for an http(s) URL or an image format Converse does not take.
 */
export function imageBlock(url: string, target: ProviderTarget): BedrockBlock {
  const data = /^data:image\/([a-z]+);base64,(.*)$/is.exec(url);
  if (data) {
    const format = IMAGE_FORMATS[(data[1] ?? '').toLowerCase()];
    if (!format) throw badRequest(target, `image type image/${data[1]} is not png, jpeg, gif or webp`);
    return { image: { format, source: { bytes: data[2] ?? '' } } };
  }
  if (url.startsWith('s3://')) {
    const extension = /\.([a-z]+)$/i.exec(url)?.[1]?.toLowerCase() ?? '';
    const format = IMAGE_FORMATS[extension];
    if (!format) throw badRequest(target, `cannot tell the image format of ${url} (png, jpeg, gif or webp)`);
    return { image: { format, source: { s3Location: { uri: url } } } };
  }
  throw badRequest(
    target,
    'Bedrock takes images as base64 `data:` URIs or `s3://` locations, not http(s) URLs',
  );
}

/** Message content as Converse blocks: a string is one text block; parts map one to one. */
export function contentBlocks(content: ChatMessage['content'], target: ProviderTarget): BedrockBlock[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part: ContentPart) =>
    part.type === 'image_url' ? imageBlock(part.image_url.url, target) : { text: part.text },
  );
}

/** The text of message content (system prompts, tool results): parts' texts in order. */
export function textParts(content: ChatMessage['content']): string[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [content];
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}
