// Request bodies no deployment can be sent: the router must refuse each with a BadRequestError.
import type { Hostile } from './scenarios.js';

const refuse = () => {
  throw new Error('refused');
};

/** A chat request of `model` made hostile in the given way. */
export function hostileRequest(kind: Hostile, model: string, stream: boolean): Record<string, unknown> {
  const request: Record<string, unknown> = { model, messages: [{ role: 'user', content: 'hi' }], stream };
  switch (kind) {
    case 'cycle': {
      const loop: Record<string, unknown> = { kind: 'loop' };
      loop.self = loop;
      request.user_data = loop;
      return request;
    }
    case 'bigint':
      request.seed = 10n;
      return request;
    case 'deep': {
      let deep: unknown = 'bottom';
      for (let i = 0; i < 100_000; i++) deep = { d: deep };
      request.extra = deep;
      return request;
    }
    case 'toJSON':
      request.messages = [{ role: 'user', content: 'hi', toJSON: refuse }];
      return request;
    case 'getter':
      Object.defineProperty(request, 'temperature', { enumerable: true, get: refuse });
      return request;
    case 'proxy':
      return new Proxy(request, {
        get: refuse,
        has: refuse,
        ownKeys: refuse,
        getOwnPropertyDescriptor: refuse,
      });
  }
}
