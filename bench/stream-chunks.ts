// bench/stream-chunks.ts (npm run bench:chunks [-- [--instructions] <tree> ...]): what the library's
// stream reading costs a chunk, with no network and no socket: turning one OpenAI stream body
// (BENCH_CHUNKS content chunks, default 100, and the role, finish, usage and [DONE] frames, as bytes
// already read) into chunks, against the least any SSE client does with it (the text decoded, split at
// blank lines, each event's JSON parsed: `parse`, the floor the library bench's direct client stands
// on). `reader`: the stream reader and the OpenAI transform, drained without a promise (`nextReady`, as
// the gateway reads); `stream`: a ChatCompletionStream over it read with `for await`, as a library
// caller reads. For each tree given (a built checkout of this repository; default this one):
//
// - by default, CPU time: a process on core 0 per round (BENCH_ROUNDS, default 5, trees taking turns)
//   runs the three in turn, BENCH_COUNT bodies each (default 2,000) after a warm-up
//   (process.cpuUsage); the medians over rounds. In one process and without I/O these repeat to about
//   10%, where a whole call's CPU moves by 20% on this machine.
// - `--instructions`: the instructions each body costs, counted by valgrind (callgrind) in a process
//   running `node --predictable` on bench/lib/stream-variants.mjs alone (one thread, no concurrent
//   compilation or GC: the same count run after run, to a few in a million), as the difference between
//   1,500 and 500 bodies after a warm-up of 2,000. Slow (a minute a count, two at a time) but exact: a
//   change of a few instructions a chunk shows.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCore } from './lib/child.js';
import { streamFrames } from './lib/openai-answers.js';
import { median } from './lib/stats.js';
import { runBodies, variantsOf, WARMUP_BODIES } from './lib/stream-variants.mjs';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100);
const COUNT = Number(process.env.BENCH_COUNT ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const VARIANTS = ['parse', 'reader', 'stream'] as const;
type Variant = (typeof VARIANTS)[number];
type Result = Record<Variant, number>;
/** `--instructions`: the two counts whose difference is measured. */
const FEW = 500;
const MANY = 1500;

/** One stream body of CHUNKS content chunks, as the bench upstream sends it. */
const streamBody = (): Buffer => Buffer.concat(streamFrames(CHUNKS));

/** The timing process: each variant timed in turn, three times, after a warm-up; µs of CPU per body. */
async function timeVariants(tree: string): Promise<Result> {
  const run = await variantsOf(tree, streamBody());
  const timed = async (variant: Variant): Promise<number> => {
    const start = process.cpuUsage();
    await runBodies(run[variant], COUNT);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / COUNT;
  };
  for (const variant of VARIANTS) await runBodies(run[variant], WARMUP_BODIES);
  const times: Record<Variant, number[]> = { parse: [], reader: [], stream: [] };
  for (let turn = 0; turn < 3; turn++) {
    for (const variant of turn % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
      times[variant].push(await timed(variant));
    }
  }
  return { parse: median(times.parse), reader: median(times.reader), stream: median(times.stream) };
}

/** Runs a child process to its end; what it printed on stdout and stderr. */
async function output(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (piece) => {
    stdout += String(piece);
  });
  proc.stderr.on('data', (piece) => {
    stderr += String(piece);
  });
  const code = await new Promise<number | null>((done, fail) => {
    proc.on('error', fail); // not started (valgrind not installed)
    proc.on('close', done);
  });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr.slice(-2000)}`);
  return { stdout, stderr };
}

const script = fileURLToPath(import.meta.url);

const VARIANTS_SCRIPT = fileURLToPath(new URL('./lib/stream-variants.mjs', import.meta.url));

/** Instructions per body of one tree's variant: two counts under callgrind, their difference. */
async function instructions(tree: string, variant: Variant, bodyFile: string): Promise<number> {
  const count = async (bodies: number): Promise<number> => {
    const { stderr } = await output('valgrind', [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      '--predictable',
      VARIANTS_SCRIPT,
      tree,
      variant,
      String(bodies),
      bodyFile,
    ]);
    const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
    if (!refs) throw new Error(`no instruction count from valgrind: ${stderr.slice(-500)}`);
    return Number(refs[1]!.replaceAll(',', ''));
  };
  // both awaited, so that a failing count leaves no valgrind running behind the script
  const [few, many] = await Promise.allSettled([count(FEW), count(MANY)]);
  if (few.status === 'rejected') throw few.reason;
  if (many.status === 'rejected') throw many.reason;
  return (many.value - few.value) / (MANY - FEW);
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);

if (process.argv[2] === '--child') {
  process.stdout.write(`${JSON.stringify(await timeVariants(process.argv[3]!))}\n`);
} else {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--instructions');
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(', ')}: only --instructions`);
  const byInstructions = args.includes('--instructions');
  const trees = args.filter((a) => a !== '--instructions').map((t) => resolve(t));
  if (trees.length === 0) trees.push(resolve(fileURLToPath(new URL('..', import.meta.url))));
  const results = new Map<string, Result[]>(trees.map((t) => [t, []]));
  if (byInstructions) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-chunks-'));
    try {
      const bodyFile = join(dir, 'body.sse');
      writeFileSync(bodyFile, streamBody());
      for (const tree of trees) {
        const counts = {} as Result;
        for (const variant of VARIANTS) counts[variant] = await instructions(tree, variant, bodyFile);
        results.get(tree)!.push(counts);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    for (let round = 0; round < ROUNDS; round++) {
      for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
        const [command, argv] = onCore(0, process.execPath, ['--import', 'tsx', script, '--child', tree]);
        results.get(tree)!.push(JSON.parse((await output(command, argv)).stdout) as Result);
      }
    }
  }
  const unit = byInstructions ? 'instructions' : 'µs';
  const what = byInstructions
    ? `instructions per body (callgrind, node --predictable: ${MANY} bodies less ${FEW})`
    : `CPU µs per body, ${COUNT} bodies a turn, medians of ${ROUNDS} rounds`;
  console.log(`stream chunks: one body of ${CHUNKS} content chunks; ${what}; Node ${process.version}`);
  console.log(
    `| tree | parse ${unit}/body | reader | stream | reader added ${unit}/chunk | stream added ${unit}/chunk |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [tree, runs] of results) {
    const m = (v: Variant) => median(runs.map((r) => r[v]));
    const added = (v: Variant) => median(runs.map((r) => (r[v] - r.parse) / CHUNKS));
    const digits = byInstructions ? 0 : 1;
    console.log(
      `| ${basename(tree)} | ${fixed(m('parse'), digits)} | ${fixed(m('reader'), digits)} | ${fixed(m('stream'), digits)} | ${fixed(added('reader'), byInstructions ? 0 : 3)} | ${fixed(added('stream'), byInstructions ? 0 : 3)} |`,
    );
  }
}
