import { describe, expect, it } from 'vitest';
import { type AnyThinkingBlock, BadRequestError, type ToolCall } from '../../src/index.js';
import { sendableThinkingBlocks, toolInput } from '../../src/providers/shared/tool-arguments.js';
import { bedrockTarget } from '../fixtures/bedrock/load.js';

const target = bedrockTarget(undefined, 'anthropic.claude-sonnet-4-5');
const call = (args: string): ToolCall => ({
  id: 'call_1',
  type: 'function',
  function: { name: 'f', arguments: args },
});

describe('toolInput', () => {
  it('parses JSON object arguments', () => {
    expect(toolInput(call('{"city":"Paris"}'), target)).toEqual({ city: 'Paris' });
  });

  it('takes empty or blank arguments as an empty object', () => {
    expect(toolInput(call(''), target)).toEqual({});
    expect(toolInput(call('  \n'), target)).toEqual({});
  });

  it('refuses arguments that are not JSON, naming the call', () => {
    expect(() => toolInput(call('{oops'), target)).toThrow(BadRequestError);
    expect(() => toolInput(call('{oops'), target)).toThrow(
      'bedrock/anthropic.claude-sonnet-4-5: the arguments of tool call call_1 are not valid JSON',
    );
  });

  it('refuses JSON arguments that are not an object', () => {
    expect(() => toolInput(call('[1]'), target)).toThrow(/call_1 are not a JSON object/);
    expect(() => toolInput(call('null'), target)).toThrow(/call_1 are not a JSON object/);
  });
});

describe('sendableThinkingBlocks', () => {
  it('keeps signed thinking blocks as they are', () => {
    const blocks: AnyThinkingBlock[] = [{ type: 'thinking', thinking: 'plan', signature: 'sig' }];
    expect(sendableThinkingBlocks(blocks)).toEqual(blocks);
  });

  it('keeps redacted thinking blocks', () => {
    expect(sendableThinkingBlocks([{ type: 'redacted_thinking', data: 'enc' }])).toEqual([
      { type: 'redacted_thinking', data: 'enc' },
    ]);
  });

  it('leaves out thinking blocks with no or an empty signature, keeping the order of the rest', () => {
    const blocks: AnyThinkingBlock[] = [
      { type: 'thinking', thinking: 'unsigned' },
      { type: 'redacted_thinking', data: 'enc' },
      { type: 'thinking', thinking: 'empty', signature: '' },
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
    ];
    expect(sendableThinkingBlocks(blocks)).toEqual([
      { type: 'redacted_thinking', data: 'enc' },
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
    ]);
  });

  it('returns no blocks for null or undefined', () => {
    expect(sendableThinkingBlocks(null)).toEqual([]);
    expect(sendableThinkingBlocks(undefined)).toEqual([]);
  });
});
