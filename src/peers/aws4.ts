import { OptionalPeer } from './optional-peer.js';

/** The request aws4 signs: it adds `X-Amz-Date`, `X-Amz-Security-Token` and `Authorization` to `headers`. */
export interface Aws4Request {
  host: string;
  path: string;
  method: string;
  service: string;
  region: string;
  headers: Record<string, string | number>;
  body: string;
  /** Lower-case names of headers to leave unsigned. */
  extraHeadersToIgnore?: Record<string, boolean>;
}

/** The part of aws4 (a single-file, dependency-free SigV4 signer) the Bedrock provider uses. */
export interface Aws4 {
  sign(
    request: Aws4Request,
    credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined },
  ): Aws4Request;
}

/** aws4: SigV4 signing of Bedrock calls made with IAM keys (a Bedrock API key needs nothing). */
export const aws4 = new OptionalPeer<{ default: Aws4 }>('aws4', 'to sign its calls with SigV4 (IAM keys)');
