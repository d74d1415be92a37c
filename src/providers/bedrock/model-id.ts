import type { ProviderTarget } from '../shared/provider-adapter.js';

/** The Bedrock runtime operations this adapter calls. */
export type BedrockAction = 'converse' | 'converse-stream' | 'invoke';

/**
 * The model id Bedrock knows: the part after `bedrock/`, without the `converse/` route marker some
 * configs carry (`bedrock/converse/anthropic.claude-...`), since Converse is the only chat route here.
 */
export function bedrockModelId(target: ProviderTarget): string {
  return target.model.startsWith('converse/') ? target.model.slice('converse/'.length) : target.model;
}

// Foundation model ids (`anthropic.claude-...`), cross-region inference profiles
// (`us.anthropic.claude-...`, `global.anthropic.claude-...`) and ARNs that end in either.
const CLAUDE_ID = /(?:^|[./:])anthropic\.claude/;

/**
 * Whether a deployment runs an Anthropic Claude model, which decides the reasoning translation
 * (`thinking`, `thinking_blocks`). svc_params `base_model` settles it for ids that do
 * not say, such as application inference profile ARNs.
 */
export function isClaudeModel(target: ProviderTarget): boolean {
  const base = target.params.base_model;
  return CLAUDE_ID.test(bedrockModelId(target)) || (typeof base === 'string' && CLAUDE_ID.test(base));
}

/**
 * `{api_base}/model/{modelId}/{action}` (CONTRACT 5.1). The model id is one URL-encoded path segment:
 * ids contain `:` (`...-v1:0`) and ARNs contain `/`.
 */
export function bedrockUrl(apiBase: string, target: ProviderTarget, action: BedrockAction): string {
  return `${apiBase}/model/${encodeURIComponent(bedrockModelId(target))}/${action}`;
}
