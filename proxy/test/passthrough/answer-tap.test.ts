import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { usageReader } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { answerTap } from '../../src/passthrough/answer-tap.js';

/** Writes `chunks` through the tap's stage, reading what it passes on; resolves with the bytes passed. */
async function through(
  stage: ReturnType<typeof answerTap>['stage'],
  chunks: Iterable<Buffer>,
): Promise<number> {
  let passed = 0;
  stage.on('data', (chunk: Buffer) => {
    passed += chunk.length;
  });
  for (const chunk of chunks) if (!stage.write(chunk)) await new Promise((r) => stage.once('drain', r));
  stage.end();
  await new Promise((r) => stage.once('end', r));
  return passed;
}

describe('answerTap', () => {
  it('passes a stream on, and keeps none of it, after an event too large to read for usage', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const tap = answerTap(usageReader('openai'), true);
    const MB = 1024 * 1024;
    // a buffer of its own each read, as a socket gives them
    const mb = () => Buffer.alloc(MB, 0x61);
    function* answer() {
      yield Buffer.from('data: ');
      for (let i = 0; i < 17; i++) yield mb(); // one event over the parser's limit (16M characters)
      for (let i = 0; i < 48; i++) yield mb();
    }
    gc();
    const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const passed = await through(tap.stage, answer());
    // a buffer's memory goes back a turn after the collection that found it unreachable
    gc();
    await new Promise((r) => setTimeout(r, 50));
    gc();
    const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    expect(passed).toBe(6 + (17 + 48) * MB);
    expect(after - before).toBeLessThan(16 * MB); // 48 MB came after the event
    expect(await tap.usage()).toEqual({ usage: undefined, model: undefined });
  });
});
