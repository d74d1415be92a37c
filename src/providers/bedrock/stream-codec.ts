import { InternalServerError } from '../../errors/classes.js';
import { codecOf, type EventStreamCodec, eventstreamCodecPeer } from '../../peers/eventstream-codec.js';
import type { OptionalPeer } from '../../peers/optional-peer.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';
import { deploymentName } from './aws-auth.js';

type CodecPeer = OptionalPeer<Parameters<typeof codecOf>[0]>;

/**
 * The event-stream codec a Bedrock stream is read with: at once once loaded, else its first load
 * (`@smithy/eventstream-codec`, an optional peer: only streaming needs it). `peer` is the package.
 *
 * @throws InternalServerError naming the package when it is not installed (its `cause` is the
 * MissingPeerError); retryable, so a router moves the call to another deployment.
 */
export async function bedrockStreamCodec(
  target: ProviderTarget,
  peer: CodecPeer = eventstreamCodecPeer,
): Promise<EventStreamCodec> {
  const loaded = peer.module;
  if (loaded) return codecOf(loaded);
  try {
    return codecOf(await peer.load(deploymentName(target)));
  } catch (cause) {
    const { provider, model, modelId } = target;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new InternalServerError(reason, { provider, model, modelId, cause });
  }
}
