export { vertexAdapter } from './adapter.js';
export { googleAccessToken, vertexHeaders } from './auth.js';
export { isClaudeModel, VERTEX_ANTHROPIC_VERSION, vertexClaudeAdapter } from './claude.js';
export { readVertexError } from './error-map.js';
export {
  DEFAULT_VERTEX_LOCATION,
  vertexApiBase,
  vertexLocation,
  vertexModelUrl,
  vertexProject,
} from './location.js';
