import { describe, expectTypeOf, it } from 'vitest';
import type {
  ChatCompletion,
  ChatCompletionRequest,
  ChatCompletionStream,
  ChatResult,
  Router,
  WithHiddenParams,
} from '../../src/index.js';

type Completion = WithHiddenParams<ChatCompletion>;
type Base = { model: string; messages: ChatCompletionRequest['messages'] };

describe('result types of acompletion (checked by the typecheck)', () => {
  it('is a completion for a request typed ChatCompletionRequest', () => {
    expectTypeOf<ChatResult<ChatCompletionRequest>>().toEqualTypeOf<Completion>();
  });

  it('is a completion when stream is false or absent', () => {
    expectTypeOf<ChatResult<Base>>().toEqualTypeOf<Completion>();
    expectTypeOf<ChatResult<Base & { stream: false }>>().toEqualTypeOf<Completion>();
  });

  it('is a stream when stream is true', () => {
    expectTypeOf<ChatResult<Base & { stream: true }>>().toEqualTypeOf<ChatCompletionStream>();
  });

  it('is either when stream is only known at run time', () => {
    expectTypeOf<ChatResult<Base & { stream: boolean }>>().toEqualTypeOf<Completion | ChatCompletionStream>();
  });

  it('infers the literal stream flag from an object literal', () => {
    const call = (router: Router) => router.acompletion({ model: 'm', messages: [], stream: true });
    expectTypeOf(call).returns.resolves.toEqualTypeOf<ChatCompletionStream>();
    const plain = (router: Router) => router.acompletion({ model: 'm', messages: [] });
    expectTypeOf(plain).returns.resolves.toEqualTypeOf<Completion>();
  });
});
