import { OptionalPeer } from './optional-peer.js';

/** A header value of an AWS event-stream message, as the codec reads and writes it. */
export type EventStreamHeaderValue =
  | { type: 'string'; value: string }
  | { type: 'boolean'; value: boolean }
  | { type: string; value: unknown };

/** One AWS event-stream message: typed headers and the payload bytes. */
export interface EventStreamMessage {
  headers: Record<string, EventStreamHeaderValue>;
  body: Uint8Array;
}

/** The part of `@smithy/eventstream-codec`'s `EventStreamCodec` Bedrock and the mock use. */
export interface EventStreamCodec {
  /** Decodes one whole message, checking both CRC32 checksums; throws on a corrupt frame. */
  decode(bytes: Uint8Array): EventStreamMessage;
  encode(message: EventStreamMessage): Uint8Array;
}

/** The package's exports this library reads. */
export interface EventStreamCodecModule {
  EventStreamCodec: new (
    toUtf8: (bytes: Uint8Array) => string,
    fromUtf8: (text: string) => Uint8Array,
  ) => EventStreamCodec;
}

/**
 * `@smithy/eventstream-codec`: the AWS SDK's codec of the binary event stream
 * (`application/vnd.amazon.eventstream`) that Bedrock streams answer with.
 */
export const eventstreamCodecPeer = new OptionalPeer<EventStreamCodecModule>(
  '@smithy/eventstream-codec',
  'to read its streamed answers (the AWS event stream)',
);

const decoder = new TextDecoder();
const encoder = new TextEncoder();
// the codec wants its UTF-8 functions given; the platform's do what @smithy/util-utf8's would
const toUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes);
const fromUtf8 = (text: string): Uint8Array => encoder.encode(text);

// one codec per loaded module: it holds no per-message state (`decode` and `encode` only)
const codecs = new WeakMap<EventStreamCodecModule, EventStreamCodec>();

/** The codec of a loaded module. */
export function codecOf(module: EventStreamCodecModule): EventStreamCodec {
  let codec = codecs.get(module);
  if (!codec) {
    codec = new module.EventStreamCodec(toUtf8, fromUtf8);
    codecs.set(module, codec);
  }
  return codec;
}
