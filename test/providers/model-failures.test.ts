import { describe, expect, it } from 'vitest';
import { InternalServerError } from '../../src/index.js';
import { toFinishReason as bedrockFinish } from '../../src/providers/bedrock/finish-reason.js';
import { toFinishReason as geminiFinish } from '../../src/providers/gemini/finish-reason.js';

describe('a model that failed its turn is an error, never an empty stop', () => {
  it.each(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS'])(
    'Gemini %s',
    (reason) => {
      expect(() => geminiFinish(reason, false)).toThrow(InternalServerError);
    },
  );

  it.each(['malformed_model_output', 'malformed_tool_use'])('Bedrock %s', (reason) => {
    const failure = (() => {
      try {
        bedrockFinish(reason);
      } catch (error) {
        return error as InternalServerError;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(InternalServerError);
    expect(failure?.retryable).toBe(true);
  });
});
