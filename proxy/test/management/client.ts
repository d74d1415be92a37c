import type { TestProxy } from '../harness.js';

/** One answer: status and parsed JSON body. */
export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field
  body: any;
}

/** Management calls through `inject()`, with the master key unless other headers are given. */
export function client(t: () => TestProxy) {
  const send = async (
    method: 'GET' | 'POST',
    url: string,
    payload: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer> => {
    const res = await t().proxy.app.inject({
      method,
      url,
      headers: {
        ...(headers ?? t().admin),
        ...(payload !== undefined && { 'content-type': 'application/json' }),
      },
      ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  return {
    post: (url: string, body: unknown = {}, headers?: Record<string, string>) =>
      send('POST', url, body, headers),
    get: (url: string, headers?: Record<string, string>) => send('GET', url, undefined, headers),
    /** A new virtual key (with these options) and the headers that present it. */
    newKey: async (body: Record<string, unknown> = {}) => {
      const { body: created } = await send('POST', '/key/generate', body);
      return {
        key: created.key as string,
        keyHash: created.key_hash as string,
        headers: { authorization: `Bearer ${created.key}` },
      };
    },
  };
}
