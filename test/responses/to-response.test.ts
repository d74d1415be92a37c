import { describe, expect, it } from 'vitest';
import {
  chatCompletionToResponse,
  decodeReasoningState,
  parseResponsesRequest,
  responseShell,
} from '../../src/responses/index.js';
import { completion } from './chunks.js';

const shell = responseShell(
  parseResponsesRequest({ model: 'gpt-4o', instructions: 'Be brief.', input: 'hi', metadata: { a: 'b' } }),
  { id: 'resp_1', createdAt: 1700000000 },
);

describe('responseShell', () => {
  it('starts in progress with the request settings echoed', () => {
    expect(shell).toMatchObject({
      id: 'resp_1',
      object: 'response',
      created_at: 1700000000,
      status: 'in_progress',
      model: 'gpt-4o',
      instructions: 'Be brief.',
      output: [],
      usage: null,
      error: null,
      store: true,
      tool_choice: 'auto',
      tools: [],
      text: { format: { type: 'text' } },
      metadata: { a: 'b' },
    });
  });
});

describe('chatCompletionToResponse', () => {
  it('answers text as one message with one output_text part', () => {
    const response = chatCompletionToResponse(completion({ content: 'Hello.' }), shell);
    expect(response).toMatchObject({ id: 'resp_1', status: 'completed', incomplete_details: null });
    expect(response.completed_at).toEqual(expect.any(Number));
    expect(response.output).toEqual([
      {
        type: 'message',
        id: expect.stringMatching(/^msg_[0-9a-f]{48}$/),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello.', annotations: [], logprobs: [] }],
      },
    ]);
  });

  it('puts reasoning first, then text, then each tool call with its call_id', () => {
    const response = chatCompletionToResponse(
      completion(
        {
          content: 'Checking.',
          reasoning_content: 'Use the tool.',
          thinking_blocks: [{ type: 'thinking', thinking: 'Use the tool.', signature: 'sig-1' }],
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        'tool_calls',
      ),
      shell,
    );
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    const [reasoning, , call] = response.output;
    expect(reasoning).toMatchObject({ summary: [{ type: 'summary_text', text: 'Use the tool.' }] });
    expect(decodeReasoningState((reasoning as { encrypted_content?: string }).encrypted_content)).toEqual([
      { type: 'thinking', thinking: 'Use the tool.', signature: 'sig-1' },
    ]);
    expect(call).toEqual({
      type: 'function_call',
      id: expect.stringMatching(/^fc_/),
      call_id: 'call_1',
      name: 'f',
      arguments: '{"a":1}',
      status: 'completed',
    });
  });

  it('leaves encrypted_content out of reasoning that has no thinking blocks', () => {
    const response = chatCompletionToResponse(completion({ content: 'x', reasoning_content: 'hmm' }), shell);
    expect(response.output[0]).toEqual({
      type: 'reasoning',
      id: expect.stringMatching(/^rs_/),
      summary: [{ type: 'summary_text', text: 'hmm' }],
    });
  });

  it('marks an answer cut by the output limit incomplete, its message too', () => {
    const response = chatCompletionToResponse(completion({ content: 'Once' }, 'length'), shell);
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      completed_at: null,
    });
    expect(response.output[0]).toMatchObject({ status: 'incomplete' });
  });

  it('marks an answer stopped by a content filter incomplete', () => {
    const response = chatCompletionToResponse(completion({ content: '' }, 'content_filter'), shell);
    expect(response.incomplete_details).toEqual({ reason: 'content_filter' });
    expect(response.output).toEqual([]);
  });

  it('counts usage the Responses way: cached and reasoning tokens in their details', () => {
    const answer = completion({ content: 'x' });
    answer.usage = {
      prompt_tokens: 100,
      completion_tokens: 40,
      total_tokens: 140,
      prompt_tokens_details: { cached_tokens: 60, cache_creation_tokens: 20 },
      completion_tokens_details: { reasoning_tokens: 30 },
    };
    expect(chatCompletionToResponse(answer, shell).usage).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 60, cache_write_tokens: 20 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 30 },
      total_tokens: 140,
    });
  });

  it('does not change the shell', () => {
    chatCompletionToResponse(completion({ content: 'x' }), shell);
    expect(shell.status).toBe('in_progress');
    expect(shell.output).toEqual([]);
  });
});
