import { OptionalPeer } from './optional-peer.js';

/**
 * google-auth-library: Google access tokens for Vertex AI from Application Default Credentials or a
 * service-account key (`vertex_credentials`). A deployment with `api_key` needs nothing.
 */
export const googleAuthLibrary = new OptionalPeer<typeof import('google-auth-library')>(
  'google-auth-library',
  'for Application Default Credentials',
);
