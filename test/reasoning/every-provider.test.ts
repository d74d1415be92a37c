import { describe, expect, it } from 'vitest';
import { type ChatCompletionChunk, Router } from '../../src/index.js';
import { accumulateChunks } from '../../src/reasoning/index.js';
import type { MockBehavior } from '../../src/testing/index.js';
import { useMock } from '../helpers.js';

const mock = useMock();

const REASONING = 'First I add two and two.';
const SIGNATURE = 'sig-EqQBCgIYAhIM';

interface Case {
  name: string;
  svc: (base: string) => Record<string, unknown>;
  /** Anthropic-type: thinking_blocks with the signature. */
  anthropicType: boolean;
  behavior?: MockBehavior;
}

const CASES: Case[] = [
  {
    name: 'anthropic',
    anthropicType: true,
    svc: (b) => ({ model: 'anthropic/claude-sonnet-4-5', api_base: b }),
  },
  {
    name: 'vertex_ai (Claude)',
    anthropicType: true,
    svc: (b) => ({
      model: 'vertex_ai/claude-sonnet-4-5',
      api_base: b,
      vertex_project: 'p',
      vertex_location: 'us-east5',
    }),
  },
  {
    name: 'bedrock (Claude)',
    anthropicType: true,
    svc: (b) => ({
      model: 'bedrock/anthropic.claude-sonnet-4-5-v1:0',
      api_base: b,
      aws_region_name: 'us-east-1',
    }),
  },
  {
    name: 'bedrock (other model)',
    anthropicType: false,
    svc: (b) => ({ model: 'bedrock/openai.gpt-oss-120b-1:0', api_base: b, aws_region_name: 'us-east-1' }),
  },
  { name: 'gemini', anthropicType: false, svc: (b) => ({ model: 'gemini/gemini-2.5-flash', api_base: b }) },
  {
    name: 'vertex_ai (Gemini)',
    anthropicType: false,
    svc: (b) => ({
      model: 'vertex_ai/gemini-2.5-pro',
      api_base: b,
      vertex_project: 'p',
      vertex_location: 'us-central1',
    }),
  },
  {
    name: 'deepseek',
    anthropicType: false,
    svc: (b) => ({ model: 'deepseek/deepseek-reasoner', api_base: b }),
  },
  { name: 'xai', anthropicType: false, svc: (b) => ({ model: 'xai/grok-3-mini', api_base: b }) },
  {
    name: 'openrouter',
    anthropicType: false,
    svc: (b) => ({ model: 'openrouter/deepseek/deepseek-r1', api_base: b }),
    behavior: { openaiVariant: { reasoningFormat: 'openrouter' } },
  },
];

function routerFor(c: Case): Router {
  const prefix = `/${c.name.replace(/\W+/g, '-')}`;
  mock.setBehavior(prefix, { reasoning: REASONING, signature: SIGNATURE, content: 'Four.', ...c.behavior });
  return new Router([
    { model_name: 'm', svc_params: { ...c.svc(`${mock.url}${prefix}`), api_key: 'sk-test-key' } as never },
  ]);
}

const ask = {
  model: 'm',
  messages: [{ role: 'user' as const, content: '2+2?' }],
  reasoning_effort: 'low' as const,
};

describe.each(CASES)('reasoning output of $name', (c) => {
  it('plain: reasoning_content, and thinking_blocks with the signature only for Anthropic-type models', async () => {
    const router = routerFor(c);
    const message = (await router.acompletion(ask)).choices[0]!.message;
    await router.close();
    expect(message.content).toBe('Four.');
    expect(message.reasoning_content).toBe(REASONING);
    if (c.anthropicType) {
      expect(message.thinking_blocks).toEqual([
        { type: 'thinking', thinking: REASONING, signature: SIGNATURE },
      ]);
    } else {
      expect(message.thinking_blocks).toBeUndefined();
    }
  });

  it('streaming: reasoning_content deltas, and thinking_blocks deltas with the signature only for Anthropic-type models', async () => {
    const router = routerFor(c);
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of await router.acompletion({ ...ask, stream: true })) chunks.push(chunk);
    await router.close();
    const streamedBlocks = chunks.some((k) => k.choices[0]?.delta.thinking_blocks);
    expect(streamedBlocks).toBe(c.anthropicType);
    const message = accumulateChunks(chunks).choices[0]!.message;
    expect(message.content).toBe('Four.');
    expect(message.reasoning_content).toBe(REASONING);
    if (c.anthropicType) {
      expect(message.thinking_blocks).toEqual([
        { type: 'thinking', thinking: REASONING, signature: SIGNATURE },
      ]);
    }
  });
});
