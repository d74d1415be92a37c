import { describe, expect, it } from 'vitest';
import { FORMATS, streamSuite, targetOf, textOf } from './helpers.js';

const suite = streamSuite();
const CONTENT = 'one two three four five six seven eight nine';

describe('an event whose data is not JSON', () => {
  it.each(FORMATS)('%s: is skipped, and the rest of the answer comes through', async (format) => {
    suite.mock.setBehavior('/s', { content: CONTENT, stream: { malformedAfter: 2 } });
    const { error, chunks } = await suite.run(format);
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe(CONTENT);
  });

  it.each(FORMATS)(
    '%s: is reported once as a malformed_event warning naming the deployment',
    async (format) => {
      suite.mock.setBehavior('/s', { content: CONTENT, stream: { malformedAfter: 2 } });
      const { warnings } = await suite.run(format);
      const { provider, model } = targetOf(suite.mock, format);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.code).toBe('malformed_event');
      expect(warnings[0]?.message).toMatch(
        new RegExp(`^${provider}/${model} streamed .* that is not JSON; skipped it: `),
      );
      expect(warnings[0]?.message).toContain('this is not json');
    },
  );

  it('fails nothing when the call has no onWarning', async () => {
    suite.mock.setBehavior('/s', { content: CONTENT, stream: { malformedAfter: 1 } });
    const { error, chunks } = await suite.run('openai', { onWarning: undefined });
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe(CONTENT);
  });
});
