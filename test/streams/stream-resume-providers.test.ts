import { describe, expect, it } from 'vitest';
import { type DeploymentConfig, Router } from '../../src/index.js';
import { CLAUDE, KEYS } from '../fixtures/bedrock/load.js';
import { deployment, USER, useMock } from '../helpers.js';

const mock = useMock();

const TEXT = 'one two three four five six seven eight nine';
// what the broken OpenAI-format stream gave before its cut, trailing whitespace left out
const PREFIX = 'one two three four five six';

/** A deployment `b` of the group, on provider `model`, at `mock.url/b`. */
const continuing = (model: string, params: Record<string, unknown>, prefill?: boolean): DeploymentConfig => ({
  model_name: 'gpt-4o',
  svc_params: { model, api_base: `${mock.url}/b`, api_key: 'k-0000', ...params },
  model_info: { id: 'b', ...(prefill === undefined ? {} : { supports_assistant_prefill: prefill }) },
});

// Each provider's prefill form (CONTRACT 6.2): what the continuation's request ends with.
const cases: Array<[string, () => DeploymentConfig, (body: Record<string, unknown>) => unknown]> = [
  [
    'Anthropic: a trailing assistant message without trailing whitespace (catalog default)',
    () => continuing('anthropic/claude-sonnet-4-5', {}),
    (body) => (body.messages as unknown[]).at(-1),
  ],
  [
    'Bedrock: a trailing assistant message in Converse (Claude, catalog default)',
    () => continuing(`bedrock/${CLAUDE}`, { ...KEYS, api_key: undefined }),
    (body) => (body.messages as unknown[]).at(-1),
  ],
  [
    'Gemini: a trailing model turn',
    () => continuing('gemini/gemini-2.5-flash', {}, true),
    (body) => (body.contents as unknown[]).at(-1),
  ],
  [
    'DeepSeek: a trailing assistant message with prefix: true (catalog default)',
    () => continuing('deepseek/deepseek-chat', {}),
    (body) => (body.messages as unknown[]).at(-1),
  ],
  [
    'OpenRouter: a trailing assistant message as it is',
    () => continuing('openrouter/anthropic/claude-sonnet-4-5', {}, true),
    (body) => (body.messages as unknown[]).at(-1),
  ],
];

const expected: Record<string, unknown> = {
  Anthropic: { role: 'assistant', content: PREFIX },
  Bedrock: { role: 'assistant', content: [{ text: PREFIX }] },
  Gemini: { role: 'model', parts: [{ text: PREFIX }] },
  DeepSeek: { role: 'assistant', content: PREFIX, prefix: true },
  OpenRouter: { role: 'assistant', content: PREFIX },
};

describe('stream_resume sends each provider its own prefill form', () => {
  for (const [name, b, lastTurn] of cases) {
    it(name, async () => {
      mock.setBehavior('/a', { content: TEXT, stream: { cutAfter: 3 } });
      mock.setBehavior('/b', { content: TEXT });
      const router = new Router([deployment(mock, 'a'), b()], { stream_resume: true }, { random: () => 0 });
      const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      await router.close();
      const sent = mock.requests.find((r) => r.path.startsWith('/b/'))?.body as Record<string, unknown>;
      expect(text).toBe(TEXT);
      expect(lastTurn(sent)).toEqual(expected[name.split(':')[0]!]);
    });
  }
});
