// The proxy demo: `svc-router` on its embedded database (PGlite) in front of the package's mock
// provider, called with the official openai SDK. No keys, no network.
//   npm install && npm run demo:proxy
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { startMockProvider } from '@svc/router/testing';
import OpenAI from 'openai';

const MASTER_KEY = 'sk-demo-master-key';
const mock = await startMockProvider();
mock.setBehavior('/east', {
  content: 'Hello from the east deployment.',
  usage: { prompt_tokens: 12, completion_tokens: 7 },
});

const dir = await mkdtemp(join(tmpdir(), 'svc-router-demo-'));
const configPath = join(dir, 'config.yaml');
await writeFile(
  configPath,
  `model_list:
  - model_name: gpt-4o
    svc_params:
      model: openai/gpt-4o
      api_base: ${mock.url}/east/v1
      api_key: sk-demo-upstream-key
      input_cost_per_token: 0.0000025
      output_cost_per_token: 0.00001
    model_info: { id: east }
general_settings:
  master_key: ${MASTER_KEY}
  log_level: warn
`,
);

// the `svc-router` command of the @svc/router-proxy package, as `npx svc-router` would find it
const require = createRequire(import.meta.url);
const proxyManifest = require.resolve('@svc/router-proxy/package.json');
const cli = join(dirname(proxyManifest), require(proxyManifest).bin['svc-router']);
const proxy = spawn(process.execPath, [cli, '--config', configPath, '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const lines = createInterface({ input: proxy.stdout });
const url = await new Promise((resolve, reject) => {
  proxy.once('exit', (code) => reject(new Error(`svc-router exited with ${code} before listening`)));
  lines.on('line', (line) => {
    console.log(`  [svc-router] ${line}`);
    const match = /listening on (\S+)/.exec(line);
    if (match) resolve(match[1]);
  });
});

try {
  console.log(`\n1. An admin makes a virtual key with a $1 budget (POST ${url}/key/generate)`);
  const generated = await fetch(`${url}/key/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ models: ['gpt-4o'], max_budget: 1, key_alias: 'demo-app' }),
  });
  const { key, key_hash } = await generated.json();
  console.log(
    `   key ${key.slice(0, 12)}... (shown once; the database keeps only its hash ${key_hash.slice(0, 12)}...)`,
  );

  const client = new OpenAI({ apiKey: key, baseURL: `${url}/v1` });
  console.log('\n2. The app calls the proxy with the openai SDK');
  const { data, response } = await client.chat.completions
    .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
    .withResponse();
  console.log(`   answer: ${data.choices[0].message.content}`);
  console.log(
    `   x-svc-call-id ${response.headers.get('x-svc-call-id')}, proxy overhead ${response.headers.get('x-svc-overhead-ms')} ms`,
  );

  console.log('\n3. ... and streams');
  const stream = await client.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Hi' }],
    stream: true,
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  console.log(`   streamed: ${text}`);

  await new Promise((r) => setTimeout(r, 800)); // spend rows are written in batches, off the request path
  console.log('\n4. The spend log (GET /spend/logs?key=...)');
  const rows = await (
    await fetch(`${url}/spend/logs?key=${key_hash}`, { headers: { authorization: `Bearer ${MASTER_KEY}` } })
  ).json();
  for (const row of rows) {
    console.log(
      `   ${row.start_time}  ${row.model_group}/${row.model_id}  ${row.total_tokens} tokens  $${row.cost.toFixed(6)}  stream=${row.stream}`,
    );
  }
  const info = await (await fetch(`${url}/key/info`, { headers: { authorization: `Bearer ${key}` } })).json();
  console.log(`   the key has spent $${info.info.spend.toFixed(6)} of its $${info.info.max_budget}`);
} finally {
  console.log('\n5. SIGTERM: the proxy drains, flushes spend and exits');
  proxy.kill('SIGTERM');
  const [code] = await once(proxy, 'exit');
  console.log(`   exit code ${code}`);
  await mock.close();
  await rm(dir, { recursive: true, force: true });
}
