import { describe, expect, it } from 'vitest';
import { openaiAdapter } from '../../src/providers/openai/index.js';
import { HttpClient } from '../../src/providers/shared/http-client.js';
import { invokeJson } from '../../src/providers/shared/invoke.js';
import { useMock } from '../helpers.js';
import { OPTIONS, targetOn } from './openai-family-helpers.js';

const mock = useMock();

function burst(http: HttpClient, calls: number) {
  const target = targetOn(mock, openaiAdapter, 'gpt-4o', '/p/v1');
  const request = { model: 'g', messages: [{ role: 'user' as const, content: 'hi' }] };
  return Promise.all(
    Array.from({ length: calls }, () =>
      invokeJson(http, openaiAdapter, openaiAdapter.chat, request, target, OPTIONS),
    ),
  );
}

describe('HttpClient connections per origin', () => {
  it('never has more requests in flight at one origin than its connections', async () => {
    mock.setBehavior('/p', { delayMs: 30 });
    const http = new HttpClient({ connections: 2 });
    const answers = await burst(http, 8);
    await http.close();
    expect(answers).toHaveLength(8);
    expect(mock.maxInFlight).toBe(2);
  });

  it('opens up to 256 connections per origin by default', async () => {
    mock.setBehavior('/p', { delayMs: 30 });
    const http = new HttpClient();
    await burst(http, 8);
    await http.close();
    expect(mock.maxInFlight).toBe(8);
  });

  it.each([0, 1.5, -1])('refuses connections: %s, naming max_connections_per_origin', (connections) => {
    expect(() => new HttpClient({ connections })).toThrow(
      `max_connections_per_origin must be a positive integer; got ${connections}`,
    );
  });
});
