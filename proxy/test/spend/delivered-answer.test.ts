import type { ChatCompletionChunk, ChunkDelta, Usage } from '@svc/router';
import { promptTokens, textTokens } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { DeliveredAnswer } from '../../src/spend/delivered-answer.js';

const chunk = (delta: ChunkDelta, usage?: Usage): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: null }],
  ...(usage && { usage }),
});

/** What the stream writer does with each chunk: `arrived`, then `delivered` when it was written. */
function read(answer: DeliveredAnswer, list: ChatCompletionChunk[], written: (i: number) => boolean): void {
  list.forEach((c, i) => {
    answer.arrived(c);
    if (written(i)) answer.delivered(c);
  });
}

const REQUEST = { model: 'gpt-4o', messages: [{ role: 'user', content: 'What is the weather?' }] };
const perToken = (usage: Usage) => usage.prompt_tokens * 0.000001 + usage.completion_tokens * 0.000002;

describe('DeliveredAnswer', () => {
  it('counts only the text of chunks written while the client was there', () => {
    const answer = new DeliveredAnswer();
    const list = [chunk({ content: 'one ' }), chunk({ content: 'two ' }), chunk({ content: 'three' })];
    read(answer, list, (i) => i === 0); // the client left before `two ` was written
    expect(answer.text).toBe('one ');
  });

  it('counts reasoning, tool-call names and arguments as delivered text', async () => {
    const answer = new DeliveredAnswer();
    const list = [
      chunk({ reasoning_content: 'Look it up. ' }),
      chunk({
        tool_calls: [{ index: 0, id: 't1', type: 'function', function: { name: 'weather', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Oslo"}' } }] }),
    ];
    read(answer, list, () => true);
    expect(answer.text).toBe('Look it up. weather{"city":"Oslo"}');
  });

  it('is charged the upstream usage at once when it came, whoever was still reading', () => {
    const answer = new DeliveredAnswer();
    const usage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 };
    read(answer, [chunk({ content: 'hi' }), chunk({}, usage)], () => false);
    // no promise: the stream's books close in the turn it ends
    expect(answer.charge(REQUEST, perToken)).toEqual({
      usage,
      cost: perToken(usage),
      estimated: false,
    });
  });

  it('is charged the counted prompt and delivered text when the upstream sent no usage', async () => {
    const answer = new DeliveredAnswer();
    read(answer, [chunk({ content: 'It is sunny in Oslo.' })], () => true);
    const prompt = await promptTokens(REQUEST);
    const completion = await textTokens('It is sunny in Oslo.');
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    expect(await answer.charge(REQUEST, perToken)).toEqual({ usage, cost: perToken(usage), estimated: true });
  });
});
