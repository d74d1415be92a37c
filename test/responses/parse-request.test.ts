import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/errors/index.js';
import { parseResponsesRequest } from '../../src/responses/index.js';

function problem(body: unknown): string {
  try {
    parseResponsesRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return (error as Error).message;
  }
  throw new Error('expected a BadRequestError');
}

describe('parseResponsesRequest', () => {
  it('accepts a string input and keeps the router fields apart', () => {
    expect(parseResponsesRequest({ model: 'gpt-4o', input: 'hi', num_retries: 2, fallbacks: ['b'] })).toEqual(
      {
        model: 'gpt-4o',
        input: 'hi',
        routerFields: { num_retries: 2, fallbacks: ['b'] },
      },
    );
  });

  it('accepts items as the API answered them, fields it does not read included', () => {
    const request = parseResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'q' }] },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          phase: 'final_answer',
          content: [{ type: 'output_text', text: 'a', annotations: [], logprobs: [] }],
        },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 's' }],
          encrypted_content: null,
        },
        { type: 'function_call', id: 'fc_1', call_id: 'c', name: 'f', arguments: '{}', status: 'completed' },
        { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'out' }] },
      ],
    });
    expect(request.input).toHaveLength(5);
  });

  it('names an unknown field, with the closest known one', () => {
    expect(problem({ model: 'm', input: 'hi', instruction: 'x' })).toBe(
      'Invalid Responses request: unknown field `instruction`; did you mean `instructions`?',
    );
  });

  it('refuses built-in tools, naming the tool', () => {
    expect(problem({ model: 'm', input: 'hi', tools: [{ type: 'web_search' }] })).toContain(
      'tools[0].type: built-in tool `web_search` is not supported; only `function` tools are',
    );
  });

  it('refuses an unknown field of a function tool', () => {
    expect(
      problem({
        model: 'm',
        input: 'hi',
        tools: [{ type: 'function', name: 'f', parameters: {}, output_schema: {} }],
      }),
    ).toContain('unknown field `output_schema` in `tools[0]`');
  });

  it('refuses item and part types a chat model cannot take, naming where', () => {
    const message = problem({
      model: 'm',
      input: [
        { type: 'item_reference', id: 'x' },
        { role: 'user', content: [{ type: 'input_file', file_id: 'f' }] },
      ],
    });
    expect(message).toContain('input[0].type: `item_reference` items are not supported; supported: message,');
    expect(message).toContain('input[1].content[0].type: `input_file` parts are not supported here');
  });

  it('names a missing field of an item', () => {
    expect(problem({ model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] })).toBe(
      'Invalid Responses request: input[0].call_id: is required',
    );
  });

  it('refuses an image outside a user message or function output', () => {
    expect(
      problem({
        model: 'm',
        input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://x/a.png' }] }],
      }),
    ).toContain('input[0].content: images are only allowed in user messages and function outputs');
  });

  it('refuses fields a chat model cannot serve, each with why', () => {
    const message = problem({ model: 'm', input: 'hi', background: true, conversation: 'conv_1' });
    expect(message).toContain('background: background responses are not supported');
    expect(message).toContain('conversation: conversations are not supported; use `previous_response_id`');
  });

  it('takes those fields at their neutral values', () => {
    expect(parseResponsesRequest({ model: 'm', input: 'hi', background: false, top_logprobs: 0 }).model).toBe(
      'm',
    );
  });

  it('refuses an include other than reasoning.encrypted_content, and an unknown effort', () => {
    const message = problem({
      model: 'm',
      input: 'hi',
      include: ['message.output_text.logprobs'],
      reasoning: { effort: 'extreme' },
    });
    expect(message).toContain('include[0]: only `reasoning.encrypted_content` is supported');
    expect(message).toContain('reasoning.effort:');
  });

  it('refuses a body that is not an object', () => {
    expect(problem([1])).toBe('The request body must be a JSON object.');
  });
});
