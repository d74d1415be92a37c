// The three ways bench/stream-chunks.ts reads one OpenAI stream body, on a checkout's built modules.
// Plain JavaScript, so that the process whose instructions valgrind counts runs on node alone: tsx's
// loader thread made the count move by 2% from one run to the next, where on node alone with
// `--predictable` it repeats to a few instructions in a million.
//
//   node --predictable bench/lib/stream-variants.mjs <tree> <variant> <bodies> <body file>
//
// reads the body file, reads WARMUP_BODIES bodies `variant`'s way, then `bodies` more, and exits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bodies read before any measure: until V8 has optimised the code they run. */
export const WARMUP_BODIES = 2000;

/**
 * `parse`: the least any SSE client does (the text decoded, split at blank lines, each event's JSON
 * parsed); `reader`: the stream reader and the OpenAI transform, drained without a promise
 * (`nextReady`, as the gateway reads); `stream`: a ChatCompletionStream over it read with `for await`,
 * as a library caller reads.
 *
 * @param {string} tree a built checkout of this repository
 * @param {Buffer} bytes one whole stream body, as if it came in one read
 * @returns {Promise<Record<'parse' | 'reader' | 'stream', () => unknown>>}
 */
export async function variantsOf(tree, bytes) {
  const load = (path) => import(pathToFileURL(join(tree, 'dist', path)).href);
  const { StreamReader } = await load('providers/shared/stream-reader.js');
  const { OpenAIChunkTransform } = await load('providers/openai-compatible/stream-transform.js');
  const { CallTimer } = await load('providers/shared/call-timer.js');
  const { ChatCompletionStream } = await load('router/chat-stream.js');
  const target = { provider: 'openai', model: 'gpt-4o', apiBase: 'http://bench/v1', apiKey: 'sk-bench' };
  const body = () => {
    let read = false;
    return {
      ended: false,
      error: undefined,
      read() {
        if (read) {
          this.ended = true;
          return null;
        }
        read = true;
        return bytes;
      },
      destroy() {},
      onWake() {},
      onClosedEarly() {},
    };
  };
  const reader = () =>
    new StreamReader(
      body(),
      new OpenAIChunkTransform(target, {}),
      target,
      {},
      CallTimer.forStream({ streamTimeoutMs: 600_000 }, undefined),
    );
  const hooks = { onEnd() {}, onError() {}, costOf: () => 0 };
  return {
    parse: () => {
      const text = bytes.toString('utf8');
      let start = 0;
      for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n', start)) {
        const data = text.slice(start + 6, end);
        if (data !== '[DONE]') JSON.parse(data);
        start = end + 2;
      }
    },
    reader: () => {
      const chunks = reader();
      for (let step = chunks.nextReady(); step && !step.done; step = chunks.nextReady());
    },
    stream: async () => {
      const rest = reader();
      const opened = { first: rest.nextReady(), rest, onClose() {} };
      for await (const _ of new ChatCompletionStream(opened, hooks, {})) {
        // every chunk read
      }
    },
  };
}

/**
 * Reads `count` bodies with `run`.
 *
 * @param {() => unknown} run
 * @param {number} count
 */
export async function runBodies(run, count) {
  for (let i = 0; i < count; i++) await run();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [tree, variant, bodies, file] = process.argv.slice(2);
  const run = (await variantsOf(tree, readFileSync(file)))[variant];
  if (!run) throw new Error(`no variant ${variant}: parse, reader or stream`);
  await runBodies(run, WARMUP_BODIES);
  await runBodies(run, Number(bodies));
}
