// bench/probe.ts (npm run probe [-- --db postgres] [-- --write]): the faults and attacks of issue 22
// tried against the gateway as a black box, `svc-router` in a child process in front of the mock
// provider. For each: what was tried, the calls that got the answer they should, the spend rows written
// against those expected, and secrets found (the master key, every virtual key, every upstream API key,
// in every answer, log line and database row: must be 0). Prints a Markdown table; `--write` puts it
// between the markers in docs/reliability.md.

import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { POSTGRES_URL } from '../proxy/test/db-engines.js';
import { MASTER_KEY, mockDeployment } from '../proxy/test/harness.js';
import { startMockProvider } from '../src/testing/index.js';
import { type Engine, startGateway } from './probe/gateway.js';
import { HOLE_GROUPS, holeChecks } from './probe/holes.js';
import { secretsIn, seen, virtualKeys } from './probe/http.js';
import { dumps, isolatedChecks, SKIPPED } from './probe/isolated.js';
import { OUTSIDE_GROUPS, outsideChecks } from './probe/outside.js';
import { type Check, markdownTable, type ProbeResult, replaceBetween } from './probe/result.js';
import { encodings } from './soak/secrets.js';

/** The gateway's CLI entry file, relative to the repository root (built by `npm run build`). */
const CLI_ENTRY = 'proxy/dist/cli/main.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOC = fileURLToPath(new URL('../docs/reliability.md', import.meta.url));

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    write: { type: 'boolean', default: false },
    /** Only the checks whose id starts with one of these (comma-separated), for a quick look. */
    only: { type: 'string' },
  },
});
if (values.db !== 'pglite' && values.db !== 'postgres') throw new Error('--db: pglite or postgres');
const engine: Engine = values.db;
const BEGIN = `<!-- probe:${engine}:begin -->`;
const END = `<!-- probe:${engine}:end -->`;

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An OTLP collector that takes every export and keeps nothing. */
async function otlpSink() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A result, and which of the answers `seen` were this check's. */
type Ran = ProbeResult & { answers: [from: number, to: number] };

const chosen = (check: Check) =>
  !values.only || values.only.split(',').some((prefix) => check.id.startsWith(prefix));

async function runCheck(check: Check): Promise<Ran> {
  const from = seen.length;
  const started = performance.now();
  let result: Omit<Ran, 'answers'>;
  try {
    const { holds = true, ...outcome } = await check.run();
    const pass = holds && outcome.served === outcome.total && outcome.rows === outcome.rowsExpected;
    result = { id: check.id, tried: check.tried, secrets: 0, pass, ...outcome };
  } catch (error) {
    process.stderr.write(`probe: ${check.id}: ${(error as Error).stack}\n`);
    const note = `the probe itself failed: ${(error as Error).message.slice(0, 200)}`;
    result = {
      id: check.id,
      tried: check.tried,
      served: 0,
      total: 1,
      rows: null,
      rowsExpected: null,
      secrets: 0,
      pass: false,
      note,
    };
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(
    `probe: ${check.id}: ${result.pass ? 'pass' : 'FAIL'} (${seconds} s) ${result.note}\n`,
  );
  return { ...result, answers: [from, seen.length] };
}

const started = performance.now();
const mock = await startMockProvider({ record: false });
const sink = await otlpSink();
const port = await closedPort();
const cliEntry = `${ROOT}${CLI_ENTRY}`;
const upstreamKeys = [...HOLE_GROUPS, ...OUTSIDE_GROUPS, 'broken', 'cut', 'prefill', 'slow'].map(
  (id) => `sk-upstream-${id}-0000`,
);

const priced = { input_cost_per_token: 0.001, output_cost_per_token: 0.002 };
const gateway = await startGateway({
  cliEntry,
  engine,
  postgresUrl: POSTGRES_URL,
  config: {
    model_list: [
      mockDeployment(mock, 'm', 'm'),
      mockDeployment(mock, 'premium', 'premium', {
        input_cost_per_token: 0.00002,
        output_cost_per_token: 0.00002,
      }),
      mockDeployment(mock, 'leave', 'leave'),
      mockDeployment(mock, 'cutplain', 'cut-plain'),
      mockDeployment(mock, 'broken', 'broken', { api_base: `http://127.0.0.1:${port}/v1` }),
      mockDeployment(mock, 'ra', 'ra'),
      mockDeployment(mock, 'ra-backup', 'ra-backup'),
      mockDeployment(mock, 'to', 'to', { timeout: 0.3 }),
      mockDeployment(mock, 'cut', 'resume'),
      {
        ...mockDeployment(mock, 'prefill', 'resume-b'),
        model_info: { id: 'prefill', supports_assistant_prefill: true },
      },
      mockDeployment(mock, 'slot', 'slot', { max_parallel_requests: 1, stream_timeout: 0.5 }),
      mockDeployment(mock, 'price', 'price', priced),
    ],
    router_settings: {
      fallbacks: [{ ra: ['ra-backup'] }, { resume: ['resume-b'] }],
      stream_resume: true,
    },
  },
  general: { otel_exporter_otlp_endpoint: sink.url },
});

const results: Ran[] = [];
try {
  for (const check of [
    ...holeChecks({ url: gateway.url, mock, closedPort: port }),
    ...outsideChecks(gateway.url, mock),
  ].filter(chosen))
    results.push(await runCheck(check));
  await gateway.sigterm();
  dumps.push(gateway.output(), ...(await gateway.rows()));
} finally {
  await gateway.close();
}
for (const check of isolatedChecks({
  cliEntry,
  engine,
  postgresUrl: POSTGRES_URL,
  mock,
  closedPort: port,
}).filter(chosen))
  results.push(await runCheck(check));
await mock.close();
sink.server.close();

// the secrets, every form of each, and where they were looked for
const secrets = [MASTER_KEY, ...virtualKeys, ...upstreamKeys].flatMap(encodings);
for (const r of results) {
  r.secrets = secretsIn(seen.slice(...r.answers), secrets);
  if (r.secrets > 0) r.pass = false;
}
const rowCount = dumps.filter((d) => /^svc_[a-z_]+ \{/.test(d)).length;
const inDumps = secretsIn(dumps, secrets);
const rows: ProbeResult[] = [
  ...results.map(({ answers: _, ...r }) => r),
  ...SKIPPED.map((s) => ({
    ...s,
    served: 0,
    total: 0,
    rows: null,
    rowsExpected: null,
    secrets: 0,
    pass: true,
    skipped: true,
    note: s.why,
  })),
  {
    id: 'secrets',
    tried: `${secrets.length} forms (raw, URL-encoded, base64) of the master key, ${virtualKeys.length} virtual keys and ${upstreamKeys.length} upstream API keys, searched in every answer (status, headers, body), every log line and every database row`,
    served: seen.length,
    total: seen.length,
    rows: null,
    rowsExpected: null,
    secrets: secretsIn(seen, secrets) + inDumps,
    pass: secretsIn(seen, secrets) + inDumps === 0,
    note: `${seen.length} answers, ${rowCount} database rows and the gateways’ log lines searched`,
  },
];

const failed = rows.filter((r) => !r.pass).length;
const tried = rows.filter((r) => !r.skipped).length;
const header = `\`npm run probe -- --db ${engine}\`, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${availableParallelism()} cores, ${((performance.now() - started) / 1000).toFixed(0)} s: ${tried - failed} of ${tried} hold, ${rows.length - tried} skipped.`;
const table = `${header}\n\n${markdownTable(rows)}`;
console.log(table);
if (values.write && !values.only) {
  await writeFile(DOC, replaceBetween(await readFile(DOC, 'utf8'), BEGIN, END, table));
  process.stderr.write(`probe: table written to docs/reliability.md\n`);
}
if (failed > 0) process.exitCode = 1;
